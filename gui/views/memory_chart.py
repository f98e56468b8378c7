"""Memory per GPU as one stacked bar of its parts, with the chosen GPU's capacity as a line.

Items are made once (one rectangle and one label per part, one capacity line) and moved on each
change. The values are ``document.memory``'s byte counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pyqtgraph as pg
from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtWidgets import QGraphicsRectItem, QWidget

from paramtally.core.memory.estimate import PART_TITLES, PARTS
from paramtally.core.typed_numbers import GIB
from paramtally.gui.i18n import schema_text, translate
from paramtally.gui.views.axes import HumanAxis, gib_tick
from paramtally.gui.views.format import bytes_both, gib
from paramtally.gui.views.lazy_tooltip import LazyToolTip
from paramtally.gui.views.palette import MEMORY_COLORS, color_for
from paramtally.gui.views.themed_plot import ThemedPlot, small_line
from paramtally.gui.views.value_label import MARGIN, ValueLabel, labels_inside

__all__ = ["MemoryChart"]
_BAR_X, _BAR_WIDTH = 0.0, 0.8
CAPACITY_COLOR = "#D55E00"


class Segment(QGraphicsRectItem):
    """One part's share of the stacked bar, a rectangle in the plot's coordinates.

    ``opts`` holds ``height`` and ``y0`` as pyqtgraph's BarGraphItem names them. A BarGraphItem
    of one bar re-made its numpy arrays and picture on each edit (~0.25 ms a part).
    """

    def __init__(self, color: object) -> None:
        super().__init__()
        self.setPen(Qt.PenStyle.NoPen)
        self.setBrush(pg.mkBrush(color))
        self.opts: dict[str, list[float]] = {"x": [_BAR_X], "height": [0.0], "y0": [0.0]}

    def set_segment(self, height: float, bottom: float) -> None:
        self.opts["height"], self.opts["y0"] = [height], [bottom]
        self.setRect(QRectF(_BAR_X - _BAR_WIDTH / 2, bottom, _BAR_WIDTH, height))


class MemoryChart(LazyToolTip, ThemedPlot):
    """objectName ``memoryChart``: ``set_memory(parts, capacity, gpu_name, …)`` updates in place."""

    themed_axes = ("left",)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, axisItems={"left": HumanAxis("left", gib_tick, unit=GIB)})
        self.setObjectName("memoryChart")
        self.setMinimumSize(260, 240)
        item = self.getPlotItem()
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        item.setMenuEnabled(False)
        item.hideAxis("bottom")
        item.getAxis("bottom").enableAutoSIPrefix(False)  # hidden, as ThemedPlot's top and right
        item.getAxis("left").setWidth(64)  # room for '1,234 GiB'; pyqtgraph drops labels that do not fit
        item.showGrid(y=True, alpha=0.15)
        self.bars = {part: Segment(color_for(part, MEMORY_COLORS)) for part in PARTS}
        # Pinned to the bar at a fixed pixel size; a pyqtgraph TextItem cost ~0.1 ms a label per edit.
        self.labels = {part: ValueLabel() for part in PARTS}
        self._segments: dict[str, tuple[int, int]] = {}  # each bar's (height, bottom) as drawn
        self.capacity_line = pg.InfiniteLine(
            angle=0, movable=False, pen=pg.mkPen(CAPACITY_COLOR, width=2, style=Qt.PenStyle.DashLine)
        )
        for bars in self.bars.values():
            item.addItem(bars)
        for label in self.labels.values():
            item.addItem(label, ignoreBounds=True)
        item.addItem(self.capacity_line)
        item.getViewBox().sigResized.connect(self._replace_labels)
        self.apply_colors()

    def sizeHint(self) -> QSize:
        # pyqtgraph asks for 600×480; inside the scrolled memory tab that preferred height would
        # push the GPU table below the window, so prefer a shorter bar.
        return QSize(480, 300)

    def set_memory(
        self,
        parts: Mapping[str, int],
        capacity: int | None,
        gpu_name: str,
        total: int,
        model: str = "",
        scenario: str = "",
        titles: Mapping[str, str] = PART_TITLES,
    ) -> None:
        """The stacked bar of ``parts``, each named by ``titles`` (core's: ``MemoryReport.part_titles``);
        the title names ``model``, the total, the capacity and, when given, the ``scenario`` in words
        (exports carry it: a picture has no controls beside it)."""
        base = 0
        for part, bars in self.bars.items():
            value = parts.get(part, 0)
            segment = (value, base) if value > 0 else (0, 0)
            if self._segments.get(part) != segment:  # a part at zero (no optimizer states) stays hidden
                bars.set_segment(float(value), float(base))
                bars.setVisible(value > 0)
                self._segments[part] = segment
            base += value
        top = float(max(total, capacity or 0)) * 1.1 or 1.0
        self.getPlotItem().setRange(xRange=(-0.5, 2.6), yRange=(0, top), padding=0)
        self._place_labels(parts, top, titles, capacity)
        if capacity:
            self.capacity_line.setPos(float(capacity))
        self.capacity_line.setVisible(bool(capacity))
        self.set_titles(*_titles(total, capacity, gpu_name, model, scenario))

    def _place_labels(
        self, parts: Mapping[str, int], top: float, titles: Mapping[str, str], capacity: int | None = None
    ) -> None:
        """Each part named beside its segment; thin segments are nudged apart to stay readable, the
        lowest name stays above the plot's floor, and the stack of names is pushed down as a whole
        where it would leave the plot at the top. No name sits on the capacity's dashed line: one
        it would cross goes just above it, or just below where the top leaves no room (Llama-3-70B's
        'Weights 131.4 GiB' on an H100 was struck through at 67.1 GiB)."""
        self._label_state = (dict(parts), top, titles, capacity)
        spacing = self._line_height(top)
        wanted: list[tuple[ValueLabel, float]] = []
        # The first name half a line above the plot's floor: a thin bottom segment (the weights of
        # a small model beside a large GPU) would leave its name cut in half there.
        previous, base = -spacing / 2, 0
        for part, label in self.labels.items():
            value = parts.get(part, 0)
            label.setVisible(value > 0)
            if value <= 0:
                continue
            text = f"{schema_text(titles[part])}  {bytes_both(value)}"
            if label.text() != text:
                label.setText(text)
            previous = max(base + value / 2, previous + spacing)
            if capacity and abs(previous - capacity) < spacing / 2:
                previous = capacity + spacing / 2
            wanted.append((label, previous))
            base += value
        limit = top - spacing / 2
        for label, middle in reversed(wanted):
            if middle > limit:  # pushed down from the top: now below the line, should it be on it
                middle = limit
                if capacity and abs(middle - capacity) < spacing / 2:
                    middle = capacity - spacing / 2
            label.setPos(_BAR_X + _BAR_WIDTH / 2 + 0.05, float(middle))
            limit = middle - spacing

    def labels_inside(self) -> bool:
        """True when every part's name lies within the plot area (layout tests check it)."""
        return labels_inside(self, self.labels.values())

    def _line_height(self, top: float) -> float:
        """One text line with a text document's margins (as a label's box was), in bytes on the y
        axis at the plot's present height."""
        pixels = float(self.getPlotItem().getViewBox().height())
        line = max(
            (label.boundingRect().height() for label in self.labels.values() if label.text()), default=0.0
        )
        line = line + 2 * MARGIN if line else 0.0
        return top * line / pixels if pixels > line > 0 else top * 0.075

    def _replace_labels(self) -> None:
        state = getattr(self, "_label_state", None)
        if state is not None:
            self._place_labels(*state)

    def themed_labels(self) -> Iterable[ValueLabel]:
        # Empty while the base class is still being built (Qt may send a palette change then).
        return getattr(self, "labels", {}).values()


def _titles(total: int, capacity: int | None, gpu_name: str, model: str, scenario: str) -> list[str]:
    """The title, longest first: with GB beside GiB and the GPU's name while they fit.

    The capacity is named in the title, where it cannot collide with the part labels.
    """
    of = f" — {model}" if model else ""
    note = small_line(scenario) if scenario else ""
    per_gpu = translate("MemoryChart", "Memory per GPU")
    if not capacity:
        return [f"{per_gpu}{of}: {bytes_both(total)}{note}", f"{per_gpu}: {gib(total)}"]

    def usable(amount: str) -> str:
        return translate("MemoryChart", "– – capacity of {gpu}: {amount} usable").format(
            gpu=gpu_name, amount=amount
        )

    return [
        f"{per_gpu}{of}: {bytes_both(total)}"
        + small_line(usable(bytes_both(capacity)), CAPACITY_COLOR)
        + note,
        f"{per_gpu}{of}: {gib(total)}" + small_line(usable(gib(capacity)), CAPACITY_COLOR),
        f"{per_gpu}: {gib(total)}" + small_line(f"– – {gpu_name}: {gib(capacity)}", CAPACITY_COLOR),
        translate("MemoryChart", "{amount} per GPU").format(amount=gib(total))
        + small_line(
            translate("MemoryChart", "– – capacity {amount}").format(amount=gib(capacity)), CAPACITY_COLOR
        ),
    ]
