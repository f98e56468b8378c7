"""Serving on the scenario's own setup, as the core's ServingReport states it: prefill time, decode
speed per sequence and for the batch, the largest batch that fits, the KV cache for prompt +
generated tokens and the cost per million tokens."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QWidget

from paramtally.gui.i18n import translate
from paramtally.gui.views.figures_grid import FiguresGrid, Row
from paramtally.gui.views.format import bytes_both, rate_text, seconds_text, terms_text

__all__ = ["ServingSummary", "dollars_text", "serving_rows", "serving_title"]


def dollars_text(value: float | None) -> str:
    """$0.0123, $76.9, $4,540: three significant digits up to $1,000, whole dollars past it (a
    million tokens at 10⁸ context cost '$4.54e+03'), 'under $0.001' below it."""
    if value is None:
        return translate("Figures", "– (no price: set usd_per_hour in gpus.json)")
    if value >= 1000:
        return f"${value:,.0f}"
    return f"${value:.3g}" if value >= 0.001 else translate("Figures", "under $0.001")


def _together(text: str) -> str:
    """``text`` that wraps as one word (its spaces non-breaking)."""
    return text.replace(" ", "&nbsp;")


def serving_rows(serving: Any) -> list[Row]:
    """The serving figures; a model that generates nothing (an encoder alone: core gives no decode
    figures) shows its prefill, largest batch and prompt price alone."""
    prefill = (translate("Figures", "Prefill (whole batch)"), seconds_text(serving.prefill_seconds))
    batch = (translate("Figures", "Largest batch that fits"), f"{serving.max_batch:,}")
    if serving.decode_tokens_per_second is None:
        prompt = translate("Figures", "{prompt} prompt").format(
            prompt=dollars_text(serving.usd_per_million_prompt_tokens)
        )
        return [prefill, batch, (translate("Figures", "Per million tokens"), prompt)]
    return [
        prefill,
        (
            translate("Figures", "Decode"),
            # A figure stays on one line with its unit ('296.1 per sequence'): wrapped at the
            # space, the number ended a line flush against the scroll bar, as if cut off.
            translate("Figures", "<b>{batch}</b> for the batch, {sequence} ({bound})").format(
                batch=_together(rate_text(serving.decode_tokens_per_second) + " tok/s"),
                sequence=_together(
                    translate("Figures", "{rate} per sequence").format(
                        rate=rate_text(serving.decode_tokens_per_second_per_sequence)
                    )
                ),
                bound=_bound_text(serving),
            ),
        ),
        batch,
        (
            translate("Figures", "KV cache ({tokens} tokens each)").format(
                tokens=f"{serving.tokens_per_sequence:,}"
            ),
            bytes_both(serving.kv_cache_bytes),
        ),
        (
            translate("Figures", "Per million tokens"),
            translate("Figures", "{generated} generated, {prompt} prompt").format(
                generated=dollars_text(serving.usd_per_million_output_tokens),
                prompt=dollars_text(serving.usd_per_million_prompt_tokens),
            ),
        ),
    ]


def _bound_text(serving: Any) -> str:
    """'memory bandwidth bound at 68.5 % of peak': the bandwidth a memory-bound step assumes."""
    if serving.decode_bound != "memory bandwidth":
        return translate("Figures", "{bound} bound").format(bound=translate("Figures", serving.decode_bound))
    return translate("Figures", "memory bandwidth bound at {share} % of peak").format(
        share=f"{100 * serving.bandwidth_efficiency:.3g}"
    )


def serving_title(serving: Any) -> str:
    warning = translate("Figures", "(does not fit)")
    warning = "" if serving.fits else f" <span style='color:#C0392B'>{warning}</span>"
    serving_on = translate("Figures", "Serving on {gpus} × {gpu}").format(
        gpus=serving.gpus, gpu=serving.gpu_name
    )
    return f"<b>{serving_on}</b>{warning}"


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
