"""Reading exported pictures back: SVG text with its place on the page, PNG size and content,
and an SVG drawn where people open it.

``svg_texts`` parses the SVG with xml.etree and composes each ``<g transform>`` down to its
``<text>``, so a label's page position is known exactly, the way a viewer would place it.
``drawn_in`` draws an SVG outside Qt, in librsvg (what GNOME, Inkscape's import and most
converters draw with) or headless Chromium; ``lost_drawing`` says how much of the PNG export's
drawing such a picture misses.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QImage, QPainter

__all__ = ["MOST_LOST", "VIEWERS", "SvgText", "content_box", "drawn_in", "lost_drawing", "rgb", "svg_texts"]

_SVG = "{http://www.w3.org/2000/svg}"
_NUMBER = r"[-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?"
Affine = tuple[float, float, float, float, float, float]  # SVG's matrix(a, b, c, d, e, f)
_IDENTITY: Affine = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class SvgText:
    text: str
    x: float  # start of the baseline on the page
    y: float
    size: float  # font size in page units

    def box(self) -> QRectF:
        """The text's box on the page, measured with the font the SVG names (DejaVu here)."""
        font = QFont("Sans Serif")
        font.setPixelSize(max(1, round(self.size)))
        metrics = QFontMetricsF(font)
        return QRectF(
            self.x, self.y - metrics.ascent(), metrics.horizontalAdvance(self.text), metrics.height()
        )


def _compose(outer: Affine, inner: Affine) -> Affine:
    a, b, c, d, e, f = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (
        a * a2 + c * b2,
        b * a2 + d * b2,
        a * c2 + c * d2,
        b * c2 + d * d2,
        a * e2 + c * f2 + e,
        b * e2 + d * f2 + f,
    )


def _transform(text: str | None) -> Affine:
    result = _IDENTITY
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", text or ""):
        values = [float(v) for v in re.findall(_NUMBER, args)]
        if name == "matrix":
            step: Affine = (values[0], values[1], values[2], values[3], values[4], values[5])
        elif name == "translate":
            step = (1.0, 0.0, 0.0, 1.0, values[0], values[1] if len(values) > 1 else 0.0)
        elif name == "scale":
            step = (values[0], 0.0, 0.0, values[-1], 0.0, 0.0)
        else:
            raise AssertionError(f"unexpected SVG transform {name}")
        result = _compose(result, step)
    return result


def svg_texts(path: Path) -> list[SvgText]:
    """Every non-empty ``<text>`` of the SVG with its page position (the viewBox's units)."""
    found: list[SvgText] = []

    def walk(element: ET.Element, matrix: Affine) -> None:
        matrix = _compose(matrix, _transform(element.get("transform")))
        if element.tag == f"{_SVG}text":
            content = "".join(element.itertext()).strip()
            if content:
                x, y = float(element.get("x", "0")), float(element.get("y", "0"))
                a, b, c, d, e, f = matrix
                size = float(element.get("font-size", "12")) * abs(d)
                found.append(SvgText(content, a * x + c * y + e, b * x + d * y + f, size))
            return
        for child in element:
            walk(child, matrix)

    walk(ET.parse(path).getroot(), _IDENTITY)
    return found


def _pixels(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    pixels = np.frombuffer(
        image.constBits(), dtype=np.uint32, count=image.height() * image.bytesPerLine() // 4
    )
    return pixels.reshape(image.height(), image.bytesPerLine() // 4)[:, : image.width()]


def content_box(image: QImage) -> QRectF:
    """The rectangle holding every pixel that differs from the top-left corner's (the background)."""
    pixels = _pixels(image)
    rows, columns = np.nonzero(pixels != pixels[0, 0])
    if not len(rows):
        return QRectF()
    return QRectF(columns.min(), rows.min(), columns.max() - columns.min() + 1, rows.max() - rows.min() + 1)


def rgb(image: QImage) -> np.ndarray:
    """The picture's pixels as rows × columns × (red, green, blue)."""
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    data = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.height() * image.bytesPerLine())
    rows = data.reshape(image.height(), image.bytesPerLine())[:, : image.width() * 3]
    return rows.reshape(image.height(), image.width(), 3).astype(int)


def _on_white(image: QImage) -> np.ndarray:
    """``image`` laid over white (a viewer's page), as rows × columns × (red, green, blue)."""
    page = QImage(image.size(), QImage.Format.Format_RGB32)
    page.fill(Qt.GlobalColor.white)
    painter = QPainter(page)
    painter.drawImage(0, 0, image)
    painter.end()
    return rgb(page)


def lost_drawing(png: QImage, other: QImage, reach: int = 1, faint: int = 16) -> float:
    """The share of the PNG's drawn pixels — those more than ``faint`` (of 255) unlike its
    background, the top-left corner's colour — with nothing drawn within ``reach`` pixels of them
    in ``other``, a picture of the same size laid on the same white page. Anti-aliasing moves an
    edge by a pixel; a lost axis, grid, dashed line or pie is gone altogether."""
    assert (png.width(), png.height()) == (other.width(), other.height()), (png.size(), other.size())
    ours, theirs = _on_white(png), _on_white(other)
    background = ours[0, 0]
    drawn = np.abs(ours - background).max(axis=2) > faint
    near = np.abs(theirs - background).max(axis=2) > faint
    window = 2 * reach + 1
    near = sliding_window_view(np.pad(near, reach), (window, window)).any(axis=(2, 3))
    return float((drawn & ~near).sum() / max(1, drawn.sum()))


VIEWERS = ("librsvg", "chromium")  # where an exported SVG is checked: GNOME's and a browser's
MOST_LOST = 0.03  # of a PNG export's drawn pixels, missing where a viewer draws the SVG export


def drawn_in(viewer: str, svg: Path, like: QImage) -> QImage:
    """``svg`` drawn by ``viewer`` at the size of ``like`` (a PNG export of twice the page's
    pixels). Chromium's absence skips the test; librsvg's fails it: the test extras install it."""
    out = svg.with_suffix(f".{viewer}.png")
    width, height = like.width(), like.height()
    if viewer == "librsvg":
        tool = shutil.which("rsvg-convert")
        if tool is None:
            pytest.fail("rsvg-convert is not installed (Debian: librsvg2-bin; `bash install.sh --test`)")
        command = [tool, "--width", str(width), "--height", str(height), "--output", str(out), str(svg)]
    else:
        tool = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
        if tool is None:
            pytest.skip("no Chromium to open the SVG in")
        scale = 2  # the page's pixels at twice the density, as the PNG
        command = [
            tool, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            f"--force-device-scale-factor={scale}", f"--window-size={width // scale},{height // scale}",
            f"--user-data-dir={svg.parent / 'chromium-profile'}", f"--screenshot={out}", svg.as_uri(),
        ]  # fmt: skip
    subprocess.run(command, check=True, capture_output=True, timeout=120)
    drawn = QImage(str(out))
    assert not drawn.isNull(), f"{viewer} drew nothing from {svg.name}"
    return drawn
