"""Lightning attention, MiniMax-01's linear attention (Qin et al. 2024, "Lightning Attention-2";
MiniMax 2025), as transformers' ``MiniMaxLightningAttention`` builds it.

With a heads of width d: qkv_proj h → 3·a·d (one fused projection, SiLU on its output), a decayed
linear attention per head (no softmax, no positions: a fixed decay per head), an RMSNorm over the
a·d outputs, a sigmoid output gate h → a·d, out_proj a·d → h; no biases. A layer keeps a fixed state
per sequence: one d × d matrix (Kᵀ·V, decayed) per head. Its decay tables (``slope_rate``,
``query_decay``, ``key_decay``, ``diagonal_decay``) are buffers, not parameters.
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
    gguf_tensors_of,
    leaf,
)
from paramtally.core.terms.term import Term
from paramtally.core.text import say

__all__ = ["LightningAttention"]


class LightningAttention(ScorelessMixer):
    """A gated, decayed linear attention layer (MiniMax-01)."""

    model_config = ConfigDict(title="Lightning attention")

    kind: Literal["lightning_attention"] = "lightning_attention"
    num_heads: PositiveInt = Field(title="Heads", description="Heads of the linear attention (a).")
    head_dim: PositiveInt | None = Field(
        None, title="Head width", description="Width of one head (d); empty means hidden size / heads."
    )
    block_size: PositiveInt = Field(
        256,
        title="Block size",
        description="Tokens per block (B): within a block the heads attend directly, across blocks "
        "through a d × d state. No parameters: it sets the FLOPs and what training keeps.",
    )

    SHORT: ClassVar[str] = "lightning"  # in labels such as "layers 0–6 (lightning, MoE)"
    COLOR: ClassVar[str] = "#B15928"
    # Its tensors share the softmax layers' names (self_attn.qkv_proj, out_proj as Phi-3's, BART's):
    # by name alone a checkpoint's lightning layers are attention, so their part is that.
    PART: ClassVar[str] = "attention"
    PLAIN: ClassVar[bool] = False
    # Its hf bytes are transformers' PyTorch loop, measured (no kernel path: see ``hf_bytes``).
    KERNELS: ClassVar[KernelPath | None] = None
    PATTERN_NAMES: ClassVar[tuple[str, ...]] = ("lightning",)
    WINDOW_FIELD: ClassVar[str | None] = None
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {"num_heads": lambda h: max(1, h // 128)}
    # The shared self_attn rules but for its output norm, which would read as a block norm.
    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = (("attention", r"self_attn\.norm\.weight$"),)
    EXAMPLES: ClassVar[tuple[dict[str, object], ...]] = ({"num_heads": 4, "head_dim": 16}, {"num_heads": 1})

    def width(self, ctx: Context) -> int:
        """d: the head width, else h / a (MiniMaxLightningAttention: head_dim or h // a)."""
        return self.head_dim or ctx.h // self.num_heads

    def dims(self, ctx: Context) -> dict[str, int]:
        return {"h": ctx.h, "a": self.num_heads, "d": self.width(ctx)}

    def terms(self, ctx: Context, part: str = "attention") -> list[Term]:
        d = self.dims(ctx)
        return [
            leaf("qkv_proj", part, "3·a·d·h", **d),
            leaf("output gate", part, "h·a·d", **d),
            leaf("norm (RMSNorm)", part, "a·d", **d),
            leaf("out_proj", part, "a·d·h", **d),
        ]

    def cache(self, ctx: Context, tp: int) -> Cache:
        a, d = self.num_heads, self.width(ctx)
        symbols: tuple[tuple[str, int], ...] = (("a", a), ("d", d))
        return Cache(
            per_sequence=a * d * d // tp,
            state_expr="L·a·d²" + ("/t" if tp > 1 else ""),
            symbols=(*symbols, *((("t", tp),) if tp > 1 else ())),
            source="lightning attention keeps one d × d matrix (Kᵀ·V, decayed) per head "
            "(MiniMaxCache's linear cache, (b, a, d, d) per layer)",
        )

    def tp_replicated(self, ctx: Context) -> Replicated | None:
        """Nothing that TP keeps whole (see ``Attention.tp_replicated``)."""
        return None

    def projection_widths(self, ctx: Context) -> int:
        """qkv_proj's output and its SiLU (3·a·d each), the attention's output, its norm, the gate
        and the gated product (a·d each): 10·a·d (an estimate, Korthikanti-style)."""
        return 10 * self.num_heads * self.width(ctx)

    def prefill_width(self, ctx: Context) -> int:
        return 4 * self.num_heads * self.width(ctx)

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> int:
        """What ``MiniMaxLightningAttention``'s PyTorch loop keeps per token (measured by
        tools/measure_lightning_activations.py, within 1 %): qkv_proj's output before its SiLU
        (3·a·d), each block's q, k and v slices twice over (6·a·d: the intra- and inter-block
        products), the block's scores (a·B) and its d × d state (a·d²/B), the norm over a·d, the
        gate, the normed output and the gated product (3·a·d). Left out: the decay table it keeps
        once a layer (a·B², a buffer) and one block's slices fewer (a context of one block)."""
        a, d, block = self.num_heads, self.width(ctx), self.block_size
        return hf.b * (12 * a * d + a * d * d // block + a * block) + hf.rms_norm(a * d)

    def context_width(self, ctx: Context, decoding: bool = False) -> int:
        return 0

    def scan_flops(self, ctx: Context) -> int:
        """Per token: within its block, Q·Kᵀ and the decayed scores times V (2·a·d·B each, the
        whole block as the PyTorch loop computes it); across blocks, the read-out Q·state and its
        share of the state's update Kᵀ·V (2·a·d² each)."""
        a, d = self.num_heads, self.width(ctx)
        return 4 * a * d * self.block_size + 4 * a * d * d

    def gguf_tensors(self, ctx: Context) -> list[GGUFTensor]:
        return gguf_tensors_of(self.lora_matrices(ctx))

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        return []

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        if self.num_heads % tp:
            return say(
                "tensor parallel size {tp} does not divide the {a} lightning-attention heads",
                tp=tp,
                a=self.num_heads,
            )
        return None

    def problems(self, ctx: Context) -> list[FieldProblem]:
        if self.head_dim is None and ctx.h % self.num_heads:
            message = say(
                "the hidden size ({h:,}) is not a multiple of the {a} heads: change either, "
                "or set the head width",
                h=ctx.h,
                a=self.num_heads,
            )
            return [(("num_heads",), message, self.num_heads)]
        return []
