"""The design-space view: one figure over two design variables of the open model, as a heatmap.

The person picks the two fields (with their values, ``FIRST:LAST:STEP`` or a list), the figure
the colours show, levels for iso-lines and a GPU setup whose fits boundary to draw. core's
``sweep`` computes every cell exactly; the view draws it, says what the cell under the pointer
holds and loads a clicked cell into the document (one undo step). After an edit it sweeps again
(while shown), keeping the fields and values the person chose; another model starts afresh.

The figure is drawn at once (milliseconds); whether each variant fits a setup takes seconds, so it
is found on a worker thread and drawn when it arrives, while the window goes on taking input. A
newer sweep stops the one before (core's ``sweep_fits`` asks between layouts and cells).
"""

from __future__ import annotations

import threading
import time
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError
from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from paramtally.core.errors import ParamTallyError, one_line
from paramtally.core.explore.figures import FIGURES, find_figure
from paramtally.core.explore.sweep import (
    Stopped,
    Sweep,
    axis_text,
    parse_axis,
    suggest_axis,
    sweep,
    sweep_fits,
)
from paramtally.core.explore.sweep_export import iso_levels, sweep_export
from paramtally.core.explore.variables import available, find_variable
from paramtally.core.io.export import about_rows
from paramtally.core.io.formats import Exported, find_format
from paramtally.core.memory.gpus import load_catalog
from paramtally.gui.explore.cell_text import cell_text
from paramtally.gui.explore.heatmap import Heatmap, save_heatmap
from paramtally.gui.export_actions import add_format_actions, save_export, save_picture
from paramtally.gui.i18n import said_text, schema_text, translate
from paramtally.gui.views.deferred import DeferredRefresh

if TYPE_CHECKING:
    from paramtally.gui.document import Document

__all__ = ["DesignSpaceView"]

_PREFERRED_AXES = ("hidden_size", "num_layers")
_ERROR_COLOR = "#C0392B"
_HOVER_LINES = 3


class _FitsRelay(QObject):
    """Carries a worker's fits to the window's thread. Not the view's child: a worker that finishes
    after the view is gone emits into a connection Qt has already dropped."""

    found = Signal(object, object)  # the job's stop event, the Sweep with fits (or a refusal's text)


