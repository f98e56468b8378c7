"""The layer-tree editor: a Qt model over the architecture's layer groups and its view."""

from gui.layer_tree.model import LayerTreeModel
from gui.layer_tree.view import LayerTree

__all__ = ["LayerTree", "LayerTreeModel"]
