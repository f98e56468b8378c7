"""A pyqtgraph axis that labels ticks in human units (175.22B, 80 GiB) instead of 1e11, and draws
its faint grid on screen as filled pixels rather than translucent lines (the lines' pixels, in a
fraction of the time)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPaintEngine, QPainter, QPen, QTransform

from paramtally.core.count.breakdown import human
from paramtally.core.typed_numbers import GIB

__all__ = ["HumanAxis", "covered", "gib_tick", "human_tick"]


def human_tick(value: float) -> str:
    """Round ticks read better without trailing zeros: '50B', '1.50B'."""
    if not value:
        return "0"
    text = human(value)
    return text.replace(".00", "") if text[-1].isalpha() else text


def gib_tick(value: float) -> str:
    return f"{value / GIB:,.0f} GiB" if abs(value) >= 10 * GIB else f"{value / GIB:,.1f} GiB"


class HumanAxis(pg.AxisItem):
    """Ticks formatted by ``formatter``; ``setTicks`` (categories) still overrides it.

    ``unit`` makes tick spacing round in that unit (2³⁰ for GiB) while the data stay in bytes.
    """

    def __init__(
        self,
        orientation: str,
        formatter: Callable[[float], str] | None = human_tick,
        unit: float = 1.0,
        **kwargs: Any,
    ) -> None:
        super().__init__(orientation, **kwargs)
        self.formatter = formatter
        self.unit = unit
        self.enableAutoSIPrefix(False)
        # Label the minor ticks only when they leave plenty of air (a tall per-layer chart
        # otherwise gets a label every 100M).
        self.setStyle(textFillLimits=[(0, 0.8), (2, 0.3)])

    def tickSpacing(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, float]]:
        if self.unit == 1.0:
            return super().tickSpacing(minVal, maxVal, size)
        spacings = super().tickSpacing(minVal / self.unit, maxVal / self.unit, size)
        return [(spacing * self.unit, offset * self.unit) for spacing, offset in spacings]

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        if self.formatter is None:
            # Integers (layer indices) without a decimal point.
            return [f"{v:.0f}" if spacing >= 1 else f"{v:g}" for v in values]
        return [self.formatter(v * scale) for v in values]

    # Device pixels per pixel of what it was last painted on; None: not pixels (an SVG export),
    # where the grid stays lines.
    _ratio: float | None = 1.0

    def paint(self, p: QPainter, *args: Any) -> None:
        # The grid is counted in device pixels: on a screen of another pixel ratio, or drawn into
        # an export, it is made again for it.
        device, engine = p.device(), p.paintEngine()
        raster = device is not None and engine is not None and engine.type() == QPaintEngine.Type.Raster
        ratio = device.devicePixelRatioF() if raster else None
        if ratio != self._ratio:
            self._ratio, self.picture = ratio, None
        super().paint(p, *args)

    def drawPicture(self, p: QPainter, axisSpec: Any, tickSpecs: Any, textSpecs: Any) -> None:
        # Qt's raster engine draws an aliased, translucent line one pixel at a time: a chart's grid
        # (each tick drawn across the plot at 15% opacity) took 8–19 ms of every repaint of a chart.
        # The same pixels, filled (a horizontal line is one span; vertical ones are one row of
        # pixels repeated down the rows they cover), take under a millisecond.
        if self._ratio is None:
            super().drawPicture(p, axisSpec, tickSpecs, textSpecs)
            return
        grid = _PixelLines(self._ratio)
        rest = [(pen, start, end) for pen, start, end in tickSpecs if not grid.add(pen, start, end)]
        grid.draw(p)
        super().drawPicture(p, axisSpec, rest, textSpecs)


def covered(a: float, b: float) -> tuple[int, int]:
    """The first pixel and the number of pixels a one-pixel line from ``a`` to ``b`` along one axis
    covers (or across it, for a == b): from ⌊a⌋ to ⌊b⌋. Qt's own aliased line covers the same,
    but for the pixel at either end, which it picks by the direction it draws in."""
    first, last = sorted((a, b))
    return math.floor(first), math.floor(last) - math.floor(first) + 1


class _PixelLines:
    """Lines one device pixel wide along the axes, collected and then filled as pixels.

    Counted in device pixels (``ratio`` per logical one) in the axis's own coordinates: the plot's
    layout puts the axis on whole pixels.
    """

    def __init__(self, ratio: float = 1.0) -> None:
        self.ratio = ratio
        self.rows: list[tuple[tuple[int, int], int, QColor]] = []  # (first x, width), y, colour
        self.columns: dict[tuple[int, int], list[tuple[int, QColor]]] = {}  # (first y, height) → x, colour

    def add(self, pen: QPen, start: QPointF, end: QPointF) -> bool:
        """Take the line if it is one of ours to fill (a plain pen, along an axis)."""
        solid = pen.style() == Qt.PenStyle.SolidLine and pen.brush().style() == Qt.BrushStyle.SolidPattern
        if not (solid and pen.isCosmetic() and pen.widthF() <= 1):
            return False
        r = self.ratio
        if start.y() == end.y():
            self.rows.append((covered(start.x() * r, end.x() * r), math.floor(start.y() * r), pen.color()))
        elif start.x() == end.x():
            lines = self.columns.setdefault(covered(start.y() * r, end.y() * r), [])
            lines.append((math.floor(start.x() * r), pen.color()))
        else:
            return False
        return True

    def draw(self, p: QPainter) -> None:
        unit = 1 / self.ratio  # one device pixel, in the painter's coordinates
        for (x, width), y, color in self.rows:
            p.fillRect(QRectF(x * unit, y * unit, width * unit, unit), color)
        for (y, height), lines in self.columns.items():
            x, row = _row_image(lines)
            texture = QBrush(row)
            # One texel per device pixel, the row's first on the first line.
            texture.setTransform(QTransform(unit, 0, 0, unit, x * unit, y * unit))
            p.fillRect(QRectF(x * unit, y * unit, row.width() * unit, height * unit), texture)


def _row_image(lines: list[tuple[int, QColor]]) -> tuple[int, QImage]:
    """Vertical lines at their pixel columns, in their colours, as one row of pixels (and its first
    column)."""
    first = min(column for column, _ in lines)
    row = QImage(max(column for column, _ in lines) - first + 1, 1, QImage.Format.Format_ARGB32_Premultiplied)
    row.fill(Qt.GlobalColor.transparent)
    painter = QPainter(row)
    for column, color in lines:
        painter.fillRect(column - first, 0, 1, 1, color)  # blended, as lines drawn over each other are
    painter.end()
    return first, row
