"""GPU setups from the catalog: layout, per-GPU usage bar, fits flag, free or missing memory.

The model rows are ``document.setups`` (``core.memory.fit.SetupFit``); every figure is the core's.
When the number of setups stays the same (any edit but a catalog change) the model swaps the
rows and emits one ``dataChanged``; the view keeps its scroll position and sort.
"""

from __future__ import annotations

from collections.abc import KeysView, Sequence
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QRegularExpression,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QFont, QPainter
from PySide6.QtWidgets import (
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from paramtally.core.io.export import GPU_COLUMNS, gpu_rows, to_tsv
from paramtally.core.memory.fit import column_description
from paramtally.core.typed_numbers import GIB
from paramtally.gui.i18n import core_text, schema_text, translate
from paramtally.gui.views.copy_rows import add_copy_action
from paramtally.gui.views.format import rate_text, signed_bytes_both

__all__ = [
    "COLUMN_FIELDS",
    "FITS_TEXT",
    "NOT_FIT_TEXT",
    "SetupsModel",
    "SetupsTable",
    "UsageDelegate",
    "gpu_pattern",
]

COLUMNS = (
    QT_TRANSLATE_NOOP("Setups", "GPU"),
    QT_TRANSLATE_NOOP("Setups", "Count"),
    QT_TRANSLATE_NOOP("Setups", "Layout"),
    QT_TRANSLATE_NOOP("Setups", "Per-GPU usage"),
    QT_TRANSLATE_NOOP("Setups", "Fits"),
    QT_TRANSLATE_NOOP("Setups", "Free / missing"),
    QT_TRANSLATE_NOOP("Setups", "Max context"),
    QT_TRANSLATE_NOOP("Setups", "Decode tok/s"),
)
# The SetupFit fields behind each column: their descriptions (core) are the columns' tooltips.
COLUMN_FIELDS = (
    ("gpu_name",),
    ("count",),
    ("layout",),
    ("per_gpu_bytes", "capacity_bytes"),
    ("fits",),
    ("free_bytes",),
    ("max_context",),
    ("decode_tokens_per_second",),
)
LAYOUT, USAGE, FITS, FREE, MAX_CONTEXT = 2, 3, 4, 5, 6
FITTED = (LAYOUT, FREE, MAX_CONTEXT)  # their texts lengthen after an edit: sized again each time
# Short: at 1024 px the column is the last one in view ("✘ does not fit" was cut to "✘ doe").
FITS_TEXT, NOT_FIT_TEXT = QT_TRANSLATE_NOOP("Setups", "✔ yes"), QT_TRANSLATE_NOOP("Setups", "✘ no")
FIT_COLORS = {True: QColor("#1B7F3B"), False: QColor("#C0392B")}
RAW_ROLE = Qt.ItemDataRole.UserRole  # numbers for sorting and for the usage bar
FILTER_ROLE = Qt.ItemDataRole.UserRole + 1  # column 0: "fits<tab>GPU name", what the filter reads
MIN_ROWS = 6
_Index = QModelIndex | QPersistentModelIndex


class SetupsModel(QAbstractTableModel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setups: tuple[Any, ...] = ()
        self.resets = 0

    def set_setups(self, setups: Sequence[Any]) -> None:
        setups = tuple(setups)
        if len(setups) != len(self.setups):
            self.beginResetModel()  # only when the catalog changed (or on the first fill)
            self.setups = setups
            self.endResetModel()
            self.resets += 1
        elif setups:
            self.setups = setups
            self.dataChanged.emit(self.index(0, 0), self.index(len(setups) - 1, len(COLUMNS) - 1))

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.setups)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return translate("Setups", COLUMNS[section])
        if role == Qt.ItemDataRole.ToolTipRole:
            return "\n".join(schema_text(column_description(name)) for name in COLUMN_FIELDS[section])
        return None

    def data(self, index: _Index, role: int = 0) -> Any:
        if not index.isValid():
            return None
        fit, column = self.setups[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(fit, column)
        if role == RAW_ROLE:
            return self._raw(fit, column)
        if role == FILTER_ROLE:
            return f"{'fits' if fit.fits else 'no'}\t{fit.gpu_name}"
        if role == Qt.ItemDataRole.ForegroundRole and column in (FITS, FREE):
            return QBrush(FIT_COLORS[fit.fits])
        if role == Qt.ItemDataRole.FontRole and column == FITS:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and column not in (0, LAYOUT, FITS):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return translate(
                "Setups", "{gpu} × {count}: {layout}\nper GPU {used} of {usable} usable bytes"
            ).format(
                gpu=fit.gpu_name,
                count=fit.count,
                layout=core_text(fit.layout),
                used=f"{fit.per_gpu_bytes:,}",
                usable=f"{fit.capacity_bytes:,}",
            )
        return None

    @staticmethod
    def _text(fit: Any, column: int) -> str:
        if column == 0:
            return str(fit.gpu_name)
        if column == 1:
            return f"× {fit.count}"
        if column == LAYOUT:
            return core_text(str(fit.layout))  # 'TP=2 × PP=4', 'single GPU'
        if column == USAGE:
            return f"{fit.per_gpu_bytes / GIB:,.1f} / {fit.capacity_bytes / GIB:,.1f} GiB"
        if column == FITS:
            return translate("Setups", FITS_TEXT if fit.fits else NOT_FIT_TEXT)
        if column == FREE:
            return signed_bytes_both(fit.free_bytes)
        if column == MAX_CONTEXT:
            if fit.max_context is None:
                return "–"
            return f"{fit.max_context:,}" if fit.max_context else schema_text("none")
        return rate_text(fit.decode_tokens_per_second)

    @staticmethod
    def _raw(fit: Any, column: int) -> Any:
        return (
            fit.gpu_name,
            fit.count,
            fit.layout,
            fit.per_gpu_bytes / fit.capacity_bytes if fit.capacity_bytes else 0.0,
            fit.fits,
            fit.free_bytes,
            fit.max_context if fit.max_context is not None else -1,
            fit.decode_tokens_per_second if fit.decode_tokens_per_second is not None else -1.0,
        )[column]


class UsageDelegate(QStyledItemDelegate):
    """A bar of per-GPU bytes over usable capacity, green when it fits and red when it does not."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        share = float(index.data(RAW_ROLE) or 0.0)
        fits = bool(index.siblingAtColumn(FITS).data(RAW_ROLE))
        style = option.widget.style() if option.widget else None
        if style is not None:
            # Selection and alternating background as the style draws them, but no text yet.
            plain = QStyleOptionViewItem(option)
            self.initStyleOption(plain, index)
            plain.text = ""
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, plain, painter, option.widget)
        rect = option.rect.adjusted(3, 4, -3, -4)
        painter.save()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(option.palette.mid())
        painter.drawRect(rect)
        filled = QRect(rect)
        filled.setWidth(int(rect.width() * min(share, 1.0)))
        color = QColor(FIT_COLORS[fits])
        color.setAlpha(150)
        painter.setBrush(color)
        painter.drawRect(filled)
        painter.setPen(option.palette.text().color())
        # Cut at the end, never both sides: a centred text wider than the cell lost its leading
        # digits (1,525,879,387.0 read as 525,879,387.0).
        text = painter.fontMetrics().elidedText(str(index.data()), Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
        painter.restore()


class _SetupsFilter(QSortFilterProxyModel):
    """Sorts by the raw numbers; hides the setups that do not fit (``fits_only``) and those whose GPU
    is not named by the filter text (``gpu_text``).

    Qt's own filter, on one key per row ("fits<tab>GPU name"): while neither is on, every row is
    accepted without asking the model (a Python ``filterAcceptsRow`` ran for each of the ~100 rows
    on every edit).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFilterKeyColumn(0)
        self.setFilterRole(FILTER_ROLE)
        self.fits_only, self.gpu_text = False, ""

    def set_filter(self, fits_only: bool, gpu_text: str) -> None:
        self.fits_only, self.gpu_text = fits_only, gpu_text
        names = gpu_pattern(gpu_text)
        if not fits_only and not names:
            pattern = ""
        else:
            pattern = "^" + ("fits" if fits_only else "[^\t]*") + "\t" + (names or "")
        self.setFilterRegularExpression(
            QRegularExpression(pattern, QRegularExpression.PatternOption.CaseInsensitiveOption)
        )


def gpu_pattern(text: str) -> str | None:
    """A GPU name filter as a regular expression: alternatives between commas, each naming words the
    name must all hold, in any order and letter case ("RTX 4090, a100" → the 4090 and both A100s);
    None for an empty text."""
    choices = []
    for choice in text.split(","):
        words = choice.split()
        if words:
            choices.append("".join(f"(?=.*{QRegularExpression.escape(word)})" for word in words))
    return f"(?:{'|'.join(choices)})" if choices else None


class SetupsTable(QTableView):
    """objectName ``gpuSetups``; sortable by any column (click a header), filterable to the setups that
    fit and by GPU name; Ctrl+C copies the selected rows as the CSV export's columns, tab-separated."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("gpuSetups")
        self.setAccessibleName(translate("Setups", "GPU setups"))
        self.setups_model = SetupsModel(self)
        self._fitted: dict[int, KeysView[str]] = {}  # the texts each FITTED column was sized to
        self.proxy = _SetupsFilter(self)
        self.proxy.setSourceModel(self.setups_model)
        self.proxy.setSortRole(RAW_ROLE)
        self.setModel(self.proxy)
        self.setItemDelegateForColumn(USAGE, UsageDelegate(self))
        self.setSortingEnabled(True)
        self.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # catalog order until a header is clicked
        self.setAlternatingRowColors(True)
        self.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.setTabKeyNavigation(False)  # Tab leaves the table (it walked its 98 × 9 cells for good)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        # Never squeezed to a row or two: a narrow window scrolls the memory tab instead.
        self.setMinimumHeight(
            header.sizeHint().height() + MIN_ROWS * self.verticalHeader().defaultSectionSize() + 4
        )
        self.copy_action = add_copy_action(self, self.selected_text)

    def set_fits_only(self, on: bool) -> None:
        self.proxy.set_filter(on, self.proxy.gpu_text)

    def set_gpu_filter(self, text: str) -> None:
        """Only the GPUs ``text`` names (``gpu_pattern``); an empty text shows every GPU."""
        self.proxy.set_filter(self.proxy.fits_only, text)

    def names_any_gpu(self, text: str) -> bool:
        """Whether ``text`` names a GPU of the table, fitting or not."""
        pattern = gpu_pattern(text)
        if pattern is None:
            return True
        found = QRegularExpression("^" + pattern, QRegularExpression.PatternOption.CaseInsensitiveOption)
        names = {fit.gpu_name for fit in self.setups_model.setups}
        return any(found.match(name).hasMatch() for name in names)

    def selected_setups(self) -> list[Any]:
        rows = sorted({self.proxy.mapToSource(index).row() for index in self.selectionModel().selectedRows()})
        return [self.setups_model.setups[row] for row in rows]

    def selected_text(self) -> str:
        setups = self.selected_setups()
        return to_tsv(gpu_rows(setups), GPU_COLUMNS) if setups else ""

    def set_setups(self, setups: Sequence[Any]) -> None:
        resets = self.setups_model.resets
        self.setups_model.set_setups(setups)
        self._hide_empty_columns()
        if self.setups_model.resets != resets:
            # Sized to the text once per reset; per-edit resizing would cost more than the update.
            self.resizeColumnsToContents()
            self.setColumnWidth(USAGE, max(150, self.columnWidth(USAGE)))
            self._fitted.clear()  # resized with the rest: fitted again below
        self._fit_text_columns()

    def _hide_empty_columns(self) -> None:
        """A column the core left empty in every row goes: while training, max context and decode
        speed are all "–", and their width was taken from the layout, cut to "DP=32 …"."""
        setups = self.setups_model.setups
        for column, fields in enumerate(COLUMN_FIELDS):
            empty = bool(setups) and all(getattr(fit, fields[0]) is None for fit in setups)
            if self.isColumnHidden(column) != empty:  # each change lays the header out again
                self.setColumnHidden(column, empty)

    def _fit_text_columns(self) -> None:
        """The layout, free/missing and max-context columns as wide as their longest text, after every
        edit. The table is sized to its texts when it is filled; an edit keeps its rows, but turning
        on ZeRO or expert parallelism lengthens the layouts ("DP=32 (EP=8), ZeRO-3") and a larger
        batch the missing bytes ("7,808.5 GiB · 8,384.4 GB missing" was cut at 1440 pixels). Only
        the longest text of each is measured with the delegate (one size hint a column)."""
        setups = self.setups_model.setups
        metrics = self.fontMetrics()
        for column in FITTED:
            if self.isColumnHidden(column):
                continue
            texts = {SetupsModel._text(fit, column): row for row, fit in enumerate(setups)}
            if not texts or texts.keys() == self._fitted.get(column):
                continue  # the same texts (the layouts after most edits): the same width
            self._fitted[column] = texts.keys()
            row = texts[max(texts, key=metrics.horizontalAdvance)]
            option = QStyleOptionViewItem()
            self.initViewItemOption(option)
            # The source's row: it has a size even while the filter hides it.
            text = self.itemDelegate().sizeHint(option, self.setups_model.index(row, column)).width()
            grid = 1 if self.showGrid() else 0  # as resizeColumnToContents counts it: one pixel less cut
            wanted = max(text + grid, self.horizontalHeader().sectionSizeHint(column))
            if self.columnWidth(column) != wanted:
                self.setColumnWidth(column, wanted)
