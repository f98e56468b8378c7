"""Sizes that follow from other sizes, the way model code computes them.

``ffn_width_from_hidden`` is LLaMA's FeedForward (meta-llama/llama, ``model.py``): start at 4·h;
a gated FFN (SwiGLU, three matrices) takes two thirds of it, to keep the parameters of a
two-matrix 4·h FFN; an optional multiplier scales it (Llama 3: 1.3); the result is rounded up
to a multiple (``multiple_of``: 256 in Llama 2, 1024 in Llama 3) so that it runs well on GPUs.
Llama-2-7B: h = 4096 → 11,008; Llama-3-8B: 4096, ×1.3, 1024 → 14,336; Llama-2-70B: 8192, ×1.3,
4096 → 28,672.
"""

from __future__ import annotations

from paramtally.core.errors import ParamTallyError
from paramtally.core.text import say

__all__ = ["ffn_width_from_hidden"]


def ffn_width_from_hidden(
    hidden: int, multiple_of: int = 256, multiplier: float = 1.0, gated: bool = True
) -> int:
    if hidden < 1 or multiple_of < 1 or multiplier <= 0:
        raise ParamTallyError(say("the hidden size, the multiple and the multiplier must be above 0"))
    width = 4 * hidden
    if gated:
        width = int(2 * width / 3)
    if multiplier != 1.0:
        width = int(multiplier * width)
    return multiple_of * -(-width // multiple_of)
