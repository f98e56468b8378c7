"""Mixture of attention heads (MoA; JetMoE, Shen et al. 2024, "JetMoE: Reaching Llama2 Performance
with 0.1M Dollars", §2.2; transformers' ``JetMoeMoA`` inside ``JetMoeAttention``).

E attention experts, k of them per token: each expert is a query projection h → g·d_h and an output
projection g·d_h → h (``experts.input_linear [E, g·d_h, h]``, ``experts.output_linear [E, h, g·d_h]``),
chosen by a bias-free router h → E (``experts.router.layer``); one key/value projection
h → 2·g·d_h (``kv_proj``) serves every expert, and the experts' summed output takes one bias of h
(``experts.bias``). A token thus computes k·g query heads over g KV heads: attention of k·g heads,
GQA by k, whose q and o are routed. E − k experts' q and o are inactive for a token.

Everything but the parameters is that attention's: the KV cache (2·g·d_h per token, one kv_proj),
the activations, the FLOPs over k·g heads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar, Literal

from pydantic import ConfigDict, Field

from paramtally.core.blocks.activation_profiles import HFProfile, KernelPath
from paramtally.core.blocks.attention import Attention
from paramtally.core.blocks.base import (
    Bounds,
    Cache,
    Context,
    FieldProblem,
    GGUFTensor,
    Kind,
    LoRAMatrix,
    PositiveInt,
    Replicated,
    gguf_tensors_of,
    leaf,
)
from paramtally.core.terms.term import Term
from paramtally.core.text import say

__all__ = ["MoA"]


class MoA(Kind):
    """Attention whose query and output projections are routed experts (JetMoE)."""

    model_config = ConfigDict(title="Mixture of attention heads")

    kind: Literal["moa"] = "moa"
    num_experts: PositiveInt = Field(title="Experts", description="Attention experts (E).")
    top_k: PositiveInt = Field(title="Experts per token", description="Attention experts per token (k).")
    num_kv_heads: PositiveInt = Field(
        title="KV heads", description="Key/value heads (g), and the query heads of one expert."
    )
    head_dim: PositiveInt = Field(title="Head width", description="Width of one head (d_h; kv_channels).")
    output_bias: bool = Field(True, title="Output bias", description="One bias of h on the experts' output.")
    rope: bool = Field(
        True,
        title="RoPE",
        description="Rotary positions (no parameters).",
        json_schema_extra={"visible_when_stack": {"positions": "rope"}},
    )

    SHORT: ClassVar[str] = "MoA"
    COLOR: ClassVar[str] = "#F4A582"
    PART: ClassVar[str] = "attention"
    PLAIN: ClassVar[bool] = False
    KERNELS: ClassVar[KernelPath | None] = None
    WINDOW_FIELD: ClassVar[str | None] = None
    PATTERN_NAMES: ClassVar[tuple[str, ...]] = ("moa",)
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {
        "num_experts": lambda h: 8,
        "top_k": lambda h: 2,
        "num_kv_heads": lambda h: max(1, h // 256),
        "head_dim": lambda h: 128,
    }
    # Before the MoE's "experts": JetMoE's self_attention.experts are attention.
    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("router", r"self_attention\.experts\.router\."),
        ("attention", r"self_attention\.(experts\.|kv_proj)"),
    )

    EXAMPLES: ClassVar[tuple[dict[str, object], ...]] = (
        {"num_experts": 4, "top_k": 2, "num_kv_heads": 2, "head_dim": 8},
        {"num_experts": 8, "top_k": 1, "num_kv_heads": 1, "head_dim": 16, "output_bias": False},
    )

    def _attention(self) -> Attention:
        """The attention one token computes: k·g query heads over g KV heads."""
        return Attention(
            num_heads=self.top_k * self.num_kv_heads,
            num_kv_heads=self.num_kv_heads,
            head_dim=self.head_dim,
            rope=self.rope,
        )

    def _expert(self, ctx: Context) -> int:
        """One expert's q and o: 2·h·g·d_h."""
        return 2 * ctx.h * self.num_kv_heads * self.head_dim

    def terms(self, ctx: Context, part: str = "attention") -> list[Term]:
        h, E, g, d_h = ctx.h, self.num_experts, self.num_kv_heads, self.head_dim
        nodes = [
            leaf("router", "router", "h·E", h=h, E=E),
            leaf("experts' q and o", part, "E·2·h·g·d_h", E=E, h=h, g=g, d_h=d_h),
            leaf("k, v", part, "2·h·g·d_h", h=h, g=g, d_h=d_h),
        ]
        if self.output_bias:
            nodes.append(leaf("output bias", part, "h", h=h))
        return nodes

    def inactive(self, ctx: Context) -> int:
        """The q and o of the E − k experts a token is not sent to."""
        return max(self.num_experts - self.top_k, 0) * self._expert(ctx)

    def routing(self) -> tuple[int, int]:
        return self.num_experts, self.top_k

    def cache(self, ctx: Context, tp: int) -> Cache:
        return self._attention().cache(ctx, tp)

    def tp_replicated(self, ctx: Context) -> Replicated | None:
        return self._attention().tp_replicated(ctx)

    def projection_widths(self, ctx: Context) -> int:
        return self._attention().projection_widths(ctx)

    def prefill_width(self, ctx: Context) -> int:
        return self._attention().prefill_width(ctx)

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> int:
        return self._attention().hf_bytes(ctx, hf)

    def context_width(self, ctx: Context, decoding: bool = False) -> int:
        return self._attention().context_width(ctx, decoding)

    def scan_flops(self, ctx: Context) -> int:
        return 0

    def score_heads(self) -> int:
        return self.top_k * self.num_kv_heads

    def bias_heads(self) -> int:
        return self.top_k * self.num_kv_heads

    def relative_tables(self) -> int:
        return 0

    def attended_window(self) -> int | None:
        return None

    def rotary_width(self, ctx: Context) -> int | None:
        return self._attention().rotary_width(ctx)

    def head_width(self, ctx: Context) -> tuple[str, int] | None:
        return "head_dim", self.head_dim

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        h, E, width = ctx.h, self.num_experts, self.num_kv_heads * self.head_dim
        return [("q", h, width, E), ("k", h, width, 1), ("v", h, width, 1), ("o", width, h, E)]

    def gguf_tensors(self, ctx: Context) -> list[GGUFTensor]:
        return gguf_tensors_of(self.lora_matrices(ctx), kv=("k", "v"), routed=lambda m: m[3] > 1)

    def gguf_gqa(self, ctx: Context) -> int:
        return self.top_k

    def bounds(self, name: str, values: Mapping[str, int]) -> Bounds:
        return Bounds()

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        return self._attention().tp_problem(ctx, tp)

    def problems(self, ctx: Context) -> list[FieldProblem]:
        if self.top_k > self.num_experts:
            message = say(
                "experts per token ({k}) exceed the experts ({n})", k=self.top_k, n=self.num_experts
            )
            return [(("top_k",), message, self.top_k)]
        return []
