"""The RG-LRU recurrent block of Griffin (De et al. 2024), as transformers' RecurrentGemma builds it
(``RecurrentGemmaRecurrentBlock`` and ``RecurrentGemmaRglru`` in ``modeling_recurrent_gemma.py``).

On width h with a recurrence of width I (``lru_width``) in H blocks of b = I/H channels and a conv
of K taps: linear_x and linear_y h → I, a depthwise causal conv over I channels, the RG-LRU — a
recurrence parameter Λ per channel and block-diagonal input and recurrence gates (H blocks of
b × b, and a bias of b each) — and linear_out I → h; every linear and the conv have a bias. The
y branch goes through GELU and multiplies the recurrence's output. A layer keeps a fixed state per
sequence: the conv's last K − 1 inputs, I·(K − 1), and the recurrence's state, I (transformers keeps
it in fp32).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar, Literal

from pydantic import ConfigDict, Field

from paramtally.core.blocks.activation_profiles import HFProfile, KernelPath
from paramtally.core.blocks.base import (
    Bounds,
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

__all__ = ["RGLRU"]


class RGLRU(ScorelessMixer):
    """A Griffin recurrent block: gated linear recurrence with block-diagonal gates (RecurrentGemma)."""

    model_config = ConfigDict(title="RG-LRU")

    kind: Literal["rg_lru"] = "rg_lru"
    width: PositiveInt | None = Field(
        None,
        title="Recurrence width",
        description="Width of the recurrence (I; lru_width); empty means hidden.",
    )
    num_heads: PositiveInt = Field(
        title="Gate blocks", description="Blocks of the block-diagonal gates (H; the attention heads)."
    )
    conv_kernel: PositiveInt = Field(4, title="Conv kernel", description="Taps of the depthwise conv (K).")

    SHORT: ClassVar[str] = "RG-LRU"  # in labels such as "layers 0–1 (RG-LRU, dense)"
    COLOR: ClassVar[str] = "#E7298A"
    PART: ClassVar[str] = "ssm"
    PLAIN: ClassVar[bool] = False
    # Its hf bytes are an estimate of what the module keeps (not measured; see ``hf_bytes``).
    KERNELS: ClassVar[KernelPath | None] = None
    WINDOW_FIELD: ClassVar[str | None] = None
    PATTERN_NAMES: ClassVar[tuple[str, ...]] = ("rglru", "lru", "griffin")
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {"num_heads": lambda h: max(1, h // 256)}
    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("ssm", r"\.(linear_x|linear_y|linear_out|conv_1d|rg_lru)\."),
    )
    EXAMPLES: ClassVar[tuple[dict[str, object], ...]] = (
        {"num_heads": 2},
        {"width": 32, "num_heads": 4, "conv_kernel": 2},
    )

    def dims(self, ctx: Context) -> dict[str, int]:
        inner = self.width or ctx.h
        return {
            "h": ctx.h,
            "I": inner,
            "H": self.num_heads,
            "b": inner // self.num_heads,
            "K": self.conv_kernel,
        }

    def terms(self, ctx: Context, part: str = "ssm") -> list[Term]:
        d = self.dims(ctx)
        return [
            leaf("linear_x, linear_y", part, "2·(h·I + I)", h=d["h"], I=d["I"]),
            leaf("conv_1d (depthwise)", part, "I·K + I", I=d["I"], K=d["K"]),
            leaf("input and recurrence gates (block-diagonal)", part, "2·(H·b² + H·b)", H=d["H"], b=d["b"]),
            leaf("recurrence parameter Λ", part, "I", I=d["I"]),
            leaf("linear_out", part, "I·h + h", I=d["I"], h=d["h"]),
        ]

    def cache(self, ctx: Context, tp: int) -> Cache:
        d = self.dims(ctx)  # TP splits the channels (whole gate blocks)
        per_rank = d["I"] // tp
        expr = "L·(I·(K − 1) + I)" if tp == 1 else "L·((I/t)·(K − 1) + I/t)"
        symbols: tuple[tuple[str, int], ...] = (("I", d["I"]), ("K", d["K"]))
        if tp > 1:
            symbols = (*symbols, ("t", tp))
        return Cache(
            per_sequence=per_rank * (d["K"] - 1) + per_rank,
            state_expr=expr,
            symbols=symbols,
            source="an RG-LRU block keeps the conv's last K − 1 inputs and the recurrence's state of I "
            "channels per sequence (transformers' RecurrentGemmaRecurrentBlock: conv1d_state and "
            "rg_lru.recurrent_states)",
        )

    def tp_replicated(self, ctx: Context) -> Replicated | None:
        return None

    def projection_widths(self, ctx: Context) -> int:
        """linear_x's and linear_y's outputs, GELU(y), the conv's output, the two gates, the
        recurrence's output and the gated product: 8·I (an estimate, Korthikanti-style)."""
        return 8 * self.dims(ctx)["I"]

    def prefill_width(self, ctx: Context) -> int:
        return 2 * self.dims(ctx)["I"]

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> int:
        """The projection widths at B bytes: an estimate of what the recurrent block keeps in
        transformers' PyTorch scan, not measured."""
        return hf.b * self.projection_widths(ctx)

    def context_width(self, ctx: Context, decoding: bool = False) -> int:
        return 0

    def scan_flops(self, ctx: Context) -> int:
        """The recurrence per token ≈ 6·I: the decay a = σ(r)^(c·softplus(Λ)), √(1 − a²), the gated
        input and the state update (an estimate; the gates' block matrices are parameters, in 2·N)."""
        return 6 * self.dims(ctx)["I"]

    def gguf_tensors(self, ctx: Context) -> list[GGUFTensor]:
        return []

    def bounds(self, name: str, values: Mapping[str, int]) -> Bounds:
        """The hidden size must split into the gate blocks where the width follows it."""
        if name == "hidden_size" and self.width is None:
            return Bounds(step=self.num_heads)
        return Bounds()

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        return []

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        if self.num_heads % tp:
            return say(
                "tensor parallel size {tp} does not divide the RG-LRU's {n} gate blocks",
                tp=tp,
                n=self.num_heads,
            )
        return None

    def problems(self, ctx: Context) -> list[FieldProblem]:
        inner = self.width or ctx.h
        if inner % self.num_heads:
            return [
                (
                    ("num_heads",),
                    say(
                        "{n} gate blocks do not divide the recurrence width {inner}",
                        n=self.num_heads,
                        inner=inner,
                    ),
                    self.num_heads,
                )
            ]
        return []
