"""A gated short convolution, LFM2's token mixer, as transformers' ``Lfm2ShortConv`` builds it.

On width h with a kernel of K taps: in_proj h → 3h (the gates B and C and the input x), a depthwise
causal conv over the h channels of B·x, out_proj h → h of C times the conv's output; ``conv_bias``
puts a bias on all three. No heads and no positions. A layer keeps a fixed state per sequence: the
conv's last K − 1 inputs, h·(K − 1) numbers (vLLM's ShortConv state, llama.cpp's LFM2 r-state;
transformers' cache keeps all K).
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

__all__ = ["ShortConv"]


class ShortConv(ScorelessMixer):
    """A gated short-convolution layer (LFM2)."""

    model_config = ConfigDict(title="Short conv")

    kind: Literal["short_conv"] = "short_conv"
    conv_kernel: PositiveInt = Field(
        3, title="Conv kernel", description="Taps of the depthwise causal conv (K; LFM2's conv_L_cache)."
    )
    bias: bool = Field(False, title="Bias", description="A bias on in_proj, the conv and out_proj.")

    SHORT: ClassVar[str] = "short conv"  # in labels such as "layers 0–3 (short conv, dense)"
    COLOR: ClassVar[str] = "#A6761D"
    PART: ClassVar[str] = "ssm"
    PLAIN: ClassVar[bool] = False
    # Its hf bytes are an estimate of what the module keeps (not measured; see ``hf_bytes``).
    KERNELS: ClassVar[KernelPath | None] = None
    WINDOW_FIELD: ClassVar[str | None] = None
    PATTERN_NAMES: ClassVar[tuple[str, ...]] = ("conv", "shortconv")
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {}
    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = (("ssm", r"\.conv\.(in_proj|conv|out_proj)\."),)
    EXAMPLES: ClassVar[tuple[dict[str, object], ...]] = ({}, {"conv_kernel": 4, "bias": True})

    def terms(self, ctx: Context, part: str = "ssm") -> list[Term]:
        h, k = ctx.h, self.conv_kernel
        with_bias = self.bias
        return [
            leaf("in_proj (B, C, x)", part, "3·h·h + 3·h" if with_bias else "3·h·h", h=h),
            leaf("conv (depthwise)", part, "h·K + h" if with_bias else "h·K", h=h, K=k),
            leaf("out_proj", part, "h·h + h" if with_bias else "h·h", h=h),
        ]

    def cache(self, ctx: Context, tp: int) -> Cache:
        # TP splits the channels: a rank keeps h/t of them.
        expr = "L·h·(K − 1)" if tp == 1 else "L·(h/t)·(K − 1)"
        symbols: tuple[tuple[str, int], ...] = (("h", ctx.h), ("K", self.conv_kernel))
        if tp > 1:
            symbols = (*symbols, ("t", tp))
        return Cache(
            per_sequence=ctx.h // tp * (self.conv_kernel - 1),
            state_expr=expr,
            symbols=symbols,
            source="a short conv keeps its last K − 1 inputs of h channels per sequence (vLLM ShortConv, "
            "llama.cpp's LFM2 conv state; transformers' Lfm2 cache keeps K)",
        )

    def tp_replicated(self, ctx: Context) -> Replicated | None:
        return None

    def projection_widths(self, ctx: Context) -> int:
        """in_proj's output 3h, the gated input B·x, the conv's output and the gated product C·y:
        6h (an estimate, Korthikanti-style)."""
        return 6 * ctx.h

    def prefill_width(self, ctx: Context) -> int:
        return 3 * ctx.h

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> int:
        """The projection widths at B bytes: an estimate of what ``Lfm2ShortConv`` keeps (in_proj's
        output, the products either side of the conv, the conv's output), not measured."""
        return hf.b * self.projection_widths(ctx)

    def context_width(self, ctx: Context, decoding: bool = False) -> int:
        return 0

    def scan_flops(self, ctx: Context) -> int:
        """The two gating products, 2h per token (the conv's h·K multiply-adds are parameters, in
        2·N)."""
        return 2 * ctx.h

    def gguf_tensors(self, ctx: Context) -> list[GGUFTensor]:
        return []

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        return []

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        if ctx.h % tp:
            return say(
                "tensor parallel size {tp} does not divide the short conv's {h} channels", tp=tp, h=ctx.h
            )
        return None

    def problems(self, ctx: Context) -> list[FieldProblem]:
        return []
