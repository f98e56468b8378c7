"""The layer-tree editor: a QTreeView with context menus, keyboard shortcuts and drag-and-drop.

Every action is one pure ``core.editing.layer_ops`` edit → one undo step. Edits of a block (mixer kind,
window, heads, FFN width, MoE, LoRA, adapter, paste) apply to every selected group, and inside a
pattern to each of its groups. Every action has a key, shown next to it in the context menu; the
Menu key and Shift+F10 open that menu at the current row. Selecting a group shows its block in
the form (``group_selected``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QItemSelection, QModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QMouseEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTreeView, QWidget

from paramtally.core.blocks import MIXERS, TREE_EDITS, TreeEdit
from paramtally.core.editing import layer_ops
from paramtally.core.errors import FieldPath
from paramtally.core.schema import MTP, Architecture, Block, LayerGroup
from paramtally.core.schema.field_specs import kind_title
from paramtally.core.schema.group_addresses import (
    edit_targets,
    group_at,
    group_block,
    inherited_block,
    value_targets,
)
from paramtally.core.schema.stack import MAX_LAYERS
from paramtally.gui.dialogs import warn
from paramtally.gui.document import Document
from paramtally.gui.i18n import core_text, said_text, schema_text, translate
from paramtally.gui.layer_tree.dialogs import ask_number, ask_spec
from paramtally.gui.layer_tree.model import LayerTreeModel
from paramtally.gui.views.format import share_text  # the model's share text, measured

__all__ = ["LayerTree"]

# The mixer kinds by tag, each with the title the kind switch shows.
MIXER_TITLES = {tag: kind_title(kind) for tag, kind in MIXERS.items()}
Group = FieldPath | int  # a group's address; an int is a top-level group of the main stack


def _edit(name: str) -> TreeEdit:
    return TREE_EDITS[name][0]


def block_part(block: Block | None, name: str) -> Any:
    """The part the tree edit ``name`` puts on a block (a MoE when the FFN is one, LoRA, an
    adapter); None when it has none."""
    if block is None:
        return None
    edit = _edit(name)
    part = getattr(block, edit.field)
    return part if edit.kind is None or getattr(part, "kind", None) == edit.kind else None


def _edit_of_part(part: str) -> str | None:
    """The tree edit that puts the block field ``part`` on a group and takes it away, if any."""
    return next((name for name, (edit, _) in TREE_EDITS.items() if edit.field == part), None)


# A key for each mixer kind: Ctrl+Alt+1 … 9, 0, then with Shift ("Ctrl+Alt+10" is no key; the
# tenth kind had none).
_MIXER_KEYS = tuple(f"Ctrl+Alt+{mods}{digit}" for mods in ("", "Shift+") for digit in "1234567890")


class LayerTree(QTreeView):
    """Stacks, layer groups and blocks; right-click or the keyboard to split, convert, insert, delete."""

    group_selected = Signal(object)  # the current group's address (None: a stack or nothing)
    groups_selected = Signal(object)  # the selected groups' addresses (a tuple), when they change

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("layerTree")
        self.setAccessibleName(
            translate("LayerTree", "Layer tree")
        )  # as a screen reader and Help → Keyboard Shortcuts say it
        self.document = document
        self.tree_model = LayerTreeModel(document, self)
        self.setModel(self.tree_model)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        # A group's count is changed in a dialog (F2, a double click: change_count), not in its cell.
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
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
        self._fit_share_column()
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._context_menu)
        self.copied: tuple[Block, str | None] | None = None  # a block (or one part of it) to paste
        self._shown = document.architecture  # the architecture the selection was made on
        document.changed.connect(self._follow_moves)  # after the model's rows (it connected first)
        self._shortcuts()
        self.tree_model.modelReset.connect(self._expand)
        # Qt's selection model forgets the rows on a reset without a word: say so (no group then).
        self.tree_model.modelReset.connect(self._selection_changed)
        self.tree_model.figures_changed.connect(self.viewport().update)
        self.tree_model.figures_changed.connect(self._fit_share_column)
        self.tree_model.modelReset.connect(self._fit_share_column)
        self._expand()

    def _expand(self) -> None:
        """Stacks and patterns open; a group's parts too while the stacks hold a few groups only."""
        model = self.tree_model
        rows = model.rows()
        few = sum(row.kind == "group" for row in rows) <= 4
        holds_groups = {rows[row.parent].key for row in rows if row.kind == "group" and row.parent >= 0}
        for row in rows:
            if row.kind != "part" and (few or row.key in holds_groups):
                self.setExpanded(model.find(row.group), True)

    def _fit_share_column(self) -> None:
        """The Share column as wide as its longest text, never below '100.0 %': a share has two
        significant digits, so the smallest part's is the longest ('0.0000064 %', DeepSeek-V3's
        first layers' norms, was cut to '0.00000…'). One text measured per edit, not every row."""
        total = self.document.report.total
        smallest = min((row.params for row in self.tree_model.rows() if row.params > 0), default=0)
        metrics = self.fontMetrics()
        widest = max(
            metrics.horizontalAdvance("100.0 % "),
            metrics.horizontalAdvance(share_text(smallest, total) + " "),
        )
        if self.header().sectionSize(2) != widest + 16:
            self.header().resizeSection(2, widest + 16)

    # --- what the current row is ---------------------------------------------------------------

    def group_path(self, group: Group) -> FieldPath:
        return (self.tree_model.stack, "layers", group) if isinstance(group, int) else group

    def current_group(self) -> FieldPath | None:
        """The group of the current row (its own, or the one a part row belongs to); None on a stack."""
        row = self.tree_model.row_of(self.currentIndex())
        if row is None or (row.kind == "stack" and row.group != ("mtp",)):
            return None
        return row.group

    def selected_groups(self) -> list[FieldPath]:
        """The groups of the selected rows (the current one when none is selected), in order."""
        found: list[FieldPath] = []
        for index in [*self.selectionModel().selectedRows(), self.currentIndex()]:
            row = self.tree_model.row_of(index)
            if row is not None and row.kind != "stack" and row.group not in found:
                found.append(row.group)
        return found

    def targets(self) -> list[FieldPath]:
        """The groups of one block that an edit of the selection changes (a pattern's, inside it)."""
        return list(edit_targets(self.document.architecture, self.selected_groups()))

    def select_group(self, group: Group, part: str | None = None) -> None:
        """That row alone, selected and current (setCurrentIndex would add it to the selection while
        the Ctrl of Ctrl+Down is held: two rows selected, and F2 on one the person could not tell)."""
        index = self.tree_model.find(self.group_path(group), part)
        if index.isValid():
            self._select_rows([index], index)

    def _select_rows(self, rows: list[QModelIndex], current: QModelIndex) -> None:
        selection = self.selectionModel()
        flags = selection.SelectionFlag
        selection.setCurrentIndex(current, flags.ClearAndSelect | flags.Rows)
        for index in rows:
            if index != current:
                selection.select(index, flags.Select | flags.Rows)

    def _follow_moves(self) -> None:
        """A group moved by an edit, its undo or its redo: the selection moves with it (the rows stay
        where they were, their keys being the groups' places, so the selection stayed on the place)."""
        before, after = self._shown, self.document.architecture
        self._shown = after
        current = self.tree_model.row_of(self.currentIndex())
        if before is after or current is None or current.kind == "stack":
            return
        selected = [self.tree_model.row_of(index) for index in self.selectionModel().selectedRows()]
        rows = [
            current,
            *(row for row in selected if row is not None and row != current and row.kind != "stack"),
        ]
        moved = layer_ops.moved_groups(before, after, [row.group for row in rows])
        if moved == [row.group for row in rows]:
            return
        found = [self.tree_model.find(group, row.part) for group, row in zip(moved, rows, strict=True)]
        if all(index.isValid() for index in found):
            self._select_rows(found, found[0])

    def currentChanged(self, current: QModelIndex, previous: QModelIndex) -> None:
        super().currentChanged(current, previous)
        self.group_selected.emit(self.current_group())

    def selectionChanged(self, selected: QItemSelection, deselected: QItemSelection) -> None:
        super().selectionChanged(selected, deselected)
        self._selection_changed()

    def _selection_changed(self) -> None:
        self.groups_selected.emit(tuple(self.selected_groups()))

    # --- questions to the person -----------------------------------------------------------------

    def ask_int(self, title: str, label: str, value: int, low: int, high: int) -> int | None:
        return ask_number(self, title, label, value, low, high)

    # --- edits (each one undo step) ------------------------------------------------------------

    def _edit_blocks(
        self,
        groups: list[FieldPath],
        change: Callable[[Architecture, FieldPath], Architecture],
        text: str,
        title: str | None = None,
    ) -> bool:
        """``change`` applied to each group, as one undo step named ``text``; a refusal is said at the
        first group, in a dialog titled ``title`` (the edit's name; ``text`` when None)."""
        if not groups:
            return False

        def apply(arch: Architecture) -> Architecture:
            for group in groups:
                arch = change(arch, group)
            return arch

        with self._saying_refusal(title or text):
            return self.document.edit_architecture(apply, text, (*groups[0], "override"))

    def _edit_siblings(self, group: FieldPath, change: Any, text: str, path: FieldPath | None = None) -> bool:
        with self._saying_refusal(text):
            return self.tree_model.edit_siblings(group, change, text, path)

    @contextmanager
    def _saying_refusal(self, title: str) -> Iterator[None]:
        """An edit from the tree that the model refuses is said in a dialog titled as the edit: the
        reason names a layer group, which no field shows red (the status bar's line went unseen,
        and a dialog closed as if its value had been taken)."""
        said: list[str] = []

        def note(path: FieldPath, reason: str) -> None:
            said.append(reason)

        self.document.invalid.connect(note)
        try:
            yield
        finally:
            self.document.invalid.disconnect(note)
        if said:
            warn(self, title, said[0])

    def set_value(
        self, block_path: FieldPath, value: Any, title: str, groups: list[FieldPath] | None = None
    ) -> bool:
        """Set one field of the selected groups' blocks (every group of a pattern inside them), one
        undo step named ``title`` and the groups it reaches."""
        groups = groups if groups is not None else self.targets()
        return self._edit_blocks(
            groups,
            lambda arch, g: layer_ops.with_group_value(arch, g, block_path, value),
            translate("LayerTree", "{title} on {groups}").format(title=title, groups=_groups_text(groups)),
            title,
        )

    def set_mixer_kind(self, kind: str, groups: list[FieldPath] | None = None) -> bool:
        """Every target's mixer (on a pattern's row: each group inside it) becomes ``kind``."""
        title = translate("LayerTree", "Mixer: {kind}").format(kind=schema_text(MIXER_TITLES[kind]))
        return self.set_value(("mixer", "kind"), kind, title, groups)

    def ask_value(self, block_path: FieldPath, title: str, label: str, low: int, high: int) -> bool:
        """Ask for a number (the first target's value to start from) and set it on every target whose
        block takes it (``takes``)."""
        groups = self.value_targets(block_path)
        if not groups:
            return False
        block = group_block(self.document.architecture, groups[0])
        node: Any = block
        for step in block_path:
            node = getattr(node, str(step), None)
        value: int | None = int(node or 0)
        while True:  # a value the model refuses is said, then asked for again from what was typed
            value = self.ask_int(title, label, value, low, high)
            if value is None:
                return False
            if self.set_value(block_path, (value or None) if low == 0 else value, title, groups):
                return True

    def value_targets(self, block_path: FieldPath) -> list[FieldPath]:
        """The targets whose block takes a value at ``block_path``."""
        return list(value_targets(self.document.architecture, self.selected_groups(), block_path))

    def split_group(self, group: Group, at_layer: int | None = None) -> bool:
        """Split a plain group so that the second part starts at its layer ``at_layer`` (within the
        stack for a top-level group, within one repetition inside a pattern)."""
        path = self.group_path(group)
        node = group_at(self.document.architecture, path)
        if not isinstance(node, LayerGroup) or node.count < 2 or node.pattern:
            return False
        start = layer_ops.group_starts(layer_ops.siblings(self.document.architecture, path))[int(path[-1])]
        if at_layer is None:
            at_layer = self.ask_int(
                translate("LayerTree", "Split layer group"),
                translate("LayerTree", "Second part starts at layer:"),
                start + node.count // 2,
                start + 1,
                start + node.count - 1,
            )
            if at_layer is None:
                return False
        index, first = int(path[-1]), at_layer - start
        done = self._edit_siblings(
            path,
            lambda ls: layer_ops.split_group(ls, index, first),
            translate("LayerTree", "Split at layer {layer}").format(layer=at_layer),
            (*path, "count"),
        )
        self.select_group(path)
        return done

    def change_count(self, group: Group) -> bool:
        """F2 or a double click on a group: its layers (a pattern's repetitions), asked in a dialog
        that names the group and says the range under the field until a number in it is typed (in
        the tree's own cell, 0 was taken and refused in the status bar only)."""
        path = self.group_path(group)
        node = group_at(self.document.architecture, path)
        index = self.tree_model.find(path)
        if not isinstance(node, LayerGroup) or not index.isValid():
            return False
        count = self.ask_int(
            translate("LayerTree", "Change repetitions" if node.pattern else "Change layer count"),
            translate("LayerTree", "Group: {group}").format(group=self.tree_model.data(index))
            + "\n"
            + translate("LayerTree", "Repetitions of its pattern:" if node.pattern else "Layers:"),
            node.count,
            1,
            MAX_LAYERS // node.period,  # the schema's bound on a group's layers
        )
        if count is None or count == node.count:
            return False
        return self.tree_model.setData(index, count)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        index = self.indexAt(event.position().toPoint())
        row = self.tree_model.row_of(index)
        if row is not None and row.kind == "group" and index.column() == 0:
            self.setCurrentIndex(index)
            self.change_count(row.group)
            return
        super().mouseDoubleClickEvent(event)

    def set_block(self, group: Group, block: str, value: Any = None) -> bool:
        """Add or edit the MoE / LoRA / adapter of a group (and the other selected ones); asks with
        a dialog when ``value`` is None."""
        path = self.group_path(group)
        arch = self.document.architecture
        edit = _edit(block)
        groups = [path] if value is not None else self._with_selection(path)
        if value is None:
            current = block_part(group_block(arch, path), block)
            initial = current.model_dump() if current is not None else self._defaults(path, edit)
            verb = (
                "Edit {block}"
                if current is not None
                else ("Convert to {block}" if edit.kind else "Add {block}")
            )
            title = translate("LayerTree", verb).format(block=schema_text(edit.title))
            value = self.ask_block(block, initial, title, groups)
            if value is None:
                return False
        groups = layer_ops.part_targets(arch, groups, edit.field, value)
        done = self._edit_blocks(
            groups, lambda a, g: layer_ops.with_group_value(a, g, (edit.field,), value),
            translate("LayerTree", "{title} on {groups}").format(
                title=schema_text(edit.title), groups=_groups_text(groups)
            ),
        )  # fmt: skip
        self.select_group(path)
        return done

    def _with_selection(self, path: FieldPath) -> list[FieldPath]:
        """``path`` and the other selected groups' groups of one block."""
        return list(edit_targets(self.document.architecture, [path, *self.selected_groups()]))

    def ask_block(self, block: str, initial: dict[str, Any], title: str, groups: list[FieldPath]) -> Any:
        arch = self.document.architecture

        edit, model = TREE_EDITS[block]

        def check(value: Any) -> None:  # the dialog stays open until the block fits the model
            for group in groups:
                layer_ops.with_group_value(arch, group, (edit.field,), value)

        return ask_spec(model, initial, title, self, check)

    def remove_block(self, group: Group, block: str) -> bool:
        """Take the group's MoE (back to what it inherits, or a dense FFN), LoRA or adapter away."""
        path = self.group_path(group)
        edit = _edit(block)
        label = said_text(edit.undo_remove) or translate("LayerTree", "Remove {block}").format(
            block=schema_text(edit.title)
        )
        field = edit.field

        def remove(arch: Architecture, g: FieldPath) -> Architecture:
            inherited = getattr(inherited_block(arch, g), field)
            if edit.kind is not None:  # a part of a kind: back to what the group inherits
                back = inherited if getattr(inherited, "kind", None) != edit.kind else None
                if back is None:  # the base block itself has it: the fallback kind, made from it
                    return layer_ops.with_group_value(arch, g, (field, "kind"), edit.fallback)
                return layer_ops.with_group_value(arch, g, (field,), back)
            return layer_ops.with_group_value(arch, g, (field,), None)

        done = self._edit_blocks([path], remove, label)
        self.select_group(path)
        return done

    def copy_block(self) -> bool:
        """Copy the current group's block, or the part the current row shows (Ctrl+C)."""
        group = self.current_group()
        if group is None:
            return False
        part = self.tree_model.part_of(self.currentIndex())
        self.copied = (group_block(self.document.architecture, group), part)
        self.update_actions()
        return True

    def paste_block(self) -> bool:
        """Give the selected groups the copied block, or only its copied part (Ctrl+V)."""
        if self.copied is None:
            return False
        block, part = self.copied
        groups = self.targets()
        what = translate("LayerTree", "block") if part is None else core_text(part.replace("_", " "))
        text = translate("LayerTree", "Paste {what} onto {groups}").format(
            what=what, groups=_groups_text(groups)
        )
        return self._edit_blocks(groups, lambda a, g: layer_ops.paste_block(a, [g], block, part), text)

    def move_group(self, group: Group, step: int) -> bool:
        path = self.group_path(group)
        target = int(path[-1]) + step
        if not 0 <= target < len(layer_ops.siblings(self.document.architecture, path)):
            return False
        index = int(path[-1])
        done = self._edit_siblings(
            path,
            lambda ls: layer_ops.move_group(ls, index, target),
            translate("LayerTree", "Move layer group"),
        )
        self.select_group((*path[:-1], target))
        return done

    def merge_next(self, group: Group) -> bool:
        path = self.group_path(group)
        text = translate("LayerTree", "Merge layer groups")
        with self._saying_refusal(text):
            done = self.document.edit_architecture(
                lambda arch: layer_ops.merge_with_next(arch, path), text, path[:-1]
            )
        self.select_group(path)
        return done

    def delete_current(self) -> bool:
        """Delete the selected group, or remove the selected part from its group (Delete key)."""
        row = self.tree_model.row_of(self.currentIndex())
        if row is None or row.kind == "stack":
            return False
        if row.part is not None:
            name = _edit_of_part(row.part)
            if name is None or block_part(group_block(self.document.architecture, row.group), name) is None:
                return False
            return self.remove_block(row.group, name)
        path, index = row.group, int(row.group[-1])
        holder = "stack" if len(path) == 3 else "pattern"
        done = self._edit_siblings(
            path,
            lambda ls: layer_ops.delete_group(ls, index, holder),
            translate("LayerTree", "Delete layer group"),
        )
        count = len(layer_ops.siblings(self.document.architecture, path)) if done else 0
        self.select_group((*path[:-1], min(index, count - 1)) if done else path)
        return done

    def apply_pattern(self) -> bool:
        """The pattern helper for the current row's stack (one undo step)."""
        from paramtally.gui.layer_tree.pattern_dialog import ask_pattern

        row = self.tree_model.row_of(self.currentIndex())
        stack = str(row.group[0]) if row is not None and row.group != ("mtp",) else self.tree_model.stack
        text = ask_pattern(self.document.architecture, stack, self)  # type: ignore[arg-type]
        if text is None:
            return False
        done = self.document.apply_pattern(stack, text)
        self.select_group((stack, "layers", 0))
        return done

    def _defaults(self, group: FieldPath, edit: TreeEdit) -> dict[str, Any]:
        """What the dialog of a part the group does not have starts from (``TreeEdit.initial``)."""
        arch = self.document.architecture
        part = getattr(group_block(arch, group), edit.field)
        return edit.initial(part.model_dump() if part is not None else {}, arch.hidden_size)

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
        if self.currentIndex().isValid():
            slot()

    def _shortcuts(self) -> None:
        def group() -> FieldPath:
            return self.current_group() or (self.tree_model.stack, "layers", 0)

        self.split_action = self._action("split", "Ctrl+T", lambda: self.split_group(group()))
        self.count_action = self._action("count", "F2", lambda: self.change_count(group()))
        self.mixer_actions: dict[str, QAction] = {}
        for key, (kind, title) in zip(_MIXER_KEYS, MIXER_TITLES.items(), strict=False):
            action = self._action(f"mixer_{kind}", key, lambda k=kind: self.set_mixer_kind(k))
            action.setText(schema_text(title))
            # the text alone is the kind's name
            action.setStatusTip(
                translate("LayerTree", "Change the mixer to {kind}").format(kind=schema_text(title))
            )
            self.mixer_actions[kind] = action
        self.window_action = self._action(
            "window", "Ctrl+Alt+W",
            lambda: self.ask_value(("mixer", "sliding_window"), translate("LayerTree", "Sliding window"),
                                   translate("LayerTree", "Window in tokens (0: the whole context):"),
                                   0, 1 << 24),
        )  # fmt: skip
        self.heads_action = self._action(
            "heads", "Ctrl+Alt+H",
            lambda: self.ask_value(("mixer", "num_heads"), translate("LayerTree", "Attention heads"),
                                   translate("LayerTree", "Query heads:"), 1, 1 << 16),
        )  # fmt: skip
        self.width_action = self._action(
            "width", "Ctrl+Alt+F",
            lambda: self.ask_value(("ffn", "width"), translate("LayerTree", "FFN width"),
                                   translate("LayerTree", "Intermediate width:"), 1, 1 << 24),
        )  # fmt: skip
        self.block_actions: dict[str, tuple[QAction, QAction]] = {}
        for block, (edit, _) in TREE_EDITS.items():
            add = self._action(block, f"Ctrl+{edit.key}", lambda b=block: self.set_block(group(), b))
            remove = self._action(
                f"remove_{block}", f"Ctrl+Shift+{edit.key}", lambda b=block: self.remove_block(group(), b)
            )
            self.block_actions[block] = (add, remove)
        self.copy_action = self._action("copy", QKeySequence.StandardKey.Copy, self.copy_block)
        self.paste_action = self._action("paste", QKeySequence.StandardKey.Paste, self.paste_block)
        self.pattern_action = self._action("pattern", "Ctrl+R", self.apply_pattern)
        self.up_action = self._action("up", "Ctrl+Up", lambda: self.move_group(group(), -1))
        self.down_action = self._action("down", "Ctrl+Down", lambda: self.move_group(group(), 1))
        self.merge_action = self._action("merge", "Ctrl+J", lambda: self.merge_next(group()))
        self.delete_action = self._action("delete", QKeySequence.StandardKey.Delete, self.delete_current)
        # The keyboard's way to the context menu: the Menu key and Shift+F10, at the current row.
        menu_key = QAction(translate("LayerTree", "Open the context menu"), self)
        menu_key.setShortcuts([QKeySequence(Qt.Key.Key_Menu), QKeySequence("Shift+F10")])
        menu_key.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        menu_key.triggered.connect(self.open_menu_at_current)
        self.addAction(menu_key)
        self.menu_key_action = menu_key
        self.selectionModel().currentChanged.connect(lambda *_: self.update_actions())
        self.document.changed.connect(self.update_actions)
        self.update_actions()

    def update_actions(self) -> None:
        """Texts and enabled states of the actions for the current row (stack, group or part)."""
        arch = self.document.architecture
        row = self.tree_model.row_of(self.currentIndex())
        group = self.current_group()
        node = group_at(arch, group) if group is not None else None
        on_group = row is not None and row.kind == "group"
        plain = isinstance(node, LayerGroup) and not node.pattern
        block = group_block(arch, group) if group is not None else None
        self.split_action.setText(translate("LayerTree", "Split at layer…"))
        self.split_action.setEnabled(on_group and plain and node is not None and node.count > 1)  # type: ignore[union-attr]
        count_text = "Change layer count" if plain or not on_group else "Change repetitions"
        self.count_action.setText(translate("LayerTree", count_text))
        self.count_action.setEnabled(on_group)
        for kind, action in self.mixer_actions.items():
            action.setEnabled(group is not None)
            action.setCheckable(True)
            action.setChecked(
                block is not None and block.mixer.kind == kind and (plain or isinstance(node, MTP))
            )
        for action, text, block_path in (
            (
                self.window_action,
                QT_TRANSLATE_NOOP("LayerTree", "Sliding window…"),
                ("mixer", "sliding_window"),
            ),
            (self.heads_action, QT_TRANSLATE_NOOP("LayerTree", "Attention heads…"), ("mixer", "num_heads")),
            (self.width_action, QT_TRANSLATE_NOOP("LayerTree", "FFN width…"), ("ffn", "width")),
        ):
            action.setText(translate("LayerTree", text))
            action.setEnabled(group is not None and bool(self.value_targets(block_path)))
        for name, (add, remove) in self.block_actions.items():
            present = block_part(block, name) is not None
            edit = _edit(name)
            editing = translate("LayerTree", "Edit {block}…").format(block=schema_text(edit.title))
            add.setText(editing if present else translate("LayerTree", edit.add_text))
            add.setEnabled(group is not None)
            remove.setText(translate("LayerTree", edit.remove_text))
            remove.setEnabled(present)
        part = row.part if row is not None else None
        copy = (
            translate("LayerTree", "Copy {part}").format(part=core_text(part.replace("_", " ")))
            if part
            else ""
        )
        self.copy_action.setText(copy or translate("LayerTree", "Copy block"))
        self.copy_action.setEnabled(group is not None)
        pasted = self.copied[1] if self.copied is not None else None
        paste = (
            translate("LayerTree", "Paste {part}").format(part=core_text(pasted.replace("_", " ")))
            if pasted
            else ""
        )
        self.paste_action.setText(paste or translate("LayerTree", "Paste block"))
        self.paste_action.setEnabled(self.copied is not None and group is not None)
        self.pattern_action.setText(translate("LayerTree", "Make stack from a pattern…"))
        self.pattern_action.setEnabled(row is not None and row.group != ("mtp",))
        count = len(layer_ops.siblings(arch, group)) if on_group and group is not None else 0
        index = int(group[-1]) if on_group and group is not None else 0
        self.up_action.setText(translate("LayerTree", "Move up"))
        self.up_action.setEnabled(on_group and index > 0)
        self.down_action.setText(translate("LayerTree", "Move down"))
        self.down_action.setEnabled(on_group and index < count - 1)
        mergeable = on_group and group is not None and layer_ops.mergeable(arch, group)
        # Greyed out, it says why: only a group whose next one has the same block can take its layers.
        differ = on_group and not mergeable and index + 1 < count
        merge = "Merge with next (their blocks differ)" if differ else "Merge with next"
        self.merge_action.setText(translate("LayerTree", merge))
        self.merge_action.setEnabled(mergeable)
        removable = _edit_of_part(part) if part else None
        if part is not None:
            self.delete_action.setText(
                translate("LayerTree", _edit(removable).remove_text if removable else "Delete")
            )
            self.delete_action.setEnabled(removable is not None and block_part(block, removable) is not None)
        else:
            # Enabled even for the last group: Delete then says why it stays.
            self.delete_action.setText(translate("LayerTree", "Delete group"))
            self.delete_action.setEnabled(on_group)

    def _context_menu(self, point: QPoint) -> None:
        index = self.indexAt(point)
        if not index.isValid():
            return
        if not self.selectionModel().isSelected(index):
            self.setCurrentIndex(index.siblingAtColumn(0))
        self.build_menu(index).exec(self.viewport().mapToGlobal(point))

    def open_menu_at_current(self) -> None:
        """The context menu of the current row, under it (Menu key, Shift+F10)."""
        index = self.currentIndex()
        if not index.isValid():
            if not self.tree_model.rowCount():
                return
            index = self.tree_model.group_index(0)
            self.setCurrentIndex(index)
        rect = self.visualRect(index.siblingAtColumn(0))
        self.scrollTo(index)
        self.build_menu(index).exec(self.viewport().mapToGlobal(rect.bottomLeft()))

    def build_menu(self, index: QModelIndex) -> QMenu:
        """The context menu of a row: the actions that apply to it, with their keys."""
        if index.siblingAtColumn(0) != self.currentIndex().siblingAtColumn(0):
            self.selectionModel().setCurrentIndex(
                index.siblingAtColumn(0), self.selectionModel().SelectionFlag.NoUpdate
            )
        self.update_actions()
        row = self.tree_model.row_of(index)
        menu = QMenu(self)
        if row is None:
            return menu
        if row.kind == "stack":
            if row.group != ("mtp",):
                menu.addAction(self.pattern_action)
            else:
                menu.addMenu(self._mixer_menu(menu))
                menu.addActions([self.copy_action, self.paste_action])
            return menu
        if row.part is not None:
            edits = {"mixer": [self.window_action, self.heads_action], "ffn": [self.width_action]}
            if row.part == "mixer":
                menu.addMenu(self._mixer_menu(menu))
            menu.addActions([a for a in edits.get(row.part, []) if a.isEnabled()])
            for name, (add, remove) in self.block_actions.items():
                edit = _edit(name)
                if edit.field == row.part and (edit.kind is None or remove.isEnabled()):
                    menu.addActions([add, remove] if remove.isEnabled() else [add])
            menu.addSeparator()
            menu.addActions([self.copy_action, self.paste_action])
            return menu
        menu.addActions([self.split_action, self.count_action])
        menu.addSeparator()
        menu.addMenu(self._mixer_menu(menu))
        menu.addActions(
            [a for a in (self.window_action, self.heads_action, self.width_action) if a.isEnabled()]
        )
        for add, remove in self.block_actions.values():
            menu.addAction(add)
            if remove.isEnabled():
                menu.addAction(remove)
        menu.addSeparator()
        menu.addActions([self.copy_action, self.paste_action, self.pattern_action])
        menu.addSeparator()
        menu.addActions([self.up_action, self.down_action, self.merge_action, self.delete_action])
        return menu

    def _mixer_menu(self, parent: QMenu) -> QMenu:
        menu = QMenu(translate("LayerTree", "Mixer kind"), parent)
        menu.setObjectName("mixerKindMenu")
        menu.addActions(list(self.mixer_actions.values()))
        return menu


