"""The compared columns as grouped horizontal bars: a band per part, a bar per column in it.

Horizontal, so the parts' names sit on the left axis at any width. Bars are one BarGraphItem per
column, made anew only when the columns change; an edit moves them with ``setOpts``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QWidget

from paramtally.core.breakdown import PART_LABELS
from paramtally.core.explore.compare import Comparison
from paramtally.gui.views.axes import HumanAxis
from paramtally.gui.views.palette import series_color
from paramtally.gui.views.themed_plot import ThemedPlot

__all__ = ["CompareChart"]

_BAND = 0.8  # of each part's row, shared by its bars
_ROOM_FOR_LEGEND = 1.3  # the x range past the longest bar, so the legend rarely covers a bar


class CompareChart(ThemedPlot):
    """objectName ``compareChart``; ``show_comparison`` redraws it."""

    themed_axes = ("left", "bottom")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, axisItems={"bottom": HumanAxis("bottom")})
        self.setObjectName("compareChart")
        self.setMinimumSize(240, 160)
        item = self.getPlotItem()
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        item.setMenuEnabled(False)
        item.showGrid(x=True, alpha=0.15)
        item.getViewBox().invertY(True)  # the first part at the top, as in the table
        item.setLabel("bottom", "Parameters")
        self.legend = pg.LegendItem(offset=(-8, 8), labelTextSize="8pt")
        self.legend.setParentItem(item.getViewBox())
        self.bars: list[pg.BarGraphItem] = []
        self.sources: list[str] = []
        self.parts: tuple[str, ...] = ()
        self.apply_colors()

    def show_comparison(self, comparison: Comparison) -> None:
        sources = [column.source for column in comparison.columns]
        if sources != self.sources:
            self._make_bars(sources)
        self.parts = comparison.parts
        count = len(self.bars)
        height = _BAND / max(count, 1)
        rows = np.arange(len(self.parts), dtype=float)
        longest = 0
        for index, (bars, column) in enumerate(zip(self.bars, comparison.columns, strict=True)):
            values = np.array([column.by_part.get(part, 0) for part in self.parts], dtype=float)
            longest = max(longest, int(values.max(initial=0)))
            offset = (index - (count - 1) / 2) * height
            bars.setOpts(x0=0, y=rows + offset, width=values, height=height * 0.92)
        self._label_parts([PART_LABELS[part] for part in self.parts])
        item = self.getPlotItem()
        item.setYRange(-0.5, max(len(self.parts), 1) - 0.5, padding=0)
        item.setXRange(0, max(longest, 1) * _ROOM_FOR_LEGEND, padding=0)
        self.set_titles("Parameters by part, per column", "By part")

    def _make_bars(self, sources: Sequence[str]) -> None:
        item = self.getPlotItem()
        for bars in self.bars:
            item.removeItem(bars)
        self.legend.clear()
        self.bars = []
        for index, source in enumerate(sources):
            bars = pg.BarGraphItem(x0=0, y=[], width=[], height=0.1, brush=series_color(index), pen=None)
            item.addItem(bars)
            self.legend.addItem(bars, source)
            self.bars.append(bars)
        self.sources = list(sources)
        self._color_legend()

    def _label_parts(self, labels: list[str]) -> None:
        left = self.getPlotItem().getAxis("left")
        left.setTicks([list(enumerate(labels))])
        # pyqtgraph skips tick labels wider than the axis, so size it for the longest name.
        metrics = QFontMetrics(left.style.get("tickFont") or self.font())
        left.setWidth(max((metrics.horizontalAdvance(text) for text in labels), default=40) + 16)

    def apply_colors(self) -> None:
        super().apply_colors()
        self._color_legend()

    def _color_legend(self) -> None:
        legend = getattr(self, "legend", None)
        if legend is not None:
            self.color_legend(legend)
