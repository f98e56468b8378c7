"""Save a chart to PNG or SVG, atomically (a crash never leaves half a file).

PNG of a pyqtgraph plot goes through pyqtgraph's ImageExporter; SVG goes through QSvgGenerator
because pyqtgraph's SVGExporter fails with PySide6 6.11+ (pyqtgraph issue #3495, see QT.md).
"""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
from pyqtgraph.exporters import ImageExporter
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, QSize, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsScene

from paramtally.core.atomic import write_bytes_atomic
from paramtally.core.errors import ParamTallyError

__all__ = ["FORMATS", "save_plot", "save_scene"]

FORMATS = (".png", ".svg")


def _suffix(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise ParamTallyError(f"{path.name}: charts are saved as .png or .svg, not '{suffix or 'no suffix'}'")
    return suffix


def _png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise ParamTallyError("could not encode the chart as PNG")
    buffer.close()
    return bytes(data.data())


def save_plot(plot: pg.PlotItem, path: Path, width: int = 1600) -> Path:
    """A pyqtgraph plot item (axes, title and all) to PNG or SVG."""
    if _suffix(path) == ".svg":
        return save_scene(plot.scene(), plot.sceneBoundingRect(), path)
    exporter = ImageExporter(plot)
    exporter.parameters()["width"] = width
    image = exporter.export(toBytes=True)
    write_bytes_atomic(path, _png_bytes(image))
    return path


def save_scene(scene: QGraphicsScene, source: QRectF, path: Path, scale: float = 2.0) -> Path:
    """A rectangle of any QGraphicsScene (the pie) to SVG, or to PNG at ``scale`` times its size."""
    size = QSize(int(source.width()), int(source.height()))
    if _suffix(path) == ".svg":
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        generator = QSvgGenerator()
        generator.setOutputDevice(buffer)
        generator.setSize(size)
        generator.setViewBox(QRectF(0, 0, size.width(), size.height()))
        generator.setTitle("ParamTally chart")
        _render(scene, source, generator)
        buffer.close()
        write_bytes_atomic(path, bytes(data.data()))
        return path
    image = QImage(size * scale, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    _render(scene, source, image)
    write_bytes_atomic(path, _png_bytes(image))
    return path


def _render(scene: QGraphicsScene, source: QRectF, device: QSvgGenerator | QImage) -> None:
    painter = QPainter(device)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    scene.render(painter, QRectF(), source)
    painter.end()