def _groups_text(groups: list[FieldPath]) -> str:
    """'1 group', '3 groups': how many an edit's undo text says it changed."""
    if len(groups) == 1:
        return translate("LayerTree", "1 group")
    return translate("LayerTree", "{count} groups").format(count=len(groups))


# Texts chosen between at run time, listed for lupdate: the tree edits' own (core.blocks' TREE_EDITS)
# and this view's.
_CHOSEN_TEXTS = (
    QT_TRANSLATE_NOOP("LayerTree", "Convert FFN to MoE…"),
    QT_TRANSLATE_NOOP("LayerTree", "Add LoRA…"),
    QT_TRANSLATE_NOOP("LayerTree", "Add adapter…"),
    QT_TRANSLATE_NOOP("LayerTree", "Convert MoE to dense FFN"),
    QT_TRANSLATE_NOOP("LayerTree", "Remove LoRA"),
    QT_TRANSLATE_NOOP("LayerTree", "Remove adapter"),
    QT_TRANSLATE_NOOP("LayerTree", "Change repetitions"),
    QT_TRANSLATE_NOOP("LayerTree", "Change layer count"),
    QT_TRANSLATE_NOOP("LayerTree", "Repetitions of its pattern:"),
    QT_TRANSLATE_NOOP("LayerTree", "Layers:"),
    QT_TRANSLATE_NOOP("LayerTree", "Edit {block}"),
    QT_TRANSLATE_NOOP("LayerTree", "Convert to {block}"),
    QT_TRANSLATE_NOOP("LayerTree", "Add {block}"),
    QT_TRANSLATE_NOOP("LayerTree", "Merge with next (their blocks differ)"),
    QT_TRANSLATE_NOOP("LayerTree", "Merge with next"),
    QT_TRANSLATE_NOOP("LayerTree", "Delete"),
)
