"""A sweep drawn as a heatmap: one cell per variant, iso-lines, the fits boundary, the open model.

Cell (i, j) — x value i, y value j — covers the square [i, i+1] × [j, j+1]; the axes label the
squares with the swept values. Cells that are no variant (the schema refuses the pair) stay
empty. What is drawn is what ``core.explore.sweep`` returned:

- colours: the figure of each cell (viridis, readable on light and dark, and in grey);
- iso-lines: IsocurveItems through the cell centres at each chosen level, their paths traced
  by contourpy (pyqtgraph's own tracing is pure Python, ~12 ms a level on 64 × 64; contourpy
  ~0.2 ms, and it leaves out the cells that are no variant). It interpolates between centres:
  a drawing, not a figure;
- the fits boundary: the cell edges between a variant that fits the setup and one that does
  not (``Sweep.boundary``), with the cells that do not fit washed out.

Saved as PNG or SVG (``save_heatmap``) it is drawn as on screen, titled with what it shows: a
picture has no status line or scenario fields beside it, so its title says the figure, the
model, the setup whose misfits are faded and the scenario. The title is fitted as the other
charts' are (``ThemedPlot.set_titles``): the scenario line is broken over more lines, then the
setup left out, until it is no wider than the picture.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import contourpy
import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QWidget

from paramtally.core.errors import ParamTallyError
from paramtally.core.explore.sweep import Sweep
from paramtally.core.explore.variables import find_variable
from paramtally.core.io.export import scenario_text
from paramtally.gui.explore.figure_text import setup_text, short_figure_text
from paramtally.gui.views.axes import human_tick
from paramtally.gui.views.export import laid_out, save_view
from paramtally.gui.views.palette import chart_colors
from paramtally.gui.views.themed_plot import ThemedPlot, titles_with_note

__all__ = ["Heatmap", "save_heatmap"]

_COLORMAP = "viridis"
_TICKS = 8  # labels per axis, about
_ISO_PEN = pg.mkPen("#FFFFFF", width=2)  # solid: Qt strokes a dashed line several times slower
_ISO_HALO = pg.mkPen("#000000", width=4)
_BOUNDARY_PEN = pg.mkPen("#FF3B30", width=3)
_BOUNDARY_HALO = pg.mkPen("#FFFFFF", width=6)
_WASH = QColor(255, 255, 255, 150)  # over the cells that do not fit: their colours fade


class Heatmap(ThemedPlot):
    """objectName ``designHeatmap``. ``hovered(i, j)`` as the pointer moves over a cell ((-1, -1)
    off the grid), ``clicked(i, j)`` on a left click. On screen it has no title; an export's
    (``set_titles``) spans the plot and the colour bar."""

    themed_axes = ("left", "bottom")
    hovered = Signal(int, int)
    clicked = Signal(int, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("designHeatmap")
        self.setMinimumSize(280, 220)
        item = self.getPlotItem()
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        item.setMenuEnabled(False)
        self.image = pg.ImageItem(axisOrder="row-major")
        # A filled path, not a second image: Qt paints a few rectangles far faster than it scales
        # a translucent image over the whole plot.
        self.wash = QGraphicsPathItem()
        self.wash.setPen(pg.mkPen(None))
        self.wash.setBrush(_WASH)
        item.addItem(self.image)
        item.addItem(self.wash)
        self.colorbar = pg.ColorBarItem(
            colorMap=pg.colormap.get(_COLORMAP), interactive=False, colorMapMenu=False, width=14
        )
        self.colorbar.setImageItem(self.image, insert_in=item)
        self.colorbar.axis.setWidth(64)
        # Over the plot's column alone, a title wider than the plot pushed the colour bar and the
        # last columns off the picture's right edge.
        item.layout.removeItem(item.titleLabel)
        item.layout.addItem(item.titleLabel, 0, 1, 1, 5)
        # Iso-lines are children of a clip item the size of the grid (they run on half a cell).
        self.iso_clip = QGraphicsPathItem()
        self.iso_clip.setPen(pg.mkPen(None))
        self.iso_clip.setFlag(QGraphicsItem.GraphicsItemFlag.ItemClipsChildrenToShape, True)
        item.addItem(self.iso_clip)
        self.isocurves: list[tuple[pg.IsocurveItem, pg.IsocurveItem]] = []
        self.iso_labels: list[pg.TextItem] = []
        self.boundary_halo = pg.PlotCurveItem(pen=_BOUNDARY_HALO, connect="pairs")
        self.boundary = pg.PlotCurveItem(pen=_BOUNDARY_PEN, connect="pairs")
        item.addItem(self.boundary_halo)
        item.addItem(self.boundary)
        self.marker = pg.ScatterPlotItem(
            size=14, symbol="o", pen=pg.mkPen("#FFFFFF", width=2.5), brush=pg.mkBrush(None)
        )
        self.marker_halo = pg.ScatterPlotItem(
            size=18, symbol="o", pen=pg.mkPen("#000000", width=1.5), brush=pg.mkBrush(None)
        )
        item.addItem(self.marker_halo)
        item.addItem(self.marker)
        self.shape: tuple[int, int] = (0, 0)  # (rows, columns) of the grid shown
        self._hover: tuple[int, int] = (-1, -1)
        self.scene().sigMouseClicked.connect(self._clicked)
        self.apply_colors()

    # --- drawing ----------------------------------------------------------------------------------

    def show_sweep(
        self,
        sweep: Sweep,
        levels: Sequence[tuple[str, float]],
        current: tuple[int, int] | None,
        titles: tuple[str, str],
    ) -> None:
        """Draw ``sweep``; ``levels`` (as typed, and in the figure's unit) get iso-lines; ``current``
        is the open model's cell."""
        data = sweep.floats()
        rows, columns = data.shape
        self.shape = (rows, columns)
        self.image.setImage(data, autoLevels=False)
        self.image.setRect(QRectF(0, 0, columns, rows))
        low, high = _levels(data)
        self.colorbar.setLevels((low, high))
        self._label_colorbar(low, high, sweep.figure.unit)
        self._draw_wash(sweep)
        self._draw_boundary(sweep.boundary() if sweep.fits is not None else [])
        self._draw_isocurves(sweep, data, levels)
        self.marker.setData([current[0] + 0.5] if current else [], [current[1] + 0.5] if current else [])
        self.marker_halo.setData(self.marker.getData()[0], self.marker.getData()[1])
        item = self.getPlotItem()
        self._label_axis("bottom", sweep.x.values, titles[0])
        self._label_axis("left", sweep.y.values, titles[1])
        item.setXRange(0, columns, padding=0)
        item.setYRange(0, rows, padding=0)

    def _draw_wash(self, sweep: Sweep) -> None:
        if sweep.fits is None:
            self.wash.setVisible(False)
            return
        self.wash.setPath(_region(sweep.valid & ~sweep.fits))
        self.wash.setVisible(True)

    def _draw_boundary(self, pairs: Sequence[tuple[tuple[int, int], tuple[int, int]]]) -> None:
        """The shared edge of each pair of neighbouring cells on either side of the boundary."""
        xs: list[float] = []
        ys: list[float] = []
        for (i, j), (k, _) in pairs:
            if k != i:  # side by side: the vertical edge between them
                xs += [k, k]
                ys += [j, j + 1]
            else:  # one above the other: the horizontal edge
                xs += [i, i + 1]
                ys += [j + 1, j + 1]
        for curve in (self.boundary_halo, self.boundary):
            curve.setData(np.array(xs, dtype=float), np.array(ys, dtype=float))

    def _draw_isocurves(self, sweep: Sweep, data: Any, levels: Sequence[tuple[str, float]]) -> None:
        valid = sweep.valid
        while len(self.isocurves) < len(levels):
            halo, line = _Isoline(pen=_ISO_HALO), _Isoline(pen=_ISO_PEN)
            for curve in (halo, line):
                curve.setParentItem(self.iso_clip)
                # Cell centres sit on whole numbers, and the grid is padded by one cell.
                curve.setPos(-0.5, -0.5)
            label = pg.TextItem(anchor=(0, 0), color="#FFFFFF", fill=pg.mkBrush(0, 0, 0, 160))
            self.getPlotItem().addItem(label)
            self.isocurves.append((halo, line))
            self.iso_labels.append(label)
        rows, columns = valid.shape
        clip = QPainterPath()
        clip.addRect(QRectF(0, 0, columns, rows))
        self.iso_clip.setPath(clip)
        # Edge cells repeated, so that a line runs on to the grid's edge; no variant: masked.
        padded = np.ma.masked_array(np.pad(data, 1, mode="edge"), mask=np.pad(~valid, 1, mode="edge"))
        tracer = contourpy.contour_generator(z=padded, line_type=contourpy.LineType.Separate)
        for index, ((halo, line), label) in enumerate(zip(self.isocurves, self.iso_labels, strict=True)):
            shown = index < len(levels) and bool(valid.any())
            for curve in (halo, line):
                curve.setVisible(shown)
            label.setVisible(False)
            if not shown:
                continue
            text, level = levels[index]
            path = _path(tracer.lines(level))
            for curve in (halo, line):
                curve.set_path(path, padded, level)
            place = _label_place(sweep, level)
            if place is not None:
                label.setText(text)
                label.setPos(*place)
                # Hang below the point, and to its left near the right edge, so it stays inside.
                label.setAnchor((1.0 if place[0] > 0.75 * self.shape[1] else 0.0, 0.0))
                label.setVisible(True)

    def _label_axis(self, name: str, values: Sequence[int], title: str) -> None:
        step = max(1, math.ceil(len(values) / _TICKS))
        ticks = [(index + 0.5, f"{value:,}") for index, value in enumerate(values) if index % step == 0]
        axis = self.getPlotItem().getAxis(name)
        axis.setTicks([ticks, []])
        self.getPlotItem().setLabel(name, title)

    def _label_colorbar(self, low: float, high: float, unit: str) -> None:
        axis = self.colorbar.axis
        length = max(float(self.colorbar.height()), 100.0)
        ticks = [
            # Counts as the charts' axes tick them ('500B', '1T', '1.50T'), not '500.00B'.
            [
                (value, human_tick(value) if unit == "params" else short_figure_text(value, unit))
                for value in values
            ]
            for _, values in axis.tickValues(low, high, length)
        ]
        axis.setTicks(ticks[:2] or [[]])

    # --- the pointer ------------------------------------------------------------------------------

    def cell_at(self, scene_pos: QPointF) -> tuple[int, int]:
        """The grid cell under a scene position, or (-1, -1)."""
        view = self.getPlotItem().getViewBox()
        if not view.sceneBoundingRect().contains(scene_pos):
            return (-1, -1)
        point = view.mapSceneToView(scene_pos)
        i, j = math.floor(point.x()), math.floor(point.y())
        rows, columns = self.shape
        return (i, j) if 0 <= i < columns and 0 <= j < rows else (-1, -1)

    def cell_center(self, i: int, j: int) -> QPoint:
        """Where cell (i, j) is on this widget's viewport (tests move the pointer there)."""
        view = self.getPlotItem().getViewBox()
        point: QPoint = self.mapFromScene(view.mapViewToScene(QPointF(i + 0.5, j + 0.5)))
        return point

    def mouseMoveEvent(self, ev: Any) -> None:
        # Every move, not the scene's sigMouseMoved: that drops a move within 1/60 s of the one
        # before, and a pointer that stopped right after one kept naming the cell it had left.
        super().mouseMoveEvent(ev)
        self._moved(self.mapToScene(ev.position().toPoint()))

    def _moved(self, scene_pos: QPointF) -> None:
        cell = self.cell_at(scene_pos)
        if cell != self._hover:
            self._hover = cell
            self.hovered.emit(*cell)

    def _clicked(self, event: Any) -> None:
        if event.button() != Qt.MouseButton.LeftButton or event.double():
            return
        cell = self.cell_at(event.scenePos())
        if cell != (-1, -1):
            self.clicked.emit(*cell)

    # --- colours ----------------------------------------------------------------------------------

    def apply_colors(self) -> None:
        super().apply_colors()
        colorbar = getattr(self, "colorbar", None)  # None while the plot is being built
        if colorbar is not None:
            text = chart_colors(self)[1]
            colorbar.axis.setTextPen(text)
            colorbar.axis.setPen(text)


class _Isoline(pg.IsocurveItem):
    """An IsocurveItem given its path (traced once per level, shared by the line and its halo)."""

    def __init__(self, pen: Any) -> None:
        super().__init__(pen=pen, axisOrder="row-major")
        self.path = QPainterPath()

    def set_path(self, path: QPainterPath, data: Any, level: float) -> None:
        """``path`` traced from ``data`` at ``level`` (pyqtgraph paints an item that has data)."""
        self.prepareGeometryChange()
        self.data, self.level, self.path = data, level, path
        self.update()

    def generatePath(self) -> None:  # the path is given, never traced here
        pass


def _path(lines: Any) -> QPainterPath:
    """contourpy's lines (arrays of points) as one path, each line on its own."""
    if not lines:
        return QPainterPath()
    points = np.concatenate(lines)
    connect = np.ones(len(points), dtype=np.int32)
    connect[np.cumsum([len(line) for line in lines]) - 1] = 0  # no segment from one line to the next
    path: QPainterPath = pg.arrayToQPath(points[:, 0], points[:, 1], connect=connect)
    return path


def _region(cells: Any) -> QPainterPath:
    """The cells that are True as one path: a rectangle per run of them in a row."""
    path = QPainterPath()
    steps = np.diff(np.pad(cells.astype(np.int8), ((0, 0), (1, 1))), axis=1)
    starts, stops = np.argwhere(steps == 1), np.argwhere(steps == -1)  # both in row order
    for (j, start), (_, stop) in zip(starts.tolist(), stops.tolist(), strict=True):
        path.addRect(QRectF(start, j, stop - start, 1.0))
    return path


def _levels(data: Any) -> tuple[float, float]:
    finite = data[np.isfinite(data)]
    if not finite.size:
        return 0.0, 1.0
    low, high = float(finite.min()), float(finite.max())
    if low == high:  # one colour: a range around it, so the bar still reads
        spread = abs(low) * 0.01 or 1.0
        return low - spread, high + spread
    return low, high


def _label_place(sweep: Sweep, level: float) -> tuple[float, float] | None:
    """Where a level's label goes: the top-left crossing core finds between neighbouring cells."""
    pairs = sweep.crossings(level)
    if not pairs:
        return None
    (i, j), (k, m) = max(pairs, key=lambda pair: (pair[1][1], -pair[0][0]))
    return (i + k) / 2 + 0.5, (j + m) / 2 + 0.5


def save_heatmap(
    result: Sweep, levels: Sequence[tuple[str, float]], current: tuple[int, int] | None, path: Path
) -> Path:
    """``result`` drawn as the tab draws it (iso-lines at ``levels``, ``current`` ringed) to
    ``path``, PNG or SVG by its suffix."""
    arch, scenario = result.arch, result.scenario
    if arch is None or scenario is None:
        raise ParamTallyError("there is no design space to draw")
    axes = (find_variable(result.x.name, arch).title, find_variable(result.y.name, arch).title)
    what = f"{result.figure.title} — {arch.name}"
    about = what + (f"; faded: does not fit {setup_text(result.setup)}" if result.fits is not None else "")
    note = f"Under the scenario: {scenario_text(scenario)}"
    with laid_out(Heatmap()) as copy:
        copy.show_sweep(result, levels, current, axes)
        copy.set_titles(*titles_with_note([html.escape(about), html.escape(what)], note))
        return save_view(copy, path, f"Design space — {about}")
