"""The compared columns as grouped horizontal bars: a band per part, a bar per column in it.

Horizontal, so the parts' names sit on the left axis at any width. Bars are one BarGraphItem per
column, made anew only when the columns change; an edit moves them with ``setOpts``.

The legend stands right of the plot, in a column of the plot's layout kept for it, so it never
covers a bar (drawn inside the plot it hid the MoE experts' bars behind a file's path); names
longer than ``_NAME_WIDTH`` are elided in the middle, where a file's name differs least. Too many
columns for its height, it takes more columns of names; when those would crowd out the bars it
is left out: on screen the table's headers carry each column's colour (an export has room).

"Share" draws each column's parts as percentages of its own total. Beside a 671B model a 7B
model's bars are a pixel long in parameters (the QA pass saw 7 columns of which only the MoE
experts showed); as shares every column's make-up reads at any size, and the table beside the
chart keeps the counts.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import QWidget

from paramtally.core.count.breakdown import PART_LABELS
from paramtally.core.explore.compare import Comparison
from paramtally.gui.i18n import schema_text, translate
from paramtally.gui.views.axes import HumanAxis, human_tick
from paramtally.gui.views.palette import series_color
from paramtally.gui.views.themed_plot import ThemedPlot, titles_with_note

__all__ = ["CompareChart", "legend_name"]

_BAND = 0.8  # of each part's row, shared by its bars
_ROOM = 1.05  # the x range past the longest bar
_LEGEND_POINTS = 8.0
_NAME_WIDTH = 150  # pixels of a name in the legend at most
_LEGEND_GAP = 8  # pixels between the plot and the legend, and the legend and the edge
_LEGEND_SHARE = 0.45  # of the chart's width the legend may take; more, and it is left out
_SWATCH = 14  # pixels of a legend entry's colour square, with its margin


def legend_name(name: str) -> str:
    """``name`` as the legend shows it: elided in the middle past ``_NAME_WIDTH`` pixels."""
    font = QFont()
    font.setPointSizeF(_LEGEND_POINTS)
    return QFontMetrics(font).elidedText(name, Qt.TextElideMode.ElideMiddle, _NAME_WIDTH)


def _percent_tick(value: float) -> str:
    return f"{value:g} %"


class _Swatch(pg.ItemSample):
    """A legend entry's colour: a small square, so a row is as tall as its name (pyqtgraph's
    sample is 20 px). A click does nothing: hiding a column's bars left the range to the others."""

    def __init__(self, item: pg.BarGraphItem) -> None:
        super().__init__(item)
        self.setFixedWidth(_SWATCH)
        self.setFixedHeight(_SWATCH)

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, _SWATCH, _SWATCH)

    def paint(self, painter: QPainter, *args: Any) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(pg.mkBrush(self.item.opts["brush"]))
        painter.drawRect(QRectF(2, 2, _SWATCH - 4, _SWATCH - 4))

    def mouseClickEvent(self, event: Any) -> None:
        event.ignore()


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
        item.setLabel("bottom", translate("Compare", "Parameters"))
        # On the plot item, not its view box: the view box clips what it holds to the data area.
        self.legend = pg.LegendItem(labelTextSize=f"{_LEGEND_POINTS:g}pt", sampleType=_Swatch)
        self.legend.setParentItem(item)
        # The title spans the plot and the legend's column: over the plot alone, a title wider
        # than the plot squeezed the legend's column off the chart's edge.
        item.layout.removeItem(item.titleLabel)
        item.layout.addItem(item.titleLabel, 0, 1, 1, 2)
        item.getViewBox().sigResized.connect(self._fit_legend)
        self._fitting = False
        self.bars: list[pg.BarGraphItem] = []
        self.sources: list[str] = []  # the names of the columns drawn, as the view shows them
        self.parts: tuple[str, ...] = ()
        self.share = False
        self.apply_colors()

    def show_comparison(
        self, comparison: Comparison, names: Sequence[str], share: bool = False, note: str = ""
    ) -> None:
        """Bars of ``comparison``'s columns called ``names``; in parameters or, with ``share``, in
        percent of each column's total. ``note`` (plain text), when given, is under the title,
        broken over lines as the width needs."""
        if list(names) != self.sources:
            self._make_bars(names)
        if share != self.share:
            self._set_share(share)
        self.parts = comparison.parts
        count = len(self.bars)
        height = _BAND / max(count, 1)
        rows = np.arange(len(self.parts), dtype=float)
        longest = 0.0
        for index, (bars, column) in enumerate(zip(self.bars, comparison.columns, strict=True)):
            values = np.array([column.by_part.get(part, 0) for part in self.parts], dtype=float)
            if share:
                values = values * (100.0 / column.total) if column.total else values * 0
            longest = max(longest, float(values.max(initial=0)))
            offset = (index - (count - 1) / 2) * height
            bars.setOpts(x0=0, y=rows + offset, width=values, height=height * 0.92)
        self._label_parts([schema_text(PART_LABELS[part]) for part in self.parts])
        item = self.getPlotItem()
        item.setYRange(-0.5, max(len(self.parts), 1) - 0.5, padding=0)
        item.setXRange(0, max(longest, 1) * _ROOM, padding=0)
        if share:
            title, short = (
                translate("Compare", "Share of each column's parameters, by part"),
                translate("Compare", "Share by part"),
            )
        else:
            title, short = (
                translate("Compare", "Parameters by part, per column"),
                translate("Compare", "By part"),
            )
        self.set_titles(*(titles_with_note([title], note) if note else [title]), short)

    def _set_share(self, share: bool) -> None:
        self.share = share
        item = self.getPlotItem()
        axis = item.getAxis("bottom")
        axis.formatter = _percent_tick if share else human_tick
        axis.picture = None  # its tick texts are cached with the picture
        share_label = translate("Compare", "Share of the column's parameters")
        item.setLabel("bottom", share_label if share else translate("Compare", "Parameters"))

    def _make_bars(self, names: Sequence[str]) -> None:
        item = self.getPlotItem()
        for bars in self.bars:
            item.removeItem(bars)
        self.legend.clear()
        self.bars = []
        for index, name in enumerate(names):
            bars = pg.BarGraphItem(x0=0, y=[], width=[], height=0.1, brush=series_color(index), pen=None)
            item.addItem(bars)
            self.legend.addItem(bars, html.escape(legend_name(name)))  # a label is HTML
            label = self.legend.items[-1][1]
            label.item.document().setDocumentMargin(1)  # Qt's 4 px a side made a row 21 px tall
            label.updateMin()
            self.bars.append(bars)
        self.sources = list(names)
        self._color_legend()
        self._fit_legend()

    def _fit_legend(self) -> None:
        """As many columns of names as the plot's height needs, in the column right of the view box
        (the hidden right axis's); none if that is too wide. Not lower than the plot: the bottom
        axis's title runs on past the plot's right edge."""
        if self._fitting:  # the room given moves the view box, which calls this again
            return
        self._fitting = True
        try:
            item, legend = self.getPlotItem(), self.legend
            box = item.getViewBox().geometry()
            count = len(legend.items)
            row = max((max(s.height(), label.height()) for s, label in legend.items), default=1.0)
            rows = max(1, math.floor(box.height() / max(row, 1.0)))
            legend.setColumnCount(max(1, math.ceil(count / rows)))
            legend.updateSize()
            width = legend.width() + 2 * _LEGEND_GAP
            shown = count > 0 and width <= _LEGEND_SHARE * self.width()
            legend.setVisible(shown)
            item.layout.setColumnFixedWidth(2, width if shown else 0)
            box = item.getViewBox().geometry()
            legend.setPos(box.right() + _LEGEND_GAP, box.top())
        finally:
            self._fitting = False

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
