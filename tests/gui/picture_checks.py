"""Reading exported pictures back: SVG text with its place on the page, PNG size and content.

``svg_texts`` parses the SVG with xml.etree and composes each ``<g transform>`` down to its
``<text>``, so a label's page position is known exactly, the way a viewer would place it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PySide6.QtCore import QRectF
from PySide6.QtGui import QFont, QFontMetricsF, QImage

__all__ = ["SvgText", "content_box", "svg_texts"]

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


def content_box(image: QImage) -> QRectF:
    """The rectangle holding every pixel that differs from the top-left corner's (the background)."""
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    pixels = np.frombuffer(
        image.constBits(), dtype=np.uint32, count=image.height() * image.bytesPerLine() // 4
    )
    pixels = pixels.reshape(image.height(), image.bytesPerLine() // 4)[:, : image.width()]
    rows, columns = np.nonzero(pixels != pixels[0, 0])
    if not len(rows):
        return QRectF()
    return QRectF(columns.min(), rows.min(), columns.max() - columns.min() + 1, rows.max() - rows.min() + 1)
