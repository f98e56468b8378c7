"""RWKV-4's channel mix, the FFN of an RWKV block (Peng et al. 2023), as transformers builds it
(``RwkvFeedForward`` in ``modeling_rwkv.py``).

On width h with an intermediate width f (``intermediate_size``, 4h by default): two token-shift mixes
of h (time_mix_key, time_mix_receptance), key h → f, value f → h and receptance h → h, all without
bias. The output is σ(receptance(x_r)) · value(relu(key(x_k))²): a squared-ReLU MLP gated by a
sigmoid of the token-shifted input. Its token shift keeps the last input per sequence, which the
time mix's state counts (``core.blocks.rwkv``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Literal

from pydantic import ConfigDict, Field

from paramtally.core.blocks.activation_profiles import HFProfile
from paramtally.core.blocks.base import (
    Context,
    FieldProblem,
    GGUFTensor,
    Kind,
    LoRAMatrix,
    PositiveInt,
    leaf,
)
from paramtally.core.terms.term import Term
from paramtally.core.text import say

__all__ = ["RWKVChannelMix"]


class RWKVChannelMix(Kind):
    """RWKV-4's channel mix: a squared-ReLU MLP gated by a sigmoid receptance, on token-shifted input."""

    model_config = ConfigDict(title="RWKV channel mix")

    kind: Literal["rwkv_channel_mix"] = "rwkv_channel_mix"
    GROUP: ClassVar[str] = "ffn"
    SHORT: ClassVar[str] = "channel mix"
    PARTS: ClassVar[tuple[str, ...]] = ("ffn",)
    COLOR: ClassVar[str] = "#66A61E"
    ROUTED: ClassVar[bool] = False
    SCALED_WIDTHS: ClassVar[tuple[str, ...]] = ("width",)
    TREE_VALUES: ClassVar[tuple[str, ...]] = ("width",)
    VARIABLES: ClassVar[dict[str, str]] = {"ffn_width": "width"}
    PATTERN_NAMES: ClassVar[tuple[str, ...]] = ("channelmix",)
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {"width": lambda h: 4 * h}
    RENAMED: ClassVar[dict[str, str]] = {"expert_width": "width"}
    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("ffn", r"\.feed_forward\.((key|value|receptance)\.weight|time_mix_\w+)$"),
    )
    EXAMPLES: ClassVar[tuple[dict[str, object], ...]] = ({"width": 64}, {"width": 100})
    gated: ClassVar[bool] = False  # its gate is h × h, not a third h × f matrix

    width: PositiveInt = Field(title="FFN width", description="Intermediate width (f).")

    def terms(self, ctx: Context) -> list[Term]:
        h, f = ctx.h, self.width
        return [
            leaf("key, value", "ffn", "2·h·f", h=h, f=f),
            leaf("receptance", "ffn", "h²", h=h),
            leaf("time_mix (k, r)", "ffn", "2·h", h=h),
        ]

    def active_width(self) -> int:
        return self.width

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> tuple[int, int]:
        """What ``RwkvFeedForward`` keeps per token, fitted to measurements at three widths
        (tools/measure_rwkv_activations.py). Kept whole by TP: the shifted token and the two mixed
        inputs (3h; ln2's output the block's norms count); split: key's ReLU output and its square
        (2f), the sigmoid receptance and the value's output (2h)."""
        return hf.b * 3 * ctx.h, hf.b * (2 * self.width + 2 * ctx.h)

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        return []

    def gguf_tensors(self, ctx: Context) -> list[GGUFTensor]:
        return []

    def matrix_widths(self) -> list[tuple[str, str, int]]:
        return [("width", say("The FFN width"), self.width)]

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        return None

    def problems(self, ctx: Context) -> list[FieldProblem]:
        return []
