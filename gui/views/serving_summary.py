"""Serving on the scenario's own setup, as the core's ServingReport states it: prefill time, decode
speed per sequence and for the batch, the largest batch that fits, the KV cache for prompt +
generated tokens and the cost per million tokens."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QWidget

from paramtally.gui.views.figures_grid import FiguresGrid, Row
from paramtally.gui.views.format import bytes_both, rate_text, seconds_text, terms_text

__all__ = ["ServingSummary", "dollars_text", "serving_rows", "serving_title"]


def dollars_text(value: float | None) -> str:
    """$0.0123, $76.9, $4,540: three significant digits up to $1,000, whole dollars past it (a
    million tokens at 10⁸ context cost '$4.54e+03'), 'under $0.001' below it."""
    if value is None:
        return "– (no price: set usd_per_hour in gpus.json)"
    if value >= 1000:
        return f"${value:,.0f}"
    return f"${value:.3g}" if value >= 0.001 else "under $0.001"


def _together(text: str) -> str:
    """``text`` that wraps as one word (its spaces non-breaking)."""
    return text.replace(" ", "&nbsp;")


def serving_rows(serving: Any) -> list[Row]:
    return [
        ("Prefill (whole batch)", seconds_text(serving.prefill_seconds)),
        (
            "Decode",
            # A figure stays on one line with its unit ('296.1 per sequence'): wrapped at the
            # space, the number ended a line flush against the scroll bar, as if cut off.
            f"<b>{_together(rate_text(serving.decode_tokens_per_second) + ' tok/s')}</b> for the batch, "
            f"{_together(rate_text(serving.decode_tokens_per_second_per_sequence) + ' per sequence')} "
            f"({_bound_text(serving)})",
        ),
        ("Largest batch that fits", f"{serving.max_batch:,}"),
        (
            f"KV cache ({serving.tokens_per_sequence:,} tokens each)",
            bytes_both(serving.kv_cache_bytes),
        ),
        (
            "Per million tokens",
            f"{dollars_text(serving.usd_per_million_output_tokens)} generated, "
            f"{dollars_text(serving.usd_per_million_prompt_tokens)} prompt",
        ),
    ]


def _bound_text(serving: Any) -> str:
    """'memory bandwidth bound at 68.5 % of peak': the bandwidth a memory-bound step assumes."""
    if serving.decode_bound != "memory bandwidth":
        return f"{serving.decode_bound} bound"
    return f"memory bandwidth bound at {100 * serving.bandwidth_efficiency:.3g} % of peak"


def serving_title(serving: Any) -> str:
    warning = "" if serving.fits else " <span style='color:#C0392B'>(does not fit)</span>"
    return f"<b>Serving on {serving.gpus} × {serving.gpu_name}</b>{warning}"


class ServingSummary(FiguresGrid):
    """objectName ``servingSummary``; its tooltip lists every term with its formula and source.
    Hidden while training (the core has no serving figures then)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("servingSummary", parent)

    def set_serving(self, serving: Any, training: bool) -> None:
        self.setVisible(not training)
        if serving is None:
            return  # training, or a refused scenario: the last valid figures stay, the panel says why
        self.set_figures(serving_title(serving), serving_rows(serving))
        self.set_tool_tip_source(lambda: terms_text(serving.terms))
