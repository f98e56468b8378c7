"""Text for the figures core computed, by unit: parameters, bytes, FLOPs, days; and differences.

Formatting only: every number arrives from ``core``.
"""

from __future__ import annotations

from pydantic import ValidationError

from paramtally.core.count.breakdown import human
from paramtally.core.memory.gpus import find_gpu
from paramtally.core.typed_numbers import GB
from paramtally.gui.views.format import bytes_both, scientific

__all__ = ["delta_text", "figure_text", "setup_text", "short_figure_text"]


def figure_text(value: int | float | None, unit: str) -> str:
    """The exact figure with its readable size: '8,030,261,248 (8.03B)', '15.0 GiB · 16.1 GB'."""
    if value is None:
        return "—"
    if unit == "params":
        return f"{int(value):,} ({human(value)})"
    if unit == "bytes":
        return bytes_both(value)
    if unit == "FLOP":
        return f"{scientific(float(value))} FLOP"
    return f"{float(value):,.2f} days"


def short_figure_text(value: int | float | None, unit: str) -> str:
    """The figure in a few characters: '8.03B', '16.1 GB', '1.6 × 10¹⁰', '12.5 d'."""
    if value is None:
        return "—"
    if unit == "params":
        return human(value)
    if unit == "bytes":
        return f"{value / GB:,.1f} GB"
    if unit == "FLOP":
        return scientific(float(value))
    return f"{float(value):,.1f} d"


def delta_text(absolute: int | None, percent: float | None, unit: str) -> str:
    """A difference from the baseline: '+1.23B (+17.6 %)', '−2.0 GB (−5.0 %)', '±0'."""
    if absolute is None:
        return ""
    if absolute == 0:
        return "±0"
    sign = "+" if absolute > 0 else "−"
    size = short_figure_text(abs(absolute), unit)
    share = f" ({sign}{abs(percent):.1f} %)" if percent is not None else ""
    return f"{sign}{size}{share}"


def setup_text(setup: str) -> str:
    """A sweep's ``gpu:count`` in words: '8 × NVIDIA H100 SXM 80GB' (the id if the catalog lacks it)."""
    gpu, _, count = setup.rpartition(":")
    try:
        name = find_gpu(gpu).name
    except ValidationError:  # a GPU since taken out of the user's catalog
        name = gpu
    return f"{count} × {name}"
