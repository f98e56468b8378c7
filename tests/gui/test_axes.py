"""The charts' axes draw their grid as filled pixels: the pixels of pyqtgraph's own aliased lines
(but for a line's last pixel at either end, which Qt picks by the direction it draws in), without
Qt's slow path for translucent lines."""

from __future__ import annotations

import math
from collections.abc import Callable

import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QPicture
from pytestqt.qtbot import QtBot

from paramtally.gui.views.axes import HumanAxis, covered
from paramtally.gui.views.svg_writer import svg_picture

_WHITE = QColor("white")


def _drawn(axis: HumanAxis, draw: Callable[[HumanAxis, QPainter], None], ratio: int) -> QImage:
    """The axis drawn by ``draw`` at ``ratio`` device pixels per pixel, its grid included."""
    bounds = axis.boundingRect()
    image = QImage(
        int(bounds.width() + 2) * ratio,
        int(bounds.height() + 2) * ratio,
        QImage.Format.Format_ARGB32_Premultiplied,
    )
    image.setDevicePixelRatio(ratio)
    image.fill(_WHITE)
    painter = QPainter(image)
    painter.translate(-bounds.topLeft())  # the grid of a bottom axis lies above it
    draw(axis, painter)
    painter.end()
    return image


def _ours(axis: HumanAxis, painter: QPainter) -> None:
    axis.picture = None
    axis.paint(painter, None, None)


def _pyqtgraphs(axis: HumanAxis, painter: QPainter) -> None:
    """What pyqtgraph's AxisItem.paint draws: its own drawPicture, recorded, then played."""
    picture = QPicture()
    recorder = QPainter(picture)
    pg.AxisItem.drawPicture(axis, recorder, *axis.generateDrawSpecs(recorder))
    recorder.end()
    picture.play(painter)


def _tick_lines(axis: HumanAxis) -> list[tuple[QPen, QPointF, QPointF]]:
    image = QImage(1, 1, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    lines = axis.generateDrawSpecs(painter)[1]
    painter.end()
    return lines  # type: ignore[no-any-return]


def _line_ends(axis: HumanAxis, ratio: int) -> set[tuple[int, int]]:
    """The device pixels within one of either end of each tick line, in the image ``_drawn`` paints."""
    offset = -axis.boundingRect().topLeft()
    ends = set()
    for _, *points in _tick_lines(axis):
        for point in points:
            x, y = math.floor((point.x() + offset.x()) * ratio), math.floor((point.y() + offset.y()) * ratio)
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


@pytest.mark.parametrize("ratio", [1, 2], ids=["1 device pixel per pixel", "2 (a high-DPI screen)"])
@pytest.mark.parametrize("tick_pen", [None, _dashed()], ids=["grid", "dashed ticks (drawn by pyqtgraph)"])
@pytest.mark.parametrize(("orientation", "span"), [("left", (0.0, 83.7e9)), ("bottom", (-0.3, 95.6))])
def test_the_grid_covers_the_pixels_of_pyqtgraphs_lines(
    qtbot: QtBot, orientation: str, span: tuple[float, float], tick_pen: QPen | None, ratio: int
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
    ours, theirs = _drawn(axis, _ours, ratio), _drawn(axis, _pyqtgraphs, ratio)
    assert _marked(theirs) > 2000 * ratio  # the grid (tens of lines across the plot) and the tick labels
    width, height = theirs.width(), theirs.height()
    differ = {(x, y) for y in range(height) for x in range(width) if ours.pixel(x, y) != theirs.pixel(x, y)}
    assert not differ - _line_ends(axis, ratio), sorted(differ - _line_ends(axis, ratio))[:20]


def test_a_line_covers_the_pixels_from_the_floor_of_one_end_to_the_floor_of_the_other() -> None:
    assert covered(268.9, 268.9) == (268, 1)
    assert covered(0.0, 0.0) == (0, 1)
    assert covered(598.5, 64.0) == (64, 535)  # either way round
    assert covered(-335.0, 0.0) == (-335, 336)


def test_an_svg_keeps_the_grid_as_lines(qtbot: QtBot) -> None:
    axis = HumanAxis("bottom")
    plot = pg.PlotWidget(axisItems={"bottom": axis})
    qtbot.addWidget(plot)
    plot.showGrid(x=True, y=True, alpha=0.15)
    plot.resize(613, 357)
    plot.show()
    qtbot.waitExposed(plot)
    plot.setRange(xRange=(-0.3, 95.6), padding=0)
    lines = len(_tick_lines(axis))
    text = svg_picture(lambda painter: axis.paint(painter, None, None), plot.size(), "axis").decode()
    assert "<image" not in text  # no pixels filled in: lines a vector editor can restyle
    assert text.count("<path") >= lines > 10
