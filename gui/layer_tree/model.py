"""A Qt item model over the rows ``core.count.layer_tree_rows`` gives (napari's tree-adapter pattern).

Top-level rows are the stacks (encoder, decoder) and the MTP modules; under a stack its layer
groups ("layers 0–31 (dense)", or "layers 0–31: 4 repetitions of 8 layers" with the pattern's
groups under it); under a group of one block that block's parts (mixer, FFN, norms, LoRA …),
each with its parameters and share. The model never edits itself: an edit becomes a new
architecture from ``core.editing.layer_ops`` handed to the document, whose ``changed`` refreshes the rows.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractItemModel,
    QByteArray,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from paramtally.core.count.breakdown import human
from paramtally.core.count.layer_tree_rows import TreeRow, stack_rows
from paramtally.core.editing import layer_ops
from paramtally.core.errors import FieldPath
from paramtally.core.schema import Architecture, StackRole
from paramtally.core.schema.group_addresses import group_at
from paramtally.core.text import Said
from paramtally.gui.document import Document
from paramtally.gui.failed_cells import FailedCells
from paramtally.gui.i18n import core_text, said_text, translate
from paramtally.gui.views.format import share_text  # the same share text as the charts and table

__all__ = ["COLUMNS", "LayerTreeModel", "main_stack"]

COLUMNS = (
    QT_TRANSLATE_NOOP("LayerTree", "Stacks, layer groups and blocks"),
    QT_TRANSLATE_NOOP("LayerTree", "Parameters"),
    QT_TRANSLATE_NOOP("LayerTree", "Share"),
)
MIME = "application/x-paramtally-layer-group"
# The roles data() answers; Qt asks each painted cell for eight (decoration, colours, check state…).
_ROLES = frozenset(
    {
        Qt.ItemDataRole.DisplayRole,
        Qt.ItemDataRole.EditRole,
        Qt.ItemDataRole.TextAlignmentRole,
        Qt.ItemDataRole.ToolTipRole,
        Qt.ItemDataRole.UserRole,
    }
)
Index = QModelIndex | QPersistentModelIndex


def main_stack(arch: Architecture) -> StackRole:
    """The stack where the head sits: the decoder, or the encoder of an encoder-only model."""
    return "decoder" if arch.decoder is not None else "encoder"


class LayerTreeModel(QAbstractItemModel):
    """Rows: stacks → groups (→ a pattern's groups) → block parts. Columns: node, parameters, share."""

    figures_changed = Signal()  # the same rows with new figures: repaint what is shown

    def __init__(self, document: Document, parent: QObject | None = None) -> None:
        # The view's child when it has one: it ends with the view, and its connection to the
        # document with it (View → Language builds the tree anew on the same document).
        super().__init__(document if parent is None else parent)
        self.document = document
        self._rows: tuple[TreeRow, ...] = ()
        self._keys: list[tuple[object, ...]] = []  # the rows' keys: an edit that keeps them keeps the rows
        self._children: dict[int, list[int]] = {}  # row → its children's rows (-1: the top)
        self._total = 1
        self.failed = FailedCells()  # cells data() could not answer: logged, shown as such
        self._take(stack_rows(document.architecture))
        document.changed.connect(self.refresh)

    # --- the adapter ---------------------------------------------------------------------------

    @property
    def stack(self) -> StackRole:
        return main_stack(self.document.architecture)

    def _take(self, rows: tuple[TreeRow, ...], keys: list[tuple[object, ...]] | None = None) -> None:
        self._rows = rows
        self._keys = keys if keys is not None else [row.key for row in rows]
        self._children = {-1: []}
        for number, row in enumerate(rows):
            self._children.setdefault(row.parent, []).append(number)
            self._children.setdefault(number, [])
        self._total = max(1, self.document.report.total)

    def refresh(self) -> None:
        self.failed.forget()
        rows = stack_rows(self.document.architecture)
        if rows == self._rows and self.document.report.total == self._total:
            return  # e.g. a scenario edit: nothing in the stacks changed
        keys = [row.key for row in rows]
        if keys == self._keys:
            self._rows, self._total = rows, max(1, self.document.report.total)
            # Same rows, new figures: the view repaints what it shows (figures_changed). A
            # dataChanged per list of siblings made the view walk every index of a 48-group stack
            # (~70 ms per edit), and one for the top rows alone still made it measure the first
            # row's cells again (~0.25 ms), for heights that one-line rows of new figures keep.
            self.figures_changed.emit()
            return
        self.beginResetModel()
        self._take(rows, keys)
        self.endResetModel()

    def rows(self) -> tuple[TreeRow, ...]:
        return self._rows

    def row_of(self, index: Index) -> TreeRow | None:
        return self._rows[int(index.internalId()) - 1] if index.isValid() else None

    def group_of(self, index: Index) -> FieldPath | None:
        """The group (or stack, or MTP) a row belongs to."""
        row = self.row_of(index)
        return row.group if row is not None else None

    def part_of(self, index: Index) -> str | None:
        row = self.row_of(index)
        return row.part if row is not None else None

    def find(self, group: FieldPath, part: str | None = None) -> QModelIndex:
        """The index of a group's row (or of one of its parts); invalid when there is none."""
        for number, row in enumerate(self._rows):
            if row.group == group and row.part == part:
                return self._index_of(number)
        return QModelIndex()

    def group_index(self, index: int, stack: StackRole | None = None) -> QModelIndex:
        """The row of a stack's top-level group ``index`` (the main stack's by default)."""
        return self.find((stack or self.stack, "layers", index))

    def _index_of(self, number: int, column: int = 0) -> QModelIndex:
        parent = self._rows[number].parent
        return self.createIndex(self._children[parent].index(number), column, number + 1)

    # --- QAbstractItemModel --------------------------------------------------------------------

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        # Checked here rather than with hasIndex, which asks rowCount and columnCount back through
        # Python: Qt asks for an index per cell it paints.
        if parent.isValid():
            rows = self._children.get(int(parent.internalId()) - 1, ()) if parent.column() == 0 else ()
        else:
            rows = self._children.get(-1, ())
        if not (0 <= row < len(rows) and 0 <= column < len(COLUMNS)):
            return QModelIndex()
        return self.createIndex(row, column, rows[row] + 1)

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid():
            return QModelIndex()
        parent = self._rows[int(index.internalId()) - 1].parent
        return QModelIndex() if parent < 0 else self._index_of(parent)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() and parent.column() != 0:
            return 0
        key = int(parent.internalId()) - 1 if parent.isValid() else -1
        return len(self._children.get(key, ()))

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return translate("LayerTree", COLUMNS[section])
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _ROLES:
            return None
        # Qt calls this from C++: an exception escaping here takes the whole window down. A bug
        # all the same: logged, and the cell says it could not be shown.
        if role == Qt.ItemDataRole.ToolTipRole and (failure := self.failed.tooltip(index)) is not None:
            return failure
        try:
            return self._data(index, role)
        except Exception as error:
            return self.failed.answer(error, role, index)

    def _data(self, index: Index, role: int) -> Any:
        row = self.row_of(index)
        if row is None:
            return None
        if role == Qt.ItemDataRole.EditRole and index.column() == 0 and row.count is not None:
            return row.count
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column() == 0:
                return core_text(row.text)
            if index.column() == 1:
                return human(row.params)
            return share_text(row.params, self._total)
        if role == Qt.ItemDataRole.ToolTipRole:
            detail = row.detail  # '… parameters' and a part's titled values ('Heads: 96')
            return said_text(detail, core_text) if isinstance(detail, Said) else core_text(detail)
        if role == Qt.ItemDataRole.UserRole:
            return row.params
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        row = self.row_of(index)
        if row is not None and row.kind == "group":
            flags |= Qt.ItemFlag.ItemIsDragEnabled | Qt.ItemFlag.ItemIsDropEnabled
            if index.column() == 0:
                flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        row = self.row_of(index)
        if role != Qt.ItemDataRole.EditRole or row is None or row.kind != "group" or index.column() != 0:
            return False
        try:
            count = int(value)
        except (TypeError, ValueError):
            return False
        group = row.group
        text = translate(
            "LayerTree",
            "Change repetitions"
            if getattr(group_at(self.document.architecture, group), "pattern", ())
            else "Change layer count",
        )
        return self.edit_siblings(
            group, lambda layers: layer_ops.set_count(layers, int(group[-1]), count), text, (*group, "count")
        )

    # --- drag and drop: a move of a whole group among its siblings ------------------------------

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction

    def mimeTypes(self) -> list[str]:
        return [MIME]

    def mimeData(self, indexes: list[QModelIndex]) -> QMimeData:
        data = QMimeData()
        groups = [self.row_of(i) for i in indexes if i.isValid()]
        found = [row.group for row in groups if row is not None and row.kind == "group"]
        if found:
            data.setData(MIME, QByteArray(json.dumps(list(found[0])).encode()))
        return data

    def canDropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: Index
    ) -> bool:
        return data.hasFormat(MIME) and action == Qt.DropAction.MoveAction

    def dropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: Index
    ) -> bool:
        """Ask the document to move the group among its siblings; False so the view removes nothing."""
        if not self.canDropMimeData(data, action, row, column, parent):
            return False
        source: FieldPath = tuple(json.loads(bytes(data.data(MIME).data()).decode()))
        onto = self.row_of(parent)
        container = source[:-2] if len(source) > 3 else source[:1]  # the pattern group, or the stack
        if onto is not None and onto.kind == "group" and onto.group[:-1] == source[:-1]:
            target = int(onto.group[-1])  # dropped onto a sibling: take its place
        elif onto is not None and onto.part is None and onto.group == container:
            target = self.rowCount(parent) if row < 0 else row  # dropped between two siblings
            target = target - 1 if int(source[-1]) < target else target
        else:
            return False  # a group moves among its siblings only
        count = len(layer_ops.siblings(self.document.architecture, source))
        target = max(0, min(target, count - 1))
        if target != source[-1]:
            index = int(source[-1])
            self.edit_siblings(
                source,
                lambda ls: layer_ops.move_group(ls, index, target),
                translate("LayerTree", "Move layer group"),
            )
        return False

    # --- edits -----------------------------------------------------------------------------------

    def edit_siblings(self, group: FieldPath, change: Any, text: str, path: FieldPath | None = None) -> bool:
        """A pure edit of the groups beside ``group`` (split, move, merge, delete) as one undo step."""
        parent = group[:-1]

        def apply(arch: Architecture) -> Architecture:
            return layer_ops.with_siblings(arch, parent, change(layer_ops.siblings(arch, group)))

        return self.document.edit_architecture(apply, text, path or parent)
