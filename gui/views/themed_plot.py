"""A pyqtgraph plot that follows the window's light or dark palette."""

from __future__ import annotations

from collections.abc import Iterable

import pyqtgraph as pg
from PySide6.QtCore import QEvent

from paramtally.gui.views.palette import chart_colors

__all__ = ["ThemedPlot"]


class ThemedPlot(pg.PlotWidget):
    """Background, axes, title and ``themed_labels()`` take the palette's base and text colours."""

    themed_axes: tuple[str, ...] = ("left",)

    def themed_labels(self) -> Iterable[pg.TextItem]:
        return ()

    def changeEvent(self, event: QEvent) -> None:
        # A child hears of a new palette after its parent: only here is its own palette current.
        # Qt may send one while pyqtgraph is still building the plot: nothing to colour yet.
        if event.type() == QEvent.Type.PaletteChange and getattr(self, "plotItem", None) is not None:
            self.apply_colors()
        super().changeEvent(event)

    def apply_colors(self) -> None:
        background, text = chart_colors(self)
        self.setBackground(background)
        item = self.getPlotItem()
        for name in self.themed_axes:
            axis = item.getAxis(name)
            axis.setTextPen(text)
            axis.setPen(text)
        # setAttr alone keeps the rendered title; setting the text again repaints it in the new colour.
        item.titleLabel.setText(item.titleLabel.text, color=text)
        for label in self.themed_labels():
            label.setColor(text)
