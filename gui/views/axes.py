"""A pyqtgraph axis that labels ticks in human units (175.22B, 80 GiB) instead of 1e11."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyqtgraph as pg

from paramtally.core.breakdown import human

__all__ = ["HumanAxis", "gib_tick", "human_tick"]


def human_tick(value: float) -> str:
    """Round ticks read better without trailing zeros: '50B', '1.50B'."""
    if not value:
        return "0"
    text = human(value)
    return text.replace(".00", "") if text[-1].isalpha() else text


def gib_tick(value: float) -> str:
    return f"{value / 1024**3:,.0f} GiB" if abs(value) >= 10 * 1024**3 else f"{value / 1024**3:,.1f} GiB"


class HumanAxis(pg.AxisItem):
    """Ticks formatted by ``formatter``; ``setTicks`` (categories) still overrides it.

    ``unit`` makes tick spacing round in that unit (2³⁰ for GiB) while the data stay in bytes.
    """

    def __init__(
        self,
        orientation: str,
        formatter: Callable[[float], str] | None = human_tick,
        unit: float = 1.0,
        **kwargs: Any,
    ) -> None:
        super().__init__(orientation, **kwargs)
        self.formatter = formatter
        self.unit = unit
        self.enableAutoSIPrefix(False)
        # Label the minor ticks only when they leave plenty of air (a tall per-layer chart
        # otherwise gets a label every 100M).
        self.setStyle(textFillLimits=[(0, 0.8), (2, 0.3)])

    def tickSpacing(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, float]]:
        if self.unit == 1.0:
            return super().tickSpacing(minVal, maxVal, size)
        spacings = super().tickSpacing(minVal / self.unit, maxVal / self.unit, size)
        return [(spacing * self.unit, offset * self.unit) for spacing, offset in spacings]

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        if self.formatter is None:
            # Integers (layer indices) without a decimal point.
            return [f"{v:.0f}" if spacing >= 1 else f"{v:g}" for v in values]
        return [self.formatter(v * scale) for v in values]
