"""Save a chart as PNG or SVG at a fixed landscape size, drawn as it is on screen; atomically.

A chart is saved from a copy of its view made at ``EXPORT_SIZE`` (the on-screen widget's size
depends on the window: a narrow one gave a portrait picture with clipped labels). The copy is
laid out off screen and drawn with ``QGraphicsView.render`` into a QImage (PNG, twice the size
for sharp text on slides) or ``svg_writer.svg_picture`` (SVG that librsvg and browsers draw
whole; Qt's QSvgGenerator writes clips and pens only Qt draws right). The whole view is drawn,
not a scene rectangle: pyqtgraph places its text labels and clips its grid for the view.
pyqtgraph's own SVGExporter is not used: it fails with PySide6 ≥ 6.11 (pyqtgraph issue #3495).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import shiboken6
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, QSize, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication, QFrame, QGraphicsView, QWidget

from paramtally.core.errors import ParamTallyError
from paramtally.core.io.atomic import write_bytes_atomic
from paramtally.core.io.formats import CHARTS, formats_for
from paramtally.gui.i18n import translate
from paramtally.gui.views.svg_writer import svg_picture

__all__ = ["EXPORT_SIZE", "FORMATS", "PNG_SCALE", "laid_out", "save_view", "say_exported", "settle"]

FORMATS = tuple(form.suffix for form in formats_for(*CHARTS) if form.picture)  # the registry's pictures
EXPORT_SIZE = QSize(960, 600)  # 16:10, the proportions of a slide or a laptop screen
PNG_SCALE = 2  # a PNG is 1920×1200 pixels: the 960×600 picture at twice the resolution

View = TypeVar("View", bound=QGraphicsView)


def _suffix(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        shown = " or ".join(FORMATS)
        raise ParamTallyError(f"{path.name}: charts are saved as {shown}, not '{suffix or 'no suffix'}'")
    return suffix


@contextmanager
def laid_out(view: View, size: QSize = EXPORT_SIZE) -> Iterator[View]:
    """``view`` sized and laid out without appearing on screen; deleted afterwards."""
    view.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
    view.setFrameShape(QFrame.Shape.NoFrame)  # the picture is the viewport, edge to edge
    view.resize(size)
    view.show()
    settle()
    try:
        yield view
    finally:
        view.close()
        # Deleted now, by the Python that made it and owns it: deleteLater() left Qt deleting later
        # a widget Python still owned, as the window's placeholder did when a test worker crashed.
        shiboken6.delete(view)


def settle() -> None:
    # Layouts (pyqtgraph's plot, axes and title) settle through posted events; no input is handled.
    for _ in range(3):
        QApplication.sendPostedEvents()


def save_view(view: QGraphicsView, path: Path, title: str) -> Path:
    """Draw the whole of ``view`` (laid out at its size) to ``path``, PNG or SVG by its suffix."""
    _suffix(path)  # a wrong suffix is refused before anything is drawn
    settle()  # the data set after laying out may have moved axes and titles
    data = _svg(view, title) if path.suffix.lower() == ".svg" else _png(view)
    write_bytes_atomic(path, data)
    return path


def _draw(view: QGraphicsView, painter: QPainter, target: QRectF) -> None:
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    view.render(painter, target, view.viewport().rect())
    painter.end()


def _png(view: QGraphicsView) -> bytes:
    size = view.viewport().size()
    image = QImage(size * PNG_SCALE, QImage.Format.Format_ARGB32)
    # Twice the pixels of the same picture: drawn at the view's own size on a device of twice
    # the pixel density. Scaling the painter instead left labels that ignore the view's scaling
    # (the bars' values, the memory parts' names) at half their size.
    image.setDevicePixelRatio(PNG_SCALE)
    image.fill(Qt.GlobalColor.transparent)
    _draw(view, QPainter(image), QRectF(0, 0, size.width(), size.height()))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise ParamTallyError("could not encode the chart as PNG")
    buffer.close()
    return bytes(data.data())


def _svg(view: QGraphicsView, title: str) -> bytes:
    size = view.viewport().size()
    return svg_picture(
        lambda painter: _draw(view, painter, QRectF(0, 0, size.width(), size.height())),
        size,
        title,
        "Made with ParamTally",
        # Fonts in points become the same pixel sizes as on screen.
        dpi=view.logicalDpiX(),
    )


def say_exported(widget: QWidget, target: Path) -> None:
    """'Exported …' in the status bar of ``widget``'s window, when it has one (a tab's own Export)."""
    status = getattr(widget.window(), "statusBar", None)
    if callable(status):
        status().showMessage(translate("Export", "Exported {path}").format(path=target), 5000)
