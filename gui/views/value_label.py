"""A bar's value label: plain text pinned to a point of the data, drawn at a fixed pixel size.

pyqtgraph's TextItem lays out a rich-text document and maps its transform again whenever the view
range moves (every edit moves it), about 0.2 ms a label; this item ignores the view's scaling
instead (Qt places it), so an edit only sets its text and position. It looks as a TextItem with
``anchor=(0, 0.5)`` does: the text starts 4 pixels right of the point (a text document's margin),
centred on it.
"""

from __future__ import annotations

from collections.abc import Iterable

import pyqtgraph as pg
from PySide6.QtGui import QColor, QFontMetricsF, QTransform
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSimpleTextItem

__all__ = ["MARGIN", "ValueLabel", "labels_inside"]

MARGIN = 4.0  # QTextDocument's default margin, which a TextItem leaves left of its text


class ValueLabel(QGraphicsSimpleTextItem):
    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        # Only the font's line height matters, so the offset is set once, not per text.
        height = QFontMetricsF(self.font()).height()
        self.setTransform(QTransform.fromTranslate(MARGIN, -height / 2))

    def setColor(self, color: QColor) -> None:  # as pyqtgraph's TextItem names it
        self.setBrush(QColor(color))


def labels_inside(plot: pg.PlotWidget, labels: Iterable[QGraphicsItem]) -> bool:
    """True when every visible label (or legend) lies within the plot area (the layout tests check it)."""
    view = plot.getPlotItem().getViewBox()
    view.prepareForPaint()  # the data-to-pixel transform of the next paint (it is set lazily)
    # The plot area as far as the widget shows it: a plot wider than its widget ran off its edge.
    shown = plot.mapToScene(plot.viewport().rect()).boundingRect()
    area = view.sceneBoundingRect().intersected(shown).adjusted(-1, -1, 1, 1)
    # A label ignores the view's scaling: its device transform, not its scene one, places it.
    to_device = plot.viewportTransform()
    to_scene = to_device.inverted()[0]
    return all(
        area.contains(to_scene.mapRect(label.deviceTransform(to_device).mapRect(label.boundingRect())))
        for label in labels
        if label.isVisible()
    )
