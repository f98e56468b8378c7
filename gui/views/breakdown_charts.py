"""Breakdown charts: bars by part (or per layer, stacked by part) and a pie of the parts' shares.

Plot items are created once; an edit moves them with ``setOpts``/``setText``. Nothing is computed
here beyond the geometry of the drawing: the values are ``document.report.by_part`` and
``document.report.layers``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSplitter, QVBoxLayout, QWidget

from paramtally.core.breakdown import PART_LABELS, PARTS, ParamReport, human
from paramtally.gui.views.axes import HumanAxis, human_tick
from paramtally.gui.views.export import save_plot, save_scene
from paramtally.gui.views.format import share_text
from paramtally.gui.views.palette import PART_COLORS, chart_colors, color_for
from paramtally.gui.views.pie_chart import PieView, Slice
from paramtally.gui.views.themed_plot import ThemedPlot

if TYPE_CHECKING:
    from paramtally.gui.document import Document

__all__ = ["BreakdownBar", "BreakdownCharts"]

_BAR_THICKNESS = 0.7
_MAX_LAYER_BARS = 2048  # above this, per-layer mode draws one bar per layer group


class BreakdownBar(ThemedPlot):
    """objectName ``breakdownBar``. Mode "part": horizontal bars; mode "layer": stacked columns."""

    themed_axes = ("left", "bottom")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, axisItems={"left": HumanAxis("left"), "bottom": HumanAxis("bottom")})
        self.setObjectName("breakdownBar")
        self.setMinimumSize(320, 220)
        self.mode = "part"
        item = self.getPlotItem()
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        item.setMenuEnabled(False)
        item.showGrid(x=True, y=True, alpha=0.15)
        self.part_bars = pg.BarGraphItem(x0=0, y=[], width=[], height=_BAR_THICKNESS)
        self.value_labels = {part: pg.TextItem(anchor=(0, 0.5)) for part in PARTS}
        self.layer_bars = {
            part: pg.BarGraphItem(x=[], height=[], y0=[], width=0.85, brush=color_for(part), pen=None)
            for part in PARTS
        }
        item.addItem(self.part_bars)
        for label in self.value_labels.values():
            item.addItem(label)
        for bars in self.layer_bars.values():
            item.addItem(bars)
        self.parts_shown: tuple[str, ...] = ()
        self._axes_state: tuple[bool, list[str]] | None = None
        self.apply_colors()

    def set_mode(self, mode: str) -> None:
        self.mode = mode

    def update_from(self, report: ParamReport) -> None:
        """Only the shown mode's items are moved; the hidden ones catch up when the mode switches."""
        if self.mode == "part":
            self._update_parts(report)
        else:
            self._update_layers(report)
        self._show_mode(report)

    def _update_parts(self, report: ParamReport) -> None:
        parts = tuple(part for part in PARTS if report.by_part.get(part))
        values = [report.by_part[part] for part in parts]
        self.part_bars.setOpts(
            y=np.arange(len(parts)),
            width=np.array(values, dtype=float),
            brushes=[color_for(part) for part in parts],
            pens=[pg.mkPen(None)] * len(parts),
        )
        for row, part in enumerate(parts):
            label = self.value_labels[part]
            label.setText(
                f" {human(report.by_part[part])} · {share_text(report.by_part[part], report.total)}"
            )
            label.setPos(float(report.by_part[part]), float(row))
        self.parts_shown = parts
        self._peak_part = max(values, default=1)

    def _update_layers(self, report: ParamReport) -> None:
        count = sum(group.count for group in report.groups)
        if count <= _MAX_LAYER_BARS:
            rows = [(row.index, 1, row.by_part) for row in report.layers]
        else:  # more bars than pixels: each group is one bar as wide as its (identical) layers
            rows = [(g.start + (g.count - 1) / 2, g.count, g.by_part) for g in report.groups]
        x = np.array([at for at, _, _ in rows], dtype=float)
        widths = np.array([span - 0.15 for _, span, _ in rows], dtype=float)
        base = np.zeros(len(rows))
        for part in PARTS:
            heights = np.array([by_part.get(part, 0) for _, _, by_part in rows], dtype=float)
            self.layer_bars[part].setOpts(x=x, height=heights, y0=base.copy(), width=widths)
            self.layer_bars[part].setVisible(bool(heights.any()))
            base += heights
        self._layer_count = count
        self._peak_layer = float(base.max()) if len(rows) else 1.0

    def _show_mode(self, report: ParamReport) -> None:
        item = self.getPlotItem()
        by_part = self.mode == "part"
        self.part_bars.setVisible(by_part)
        for part, label in self.value_labels.items():
            label.setVisible(by_part and part in self.parts_shown)
        for bars in self.layer_bars.values():
            bars.setVisible(not by_part and bool(np.any(bars.opts["height"])))
        # Axis set-up re-lays out the plot (~1 ms): only when the mode or the part names change.
        axes_state = (by_part, [PART_LABELS[part] for part in self.parts_shown] if by_part else [])
        if axes_state != self._axes_state:
            self._set_up_axes(*axes_state)
            self._axes_state = axes_state
        if by_part:
            # Room right of the longest bar for its value label.
            item.setXRange(0, self._peak_part * 1.45, padding=0)
            item.setYRange(-0.6, max(len(self.parts_shown), 1) - 0.4, padding=0)
            item.setTitle(f"Parameters by part — {report.name}")
        else:
            item.setXRange(-0.6, max(self._layer_count, 1) - 0.4, padding=0)
            item.setYRange(0, self._peak_layer * 1.08, padding=0)
            item.setTitle(f"Parameters per layer, stacked by part — {report.name}")

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
            item.setLabel("bottom", "Parameters")
        else:
            left.setTicks(None)
            left.setWidth(None)
            bottom.formatter = None  # layer numbers
            item.setLabel("left", "Parameters per layer")
            item.setLabel("bottom", "Layer")

    def themed_labels(self) -> Iterable[pg.TextItem]:
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
        self.mode_box.addItem("By part", "part")
        self.mode_box.addItem("Per layer (stacked by part)", "layer")
        self.mode_box.setToolTip("Show the parameters by part of the model, or layer by layer")
        self.bar = BreakdownBar()
        self.pie = PieView()
        self.pie.setObjectName("breakdownPie")
        top = QHBoxLayout()
        top.addWidget(QLabel("Bars:"))
        top.addWidget(self.mode_box)
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
        document.changed.connect(self.refresh)
        self.refresh()

    def set_mode(self, mode: str) -> None:
        """'part' or 'layer' (as the combo box does)."""
        self.mode_box.setCurrentIndex(self.mode_box.findData(mode))

    def _mode_changed(self) -> None:
        self.bar.set_mode(self.mode_box.currentData())
        self.bar.update_from(self._document.report)

    def refresh(self) -> None:
        report = self._document.report
        self.bar.update_from(report)
        self.pie.set_title(f"Share of {report.total:,} parameters")
        self.pie.set_slices([_slice(part, report) for part in PARTS])

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_colors()
        super().changeEvent(event)

    def _apply_colors(self) -> None:
        # On the scene, not the view, so an exported pie keeps its background.
        self.pie.scene().setBackgroundBrush(chart_colors(self)[0])
        self.pie.set_text_color(chart_colors(self)[1])

    def save_chart(self, path: str | Path, chart: str = "bar") -> Path:
        """Save the bar chart (as shown) or the pie as PNG or SVG, chosen by the file's suffix."""
        target = Path(path)
        if chart == "bar":
            return save_plot(self.bar.getPlotItem(), target, width=max(1200, 2 * self.bar.width()))
        scene = self.pie.scene()
        return save_scene(scene, scene.sceneRect(), target)


def _slice(part: str, report: ParamReport) -> Slice:
    value = report.by_part.get(part, 0)
    detail = f"{human(value)} · {share_text(value, report.total)}"
    return Slice(part, PART_LABELS[part], value, color_for(part, PART_COLORS), detail)
