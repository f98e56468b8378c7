"""One colour per breakdown part and per memory term, shared by every chart and legend."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QWidget

from paramtally.core.blocks import KINDS

__all__ = [
    "KIND_COLORS",
    "MEMORY_COLORS",
    "PART_COLORS",
    "SERIES_COLORS",
    "chart_colors",
    "color_for",
    "series_color",
]

# Okabe–Ito plus a few distinct extras: readable for colour-blind people, on light and dark.
PART_COLORS: Mapping[str, str] = {
    "vision": "#B07AA1",
    "projector": "#76B7B2",
    "embeddings": "#0072B2",
    "frontend": "#6B8E23",
    "attention": "#E69F00",
    "ssm": "#B5651D",
    "cross_attention": "#F4A582",
    "ffn": "#009E73",
    "moe_experts": "#56B4E9",
    "shared_experts": "#CC79A7",
    "router": "#D55E00",
    "norms": "#999999",
    "lm_head": "#7B52AE",
    "lora": "#F0E442",
    "adapters": "#8C564B",
    "vocab_growth": "#17BECF",
    "mtp": "#4D4D4D",
}

# Mixer and FFN kinds (core.blocks' registry tags), for the per-layer bars by kind: each kind's own
# colour (``COLOR``: mixers in warm colours, FFNs in cool ones, so a layer's two halves never look
# alike), and the halves that are no kind.
KIND_COLORS: Mapping[str, str] = {tag: kind.COLOR for tag, kind in KINDS.items()} | {
    "cross_attention": "#F4A582",
    "other": "#999999",
}

MEMORY_COLORS: Mapping[str, str] = {
    "weights": "#0072B2",
    "kv_cache": "#E69F00",
    "activations": "#009E73",
    "gradients": "#CC79A7",
    "optimizer": "#D55E00",
    "overhead": "#999999",
}

_FALLBACK = ("#4E79A7", "#F28E2B", "#59A14F", "#E15759", "#76B7B2", "#EDC948", "#B07AA1")


def color_for(key: str, table: Mapping[str, str] = PART_COLORS) -> QColor:
    """The key's colour; unknown keys (a term the core adds later) get a stable fallback."""
    if key in table:
        return QColor(table[key])
    return QColor(_FALLBACK[sum(map(ord, key)) % len(_FALLBACK)])


def chart_colors(widget: QWidget) -> tuple[QColor, QColor]:
    """(background, text) of charts, taken from the widget's palette so dark mode follows."""
    palette = widget.palette()
    return palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)


# One colour per compared column (the compare view's chart and its table headers).
SERIES_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#7B52AE", "#8C564B")


def series_color(index: int) -> QColor:
    return QColor(SERIES_COLORS[index % len(SERIES_COLORS)])
