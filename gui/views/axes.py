"""A pyqtgraph axis that labels ticks in human units (175.22B, 80 GiB) instead of 1e11, and draws
its faint grid as filled pixels rather than translucent lines (the same pixels, far quicker)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPen, QTransform

from paramtally.core.breakdown import human

__all__ = ["HumanAxis", "covered", "gib_tick", "human_tick"]


def human_tick(value: float) -> str:
    """Round ticks read better without trailing zeros: '50B', '1.50B'."""
    if not value:
        return "0"
    text = human(value)
    return text.replace(".00", "") if text[-1].isalpha() else text


def gib_tick(value: float) -> str:
    return f"{value / 1024**3:,.0f} GiB" if abs(value) >= 10 * 1024**3 else f"{value / 1024**3:,.1f} GiB"


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

    def drawPicture(self, p: QPainter, axisSpec: Any, tickSpecs: Any, textSpecs: Any) -> None:
        # Qt's raster engine draws an aliased, translucent line one pixel at a time: a chart's grid
        # (each tick drawn across the plot at 15% opacity) took 8–19 ms of every repaint of a chart.
        # The same pixels, filled as rectangles (a horizontal line is one span) and, for vertical
        # lines, as one row of pixels repeated down the rows they cover, take under a millisecond.
        # Pixels are counted in the axis's own coordinates: the plot's layout puts it on whole pixels.
        rest, columns = [], {}
        for pen, start, end in tickSpecs:
            if not _plain(pen):
                rest.append((pen, start, end))
            elif start.y() == end.y():
                x, width = covered(start.x(), end.x())
                p.fillRect(QRect(x, covered(start.y(), end.y())[0], width, 1), pen.color())
            elif start.x() == end.x():
                columns.setdefault(covered(start.y(), end.y()), []).append((start.x(), pen.color()))
            else:
                rest.append((pen, start, end))
        for (y, height), lines in columns.items():
            x, row = _row_image(lines)
            texture = QBrush(row)
            texture.setTransform(QTransform.fromTranslate(x, y))  # the row's first pixel on the first line
            p.fillRect(QRect(x, y, row.width(), height), texture)
        super().drawPicture(p, axisSpec, rest, textSpecs)


def _plain(pen: QPen) -> bool:
    """A solid one-pixel pen of one colour: its line is the pixels ``covered`` says."""
    solid = pen.style() == Qt.PenStyle.SolidLine and pen.brush().style() == Qt.BrushStyle.SolidPattern
    return solid and pen.isCosmetic() and pen.widthF() <= 1


def covered(a: float, b: float) -> tuple[int, int]:
    """The first pixel and the number of pixels a one-pixel line from ``a`` to ``b`` along one axis
    covers (or across it, for a == b): from ⌊a⌋ to ⌊b⌋. Qt's own aliased line covers the same,
    but for the pixel at either end, which it picks by the direction it draws in."""
    first, last = sorted((a, b))
    return math.floor(first), math.floor(last) - math.floor(first) + 1


def _row_image(lines: list[tuple[float, QColor]]) -> tuple[int, QImage]:
    """Vertical lines at their x, in their colours, as one row of pixels (and its first column)."""
    columns = [covered(x, x)[0] for x, _ in lines]
    first = min(columns)
    row = QImage(max(columns) - first + 1, 1, QImage.Format.Format_ARGB32_Premultiplied)
    row.fill(Qt.GlobalColor.transparent)
    painter = QPainter(row)
    for column, (_, color) in zip(columns, lines, strict=True):
        painter.fillRect(column - first, 0, 1, 1, color)  # blended, as lines drawn over each other are
    painter.end()
    return first, row
