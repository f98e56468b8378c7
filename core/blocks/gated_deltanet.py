"""Gated DeltaNet, a linear attention (Yang et al. 2024), as Qwen3-Next's ``linear_attn`` builds it.

With n_k key heads of width d_k and n_v value heads of width d_v: in_proj_qkvz h → 2·n_k·d_k +
2·n_v·d_v, in_proj_ba h → 2·n_v (β and the decay gate), a depthwise conv without bias over
2·n_k·d_k + n_v·d_v channels, Δ bias and A_log per value head, a gated RMSNorm over one value head
(d_v), out_proj n_v·d_v → h. A layer keeps a fixed state per sequence: the conv window and one
d_k × d_v matrix per value head.
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

__all__ = ["GatedDeltaNet"]


class GatedDeltaNet(ScorelessMixer):
    """A gated-delta-rule linear attention layer."""

    model_config = ConfigDict(title="Gated DeltaNet")

    kind: Literal["gated_deltanet"] = "gated_deltanet"
    key_heads: PositiveInt = Field(title="Key heads", description="Key (and query) heads (n_k).")
    value_heads: PositiveInt = Field(title="Value heads", description="Value heads (n_v).")
    key_dim: PositiveInt = Field(128, title="Key width", description="Width of one key head (d_k).")
    value_dim: PositiveInt = Field(128, title="Value width", description="Width of one value head (d_v).")
    conv_kernel: PositiveInt = Field(4, title="Conv kernel", description="Width of the depthwise conv (K).")

    SHORT: ClassVar[str] = "DeltaNet"  # in labels such as "layers 0–3 (DeltaNet, dense)"
    COLOR: ClassVar[str] = "#F0E442"
    PART: ClassVar[str] = "ssm"
    PLAIN: ClassVar[bool] = False
    # The kernels its hf bytes assume; transformers' PyTorch path without them keeps more (measured).
    KERNELS: ClassVar[KernelPath | None] = KernelPath(
        "gated DeltaNet", "fla and causal-conv1d", 2.1, "a small Qwen3-Next layer"
    )
    PATTERN_NAMES: ClassVar[tuple[str, ...]] = ("deltanet", "gdn")
    WINDOW_FIELD: ClassVar[str | None] = None
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {
        "key_heads": lambda h: max(1, h // 256),
        "value_heads": lambda h: max(1, h // 128),
    }
    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("ssm", r"linear_attn\.(in_proj_qkvz|in_proj_ba|conv1d|dt_bias|A_log|norm|out_proj)"),
    )
    EXAMPLES: ClassVar[tuple[dict[str, object], ...]] = (
        {"key_heads": 2, "value_heads": 4, "key_dim": 8, "value_dim": 8, "conv_kernel": 2},
    )

    def dims(self, ctx: Context) -> dict[str, int]:
        return {
            "h": ctx.h,
            "n_k": self.key_heads,
            "n_v": self.value_heads,
            "d_k": self.key_dim,
            "d_v": self.value_dim,
            "K": self.conv_kernel,
        }

    def terms(self, ctx: Context, part: str = "ssm") -> list[Term]:
        d = self.dims(ctx)
        return [
            leaf("in_proj (q, k, v, z)", part, "(2·n_k·d_k + 2·n_v·d_v)·h", **d),
            leaf("in_proj (β, gate)", part, "2·n_v·h", **d),
            leaf("conv1d", part, "(2·n_k·d_k + n_v·d_v)·K", **d),
            leaf("Δ bias, A_log", part, "2·n_v", **d),
            leaf("gated norm (RMSNorm)", part, "d_v", **d),
            leaf("out_proj", part, "n_v·d_v·h", **d),
        ]

    def cache(self, ctx: Context, tp: int) -> Cache:
        d = self.dims(ctx)
        numbers = (2 * d["n_k"] * d["d_k"] + d["n_v"] * d["d_v"]) * (d["K"] - 1) + d["n_v"] * d["d_k"] * d[
            "d_v"
        ]
        symbols = tuple((name, d[name]) for name in ("n_k", "d_k", "n_v", "d_v", "K"))
        return Cache(
            per_sequence=numbers // tp,
            state_expr="L·((2·n_k·d_k + n_v·d_v)·(K − 1) + n_v·d_k·d_v)" + ("/t" if tp > 1 else ""),
            symbols=(*symbols, *((("t", tp),) if tp > 1 else ())),
            source="gated DeltaNet keeps its conv's last K − 1 inputs and a d_k × d_v state per value head "
            "(vLLM's gated_delta_net_state_shape; transformers keeps K)",
        )

    def tp_replicated(self, ctx: Context) -> Replicated | None:
        """Nothing that TP keeps whole (see ``Attention.tp_replicated``)."""
        return None

    def projection_widths(self, ctx: Context) -> int:
        d = self.dims(ctx)
        qkvz = 2 * d["n_k"] * d["d_k"] + 2 * d["n_v"] * d["d_v"]
        return qkvz + 2 * d["n_v"] + (2 * d["n_k"] * d["d_k"] + d["n_v"] * d["d_v"]) + 2 * d["n_v"] * d["d_v"]

    def prefill_width(self, ctx: Context) -> int:
        d = self.dims(ctx)
        return 2 * d["n_k"] * d["d_k"] + 2 * d["n_v"] * d["d_v"] + 2 * d["n_v"]

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> int:
        """The projection widths at B bytes: an estimate of what the fla kernels keep (not measured)."""
        return hf.b * self.projection_widths(ctx)

    def context_width(self, ctx: Context, decoding: bool = False) -> int:
        return 0

    def scan_flops(self, ctx: Context) -> int:
        """The delta-rule state update and read-out per token ≈ 6·n_v·d_k·d_v (an estimate)."""
        d = self.dims(ctx)
        return 6 * d["n_v"] * d["d_k"] * d["d_v"]

    def gguf_tensors(self, ctx: Context) -> list[GGUFTensor]:
        return gguf_tensors_of(self.lora_matrices(ctx))

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        return []

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        if self.key_heads % tp or self.value_heads % tp:
            return say(
                "tensor parallel size {tp} does not divide the {k} key and {v} value heads",
                tp=tp,
                k=self.key_heads,
                v=self.value_heads,
            )
        return None

    def problems(self, ctx: Context) -> list[FieldProblem]:
        if self.value_heads % self.key_heads:
            message = say(
                "key heads ({k}) must divide the value heads ({v})", k=self.key_heads, v=self.value_heads
            )
            return [(("key_heads",), message, self.key_heads)]
        return []
