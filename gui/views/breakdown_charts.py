"""Breakdown charts: bars by part (or per layer, stacked by part) and a pie of the parts' shares.

Plot items are created once; an edit moves them with ``setOpts``/``setText``. Nothing is computed
here beyond the geometry of the drawing: the values are ``document.report.by_part`` and
``document.report.layers`` (every stack's, the vision tower's first).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, Qt
from PySide6.QtGui import QFontMetrics, QFontMetricsF, QPen, QShowEvent
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSplitter, QVBoxLayout, QWidget

from paramtally.core.blocks import FFNS, KINDS, MIXERS
from paramtally.core.count.breakdown import PART_LABELS, PARTS, LayerGroupRow, LayerRow, ParamReport, human
from paramtally.core.count.parameters import layer_span
from paramtally.core.schema import Architecture
from paramtally.gui.i18n import schema_text, translate
from paramtally.gui.shown_text import TITLE_CHARS, shown
from paramtally.gui.views import BAR_MINIMUM
from paramtally.gui.views.axes import HumanAxis, human_tick
from paramtally.gui.views.deferred import DeferredRefresh
from paramtally.gui.views.format import share_text
from paramtally.gui.views.palette import KIND_COLORS, PART_COLORS, chart_colors, color_for
from paramtally.gui.views.pie_chart import PieView, Slice
from paramtally.gui.views.stale import StaleNote
from paramtally.gui.views.themed_plot import ThemedPlot
from paramtally.gui.views.value_label import ValueLabel, labels_inside

if TYPE_CHECKING:
    from paramtally.gui.document import Document

__all__ = ["BreakdownBar", "BreakdownCharts"]

_BAR_THICKNESS = 0.7
_LEGEND_OFFSET = 10  # pixels between the legend and the plot's top-left corner
# More layers than bars fit: the per-layer modes draw one bar per run of layers instead (its
# layers are identical), so a model of 10⁹ layers costs what its few runs cost.
_MAX_LAYER_BARS = 2048
# The halves of a layer the bars by kind stack, and the parts each holds (the mixers' and FFNs':
# the breakdown parts their kinds' terms fall in).
KIND_HALVES: dict[str, tuple[str, ...]] = {
    "mixer": tuple(dict.fromkeys(kind.PART for kind in MIXERS.values())),
    "cross_attention": ("cross_attention",),
    "ffn": tuple(dict.fromkeys(part for kind in FFNS.values() for part in kind.PARTS)),
    "other": ("norms", "lora", "adapters"),
}
# A kind's name in the legend: its schema title (the registry's), e.g. "Mamba-2", "Mixture of experts".
KIND_TITLES = {tag: str(kind.model_config.get("title")) for tag, kind in KINDS.items()} | {
    "cross_attention": PART_LABELS["cross_attention"],
    "other": QT_TRANSLATE_NOOP("Schema", "Norms, LoRA, adapters"),
}


_TICK_STEPS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)


def _bar_rows(report: ParamReport) -> Sequence[LayerRow | LayerGroupRow]:
    """One bar per layer of every stack; for more layers than bars fit, one per run (one of its
    layers)."""
    if sum(run.layers for run in report.layer_groups) <= _MAX_LAYER_BARS:
        return report.layers
    return report.layer_groups


def _first_layer(row: LayerRow | LayerGroupRow) -> int:
    """The layer a bar starts at, within its stack."""
    return row.index if isinstance(row, LayerRow) else row.start


def _stack_spans(rows: Sequence[LayerRow | LayerGroupRow]) -> list[tuple[str, int, int]]:
    """(stack, its first bar, its bars) of each stack the bars show, in order."""
    spans: list[tuple[str, int, int]] = []
    for bar, row in enumerate(rows):
        if spans and spans[-1][0] == row.stack:
            stack, first, bars = spans[-1]
            spans[-1] = (stack, first, bars + 1)
        else:
            spans.append((row.stack, bar, 1))
    return spans


def _stack_title(stack: str) -> str:
    """A stack's name as the form names it ('Vision tower', 'Decoder'), in the window's language."""
    field = Architecture.model_fields.get(stack)
    return schema_text(field.title or stack) if field is not None else stack


def _kind_key(half: str, row: LayerRow | LayerGroupRow) -> str:
    """The colour key of one half of a layer: its mixer's or FFN's kind, or the half itself."""
    return {"mixer": row.mixer, "ffn": row.kind}.get(half, half)


def _part_label(part: str) -> str:
    label = schema_text(PART_LABELS[part])
    return translate("Charts", "{part} (apart)").format(part=label) if part == "mtp" else label


def _text_width(metrics: QFontMetricsF, text: str) -> float:
    """The width a value label showing ``text`` takes, with room of 4 pixels either side."""
    return metrics.horizontalAdvance(text) + 8.0


class BreakdownBar(ThemedPlot):
    """objectName ``breakdownBar``. Mode "part": horizontal bars (with the MTP modules, counted apart);
    mode "layer": columns stacked by part; mode "kind": columns whose mixer and FFN halves are
    coloured by their kind (attention, Mamba, …; dense, MoE), with a legend of the kinds shown."""

    themed_axes = ("left", "bottom")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, axisItems={"left": HumanAxis("left"), "bottom": HumanAxis("bottom")})
        self.setObjectName("breakdownBar")
        self.setMinimumSize(*BAR_MINIMUM)
        self.mode = "part"
        item = self.getPlotItem()
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        item.setMenuEnabled(False)
        item.showGrid(x=True, y=True, alpha=0.15)
        self.part_bars = pg.BarGraphItem(x0=0, y=[], width=[], height=_BAR_THICKNESS)
        self.value_labels = {part: ValueLabel() for part in (*PARTS, "mtp")}
        self.layer_bars = {
            part: pg.BarGraphItem(x=[], height=[], y0=[], width=0.85, brush=color_for(part), pen=None)
            for part in PARTS
        }
        # Per layer by kind: one bar item per half of a layer, a colour per layer.
        self.kind_bars = {
            half: pg.BarGraphItem(x=[], height=[], y0=[], width=0.85, pen=None) for half in KIND_HALVES
        }
        # Per layer, where one stack's layers end and the next's begin (a vision tower, then the decoder).
        self.stack_lines: list[pg.InfiniteLine] = []
        self._stack_spans: list[tuple[str, int, int]] = []
        self._first_layers: list[int] = []
        self._layer_ticks: list[tuple[float, str]] | None = None  # None: pyqtgraph's own
        self._layer_caption = ""
        self.legend = pg.LegendItem(offset=(_LEGEND_OFFSET, 5), labelTextSize="8pt", colCount=2)
        self.legend.setParentItem(item.getViewBox())
        self._legend_kinds: tuple[str, ...] = ()
        self._legend_samples: dict[str, pg.BarGraphItem] = {}
        item.addItem(self.part_bars)
        for bars in self.kind_bars.values():
            item.addItem(bars)
        for label in self.value_labels.values():
            item.addItem(label, ignoreBounds=True)
        for bars in self.layer_bars.values():
            item.addItem(bars)
        self.parts_shown: tuple[str, ...] = ()
        self._axes_state: tuple[bool, list[str]] | None = None
        self._values: dict[str, int] = {}
        self._label_texts: dict[str, tuple[str, str]] = {}  # value label: full and short
        item.getViewBox().sigResized.connect(self._fit_part_range)
        item.getViewBox().sigResized.connect(self._fit_kind_range)
        item.getViewBox().sigResized.connect(self._fit_layer_ticks)
        self.apply_colors()

    def set_mode(self, mode: str) -> None:
        self.mode = mode

    def update_from(self, report: ParamReport) -> None:
        """Only the shown mode's items are moved; the hidden ones catch up when the mode switches."""
        if self.mode == "part":
            self._update_parts(report)
        elif self.mode == "kind":
            self._update_kinds(report)
        else:
            self._update_layers(report)
        self._show_mode(report)
        self.settle_view()

    def _update_parts(self, report: ParamReport) -> None:
        by_part = {**report.by_part, "mtp": report.mtp}  # the MTP modules: a bar, counted apart
        parts = tuple(part for part in (*PARTS, "mtp") if by_part.get(part))
        values = [by_part[part] for part in parts]
        widths = np.array(values, dtype=float)
        if parts == self.parts_shown:
            self.part_bars.setOpts(width=widths)  # the usual edit: same bars, new lengths
        else:
            self.part_bars.setOpts(
                y=np.arange(len(parts)),
                width=widths,
                brushes=[color_for(part) for part in parts],
                pens=[pg.mkPen(None)] * len(parts),
            )
        for row, part in enumerate(parts):
            share = share_text(by_part[part], report.total)
            if part == "mtp":  # counted apart from the total, so no share of it
                share = translate("Charts", "apart")
            self._label_texts[part] = (f" {human(by_part[part])} · {share}", f" {share}")
            self.value_labels[part].setPos(float(by_part[part]), float(row))
        self.parts_shown = parts
        self._values = dict(zip(parts, values, strict=True))

    def _update_layers(self, report: ParamReport) -> None:
        layers = _bar_rows(report)
        x = np.arange(len(layers), dtype=float)  # encoder then decoder, side by side
        base = np.zeros(len(layers))
        for part in PARTS:
            heights = np.array([row.by_part.get(part, 0) for row in layers], dtype=float)
            self.layer_bars[part].setOpts(x=x, height=heights, y0=base.copy())
            self.layer_bars[part].setVisible(bool(heights.any()))
            base += heights
        self._layer_count = len(layers)
        self._peak_layer = float(base.max()) if len(layers) else 1.0
        self._follow_stacks(report, layers)

    def _update_kinds(self, report: ParamReport) -> None:
        """Each layer's mixer, cross-attention, FFN and the rest, coloured by the kind of each."""
        layers = _bar_rows(report)
        x = np.arange(len(layers), dtype=float)
        base = np.zeros(len(layers))
        kinds: list[str] = []
        for half, parts in KIND_HALVES.items():
            heights = np.array([sum(row.by_part.get(p, 0) for p in parts) for row in layers], dtype=float)
            keys = [_kind_key(half, row) for row in layers]
            self.kind_bars[half].setOpts(
                x=x, height=heights, y0=base.copy(), brushes=[color_for(k, KIND_COLORS) for k in keys]
            )
            for key, height in zip(keys, heights, strict=True):
                if height and key not in kinds:
                    kinds.append(key)
            base += heights
        self._layer_count = len(layers)
        self._peak_layer = float(base.max()) if len(layers) else 1.0
        self._follow_stacks(report, layers)
        self._set_legend(tuple(kinds))

    def _follow_stacks(self, report: ParamReport, layers: Sequence[LayerRow | LayerGroupRow]) -> None:
        """Where each stack's bars lie, for a dashed line between two stacks and ticks numbering
        each stack's layers from 0 (``_fit_layer_ticks``); the axis names the stacks."""
        self._stack_spans = _stack_spans(layers)
        self._first_layers = [_first_layer(row) for row in layers]
        bounds = [first - 0.5 for _, first, _ in self._stack_spans[1:]]
        item = self.getPlotItem()
        while len(self.stack_lines) < len(bounds):
            line = pg.InfiniteLine(angle=90, movable=False, pen=self._stack_pen())
            item.addItem(line, ignoreBounds=True)
            self.stack_lines.append(line)
        for index, line in enumerate(self.stack_lines):
            if index < len(bounds):
                line.setValue(bounds[index])
        caption = translate("Charts", "Layer")
        # "Vision tower 0–23 | Decoder 0–39"; a tower alone says it too (it is no language model).
        if len(report.layer_stacks) > 1 or report.tower_only:
            stacks = " | ".join(
                f"{_stack_title(stack)} {layer_span(0, layers, bare=True)}"
                for stack, layers in report.layer_stacks
            )
            caption = translate("Charts", "Layer — {stacks}").format(stacks=stacks)
        self._layer_caption = caption

    def _stack_pen(self) -> QPen:
        return pg.mkPen(chart_colors(self)[1], width=1, style=Qt.PenStyle.DashLine)

    def _fit_layer_ticks(self) -> None:
        """With more than one stack, ticks at each stack's layers 0, step, 2·step…, the step the
        fewest layers whose labels fit the plot's width; one stack keeps pyqtgraph's own ticks."""
        if self.mode == "part":
            return
        item = self.getPlotItem()
        bottom = item.getAxis("bottom")
        ticks = self._stack_ticks(bottom) if len(self._stack_spans) > 1 else None
        if ticks != self._layer_ticks:
            bottom.setTicks(None if ticks is None else [ticks])
            self._layer_ticks = ticks
        if item.getAxis("bottom").labelText != self._layer_caption:
            item.setLabel("bottom", self._layer_caption)
        x_range = self._layer_x_range()
        if item.getViewBox().viewRange()[0] != list(x_range):  # the plot resized: the margin again
            item.setXRange(*x_range, padding=0)

    def _layer_x_range(self) -> tuple[float, float]:
        """The bars' x range: half a gap either side; with the stacks' ticks, room left of the first
        bar for its "0" (pyqtgraph leaves out a tick label crossing the plot's edge: at 1024×700
        Pixtral's tower was numbered from 10)."""
        last = max(self._layer_count, 1) - 0.4
        if len(self._stack_spans) < 2:
            return -0.6, last
        bottom = self.getPlotItem().getAxis("bottom")
        half = QFontMetricsF(bottom.style.get("tickFont") or self.font()).horizontalAdvance("0") / 2 + 1
        width = float(self.getPlotItem().getViewBox().width())
        if width <= 2 * half:  # not laid out yet
            return -0.6, last
        # The first bar's centre ``left`` bars from the edge, at width / (last + left) pixels a bar.
        return -max(0.6, half * last / (width - half)), last

    def _stack_ticks(self, bottom: pg.AxisItem) -> list[tuple[float, str]]:
        width = max(float(self.getPlotItem().getViewBox().width()), 1.0)  # 0 before the first layout
        per_bar = width / max(self._layer_count + 0.2, 1.0)  # pixels a bar's place takes
        metrics = QFontMetrics(bottom.style.get("tickFont") or self.font())
        bars_apart = (metrics.horizontalAdvance(f"{max(self._first_layers, default=0):,}") + 12) / per_bar
        step = next((s for s in _TICK_STEPS if s >= bars_apart), _TICK_STEPS[-1])
        starts = [first for _, first, _ in self._stack_spans]
        ticks = []
        for index, (_, first, bars) in enumerate(self._stack_spans):
            following = starts[index + 1] if index + 1 < len(starts) else None
            for bar in range(first, first + bars, step):
                # A tick too close to the next stack's 0 would overprint it.
                if bar == first or following is None or following - bar >= bars_apart:
                    ticks.append((float(bar), f"{self._first_layers[bar]:,}"))
        return ticks

    def _set_legend(self, kinds: tuple[str, ...]) -> None:
        if kinds == self._legend_kinds:
            return
        self.legend.clear()
        for kind in kinds:
            sample = self._legend_samples.get(kind)
            if sample is None:
                # Owned by the legend, drawn nowhere: a sample outliving its chart would be painted
                # after it; a hidden one would be shown crossed out (pyqtgraph marks hidden items).
                sample = pg.BarGraphItem(x=[0], height=[1], width=1, brush=color_for(kind, KIND_COLORS))
                sample.setParentItem(self.legend)
                sample.setOpacity(0)
                self._legend_samples[kind] = sample
            self.legend.addItem(sample, schema_text(KIND_TITLES.get(kind, kind.replace("_", " "))))
        self._legend_kinds = kinds

    def _fit_legend(self) -> float:
        """The legend in two columns where they fit the plot's width, else in one (at 1024×700 the
        second column ran past the plot: 'Norms, LoRA, adapt'); the factor over the tallest bar
        that leaves its rows room above the bars."""
        view = self.getPlotItem().getViewBox()
        width, height = float(view.width()), float(view.height())
        self._arrange_legend(2)
        if self.legend.boundingRect().width() + _LEGEND_OFFSET > width:
            self._arrange_legend(1)
        room = (self.legend.boundingRect().height() + 2 * _LEGEND_OFFSET) / height if height > 0 else 0.25
        return 1.0 / max(1.0 - room, 0.25)

    def _arrange_legend(self, columns: int) -> None:
        """The legend's entries in ``columns`` columns, its box as large as they need.

        pyqtgraph sizes the box from its entries' current widths, which the box's last size had
        stretched: each new arrangement (a column more or less, other kinds) made it wider, until
        its box ran past the plot at 1024×700 (starcoder2-3b: 671 pixels for three short names).
        The layout's preferred size is the entries' own."""
        self.legend.setColumnCount(columns)
        layout = self.legend.layout
        layout.invalidate()  # the entries just moved: their sizes are asked again
        wanted = layout.effectiveSizeHint(Qt.SizeHint.PreferredSize)
        if self.legend.geometry().size() != wanted:  # (LegendItem.size is its fixed size: None)
            self.legend.setGeometry(0, 0, wanted.width(), wanted.height())

    def _fit_kind_range(self) -> None:
        """The plot resized: the legend's columns and its room above the bars again."""
        if self.mode == "kind":
            top = self._peak_layer * self._fit_legend()
            if self.getPlotItem().getViewBox().viewRange()[1][1] != top:
                self.getPlotItem().setYRange(0, top, padding=0)

    def legend_texts(self) -> list[str]:
        """The kinds the per-layer bars by kind show, as the legend names them."""
        return [label.text for _, label in self.legend.items] if self.legend.isVisible() else []

    def _show_mode(self, report: ParamReport) -> None:
        item = self.getPlotItem()
        by_part = self.mode == "part"
        self.part_bars.setVisible(by_part)
        for part, label in self.value_labels.items():
            label.setVisible(by_part and part in self.parts_shown)
        for bars in self.layer_bars.values():
            bars.setVisible(self.mode == "layer" and bool(np.any(bars.opts["height"])))
        for bars in self.kind_bars.values():
            bars.setVisible(self.mode == "kind")
        self.legend.setVisible(self.mode == "kind")
        shown_lines = 0 if by_part else len(self._stack_spans) - 1
        for index, line in enumerate(self.stack_lines):
            line.setVisible(index < shown_lines)
        # Axis set-up re-lays out the plot (~1 ms): only when the mode or the part names change.
        axes_state = (by_part, [_part_label(part) for part in self.parts_shown] if by_part else [])
        if axes_state != self._axes_state:
            self._set_up_axes(*axes_state)
            self._axes_state = axes_state
            self._layer_ticks = None  # the axes set up took the stacks' ticks away
        self._fit_layer_ticks()
        if by_part:
            self._fit_part_range()  # x and y ranges together: one re-layout of the axes
            name = html.escape(shown(report.name, TITLE_CHARS))  # a title is HTML
            whole, short = translate("Charts", "Parameters by part"), translate("Charts", "By part")
            self.set_titles(f"{whole} — {name}", f"{whole}<br>{name}", f"{short}<br>{name}", name)
        else:
            # By kind, room above the bars for the legend's rows.
            item.setRange(
                xRange=self._layer_x_range(),
                yRange=(0, self._peak_layer * (self._fit_legend() if self.mode == "kind" else 1.08)),
                padding=0,
            )
            how = (
                translate("Charts", "Parameters per layer, mixer and FFN by kind")
                if self.mode == "kind"
                else translate("Charts", "Parameters per layer, stacked by part")
            )
            name = html.escape(shown(report.name, TITLE_CHARS))
            whole, short = translate("Charts", "Parameters per layer"), translate("Charts", "Per layer")
            self.set_titles(f"{how} — {name}", f"{whole}<br>{name}", f"{short}<br>{name}", name)

    def _fit_part_range(self) -> None:
        """An x range wide enough for every bar plus its value label, whatever the plot's width.

        A label is a fixed number of pixels: bar ``v`` and its label of ``w`` pixels fit in a
        plot ``W`` pixels wide showing ``[0, R]`` when ``v + w·R/W ≤ R``, so ``R ≥ v / (1 − w/W)``.
        """
        if self.mode != "part":
            return
        if not self._values:
            self.getPlotItem().setYRange(-0.6, 0.6, padding=0)
            return
        plot_width = float(self.getPlotItem().getViewBox().width())
        # Count and share while the labels leave half the width to the bars, else the share alone.
        # Widths are measured with the labels' font, so each label's text is set once, at the end.
        metrics = QFontMetricsF(next(iter(self.value_labels.values())).font())
        for choice in (0, 1):
            ranges = []
            for part, value in self._values.items():
                label_width = _text_width(metrics, self._label_texts[part][choice]) + 8
                free = 1.0 - label_width / plot_width if plot_width > 0 else 0.0
                ranges.append(value / free if free > 0.25 else value * 4.0)  # too narrow: keep the bars
            if max(ranges) <= 2 * max(self._values.values()):
                break
        for part in self._values:
            label = self.value_labels[part]
            if label.text() != self._label_texts[part][choice]:
                label.setText(self._label_texts[part][choice])
        self.getPlotItem().setRange(
            xRange=(0, max(ranges)), yRange=(-0.6, max(len(self.parts_shown), 1) - 0.4), padding=0
        )

    def labels_inside(self) -> bool:
        """True when every value label (by part) or the legend (by kind) lies within the plot area
        as the widget shows it (the layout tests check it)."""
        shown = self.parts_shown
        labels = [label for part, label in self.value_labels.items() if part in shown]
        return labels_inside(self, labels) and (
            not self.legend.isVisible() or labels_inside(self, [self.legend])
        )

    def _set_up_axes(self, by_part: bool, labels: list[str]) -> None:
        item = self.getPlotItem()
        left, bottom = item.getAxis("left"), item.getAxis("bottom")
        item.getViewBox().invertY(by_part)  # first part at the top
        bottom.setTicks(None)
        if by_part:
            left.setTicks([list(enumerate(labels))])
            # pyqtgraph skips tick labels wider than the axis, so size it for the longest name.
            metrics = QFontMetrics(left.style.get("tickFont") or self.font())
            left.setWidth(max((metrics.horizontalAdvance(text) for text in labels), default=40) + 16)
            bottom.formatter = human_tick
            item.setLabel("left", "")
            item.setLabel("bottom", translate("Charts", "Parameters"))
        else:
            left.setTicks(None)
            left.setWidth(None)
            bottom.formatter = None  # layer numbers
            item.setLabel("left", translate("Charts", "Parameters per layer"))
            item.setLabel("bottom", self._layer_caption)

    def apply_colors(self) -> None:
        super().apply_colors()
        legend = getattr(self, "legend", None)  # none yet while the base class is being built
        if legend is not None:
            self.color_legend(legend)
        for line in getattr(self, "stack_lines", ()):
            line.setPen(self._stack_pen())

    def themed_labels(self) -> Iterable[ValueLabel]:
        # Empty while the base class is still being built (Qt may send a palette change then).
        return getattr(self, "value_labels", {}).values()


