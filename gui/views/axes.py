"""A pyqtgraph axis that labels ticks in human units (175.22B, 80 GiB) instead of 1e11."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyqtgraph as pg

from core.breakdown import human

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
    """Ticks formatted by ``formatter``; ``setTicks`` (categories) still overrides it."""

    def __init__(
        self, orientation: str, formatter: Callable[[float], str] | None = human_tick, **kwargs: Any
    ) -> None:
        super().__init__(orientation, **kwargs)
        self.formatter = formatter
        self.enableAutoSIPrefix(False)

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        if self.formatter is None:
            # Integers (layer indices) without a decimal point.
            return [f"{v:.0f}" if spacing >= 1 else f"{v:g}" for v in values]
        return [self.formatter(v * scale) for v in values]
