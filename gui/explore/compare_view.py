"""The compare view: architectures side by side under the document's scenario.

A toolbar pins columns (the open model as a snapshot, a preset, a preset JSON or config.json),
removes them and picks the baseline; the figures table (headline and parts, with differences)
sits over three tabs: the grouped bar chart, the GPU fit per kind and the schema diff. The
comparison is core's (``Pins.comparison``); CSV and JSON go through ``core.export``, the same
text ``paramtally compare --format csv|json`` writes. It follows every edit while shown.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QIcon, QPixmap, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from paramtally.core import export, user_presets
from paramtally.core.errors import ParamTallyError
from paramtally.gui.dialogs import ask_open_path, ask_save_path, attempt
from paramtally.gui.explore.compare_chart import CompareChart
from paramtally.gui.explore.compare_tables import fill_diff, fill_figures, fill_fits, make_table
from paramtally.gui.explore.pins import Pins
from paramtally.gui.export_actions import EXCEL_KEY
from paramtally.gui.settings import settings
from paramtally.gui.views.deferred import DeferredRefresh
from paramtally.gui.views.palette import series_color

if TYPE_CHECKING:
    from paramtally.core.explore.compare import Comparison
    from paramtally.gui.document import Document

__all__ = ["CompareView"]


class CompareView(QWidget):
    """objectName ``compareView``."""

    def __init__(self, document: Document, pins: Pins, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compareView")
        self.document, self.pins = document, pins
        self.comparison: Comparison | None = None
        self._build()
        self.deferred = DeferredRefresh(self, self.refresh)
        document.changed.connect(self.deferred.request)
        pins.changed.connect(self.refresh)
        self.refresh()

    # --- layout -----------------------------------------------------------------------------------

    def _build(self) -> None:
        self.pin_button = QPushButton("&Pin Open Model")
        self.pin_button.setObjectName("comparePin")
        self.pin_button.setToolTip("Add the open model as it is now as a column; later edits leave it")
        self.pin_button.clicked.connect(self.pins.pin_open)
        self.preset_button = QToolButton()
        self.preset_button.setObjectName("compareAddPreset")
        self.preset_button.setText("Add Pre&set")
        self.preset_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.preset_menu = QMenu(self.preset_button)
        self.preset_menu.aboutToShow.connect(self._fill_preset_menu)
        self.preset_button.setMenu(self.preset_menu)
        self.file_button = QPushButton("Add &File…")
        self.file_button.setObjectName("compareAddFile")
        self.file_button.setToolTip("A preset JSON or a Hugging Face config.json as a column")
        self.file_button.clicked.connect(self.add_file)
        self.remove_button = QPushButton("&Remove")
        self.remove_button.setObjectName("compareRemove")
        self.remove_button.setToolTip(
            "Remove the column of the selected cell (a pinned one; the open model stays)"
        )
        self.remove_button.clicked.connect(self._remove_selected)
        self.baseline_box = QComboBox()
        self.baseline_box.setObjectName("compareBaseline")
        self.baseline_box.setToolTip("The column the others are compared with")
        self.baseline_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.baseline_box.activated.connect(self.pins.set_baseline)
        baseline_label = QLabel("&Baseline:")
        baseline_label.setBuddy(self.baseline_box)
        self.export_button = QToolButton()
        self.export_button.setObjectName("compareExport")
        self.export_button.setText("E&xport")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        export_menu = QMenu(self.export_button)
        export_menu.addAction("Comparison as &CSV…", lambda: self.export("csv"))
        export_menu.addAction("Comparison as &JSON…", lambda: self.export("json"))
        self.export_button.setMenu(export_menu)
        bar = QHBoxLayout()
        for widget in (self.pin_button, self.preset_button, self.file_button, self.remove_button):
            bar.addWidget(widget)
        bar.addSpacing(8)
        bar.addWidget(baseline_label)
        bar.addWidget(self.baseline_box)
        bar.addStretch(1)
        bar.addWidget(self.export_button)

        self.scenario_label = QLabel()
        self.scenario_label.setObjectName("compareScenario")
        self.scenario_label.setWordWrap(True)
        self.figures = make_table("compareFigures")
        self.figures.horizontalHeader().setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.figures.horizontalHeader().customContextMenuRequested.connect(self._column_menu)
        self.figures.currentCellChanged.connect(lambda *_: self._update_remove())
        self.chart = CompareChart()
        self.fits = make_table("compareFits")
        self.diff = make_table("compareDiff")
        self.details = QTabWidget()
        self.details.setObjectName("compareDetails")
        self.details.setDocumentMode(True)
        self.details.addTab(self.chart, "Chart")
        self.details.addTab(self.fits, "GPU fit")
        self.details.addTab(self.diff, "Schema diff")
        self.split = split = QSplitter(Qt.Orientation.Vertical)
        split.setObjectName("compareSplit")
        split.addWidget(self.figures)
        split.addWidget(self.details)
        split.setStretchFactor(0, 0)  # a taller window gives the chart the room
        split.setStretchFactor(1, 1)
        split.setChildrenCollapsible(False)
        self._split_fitted = False
        self._swatches: dict[int, QIcon] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.scenario_label)
        layout.addWidget(split, 1)

    # --- showing ----------------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.deferred.shown()
        QTimer.singleShot(0, self._fit_split)  # after the layout has given the splitter its height

    def refresh(self) -> None:
        try:
            comparison = self.pins.comparison()
        except ParamTallyError as exc:  # the last comparison stays on screen
            self.scenario_label.setText(f"⚠ {exc}")
            return
        self.comparison = comparison
        self.scenario_label.setText(f"Under the scenario: {export.scenario_text(comparison.scenario)}")
        for table in (self.figures, self.fits, self.diff):
            table.setUpdatesEnabled(False)
        fill_figures(self.figures, comparison)
        fill_fits(self.fits, comparison)
        fill_diff(self.diff, comparison, [column.arch for column in self.pins.columns()])
        for table in (self.figures, self.fits, self.diff):
            self._mark_columns(table)
            table.setUpdatesEnabled(True)
        self.chart.show_comparison(comparison)
        self._fill_baseline_box()
        self._update_remove()

    def _update_remove(self) -> None:
        """Remove is for a pinned column's selected cell: with the open model's selected it removed
        the last pinned column, unasked (found by a QA pass)."""
        column = self.figures.currentColumn()
        self.remove_button.setEnabled(0 < column < len(self.pins.pins))

    def _mark_columns(self, table: QTableWidget) -> None:
        """Each column's header carries its colour in the chart."""
        for index in range(table.columnCount()):
            header = table.horizontalHeaderItem(index)
            if header is not None:
                header.setIcon(self._swatch(index))
                header.setToolTip(self.pins.label(index))

    def _swatch(self, index: int) -> QIcon:
        if index not in self._swatches:
            pixmap = QPixmap(10, 10)
            pixmap.fill(series_color(index))
            self._swatches[index] = QIcon(pixmap)
        return self._swatches[index]

    def _fit_split(self) -> None:
        """Once shown: the figures table as tall as its rows (at most half), the chart the rest."""
        table, total = self.figures, sum(self.split.sizes())
        if self._split_fitted or total <= 0:
            return
        self._split_fitted = True
        rows = table.verticalHeader().length() + table.horizontalHeader().height()
        need = rows + 2 * table.frameWidth() + table.horizontalScrollBar().sizeHint().height()
        first = min(need, total // 2)
        self.split.setSizes([first, total - first])

    def _fill_baseline_box(self) -> None:
        labels = [self.pins.label(index) for index in range(len(self.pins.pins))]
        box = self.baseline_box
        if [box.itemText(index) for index in range(box.count())] != labels:
            box.blockSignals(True)
            box.clear()
            box.addItems(labels)
            box.blockSignals(False)
        box.setCurrentIndex(self.pins.baseline)

    # --- columns ----------------------------------------------------------------------------------

    def _fill_preset_menu(self) -> None:
        """Built-in presets, then the user's (read fresh, so a preset saved a moment ago is there)."""
        menu = self.preset_menu
        menu.clear()
        entries = user_presets.list_presets()
        for origin, title in (("builtin", "Built-in"), ("user", "Your presets")):
            chosen = [entry for entry in entries if entry.origin == origin]
            if not chosen:
                continue
            menu.addSection(title)
            for entry in chosen:
                action = menu.addAction(entry.id.replace("&", "&&"), lambda p=entry.id: self.add_preset(p))
                action.setEnabled(not entry.broken)
                action.setToolTip(entry.problem or entry.name)
        menu.setToolTipsVisible(True)

    def add_preset(self, preset_id: str) -> None:
        attempt(self, "Cannot add the preset", lambda: self.pins.add_source(preset_id))

    def add_file(self) -> None:
        path = ask_open_path(self, "Add a model to compare", "Model configs (*.json);;All files (*)")
        if path is not None:
            attempt(self, "Cannot add the file", lambda: self.pins.add_source(str(path)))

    def _remove_selected(self) -> None:
        column = self.figures.currentColumn()
        if 0 < column < len(self.pins.pins):  # the open model's column stays
            self.pins.remove(column)

    def _column_menu(self, pos: QPoint) -> None:
        column = self.figures.horizontalHeader().logicalIndexAt(pos)
        if column < 0:
            return
        menu = QMenu(self)
        menu.addAction("Make &Baseline", lambda: self.pins.set_baseline(column))
        remove = menu.addAction("&Remove Column", lambda: self.pins.remove(column))
        remove.setEnabled(column > 0)
        menu.exec(self.figures.horizontalHeader().mapToGlobal(pos))

    # --- export -----------------------------------------------------------------------------------

    def export(self, form: str, path: Path | None = None) -> Path | None:
        """The comparison as CSV or JSON, the text ``paramtally compare --format`` writes."""
        assert form in ("csv", "json")
        comparison = self.comparison
        if comparison is None:
            QMessageBox.warning(self, "Export failed", "There is no comparison to export.")
            return None
        suffix = f".{form}"
        target = path or ask_save_path(
            self, f"Export the comparison as {form.upper()}", f"comparison{suffix}",
            f"{form.upper()} (*{suffix})", suffix,
        )  # fmt: skip
        if target is None:
            return None
        excel = form == "csv" and bool(settings().value(EXCEL_KEY, True, type=bool))
        text = export.comparison_text(comparison, "csv" if form == "csv" else "json", excel=excel)
        if not attempt(self, "Export failed", lambda: export.write_export(target, text)):
            return None
        window = self.window()
        status = getattr(window, "statusBar", None)
        if callable(status):
            status().showMessage(f"Exported {target}", 5000)
        return target