class BreakdownCharts(QWidget):
    """The bar chart with its mode switch beside the pie; both follow ``document.changed``."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("breakdownCharts")
        self._document = document
        self.mode_box = QComboBox()
        self.mode_box.setObjectName("breakdownMode")
        self.mode_box.addItem(translate("Charts", "By part"), "part")
        self.mode_box.addItem(translate("Charts", "Per layer (stacked by part)"), "layer")
        self.mode_box.addItem(translate("Charts", "Per layer (mixer and FFN by kind)"), "kind")
        self.mode_box.setToolTip(
            translate("Charts", "Show the parameters by part of the model, or layer by layer")
        )
        self.bar = BreakdownBar()
        self.pie = PieView()
        self.pie.setObjectName("breakdownPie")
        top = QHBoxLayout()
        top.addWidget(QLabel(translate("Charts", "Bars:")))
        top.addWidget(self.mode_box)
        self.stale_note = StaleNote("chartsStale")  # the bars and the pie are the last valid model's
        top.addWidget(self.stale_note, 1)
        top.addStretch(1)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.bar)
        splitter.addWidget(self.pie)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        self._apply_colors()
        self.mode_box.currentIndexChanged.connect(self._mode_changed)
        # Hidden behind another tab, the charts catch up when shown.
        self.deferred = DeferredRefresh(self, self.refresh)
        document.changed.connect(self.deferred.request)
        self.refresh()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.deferred.shown()

    def set_mode(self, mode: str) -> None:
        """'part' or 'layer' (as the combo box does)."""
        self.mode_box.setCurrentIndex(self.mode_box.findData(mode))

    def _mode_changed(self) -> None:
        self.bar.set_mode(self.mode_box.currentData())
        self.bar.update_from(self._document.report)

    def refresh(self) -> None:
        report = self._document.report
        self.bar.update_from(report)
        _fill_pie(self.pie, report)
        self.stale_note.follow(self._document)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_colors()
        super().changeEvent(event)

    def _apply_colors(self) -> None:
        _dress_pie(self.pie, self)

    chart_kinds = ("bar", "pie")

    def save_chart(self, path: str | Path, chart: str = "bar") -> Path:
        """Save the bar chart (in the mode shown) or the pie as PNG or SVG, by the file's suffix."""
        # Imported when a chart is saved: the exporters' registry (io.formats) is nothing the
        # charts show, and a screenshot's picture is made without it.
        from paramtally.gui.views.export import laid_out, save_view

        target, report = Path(path), self._document.report
        if chart == "bar":
            with laid_out(BreakdownBar()) as bar:
                bar.set_mode(self.bar.mode)
                bar.update_from(report)
                return save_view(bar, target, bar.getPlotItem().titleLabel.text)
        with laid_out(PieView()) as pie:
            _dress_pie(pie, pie)
            _fill_pie(pie, report)
            return save_view(pie, target, pie.title())


def _dress_pie(pie: PieView, colors_of: QWidget) -> None:
    background, text = chart_colors(colors_of)
    pie.scene().setBackgroundBrush(background)  # on the scene, so a saved pie keeps it
    pie.set_text_color(text)


def _fill_pie(pie: PieView, report: ParamReport) -> None:
    title = translate("Charts", "{name}: share of {total} parameters").format(
        name=shown(report.name, TITLE_CHARS), total=f"{report.total:,}"
    )
    pie.set_slices([_slice(part, report) for part in PARTS], title=title)


def _slice(part: str, report: ParamReport) -> Slice:
    value = report.by_part.get(part, 0)
    share = share_text(value, report.total)
    return Slice(
        part,
        schema_text(PART_LABELS[part]),
        value,
        color_for(part, PART_COLORS),
        f"{human(value)} · {share}",
        share,
    )
