"""The layer-tree editor: a Qt model over the architecture's layer groups and its view."""

from paramtally.gui.layer_tree.model import LayerTreeModel
from paramtally.gui.layer_tree.view import LayerTree

__all__ = ["LayerTree", "LayerTreeModel"]
