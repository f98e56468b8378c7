"""The SVG writer (gui/views/svg_writer.py) draws in librsvg what the painter drew: what Qt's own
SVG generator got wrong, each drawn by librsvg and read back pixel by pixel."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
from PySide6.QtCore import QLineF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from pytestqt.qtbot import QtBot

from paramtally.gui.views.svg_writer import svg_picture
from tests.gui.picture_checks import drawn_in, rgb

SIZE = QSize(200, 100)
RED, BLUE = QColor("#ff0000"), QColor("#0000ff")


def _drawn(paint: Callable[[QPainter], None], folder: Path) -> np.ndarray:
    """What librsvg draws of the SVG ``paint`` makes, at the page's own size."""
    svg = folder / "picture.svg"
    svg.write_bytes(svg_picture(paint, SIZE, "test"))
    return rgb(drawn_in("librsvg", svg, QImage(SIZE, QImage.Format.Format_ARGB32)))


def _is(pixel: np.ndarray, color: QColor) -> bool:
    return bool(np.abs(pixel - np.array(color.getRgb()[:3])).max() <= 8)


def test_a_clip_ends_with_restore(qtbot: QtBot, tmp_path: Path) -> None:
    """Qt's writer kept a restored clip (under the view's own, as QGraphicsView.render sets it): the
    pie drawn after its title was inside the title's box."""

    def paint(painter: QPainter) -> None:
        painter.setClipRect(QRectF(0, 0, 200, 100))
        painter.save()
        painter.setClipRect(QRectF(0, 0, 20, 20))
        painter.fillRect(QRectF(0, 0, 200, 100), RED)
        painter.restore()
        painter.fillRect(QRectF(100, 40, 60, 40), BLUE)

    pixels = _drawn(paint, tmp_path)
    assert _is(pixels[10, 10], RED) and _is(pixels[60, 130], BLUE)
    assert not _is(pixels[60, 50], RED)  # the red stayed inside its clip


def test_a_clip_switched_off_draws_everywhere(qtbot: QtBot, tmp_path: Path) -> None:
    """pyqtgraph's axis sets a clip for its labels and leaves it; the next item switches it off."""

    def paint(painter: QPainter) -> None:
        painter.setClipRect(QRectF(0, 0, 20, 20))
        painter.fillRect(QRectF(0, 0, 200, 100), RED)
        painter.setClipping(False)
        painter.setPen(QPen(BLUE, 10))
        painter.drawLine(QLineF(100, 60, 180, 60))

    assert _is(_drawn(paint, tmp_path)[60, 130], BLUE)


def test_a_clip_in_data_units_stays_exact(qtbot: QtBot, tmp_path: Path) -> None:
    """A plot's clip set under a transform of 1e-9 (billions of parameters to pixels): the writer
    follows the clip itself, as QPainter.clipPath() gives it back through whole numbers (a first
    draft of the writer drew the bar chart's plot 14 px wide where it is 869)."""

    def paint(painter: QPainter) -> None:
        painter.scale(1e-9, 1)
        painter.setClipRect(QRectF(0, 0, 150e9, 100))
        painter.fillRect(QRectF(0, 0, 200e9, 100), RED)

    pixels = _drawn(paint, tmp_path)
    assert _is(pixels[50, 140], RED) and not _is(pixels[50, 160], RED)


def test_a_cosmetic_dashed_pen_dashes_in_page_pixels(qtbot: QtBot, tmp_path: Path) -> None:
    """pyqtgraph's capacity line: a cosmetic pen 2 px wide, dashed (4 on, 2 off, in widths), drawn
    in data units scaled by 1e-9. Qt's writer counted the dashes in data units: no dash showed."""

    def paint(painter: QPainter) -> None:
        painter.scale(1e-9, 1)
        pen = QPen(RED, 2, Qt.PenStyle.DashLine, Qt.PenCapStyle.FlatCap)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.drawLine(QLineF(0, 50, 200e9, 50))

    row = _drawn(paint, tmp_path)[50]
    on = np.array([_is(pixel, RED) for pixel in row])
    starts = np.flatnonzero(on[1:] & ~on[:-1]) + 1
    assert len(starts) >= 10 and set(np.diff(starts)) <= {11, 12, 13}  # 8 px dash + 4 px gap
    assert 0.55 < on.mean() < 0.75


def test_text_is_text(qtbot: QtBot) -> None:
    def paint(painter: QPainter) -> None:
        painter.setPen(RED)
        painter.drawText(20, 50, "175,221,817,344 < parameters & more")

    svg = svg_picture(paint, SIZE, "a & b").decode()
    assert ">175,221,817,344 &lt; parameters &amp; more</text>" in svg
    assert "<title>a &amp; b</title>" in svg and "font-family=\"'DejaVu Sans', sans-serif\"" in svg
