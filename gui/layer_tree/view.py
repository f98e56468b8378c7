"""The layer-tree editor: a QTreeView with context menus, keyboard shortcuts and drag-and-drop.

Every action is one pure ``core.layer_ops`` edit → one undo step. Every action has a key, shown
next to it in the context menu; the Menu key and Shift+F10 open that menu at the current row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTreeView, QWidget

from paramtally.core import layer_ops
from paramtally.core.schema import Adapter, LayerGroup, LoRA, MoE
from paramtally.gui.dialogs import ask_int
from paramtally.gui.document import Document
from paramtally.gui.layer_tree.dialogs import ask_spec
from paramtally.gui.layer_tree.model import BLOCK_FIELDS, LayerTreeModel, block_part, group_label

__all__ = ["LayerTree"]

BLOCK_TYPES: dict[str, type[Any]] = {"moe": MoE, "lora": LoRA, "adapter": Adapter}
BLOCK_NAMES = {"moe": "MoE", "lora": "LoRA", "adapter": "adapter"}


class LayerTree(QTreeView):
    """The stack of layer groups; right-click or the keyboard to split, convert, insert, delete."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("layerTree")
        self.document = document
        self.tree_model = LayerTreeModel(document)
        self.setModel(self.tree_model)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.setDragDropOverwriteMode(False)
        self.setDropIndicatorShown(True)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # Fixed widths from the font: ResizeToContents would re-measure every row on every edit.
        metrics = self.fontMetrics()
        for column, sample in ((1, "Parameters "), (2, "100.0 % ")):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
            header.resizeSection(column, metrics.horizontalAdvance(sample) + 16)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._context_menu)
        self._shortcuts()
        self.tree_model.modelReset.connect(self.expandAll)
        self.expandAll()

    # --- what the current row is ---------------------------------------------------------------

    def current_group(self) -> int | None:
        index = self.currentIndex()
        return self.tree_model.group_row(index) if index.isValid() else None

    def _group(self, row: int) -> LayerGroup:
        return self.tree_model.layers()[row]

    def _select(self, row: int) -> None:
        rows = self.tree_model.rowCount()
        if rows:
            self.setCurrentIndex(self.tree_model.index(max(0, min(row, rows - 1)), 0))

    # --- questions to the person -----------------------------------------------------------------

    def ask_int(self, title: str, label: str, value: int, low: int, high: int) -> int | None:
        return ask_int(self, title, label, value, low, high)

    def ask_block(self, block: str, initial: dict[str, Any], title: str) -> Any:
        row = self.current_group() or 0
        arch = self.document.architecture

        def check(value: Any) -> None:  # the dialog stays open until the block fits the model
            stack = self.tree_model.stack
            layer_ops.with_layers(arch, self._set(block, self.tree_model.layers(), row, value), stack)

        return ask_spec(BLOCK_TYPES[block], initial, title, self, check)

    # --- edits (each one undo step) ------------------------------------------------------------

    def split_group(self, row: int, at_layer: int | None = None) -> bool:
        """Split group ``row`` so that the second part starts at layer ``at_layer``."""
        start = layer_ops.group_starts(self.tree_model.layers())[row]
        count = self._group(row).count
        if count < 2 or self._group(row).pattern:
            return False
        if at_layer is None:
            at_layer = self.ask_int(
                "Split layer group",
                "Second part starts at layer:",
                start + count // 2,
                start + 1,
                start + count - 1,
            )
            if at_layer is None:
                return False
        text = f"Split {group_label(self.tree_model.row(row))} at layer {at_layer}"
        path = (self.tree_model.stack, "layers", row, "count")
        done = self.tree_model.edit(lambda ls: layer_ops.split_group(ls, row, at_layer - start), text, path)
        self._select(row)
        return done

    def change_count(self, row: int) -> None:
        self.edit(self.tree_model.index(row, 0))

    def set_block(self, row: int, block: str, value: Any = None) -> bool:
        """Add or edit a group's MoE / LoRA / adapter; asks with a dialog when ``value`` is None."""
        if value is None:
            current = block_part(self.tree_model.row(row).block, block)
            initial = current.model_dump() if current is not None else self._defaults(row, block)
            verb = "Edit" if current is not None else ("Convert to" if block == "moe" else "Add")
            value = self.ask_block(block, initial, f"{verb} {BLOCK_NAMES[block]}")
            if value is None:
                return False
        text = f"{BLOCK_NAMES[block]} on {group_label(self.tree_model.row(row))}"
        path = (self.tree_model.stack, "layers", row, "override", BLOCK_FIELDS[block])
        done = self.tree_model.edit(lambda ls: self._set(block, ls, row, value), text, path)
        self._select(row)
        return done

    def _set(self, block: str, layers: layer_ops.Layers, row: int, value: Any) -> layer_ops.Layers:
        """The stack with group ``row``'s MoE, LoRA or adapter set (None: removed)."""
        if block == "moe":
            return layer_ops.set_moe(layers, row, value)
        arch = self.document.architecture
        base = arch.blocks[getattr(arch, self.tree_model.stack).block]  # what the group inherits
        setter = layer_ops.set_lora if block == "lora" else layer_ops.set_adapter
        return setter(layers, row, value, getattr(base, BLOCK_FIELDS[block]))

    def remove_block(self, row: int, block: str) -> bool:
        label = "Convert to dense FFN" if block == "moe" else f"Remove {BLOCK_NAMES[block]}"
        path = (self.tree_model.stack, "layers", row, "override", BLOCK_FIELDS[block])
        done = self.tree_model.edit(lambda ls: self._set(block, ls, row, None), label, path)
        self._select(row)
        return done

    def move_group(self, row: int, step: int) -> bool:
        target = row + step
        if not 0 <= target < len(self.tree_model.layers()):
            return False
        done = self.tree_model.edit(lambda ls: layer_ops.move_group(ls, row, target), "Move layer group")
        self._select(target)
        return done

    def merge_next(self, row: int) -> bool:
        done = self.tree_model.edit(lambda ls: layer_ops.merge_with_next(ls, row), "Merge layer groups")
        self._select(row)
        return done

    def delete_current(self) -> bool:
        """Delete the selected group, or remove the selected block from its group (Delete key)."""
        index = self.currentIndex()
        if not index.isValid():
            return False
        row, block = self.tree_model.group_row(index), self.tree_model.block_of(index)
        if block is not None:
            return self.remove_block(row, block)
        done = self.tree_model.edit(lambda ls: layer_ops.delete_group(ls, row), "Delete layer group")
        self._select(row)
        return done

    def _defaults(self, row: int, block: str) -> dict[str, Any]:
        arch = self.document.architecture
        if block == "moe":  # experts as wide as the group's dense FFN, if it has one
            ffn = getattr(self.tree_model.row(row).block, "ffn", None)
            return {"num_experts": 8, "top_k": 2, "expert_width": getattr(ffn, "width", 4 * arch.hidden_size)}
        if block == "lora":
            return {"rank": 16}
        return {"width": max(8, arch.hidden_size // 16)}

    # --- menus and keys ------------------------------------------------------------------------
    # One set of actions serves the keyboard and the context menu, so every entry of the menu
    # shows the shortcut that does the same thing without it.

    def _action(self, name: str, keys: str | QKeySequence.StandardKey, slot: Callable[[], object]) -> QAction:
        action = QAction(self)
        action.setObjectName(name)
        action.setShortcut(QKeySequence(keys))
        action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        action.triggered.connect(lambda: self._on_current(slot))
        self.addAction(action)
        return action

    def _on_current(self, slot: Callable[[], object]) -> None:
        if self.current_group() is not None:
            slot()

    def _shortcuts(self) -> None:
        row = lambda: self.current_group() or 0  # noqa: E731
        self.split_action = self._action("split", "Ctrl+T", lambda: self.split_group(row()))
        self.count_action = self._action("count", "F2", lambda: self.change_count(row()))
        self.block_actions: dict[str, tuple[QAction, QAction]] = {}
        for block, key in (("moe", "M"), ("lora", "L"), ("adapter", "D")):
            add = self._action(block, f"Ctrl+{key}", lambda b=block: self.set_block(row(), b))
            remove = self._action(
                f"remove_{block}", f"Ctrl+Shift+{key}", lambda b=block: self.remove_block(row(), b)
            )
            self.block_actions[block] = (add, remove)
        self.moe_action, self.lora_action, self.adapter_action = (
            self.block_actions[b][0] for b in ("moe", "lora", "adapter")
        )
        self.up_action = self._action("up", "Ctrl+Up", lambda: self.move_group(row(), -1))
        self.down_action = self._action("down", "Ctrl+Down", lambda: self.move_group(row(), 1))
        self.merge_action = self._action("merge", "Ctrl+J", lambda: self.merge_next(row()))
        self.delete_action = self._action("delete", QKeySequence.StandardKey.Delete, self.delete_current)
        # The keyboard's way to the context menu: the Menu key and Shift+F10, at the current row.
        menu_key = QAction(self)
        menu_key.setShortcuts([QKeySequence(Qt.Key.Key_Menu), QKeySequence("Shift+F10")])
        menu_key.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        menu_key.triggered.connect(self.open_menu_at_current)
        self.addAction(menu_key)
        self.menu_key_action = menu_key
        self.selectionModel().currentChanged.connect(lambda *_: self.update_actions())
        self.document.changed.connect(self.update_actions)
        self.update_actions()

    def update_actions(self) -> None:
        """Texts and enabled states of the actions for the current row (group or block)."""
        index = self.currentIndex()
        layers = self.tree_model.layers()
        row = self.tree_model.group_row(index) if index.isValid() else None
        block = self.tree_model.block_of(index) if index.isValid() else None
        group = layers[row] if row is not None and row < len(layers) else None
        on_group = group is not None and block is None
        self.split_action.setText("Split at layer…")
        self.split_action.setEnabled(on_group and group is not None and group.count > 1 and not group.pattern)
        self.count_action.setText("Change layer count")
        self.count_action.setEnabled(on_group)
        resolved = self.tree_model.row(row).block if group is not None and row is not None else None
        for name, (add, remove) in self.block_actions.items():
            present = block_part(resolved, name) is not None
            add.setText(f"Edit {BLOCK_NAMES[name]}…" if present else _ADD_TEXT[name])
            add.setEnabled(group is not None and (block is None or block == name))
            remove.setText(_REMOVE_TEXT[name])
            remove.setEnabled(present and (block is None or block == name))
        self.up_action.setText("Move up")
        self.up_action.setEnabled(on_group and row is not None and row > 0)
        self.down_action.setText("Move down")
        self.down_action.setEnabled(on_group and row is not None and row < len(layers) - 1)
        mergeable = (
            on_group
            and row is not None
            and group is not None
            and row + 1 < len(layers)
            and layers[row + 1].model_copy(update={"count": group.count}) == group
        )
        self.merge_action.setText("Merge with next")
        self.merge_action.setEnabled(mergeable)
        if block is not None:
            self.delete_action.setText(_REMOVE_TEXT[block])
            self.delete_action.setEnabled(True)
        else:
            # Enabled even for the last group: Delete then says why it stays.
            self.delete_action.setText("Delete group")
            self.delete_action.setEnabled(group is not None)

    def _context_menu(self, point: QPoint) -> None:
        index = self.indexAt(point)
        if not index.isValid():
            return
        self.setCurrentIndex(index.siblingAtColumn(0))
        self.build_menu(index).exec(self.viewport().mapToGlobal(point))

    def open_menu_at_current(self) -> None:
        """The context menu of the current row, under it (Menu key, Shift+F10)."""
        index = self.currentIndex()
        if not index.isValid():
            if not self.tree_model.rowCount():
                return
            index = self.tree_model.index(0, 0)
            self.setCurrentIndex(index)
        rect = self.visualRect(index.siblingAtColumn(0))
        self.scrollTo(index)
        self.build_menu(index).exec(self.viewport().mapToGlobal(rect.bottomLeft()))

    def build_menu(self, index: QModelIndex) -> QMenu:
        """The context menu of a row: the actions that apply to its group (or block), with their keys."""
        if index.siblingAtColumn(0) != self.currentIndex().siblingAtColumn(0):
            self.setCurrentIndex(index.siblingAtColumn(0))
        self.update_actions()
        block = self.tree_model.block_of(index)
        menu = QMenu(self)
        if block is not None:
            menu.addActions([self.block_actions[block][0], self.delete_action])
            return menu
        menu.addActions([self.split_action, self.count_action])
        menu.addSeparator()
        for add, remove in self.block_actions.values():
            menu.addAction(add)
            if remove.isEnabled():
                menu.addAction(remove)
        menu.addSeparator()
        menu.addActions([self.up_action, self.down_action, self.merge_action, self.delete_action])
        return menu


_ADD_TEXT = {"moe": "Convert FFN to MoE…", "lora": "Add LoRA…", "adapter": "Add adapter…"}
_REMOVE_TEXT = {"moe": "Convert MoE to dense FFN", "lora": "Remove LoRA", "adapter": "Remove adapter"}
