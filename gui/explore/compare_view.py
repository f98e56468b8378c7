"""The compare view: architectures side by side under the document's scenario.

A toolbar pins columns (the open model as a snapshot, a preset, a preset JSON or config.json),
removes them and picks the baseline; the figures table (headline and parts, with differences)
sits over three tabs: the grouped bar chart, the GPU fit per kind and the schema diff. The
comparison is core's (``Pins.comparison``); CSV and JSON go through ``core.io.export``, the same
text ``paramtally compare --format csv|json`` writes; the chart is saved as PNG or SVG as the
window's other charts are (``views.export``), titled with the scenario. It follows every edit
while shown.

Columns are shown by ``Pins.names`` (a file by its name), their full source in the tooltips. The
toolbar wraps onto a second row rather than widen the window: in one row, with a file's path in
the baseline box, it made the window 1046 px wide on a 1024-px screen (found by a QA pass).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QPoint, Qt, QTimer
from PySide6.QtGui import QIcon, QPixmap, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
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
from superqt import QFlowLayout

from paramtally.core.errors import ParamTallyError
from paramtally.core.explore.compare_export import comparison_export
from paramtally.core.io import export, user_presets
from paramtally.core.io.formats import find_format
from paramtally.gui.dialogs import ask_open_path, attempt
from paramtally.gui.explore.compare_chart import CompareChart
from paramtally.gui.explore.compare_tables import fill_diff, fill_figures, fill_fits, make_table
from paramtally.gui.explore.pins import Pins
from paramtally.gui.export_actions import add_format_actions, picture_formats, save_export, save_picture
from paramtally.gui.i18n import core_text, translate
from paramtally.gui.shown_text import MESSAGE_CHARS, PATH_CHARS, shown
from paramtally.gui.views.deferred import DeferredRefresh
from paramtally.gui.views.export import laid_out, save_view
from paramtally.gui.views.palette import series_color

if TYPE_CHECKING:
    from paramtally.core.explore.compare import Comparison
    from paramtally.gui.document import Document

__all__ = ["CompareView"]

# The baseline box's widest text, in widths of a Latin letter: a longer name (a file's path) is
# elided to it so the toolbar stays inside a 1024 px window; a shorter one is shown whole.
_BASELINE_MOST_CHARS = 28


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
        self.pin_button = QPushButton(translate("Compare", "&Pin Open Model"))
        self.pin_button.setObjectName("comparePin")
        self.pin_button.setToolTip(
            translate("Compare", "Add the open model as it is now as a column; later edits leave it")
        )
        self.pin_button.clicked.connect(self.pins.pin_open)
        self.preset_button = QToolButton()
        self.preset_button.setObjectName("compareAddPreset")
        self.preset_button.setText(translate("Compare", "Add Pre&set"))
        self.preset_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.preset_menu = QMenu(self.preset_button)
        self.preset_menu.aboutToShow.connect(self._fill_preset_menu)
        self.preset_button.setMenu(self.preset_menu)
        self.file_button = QPushButton(translate("Compare", "Add &File…"))
        self.file_button.setObjectName("compareAddFile")
        self.file_button.setToolTip(
            translate("Compare", "A preset JSON or a Hugging Face config.json as a column")
        )
        self.file_button.clicked.connect(self.add_file)
        self.remove_button = QPushButton(translate("Compare", "&Remove"))
        self.remove_button.setObjectName("compareRemove")
        self.remove_button.setToolTip(
            translate(
                "Compare", "Remove the column of the selected cell (a pinned one; the open model stays)"
            )
        )
        self.remove_button.clicked.connect(self._remove_selected)
        self.baseline_box = QComboBox()
        self.baseline_box.setObjectName("compareBaseline")
        self.baseline_box.setToolTip(translate("Compare", "The column the others are compared with"))
        # As wide as its names as drawn (Chinese ones are about twice a Latin letter's width: a
        # width in characters cut 'mixtral-8x7b（当前）'); a name wider than the most is elided,
        # as a file's path widened the toolbar past the screen.
        self.baseline_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.baseline_box.activated.connect(self.pins.set_baseline)
        baseline_label = QLabel(translate("Compare", "&Baseline:"))
        baseline_label.setBuddy(self.baseline_box)
        self.export_button = QToolButton()
        self.export_button.setObjectName("compareExport")
        self.export_button.setText(translate("Compare", "E&xport"))
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        export_menu = QMenu(self.export_button)
        add_format_actions(
            export_menu,
            "compare",
            QT_TRANSLATE_NOOP("Export", "Comparison"),
            lambda form: self.export(form.name),
        )
        export_menu.addSeparator()
        add_format_actions(
            export_menu,
            "compare_chart",
            translate("Compare", "Chart"),
            lambda f: self.export_chart(f.name),
            pictures=True,
        )
        self.export_button.setMenu(export_menu)
        baseline = QWidget()  # the label stays beside its box when the row wraps
        pair = QHBoxLayout(baseline)
        pair.setContentsMargins(8, 0, 0, 0)
        pair.addWidget(baseline_label)
        pair.addWidget(self.baseline_box)
        flow = QFlowLayout()  # wraps: its minimum width is its widest item's, not the row's
        flow.setContentsMargins(0, 0, 0, 0)
        for widget in (self.pin_button, self.preset_button, self.file_button, self.remove_button, baseline):
            flow.addWidget(widget)
        bar = QHBoxLayout()
        bar.addLayout(flow, 1)
        bar.addWidget(self.export_button, 0, Qt.AlignmentFlag.AlignTop)

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
        self.details.addTab(self.chart, translate("Compare", "Chart"))
        self.details.addTab(self.fits, translate("Compare", "GPU fit"))
        self.details.addTab(self.diff, translate("Compare", "Schema diff"))
        self.share_box = QCheckBox(translate("Compare", "S&hare of each column"))  # Alt+S is Add Preset's
        self.share_box.setObjectName("compareShare")
        self.share_box.setToolTip(
            translate(
                "Compare",
                "Each column's parts in percent of its own total: beside a model 100× larger, a small "
                "model's bars are a pixel long in parameters",
            )
        )
        self.share_box.toggled.connect(self._draw_chart)
        self.details.setCornerWidget(self.share_box)
        self.details.currentChanged.connect(
            lambda: self.share_box.setVisible(self.details.currentWidget() is self.chart)
        )
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
        self.scenario_label.setText(self._scenario_line())
        names = self.pins.names()
        for table in (self.figures, self.fits, self.diff):
            table.setUpdatesEnabled(False)
        fill_figures(self.figures, comparison, names)
        fill_fits(self.fits, comparison, names)
        fill_diff(self.diff, comparison, names, [column.arch for column in self.pins.columns()])
        for table in (self.figures, self.fits, self.diff):
            self._mark_columns(table)
            table.setUpdatesEnabled(True)
        self._draw_chart()
        self._fill_baseline_box(names)
        self._update_remove()

    def _scenario_line(self) -> str:
        assert self.comparison is not None
        return translate("Compare", "Under the scenario: {scenario}").format(
            scenario=core_text(export.scenario_text(self.comparison.scenario))
        )

    def _draw_chart(self) -> None:
        if self.comparison is not None:
            self.chart.show_comparison(self.comparison, self.pins.names(), self.share_box.isChecked())

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
                header.setToolTip(self.pins.tip(index))

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

    def _fill_baseline_box(self, names: list[str]) -> None:
        """The names, elided to the box's width (Qt clips the text of a box narrower than it); the
        tooltip of each has the column's source whole."""
        box = self.baseline_box
        room = box.fontMetrics().horizontalAdvance("x" * _BASELINE_MOST_CHARS)
        elided = [box.fontMetrics().elidedText(name, Qt.TextElideMode.ElideMiddle, room) for name in names]
        tips = [self.pins.tip(index) for index in range(len(names))]
        had = [(box.itemText(i), box.itemData(i, Qt.ItemDataRole.ToolTipRole)) for i in range(box.count())]
        if had != list(zip(elided, tips, strict=True)):
            box.blockSignals(True)
            box.clear()
            for index, (text, tip) in enumerate(zip(elided, tips, strict=True)):
                box.addItem(text)
                box.setItemData(index, tip, Qt.ItemDataRole.ToolTipRole)
            box.blockSignals(False)
        box.setCurrentIndex(self.pins.baseline)
        box.setToolTip(
            translate("Compare", "The column the others are compared with: {column}").format(
                column=tips[self.pins.baseline]
            )
        )

    # --- columns ----------------------------------------------------------------------------------

    def _fill_preset_menu(self) -> None:
        """Built-in presets, then the user's (read fresh, so a preset saved a moment ago is there)."""
        menu = self.preset_menu
        menu.clear()
        entries = user_presets.list_presets()
        for origin, title in (
            ("builtin", translate("Compare", "Built-in")),
            ("user", translate("Compare", "Your presets")),
        ):
            chosen = [entry for entry in entries if entry.origin == origin]
            if not chosen:
                continue
            menu.addSection(title)
            for entry in chosen:
                text = shown(entry.id, PATH_CHARS, middle=True).replace("&", "&&")  # a user file's name
                action = menu.addAction(text, lambda p=entry.id: self.add_preset(p))
                action.setEnabled(not entry.broken)
                action.setToolTip(shown(entry.problem or entry.name, MESSAGE_CHARS))  # a user preset's name
        menu.setToolTipsVisible(True)

    def add_preset(self, preset_id: str) -> None:
        attempt(self, translate("Compare", "Cannot add the preset"), lambda: self.pins.add_source(preset_id))

    def add_file(self) -> None:
        path = ask_open_path(
            self,
            translate("Compare", "Add a model to compare"),
            translate("Compare", "Model configs (*.json);;All files (*)"),
        )
        if path is not None:
            attempt(
                self, translate("Compare", "Cannot add the file"), lambda: self.pins.add_source(str(path))
            )

    def _remove_selected(self) -> None:
        column = self.figures.currentColumn()
        if 0 < column < len(self.pins.pins):  # the open model's column stays
            self.pins.remove(column)

    def _column_menu(self, pos: QPoint) -> None:
        column = self.figures.horizontalHeader().logicalIndexAt(pos)
        if column < 0:
            return
        menu = QMenu(self)
        menu.addAction(translate("Compare", "Make &Baseline"), lambda: self.pins.set_baseline(column))
        remove = menu.addAction(translate("Compare", "&Remove Column"), lambda: self.pins.remove(column))
        remove.setEnabled(column > 0)
        menu.exec(self.figures.horizontalHeader().mapToGlobal(pos))

    # --- export -----------------------------------------------------------------------------------

    def export_chart(self, form: str, path: Path | None = None) -> Path | None:
        """The chart as PNG or SVG, drawn as on screen at the size of the window's other charts."""
        chosen = find_format(form)
        assert chosen in picture_formats("compare_chart")
        if self.comparison is None:
            QMessageBox.warning(
                self,
                translate("Compare", "Export failed"),
                translate("Compare", "There is no comparison to export."),
            )
            return None
        return save_picture(self, (chosen,), self.save_chart, "the chart", "comparison-chart", path)

    def save_chart(self, path: Path) -> Path:
        """The chart as shown (parameters or shares), with the scenario as its title's second line:
        a picture has no scenario line above it. PNG or SVG by the suffix."""
        comparison = self.comparison
        if comparison is None:
            raise ParamTallyError("there is no comparison to draw")
        share = self.share_box.isChecked()
        with laid_out(CompareChart()) as copy:
            copy.show_comparison(comparison, self.pins.names(), share, self._scenario_line())
            title = translate("Compare", "Parameters by part, compared ({scenario})").format(
                scenario=core_text(export.scenario_text(comparison.scenario))
            )
            return save_view(copy, path, title)

    def export(self, form: str, path: Path | None = None) -> Path | None:
        """The comparison in a format of the registry: the text ``paramtally compare --format`` writes."""
        comparison = self.comparison
        if comparison is None:
            QMessageBox.warning(
                self,
                translate("Compare", "Export failed"),
                translate("Compare", "There is no comparison to export."),
            )
            return None
        content = lambda: comparison_export(comparison)  # noqa: E731
        return save_export(self, find_format(form), content, "the comparison", "comparison", path)
