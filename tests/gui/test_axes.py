"""The charts' axes draw their grid as filled pixels: the pixels of pyqtgraph's own aliased lines
(but for a line's last pixel at either end, which Qt picks by the direction it draws in), without
Qt's slow path for translucent lines."""

from __future__ import annotations

import math
from collections.abc import Callable

import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from pytestqt.qtbot import QtBot

from paramtally.gui.views.axes import HumanAxis, covered

_WHITE = QColor("white")


def _drawn(axis: HumanAxis, draw: Callable[..., None], size: tuple[int, int]) -> QImage:
    image = QImage(*size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(_WHITE)
    painter = QPainter(image)
    painter.translate(-axis.boundingRect().topLeft())  # the grid of a bottom axis lies above it
    draw(axis, painter, *axis.generateDrawSpecs(painter))
    painter.end()
    return image


def _line_ends(axis: HumanAxis) -> set[tuple[int, int]]:
    """The pixels within one of either end of each tick line, in the image ``_drawn`` paints."""
    offset = -axis.boundingRect().topLeft()
    image = QImage(1, 1, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    lines = axis.generateDrawSpecs(painter)[1]
    painter.end()
    ends = set()
    for _, *points in lines:
        for point in points:
            x, y = math.floor(point.x() + offset.x()), math.floor(point.y() + offset.y())
            ends |= {(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    return ends


def _marked(image: QImage) -> int:
    white = _WHITE.rgba()
    return sum(image.pixel(x, y) != white for y in range(image.height()) for x in range(image.width()))


def _dashed() -> QPen:
    pen = QPen(QColor(0, 0, 0, 90))
    pen.setCosmetic(True)
    pen.setStyle(Qt.PenStyle.DashLine)
    return pen


@pytest.mark.parametrize("tick_pen", [None, _dashed()], ids=["grid", "dashed ticks (drawn by pyqtgraph)"])
@pytest.mark.parametrize(("orientation", "span"), [("left", (0.0, 83.7e9)), ("bottom", (-0.3, 95.6))])
def test_the_grid_covers_the_pixels_of_pyqtgraphs_lines(
    qtbot: QtBot, orientation: str, span: tuple[float, float], tick_pen: QPen | None
) -> None:
    axis = HumanAxis(orientation)
    if tick_pen is not None:
        axis.setTickPen(tick_pen)
    plot = pg.PlotWidget(axisItems={orientation: axis})
    qtbot.addWidget(plot)
    plot.showGrid(x=True, y=True, alpha=0.15)
    plot.resize(613, 357)
    plot.show()
    qtbot.waitExposed(plot)
    if orientation == "left":
        plot.setRange(yRange=span, padding=0)
    else:
        plot.setRange(xRange=span, padding=0)
    bounds = axis.boundingRect()
    size = (int(bounds.width()) + 2, int(bounds.height()) + 2)
    ours, theirs = _drawn(axis, HumanAxis.drawPicture, size), _drawn(axis, pg.AxisItem.drawPicture, size)
    assert _marked(theirs) > 2000  # the grid (tens of lines across the plot) and the tick labels
    width, height = size
    differ = {(x, y) for y in range(height) for x in range(width) if ours.pixel(x, y) != theirs.pixel(x, y)}
    assert not differ - _line_ends(axis), sorted(differ - _line_ends(axis))[:20]


def test_a_line_covers_the_pixels_from_the_floor_of_one_end_to_the_floor_of_the_other() -> None:
    assert covered(268.9, 268.9) == (268, 1)
    assert covered(0.0, 0.0) == (0, 1)
    assert covered(598.5, 64.0) == (64, 535)  # either way round
    assert covered(-335.0, 0.0) == (-335, 336)
