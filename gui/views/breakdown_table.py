"""The breakdown table: every term of the count as a tree, with its formula.

A Qt item model adapts ``document.report`` (frozen ``Term``s: the model's tree, then the MTP
modules as a second root). A row knows its parent from the walk's depth and its path as a tuple,
never by splitting names. When an edit keeps the tree's shape (the usual case: a width changes)
the model swaps the nodes and emits ``layoutChanged``; when the shape changes (a layer group is
split) it resets and the view restores what was open.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QHeaderView, QTreeView, QWidget

from paramtally.core.count.breakdown import PART_LABELS, ParamReport
from paramtally.core.io.export import BREAKDOWN_COLUMNS, breakdown_rows, to_tsv
from paramtally.core.terms.term import Path, Term
from paramtally.gui.failed_cells import FailedCells
from paramtally.gui.i18n import core_text, said_text, schema_text, translate
from paramtally.gui.shown_text import shown
from paramtally.gui.views.copy_rows import add_copy_action
from paramtally.gui.views.deferred import DeferredRefresh
from paramtally.gui.views.format import share_text

if TYPE_CHECKING:
    from paramtally.gui.document import Document

__all__ = ["COLUMNS", "BreakdownModel", "BreakdownTable"]

COLUMNS: tuple[str, ...] = (
    QT_TRANSLATE_NOOP("TermsTable", "Term"),
    QT_TRANSLATE_NOOP("TermsTable", "Part"),
    QT_TRANSLATE_NOOP("TermsTable", "Per layer"),
    QT_TRANSLATE_NOOP("TermsTable", "× Layers"),
    QT_TRANSLATE_NOOP("TermsTable", "Parameters"),
    QT_TRANSLATE_NOOP("TermsTable", "Share"),
    QT_TRANSLATE_NOOP("TermsTable", "Formula"),
)
_NUMERIC = {2, 3, 4, 5}
_Index = QModelIndex | QPersistentModelIndex
RAW_ROLE = Qt.ItemDataRole.UserRole  # the exact integer behind a number cell
# The roles data() answers; Qt asks each painted cell for eight (decoration, colours, check state…).
_ROLES = frozenset(
    {
        Qt.ItemDataRole.DisplayRole,
        RAW_ROLE,
        Qt.ItemDataRole.TextAlignmentRole,
        Qt.ItemDataRole.ToolTipRole,
        Qt.ItemDataRole.FontRole,
    }
)


@dataclass(slots=True)
class _Row:
    path: Path
    node: Term
    parent: int  # -1 for a root
    row: int
    children: list[int] = field(default_factory=list)


def _flatten(report: ParamReport) -> tuple[list[_Row], list[int]]:
    """The rows in walk order, and the row numbers of the roots; a row's parent is the last row
    one level up (the walk is depth-first)."""
    rows: list[_Row] = []
    roots: list[int] = []
    last: list[int] = []  # the latest row at each depth
    for path, depth, node in report.walk():
        del last[depth:]
        parent = last[-1] if last else -1
        siblings = rows[parent].children if parent >= 0 else roots
        rows.append(_Row(path, node, parent, len(siblings)))
        siblings.append(len(rows) - 1)
        last.append(len(rows) - 1)
    return rows, roots


class BreakdownModel(QAbstractItemModel):
    """Rows are the nodes of the report's tree; the internal id of an index is its row number."""

    def __init__(self, report: ParamReport, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows, self._roots = _flatten(report)
        self._total = report.total
        self.resets = 0  # how many edits needed a reset (tests and the benchmark read it)
        self.failed = FailedCells()  # cells data() could not answer: logged, shown as such

    def set_report(self, report: ParamReport) -> None:
        self.failed.forget()
        self._total = report.total
        if self._swap_nodes(report):
            return
        self.beginResetModel()
        self._rows, self._roots = _flatten(report)
        self.endResetModel()
        self.resets += 1

    def _swap_nodes(self, report: ParamReport) -> bool:
        """Same shape, new numbers (the usual edit: a width changes): the rows keep their place and
        take the new nodes; False, with nothing changed, when the tree's shape differs.

        The trees are compared node by node (name and number of children), without building the
        paths: on a 48-group stack that is a few hundred tuples fewer per edit.
        """
        roots = [report.tree] if report.mtp_tree is None else [report.tree, report.mtp_tree]
        if len(roots) != len(self._roots):
            return False
        nodes: list[Term] = []
        keep = nodes.append
        pending = roots[::-1]  # a depth-first walk: the rows' order
        for row in self._rows:
            if not pending:
                return False
            node, old = pending.pop(), row.node
            children = node.children
            if old.name != node.name or len(old.children) != len(children):
                return False
            keep(node)
            if children:
                pending += children[::-1]
        if pending:
            return False
        # One layoutChanged instead of a dataChanged per parent. Each dataChanged makes the view
        # compute and repaint its rows at once (18 parents ≈ 6 ms on deepseek-v3, measured), while
        # a layout change is settled once, at the next paint.
        self.layoutAboutToBeChanged.emit()
        for row, node in zip(self._rows, nodes, strict=True):
            row.node = node
        self.layoutChanged.emit()
        return True

    # --- QAbstractItemModel ---------------------------------------------------------------------

    def index(self, row: int, column: int, parent: _Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        # Checked here rather than with hasIndex, which asks rowCount and columnCount back through
        # Python: Qt asks for hundreds of indexes per repaint.
        if parent.isValid():
            rows = self._rows[parent.internalId()].children if parent.column() == 0 else ()
        else:
            rows = self._roots
        if not (0 <= row < len(rows) and 0 <= column < len(COLUMNS)):
            return QModelIndex()
        return self.createIndex(row, column, rows[row])

    def parent(self, child: _Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not child.isValid():
            return QModelIndex()
        parent = self._rows[child.internalId()].parent
        if parent < 0:
            return QModelIndex()
        return self.createIndex(self._rows[parent].row, 0, parent)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return len(self._roots)
        if parent.column() != 0:
            return 0
        return len(self._rows[parent.internalId()].children)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return translate("TermsTable", COLUMNS[section])
        return None

    def data(self, index: _Index, role: int = 0) -> Any:
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

    def _data(self, index: _Index, role: int) -> Any:
        if not index.isValid():
            return None
        entry, column = self._rows[index.internalId()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(entry.node, column)
        if role == RAW_ROLE:
            return self._raw(entry.node, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in _NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return said_text(entry.node.full_formula) or f"{shown(entry.node.name)}: {entry.node.value:,}"
        if role == Qt.ItemDataRole.FontRole and (entry.node.added or entry.parent < 0):
            font = QFont()
            font.setItalic(entry.node.added)
            font.setBold(entry.parent < 0)
            return font
        return None

    def path(self, index: _Index) -> Path:
        return self._rows[index.internalId()].path if index.isValid() else ()

    def row_number(self, index: _Index) -> int:
        """The row's place in the report's walk (the breakdown CSV's row order)."""
        return int(index.internalId())

    def _text(self, node: Term, column: int) -> str:
        repeated = node.count > 1
        return (
            core_text(shown(node.name))  # a term's name is made of the schema's titles
            + (translate("TermsTable", " (added)") if node.added and node.is_leaf else ""),
            schema_text(PART_LABELS.get(node.part, "")),
            f"{node.unit_value:,}" if repeated else "",
            f"× {node.count:,}" if repeated else "",
            f"{node.value:,}",
            share_text(node.value, self._total),
            said_text(node.formula),  # 'one block = …' in the window's language; an expression as it is
        )[column]

    @staticmethod
    def _raw(node: Term, column: int) -> int | str | None:
        return {0: node.name, 1: node.part, 2: node.unit_value, 3: node.count, 4: node.value}.get(column)


class BreakdownTable(QTreeView):
    """objectName ``breakdownTable``: the term tree, open two levels deep at first."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("breakdownTable")
        self.setAccessibleName(translate("TermsTable", "Table of terms"))
        self._document = document
        self.breakdown = BreakdownModel(document.report, self)
        self.setModel(self.breakdown)
        self.setAlternatingRowColors(True)
        self.setUniformRowHeights(True)
        self.setSelectionBehavior(QTreeView.SelectionBehavior.SelectRows)
        header = self.header()
        header.setStretchLastSection(True)
        # Interactive, sized to the text after a reset: ResizeToContents would re-measure every row
        # on each dataChanged (11–18 ms per edit measured, against < 1 ms for the update itself).
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self._term_wanted = 0  # the Term column's width for its longest name, measured at each reset
        self._term_by_hand = False  # a person dragged the Term column: the width is theirs until a reset
        self._sizing = False
        header.sectionResized.connect(self._section_resized)
        self._expanded: set[Path] = set()
        self.breakdown.modelAboutToBeReset.connect(self._remember_expanded)
        self.breakdown.modelReset.connect(self._restore_expanded)
        self.expandToDepth(1)
        self._fit_columns()
        self.deferred = DeferredRefresh(self, self.refresh)
        document.changed.connect(self.deferred.request)
        self.setSelectionMode(QTreeView.SelectionMode.ExtendedSelection)
        self.copy_action = add_copy_action(self, self.selected_text)

    def selected_text(self) -> str:
        """The selected terms as the breakdown CSV's rows (exact integers, formulas), tab-separated."""
        chosen = sorted(self.breakdown.row_number(index) for index in self.selectionModel().selectedRows())
        every = breakdown_rows(self._document.report)  # in walk order, as the model's rows
        return to_tsv([every[number] for number in chosen], BREAKDOWN_COLUMNS) if chosen else ""

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.deferred.shown()

    def refresh(self) -> None:
        self.breakdown.set_report(self._document.report)

    def _remember_expanded(self) -> None:
        self._expanded = self.open_paths()

    def open_paths(self) -> set[Path]:
        """The terms whose rows are open (what a new table of the same report opens again)."""
        return {self.breakdown.path(index) for index in self._all_indexes() if self.isExpanded(index)}

    def open_rows(self, paths: set[Path]) -> None:
        """Open the rows of ``paths`` (as ``open_paths`` said them), and only those."""
        self.collapseAll()
        self._expanded = paths
        self._restore_expanded()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_term_column()

    def _fit_columns(self) -> None:
        self._sizing = True
        try:
            for column in range(len(COLUMNS) - 1):
                self.resizeColumnToContents(column)
        finally:
            self._sizing = False
        self._term_wanted = self.columnWidth(0)
        self._term_by_hand = False
        self._fit_term_column()

    def _fit_term_column(self) -> None:
        """The Term column gives way to the figures: as wide as its longest name while the part,
        per-layer, layers, parameters and share columns still fit beside it, else narrower (its
        names elided, whole in the tooltip), down to a minimum. A vision-language model's long
        names under zh_CN at 1024×700 pushed the Parameters column past the view's edge, its
        numbers cut to '4,300,079,47'."""
        if self._term_by_hand or not self._term_wanted:
            return
        figures = sum(self.columnWidth(column) for column in range(1, len(COLUMNS) - 1))
        least = self.fontMetrics().averageCharWidth() * 16
        width = max(min(self._term_wanted, self.viewport().width() - figures), least)
        if width != self.columnWidth(0):
            self._sizing = True
            try:
                self.setColumnWidth(0, width)
            finally:
                self._sizing = False

    def _section_resized(self, column: int, _old: int, _new: int) -> None:
        if column == 0 and not self._sizing:
            self._term_by_hand = True

    def _restore_expanded(self) -> None:
        if not self._expanded:
            self.expandToDepth(1)
        for index in self._all_indexes() if self._expanded else ():
            # A renamed group ("layers 0–95" split in two) opens like its old self did.
            path = self.breakdown.path(index)
            if path in self._expanded or len(path) < 2:
                self.expand(index)
        self._fit_columns()

    def _all_indexes(self) -> list[QModelIndex]:
        found: list[QModelIndex] = []
        pending = [self.breakdown.index(0, 0)]
        while pending:
            index = pending.pop()
            if not index.isValid():
                continue
            found.append(index)
            rows = range(self.breakdown.rowCount(index))
            pending.extend(self.breakdown.index(row, 0, index) for row in rows)
        return found