class DesignSpaceView(QWidget):
    """objectName ``designSpaceView``; ``sweep`` is the last one drawn (None before the first), its
    ``fits`` None until the worker finds them."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("designSpaceView")
        self.document = document
        self.sweep: Sweep | None = None
        # The iso-lines drawn, as typed and exact in the figure's unit: what an export writes too
        # (text typed since, without Enter, is neither drawn nor exported).
        self.exact_levels: list[tuple[str, Fraction]] = []
        # The last recompute: core's sweep, then the whole of it with the drawing (status, bench).
        self.last_sweep_ms = self.last_ms = 0.0
        self._hover_cache: dict[tuple[int, int], str] = {}
        self._hovered_cell: tuple[int, int] | None = None  # the cell the line under the heatmap names
        self.last_fits_ms = 0.0  # the last fits found, from the sweep's start
        self._fits_job = threading.Event()  # set: the running job's result is no longer wanted
        self._fits_began = 0.0
        self._relay = _FitsRelay()
        self._relay.found.connect(self._fits_found)
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self._stop_fits)
        self._build()
        self._fill_fields()
        self.deferred = DeferredRefresh(self, self.recompute)
        document.changed.connect(self.deferred.request)
        document.source_changed.connect(self._new_model)
        self.recompute()

    # --- layout -----------------------------------------------------------------------------------

    def _build(self) -> None:
        self.x_box, self.x_range = self._axis_controls("designX")
        self.y_box, self.y_range = self._axis_controls("designY")
        self.figure_box = QComboBox()
        self.figure_box.setObjectName("designFigure")
        for figure in FIGURES:
            self.figure_box.addItem(schema_text(figure.title), figure.name)
        self.iso_edit = QLineEdit()
        self.iso_edit.setObjectName("designIso")
        self.iso_edit.setPlaceholderText(translate("DesignSpace", "levels, e.g. 7B, 10B"))
        self.iso_edit.setToolTip(
            translate("DesignSpace", "Draw a line where the figure crosses each level (comma-separated)")
        )
        self.fits_check = QCheckBox(translate("DesignSpace", "&Fits on"))
        self.fits_check.setObjectName("designFits")
        self.fits_check.setToolTip(
            translate("DesignSpace", "Fade the variants that do not fit this GPU setup and draw the boundary")
        )
        self.gpu_box = QComboBox()
        self.gpu_box.setObjectName("designGpu")
        for gpu in load_catalog():
            self.gpu_box.addItem(gpu.name, gpu.id)
        scenario = self.document.scenario
        self.gpu_box.setCurrentIndex(max(self.gpu_box.findData(scenario.gpu), 0))
        self.count_spin = QSpinBox()
        self.count_spin.setObjectName("designGpuCount")
        self.count_spin.setRange(1, 100_000)
        self.count_spin.setValue(scenario.gpus)
        self.count_spin.setPrefix("× ")

        grid = QGridLayout()
        grid.setContentsMargins(0, 4, 0, 0)
        axes = (
            (translate("DesignSpace", "&X:"), self.x_box, self.x_range),
            (translate("DesignSpace", "&Y:"), self.y_box, self.y_range),
        )
        for row, (title, box, edit) in enumerate(axes):
            label = QLabel(title)
            label.setBuddy(box)
            grid.addWidget(label, row, 0)
            grid.addWidget(box, row, 1)
            grid.addWidget(edit, row, 2)
        colour = QLabel(translate("DesignSpace", "&Colour:"))
        colour.setBuddy(self.figure_box)
        grid.addWidget(colour, 0, 3)
        grid.addWidget(self.figure_box, 0, 4, 1, 2)
        iso = QLabel(translate("DesignSpace", "&Iso-lines:"))
        iso.setBuddy(self.iso_edit)
        grid.addWidget(iso, 1, 3)
        grid.addWidget(self.iso_edit, 1, 4, 1, 2)
        grid.addWidget(self.fits_check, 2, 0, 1, 2)
        grid.addWidget(self.gpu_box, 2, 2)
        grid.addWidget(self.count_spin, 2, 4)
        grid.addWidget(self._export_button(), 2, 5, Qt.AlignmentFlag.AlignRight)
        grid.setColumnStretch(2, 2)
        grid.setColumnStretch(4, 1)

        self.status = QLabel()
        self.status.setObjectName("designStatus")
        self.status.setWordWrap(True)
        self.heatmap = Heatmap()
        self.hover = QLabel(
            translate("DesignSpace", "Point at a cell to see its figures; click it to load that variant.")
        )
        self.hover.setObjectName("designHover")
        self.hover.setWordWrap(True)
        # Room for a cell with its fit: a line that grew as the pointer moved shrank the heatmap
        # under it, and the pointer was then over another cell.
        self.hover.setMinimumHeight(_HOVER_LINES * self.hover.fontMetrics().lineSpacing())
        self.hover.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.hover.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(grid)
        layout.addWidget(self.status)
        layout.addWidget(self.heatmap, 1)
        layout.addWidget(self.hover)

        for box in (self.x_box, self.y_box):
            box.activated.connect(self._field_chosen)
        for edit in (self.x_range, self.y_range, self.iso_edit):
            edit.editingFinished.connect(self._edited)
        self.figure_box.currentIndexChanged.connect(self.recompute)
        self.fits_check.toggled.connect(self.recompute)
        self.gpu_box.currentIndexChanged.connect(self._setup_changed)
        self.count_spin.valueChanged.connect(self._setup_changed)
        self.heatmap.hovered.connect(self._hovered)
        self.heatmap.clicked.connect(self.load_cell)

    def _export_button(self) -> QToolButton:
        button = QToolButton()
        button.setObjectName("designExport")
        button.setText(translate("DesignSpace", "Ex&port"))
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(button)
        add_format_actions(
            menu, "sweep", QT_TRANSLATE_NOOP("Export", "Design space"), lambda form: self.export(form.name)
        )
        menu.addSeparator()
        add_format_actions(
            menu,
            "heatmap",
            QT_TRANSLATE_NOOP("Export", "Heatmap"),
            lambda form: self.export(form.name),
            pictures=True,
        )
        button.setMenu(menu)
        return button

    def _axis_controls(self, name: str) -> tuple[QComboBox, QLineEdit]:
        box = QComboBox()
        box.setObjectName(name)
        edit = QLineEdit()
        edit.setObjectName(f"{name}Range")
        edit.setToolTip(
            translate("DesignSpace", "FIRST:LAST:STEP (the last included) or a list V1,V2,…; Enter to sweep")
        )
        return box, edit

    # --- the fields -------------------------------------------------------------------------------

    def _fill_fields(self) -> None:
        """The design variables the model has; the preferred pair (or the first two) with values
        around the current ones."""
        arch, scenario = self.document.architecture, self.document.scenario
        variables = available(arch, scenario)
        for box in (self.x_box, self.y_box):
            box.blockSignals(True)
            box.clear()
            for variable in variables:
                box.addItem(schema_text(variable.title), variable.name)
                tip = schema_text(variable.description)
                box.setItemData(box.count() - 1, tip, Qt.ItemDataRole.ToolTipRole)
            box.blockSignals(False)
        names = [variable.name for variable in variables]
        chosen = [name for name in _PREFERRED_AXES if name in names]
        chosen += [name for name in names if name not in chosen][: 2 - len(chosen)]
        pairs = ((self.x_box, self.x_range), (self.y_box, self.y_range))
        for (box, edit), name in zip(pairs, chosen, strict=False):
            box.setCurrentIndex(box.findData(name))
            self._suggest(box, edit)

    def _sync_fields(self) -> None:
        """The lists follow an edit that adds or takes away variables (an FFN made MoE has experts;
        Mixtral made dense offered them still, refused); an axis whose field stays keeps its values."""
        names = [variable.name for variable in available(self.document.architecture, self.document.scenario)]
        if names == [self.x_box.itemData(index) for index in range(self.x_box.count())]:
            return
        kept = [
            (box.currentData(), edit.text())
            for box, edit in ((self.x_box, self.x_range), (self.y_box, self.y_range))
        ]
        self._fill_fields()
        for (box, edit), (name, text) in zip(
            ((self.x_box, self.x_range), (self.y_box, self.y_range)), kept, strict=True
        ):
            if name in names:
                box.blockSignals(True)
                box.setCurrentIndex(box.findData(name))
                box.blockSignals(False)
                edit.setText(text)

    def _suggest(self, box: QComboBox, edit: QLineEdit) -> None:
        try:
            axis = suggest_axis(str(box.currentData()), self.document.architecture, self.document.scenario)
        except ParamTallyError as exc:
            self._say(said_text(one_line(exc)), error=True)
            return
        edit.setText(axis_text(axis))

    def _field_chosen(self) -> None:
        box = self.sender()
        if box is self.x_box:
            self._suggest(self.x_box, self.x_range)
        elif box is self.y_box:
            self._suggest(self.y_box, self.y_range)
        self.recompute()

    def _new_model(self) -> None:
        self._fill_fields()
        self.deferred.request()

    def _edited(self) -> None:
        edit = self.sender()
        if isinstance(edit, QLineEdit) and edit.isModified():
            edit.setModified(False)
            self.recompute()

    def _setup_changed(self) -> None:
        if self.fits_check.isChecked():
            self.recompute()

    # --- sweeping ---------------------------------------------------------------------------------

    def setup(self) -> str | None:
        """``gpu:count`` whose fits boundary to draw, or None."""
        if not self.fits_check.isChecked():
            return None
        return f"{self.gpu_box.currentData()}:{self.count_spin.value()}"

    def recompute(self) -> None:
        """Sweep again with core and redraw; a question core refuses is said, the last heatmap stays."""
        start = time.perf_counter()
        self._stop_fits()  # the sweep before's, if still being found: not wanted now
        self._sync_fields()
        arch, scenario = self.document.architecture, self.document.scenario
        figure = find_figure(str(self.figure_box.currentData()))
        try:
            x = parse_axis(f"{self.x_box.currentData()}={self.x_range.text()}", "X")
            y = parse_axis(f"{self.y_box.currentData()}={self.y_range.text()}", "Y")
            levels = iso_levels(self.iso_edit.text(), figure.unit, "Iso-lines")
            swept = time.perf_counter()
            result = sweep(arch, scenario, x, y, figure)
        except (ParamTallyError, ValidationError) as exc:
            self._say(said_text(one_line(exc)), error=True)
            return
        self.last_sweep_ms = (time.perf_counter() - swept) * 1e3
        self.exact_levels = levels
        self._draw(result)
        self.last_ms = (time.perf_counter() - start) * 1e3
        setup = self.setup()
        if setup is None:
            self._say(self._summary(result))
            return
        finding = translate("DesignSpace", " Finding which variants fit {setup}…").format(
            setup=self._setup_text()
        )
        self._say(self._summary(result) + finding)
        self._fits_began, self._fits_job = start, threading.Event()
        stop, relay = self._fits_job, self._relay
        threading.Thread(
            target=_find_fits, args=(result, setup, stop, relay), name="design-space fits", daemon=True
        ).start()

    @property
    def levels(self) -> list[tuple[str, float]]:
        """The iso-lines drawn, as typed and in the figure's unit (as the heatmap draws them)."""
        return [(text, float(level)) for text, level in self.exact_levels]

    def _draw(self, result: Sweep) -> None:
        self.sweep = result
        self._hover_cache.clear()
        arch = result.arch
        titles = (
            schema_text(find_variable(result.x.name, arch).title),
            schema_text(find_variable(result.y.name, arch).title),
        )
        self.heatmap.show_sweep(result, self.levels, self._current_cell(result), titles)
        self._refresh_hover()

    def _fits_found(self, job: threading.Event, found: Sweep | str) -> None:
        if job is not self._fits_job or job.is_set():
            return  # a newer sweep is drawn
        if isinstance(found, str):
            self._say(found, error=True)
            return
        self.last_fits_ms = (time.perf_counter() - self._fits_began) * 1e3
        self._draw(found)
        self._say(self._summary(found))

    def _stop_fits(self) -> None:
        self._fits_job.set()

    def stop_fits(self) -> None:
        """Stop finding the fits of the last sweep: the view is about to go (View → Language)."""
        self._stop_fits()

    def _setup_text(self) -> str:
        return f"{self.count_spin.value()} × {self.gpu_box.currentText()}"

    def _current_cell(self, result: Sweep) -> tuple[int, int] | None:
        """The open model's own cell, when both its values are on the axes."""
        arch, scenario = self.document.architecture, self.document.scenario
        x = find_variable(result.x.name, arch).read(arch, scenario)
        y = find_variable(result.y.name, arch).read(arch, scenario)
        if x in result.x.values and y in result.y.values:
            return result.x.values.index(x), result.y.values.index(y)
        return None

    def _summary(self, result: Sweep) -> str:
        rows, columns = result.valid.shape
        how = {
            "model": QT_TRANSLATE_NOOP("DesignSpace", "exact from the calculator's terms"),
            "mixed": QT_TRANSLATE_NOOP("DesignSpace", "exact; some cells counted one by one"),
            "direct": QT_TRANSLATE_NOOP("DesignSpace", "every cell counted"),
        }[result.method]
        text = translate(
            "DesignSpace",
            "{figure} over {columns} × {rows} variants ({allowed} allowed), {how}: "
            "{evaluated} evaluated, {ms} ms.",
        ).format(
            figure=schema_text(result.figure.title),
            columns=columns,
            rows=rows,
            allowed=f"{int(result.valid.sum()):,}",
            how=translate("DesignSpace", how),
            evaluated=f"{result.evaluations:,}",
            ms=f"{self.last_ms:.0f}",
        )
        if result.fits is not None:
            fitting = int((result.fits & result.valid).sum())
            text += translate(
                "DesignSpace",
                " {fitting} fit {setup}, found in {ms} ms (red line: the boundary; faded: does not fit).",
            ).format(fitting=f"{fitting:,}", setup=self._setup_text(), ms=f"{self.last_fits_ms:,.0f}")
        if self._current_cell(result) is not None:
            text += translate("DesignSpace", " Ring: the open model.")
        return text

    def _say(self, text: str, error: bool = False) -> None:
        self.status.setStyleSheet(f"color: {_ERROR_COLOR}" if error else "")
        self.status.setText(f"⚠ {text}" if error else text)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.deferred.shown()

    # --- export -------------------------------------------------------------------------------------

    def export(self, form: str, path: Path | None = None) -> Path | None:
        """The sweep in a text format of the registry (the text ``paramtally sweep --format`` writes,
        fits and iso-line levels included) or the heatmap as a picture; the file, or None."""
        result = self.sweep
        if result is None:
            QMessageBox.warning(
                self,
                translate("DesignSpace", "Export failed"),
                translate("DesignSpace", "There is no design space to export."),
            )
            return None
        chosen = find_format(form)
        if chosen.picture:
            return save_picture(self, (chosen,), self.save_heatmap, "the heatmap", "design-space", path)
        content = lambda: self._sweep_export(result)  # noqa: E731
        return save_export(self, chosen, content, "the design space", "design-space", path)

    def _sweep_export(self, result: Sweep) -> Exported:
        about = about_rows(result.arch, result.scenario, self.document.source_label) if result.arch else []
        return sweep_export(result, self.exact_levels, about)

    def save_heatmap(self, path: Path) -> Path:
        """The heatmap as drawn, titled with the figure, the model and the scenario; PNG or SVG."""
        result = self.sweep
        if result is None:
            raise ParamTallyError("there is no design space to draw")
        return save_heatmap(result, self.levels, self._current_cell(result), path)

    # --- a cell -------------------------------------------------------------------------------------

    def cell_text(self, i: int, j: int) -> str:
        """What cell (i, j) holds, in one line (``explore.cell_text``)."""
        result = self.sweep
        if result is None:
            return ""
        if (i, j) not in self._hover_cache:
            self._hover_cache[(i, j)] = cell_text(result, i, j)
        return self._hover_cache[(i, j)]

    def _hovered(self, i: int, j: int) -> None:
        if i < 0 or self.sweep is None:
            return
        self._hovered_cell = (i, j)
        self.hover.setText(self.cell_text(i, j) + translate("DesignSpace", " — click to load it"))

    def _refresh_hover(self) -> None:
        """The line under the heatmap says the cell it names under the figures just drawn: after
        an edit it kept the figures of before until the pointer moved."""
        cell = self._hovered_cell
        rows, columns = self.sweep.valid.shape if self.sweep is not None else (0, 0)
        if cell is not None and cell[0] < columns and cell[1] < rows:
            self._hovered(*cell)

    def load_cell(self, i: int, j: int) -> bool:
        """Make the open model the variant of cell (i, j): one undo step."""
        result = self.sweep
        if result is None or result.value(i, j) is None:
            return False
        arch, scenario = result.variant(i, j)
        x, y = result.x, result.y
        text = translate("DesignSpace", "Design space: {x} = {x_value}, {y} = {y_value}").format(
            x=x.name, x_value=f"{x.values[i]:,}", y=y.name, y_value=f"{y.values[j]:,}"
        )
        return self.document.apply_variant(arch, scenario, text)


def _find_fits(result: Sweep, setup: str, stop: threading.Event, relay: _FitsRelay) -> None:
    """The worker: core's fits of ``result``, handed to the window's thread unless stopped."""
    try:
        found: Sweep | str = sweep_fits(result, setup, stop=stop.is_set)
    except Stopped:
        return
    except (ParamTallyError, ValidationError) as exc:
        found = said_text(one_line(exc))
    relay.found.emit(stop, found)
