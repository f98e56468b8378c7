"""Memory per GPU as one stacked bar of its parts, with the chosen GPU's capacity as a line.

Items are made once (one BarGraphItem and one label per part, one capacity line) and moved with
``setOpts``/``setPos`` on each change. The values are ``document.memory``'s byte counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from paramtally.gui.views.axes import HumanAxis, gib_tick
from paramtally.gui.views.format import bytes_both
from paramtally.gui.views.palette import MEMORY_COLORS, color_for
from paramtally.gui.views.themed_plot import ThemedPlot

__all__ = ["MEMORY_LABELS", "MemoryChart"]

MEMORY_LABELS: Mapping[str, str] = {
    "weights": "Weights",
    "kv_cache": "KV cache",
    "activations": "Activations",
    "gradients": "Gradients",
    "optimizer": "Optimizer states",
    "overhead": "Runtime overhead",
}
_BAR_X, _BAR_WIDTH = 0.0, 0.8
CAPACITY_COLOR = "#D55E00"


class MemoryChart(ThemedPlot):
    """objectName ``memoryChart``: ``set_memory(parts, capacity, gpu_name)`` updates in place."""

    themed_axes = ("left",)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, axisItems={"left": HumanAxis("left", gib_tick, unit=1024**3)})
        self.setObjectName("memoryChart")
        self.setMinimumSize(300, 220)
        item = self.getPlotItem()
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        item.setMenuEnabled(False)
        item.hideAxis("bottom")
        item.getAxis("left").setWidth(64)  # room for '1,234 GiB'; pyqtgraph drops labels that do not fit
        item.showGrid(y=True, alpha=0.15)
        self.bars = {
            part: pg.BarGraphItem(
                x=[_BAR_X],
                height=[0],
                y0=[0],
                width=_BAR_WIDTH,
                brush=color_for(part, MEMORY_COLORS),
                pen=None,
            )
            for part in MEMORY_LABELS
        }
        self.labels = {part: pg.TextItem(anchor=(0, 0.5)) for part in MEMORY_LABELS}
        self.capacity_line = pg.InfiniteLine(
            angle=0, movable=False, pen=pg.mkPen(CAPACITY_COLOR, width=2, style=Qt.PenStyle.DashLine)
        )
        for bars in self.bars.values():
            item.addItem(bars)
        for label in self.labels.values():
            item.addItem(label)
        item.addItem(self.capacity_line)
        self.apply_colors()

    def set_memory(self, parts: Mapping[str, int], capacity: int | None, gpu_name: str, total: int) -> None:
        base = 0
        shown = [part for part in MEMORY_LABELS if parts.get(part, 0) > 0]
        for part, bars in self.bars.items():
            value = parts.get(part, 0)
            bars.setOpts(x=[_BAR_X], height=[float(value)], y0=[float(base)])
            bars.setVisible(value > 0)
            base += value
        top = float(max(total, capacity or 0)) * 1.1 or 1.0
        self._place_labels(parts, shown, top)
        # The capacity is named in the title, where it cannot collide with the part labels.
        title = f"Memory per GPU: {bytes_both(total)}"
        if capacity:
            self.capacity_line.setPos(float(capacity))
            title += (
                f"<br><span style='color:{CAPACITY_COLOR}; font-size:9pt'>– – capacity of {gpu_name}: "
                f"{bytes_both(capacity)} usable</span>"
            )
        self.capacity_line.setVisible(bool(capacity))
        item = self.getPlotItem()
        item.setTitle(title)
        item.setYRange(0, top, padding=0)
        item.setXRange(-0.5, 2.6, padding=0)

    def _place_labels(self, parts: Mapping[str, int], shown: list[str], top: float) -> None:
        """Each part named beside its segment; thin segments are nudged apart to stay readable."""
        spacing = top * 0.075  # one text line in data units, roughly
        previous = -spacing
        base = 0
        for part, label in self.labels.items():
            value = parts.get(part, 0)
            label.setVisible(value > 0)
            if value <= 0:
                continue
            middle = max(base + value / 2, previous + spacing)
            label.setText(f"{MEMORY_LABELS[part]}  {bytes_both(value)}")
            label.setPos(_BAR_X + _BAR_WIDTH / 2 + 0.05, float(middle))
            previous = middle
            base += value

    def themed_labels(self) -> Iterable[pg.TextItem]:
        # Empty while the base class is still being built (Qt may send a palette change then).
        return getattr(self, "labels", {}).values()
