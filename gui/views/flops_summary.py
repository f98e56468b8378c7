"""FLOPs per token and for a training run, as the core's FlopsReport states them."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import QWidget

from paramtally.core.count.breakdown import human
from paramtally.gui.i18n import translate
from paramtally.gui.views.figures_grid import FiguresGrid, Row
from paramtally.gui.views.format import duration_text, scientific, terms_text

__all__ = ["FlopsSummary", "flops_rows"]

# Words core gives that the rows show: the attention-FLOPs conventions, what bounds a decode step.
_SHOWN_WORDS = (
    QT_TRANSLATE_NOOP("Figures", "full"),
    QT_TRANSLATE_NOOP("Figures", "causal"),
    QT_TRANSLATE_NOOP("Figures", "memory bandwidth"),
    QT_TRANSLATE_NOOP("Figures", "compute"),
)


def flops_rows(flops: Any, gpu_name: str = "", training: bool = False) -> list[Row]:
    chinchilla = (
        translate("Figures", " (Chinchilla-optimal 20·N)") if flops.tokens == flops.chinchilla_tokens else ""
    )
    hardware = (
        [
            (
                translate("Figures", "Hardware per training token"),
                f"{scientific(flops.hardware_training_per_token)} FLOP",
            )
        ]
        if training
        else []
    )
    decode = flops.decode_per_token  # None: the model generates nothing (an encoder or a tower alone)
    return [
        (translate("Figures", "Active parameters N"), f"{flops.params:,} ({human(flops.params)})"),
        (translate("Figures", "Forward per token (prefill)"), f"{scientific(flops.forward_per_token)} FLOP"),
        *(
            [(translate("Figures", "Decode step at the context"), f"{scientific(decode)} FLOP")]
            if decode
            else []
        ),
        _training_row(flops),
        *hardware,
        (translate("Figures", "Training tokens D"), f"{flops.tokens:,} ({human(flops.tokens)}){chinchilla}"),
        ("6·N·D", f"{scientific(flops.six_nd)} FLOP"),
        (translate("Figures", "Run (with attention)"), f"{scientific(flops.run_flops)} FLOP"),
        (
            translate("Figures", "Run time"),
            translate(
                "Figures", "<b>{time}</b> on {gpus} × {gpu} at {mfu} % MFU ({peak} FLOP/s peak each)"
            ).format(
                time=duration_text(flops.seconds),
                gpus=f"{flops.gpus:,}",
                gpu=gpu_name or flops.gpu,
                mfu=f"{100 * flops.mfu:.0f}",
                peak=scientific(flops.peak_flops),
            ),
        ),
    ]


def _training_row(flops: Any) -> Row:
    """Training FLOPs per token in the convention the run and its time use, the other beside it."""
    figures = {"full": flops.training_per_token_full, "causal": flops.training_per_token_causal}
    used = flops.attention_flops
    other = next(convention for convention in figures if convention != used)
    return (
        translate("Figures", "Training per token"),
        translate("Figures", "{used_flops} FLOP ({used} attention; {other}: {other_flops})").format(
            used_flops=scientific(figures[used]),
            used=translate("Figures", used),
            other=translate("Figures", other),
            other_flops=scientific(figures[other]),
        ),
    )


class FlopsSummary(FiguresGrid):
    """objectName ``flopsSummary``; tooltip lists every term with its formula and source."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("flopsSummary", parent)

    def set_flops(self, flops: Any, gpu_name: str = "", training: bool = False) -> None:
        if flops is None:
            return  # the last valid figures stay; the panel says why
        self.set_figures(translate("Figures", "<b>Compute</b>"), flops_rows(flops, gpu_name, training))
        self.set_tool_tip_source(lambda: terms_text(flops.terms))
