"""RWKV-4's time mix, the token mixer of RWKV (Peng et al. 2023, "RWKV: Reinventing RNNs for the
Transformer Era"), as transformers builds it (``RwkvSelfAttention`` in ``modeling_rwkv.py``).

On width h with an attention width A (``attention_hidden_size``, h by default): three token-shift
mixes of h each (time_mix_key, time_mix_value, time_mix_receptance: how much of the previous token
each projection reads), key, value and receptance h → A and output A → h, all without bias, and
per channel of A a decay (time_decay) and a bonus for the current token (time_first). No heads
and no positions: the WKV recurrence is a weighted average of past values, decayed per channel.

A layer keeps a fixed state per sequence. transformers' ``RwkvModel`` keeps five vectors per layer:
the last input of each of the block's two sublayers (this time mix's and the channel mix's token
shift, h each, in the activation dtype) and the WKV numerator, denominator and running maximum
(A each, in fp32); the time mix counts them all, the channel mix keeping none of its own.
(transformers allocates all five h wide, so a model with A ≠ h generates with no cache there.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Literal

from pydantic import ConfigDict, Field

from paramtally.core.blocks.activation_profiles import HFProfile, KernelPath
from paramtally.core.blocks.base import (
    Cache,
    Context,
    FieldProblem,
    GGUFTensor,
    LoRAMatrix,
    PositiveInt,
    Replicated,
    ScorelessMixer,
    leaf,
)
from paramtally.core.terms.term import Term
from paramtally.core.text import say

__all__ = ["RWKVTimeMix"]


class RWKVTimeMix(ScorelessMixer):
    """RWKV-4's time mix: token-shifted key, value and receptance and the WKV recurrence (RWKV)."""

    model_config = ConfigDict(title="RWKV time mix")

    kind: Literal["rwkv"] = "rwkv"
    width: PositiveInt | None = Field(
        None,
        title="Attention width",
        description="Width of key, value and receptance (A; attention_hidden_size); empty means hidden.",
    )

    SHORT: ClassVar[str] = "RWKV"  # in labels such as "layers 0–11 (RWKV, channel mix)"
    COLOR: ClassVar[str] = "#1B9E77"
    PART: ClassVar[str] = "ssm"
    PLAIN: ClassVar[bool] = False
    # Its hf bytes are measured as PyTorch runs its WKV loop (not the optional CUDA kernel).
    KERNELS: ClassVar[KernelPath | None] = None
    WINDOW_FIELD: ClassVar[str | None] = None
    PATTERN_NAMES: ClassVar[tuple[str, ...]] = ("rwkv", "timemix")
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {}
    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = (
        # RWKV's blocks.N.attention.key.weight, time_decay: not BERT's attention.output.dense
        ("ssm", r"\.attention\.((key|value|receptance|output)\.weight|time_decay|time_first|time_mix_\w+)$"),
    )
    EXAMPLES: ClassVar[tuple[dict[str, object], ...]] = ({}, {"width": 32})

    def dims(self, ctx: Context) -> dict[str, int]:
        return {"h": ctx.h, "A": self.width or ctx.h}

    def terms(self, ctx: Context, part: str = "ssm") -> list[Term]:
        d = self.dims(ctx)
        return [
            leaf("key, value, receptance", part, "3·h·A", **d),
            leaf("output", part, "A·h", **d),
            leaf("time_decay, time_first", part, "2·A", A=d["A"]),
            leaf("time_mix (k, v, r)", part, "3·h", h=d["h"]),
        ]

    def cache(self, ctx: Context, tp: int) -> Cache:
        d = self.dims(ctx)  # TP splits the channels
        expr = "L·(2·h + 3·A)" if tp == 1 else "L·(2·h + 3·A)/t"
        symbols: tuple[tuple[str, int], ...] = (("h", d["h"]), ("A", d["A"]))
        if tp > 1:
            symbols = (*symbols, ("t", tp))
        return Cache(
            per_sequence=(2 * d["h"] + 3 * d["A"]) // tp,
            state_expr=expr,
            symbols=symbols,
            source="an RWKV-4 block keeps the last input of its time mix and of its channel mix (h each) "
            "and the WKV numerator, denominator and maximum (A each) per sequence (transformers' "
            "RwkvModel state, five vectors per layer)",
        )

    def tp_replicated(self, ctx: Context) -> Replicated | None:
        return None

    def projection_widths(self, ctx: Context) -> int:
        """The three token-shift mixes (3h), key, value and receptance (3A), the sigmoid gate, the
        WKV output and the gated product (3A): 3h + 6A (an estimate, Korthikanti-style)."""
        d = self.dims(ctx)
        return 3 * d["h"] + 6 * d["A"]

    def prefill_width(self, ctx: Context) -> int:
        return 3 * self.dims(ctx)["A"]

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> int:
        """What ``RwkvSelfAttention`` keeps per token, fitted to measurements at three widths
        (tools/measure_rwkv_activations.py): the shifted token and the three mixed inputs (4h; ln1's
        output the block's norms count) and four A-wide tensors (the sigmoid gate, the WKV output,
        the gated product, the value the loop reads) at B bytes; and PyTorch's WKV loop
        (``rwkv_linear_attention_cpu``, fp32 whatever the activations' dtype): its exponentials,
        maxima, products and quotients, 12 fp32 numbers per channel, 48·A bytes."""
        d = self.dims(ctx)
        return hf.b * (4 * d["h"] + 4 * d["A"]) + 48 * d["A"]

    def context_width(self, ctx: Context, decoding: bool = False) -> int:
        return 0

    def scan_flops(self, ctx: Context) -> int:
        """The token-shift mixes (3 per channel of h, three times) and per channel of A the WKV
        step — two exponentials, the numerator's and denominator's updates, the division and the
        gate — ≈ 9·h + 16·A (an estimate; the projections are parameters, in 2·N)."""
        d = self.dims(ctx)
        return 9 * d["h"] + 16 * d["A"]

    def gguf_tensors(self, ctx: Context) -> list[GGUFTensor]:
        return []

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        return []

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        a = self.dims(ctx)["A"]
        if a % tp:
            return say("tensor parallel size {tp} does not divide the RWKV's {a} channels", tp=tp, a=a)
        return None

    def problems(self, ctx: Context) -> list[FieldProblem]:
        return []
