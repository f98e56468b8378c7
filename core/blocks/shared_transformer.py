"""A transformer block whose weights several layers share, as Zamba and Zamba2 use it beside their
Mamba layers (transformers' ``ZambaAttentionDecoderLayer`` / ``Zamba2AttentionDecoderLayer`` inside
``ZambaHybridLayer`` / ``Zamba2HybridLayer``).

The block reads the hidden state concatenated with the original embeddings, w_in = 2h wide: an
RMSNorm over w_in, attention whose q, k and v read w_in (a heads of d_h = w_in / a by default) and
whose o writes h, an RMSNorm over h and a gated MLP h → f → h. Its weights are stored once per
distinct block (Zamba: one; Zamba2: ``num_mem_blocks``, used in turn), so only the layer that
``owns`` them counts them; every use adds its own h × h ``linear``. Zamba2 gives each use its own
LoRA-style adapters of rank r — on the MLP's gate/up projection (h → r → 2f) and, with
``use_shared_attention_adapter``, on q, k and v (w_in → r → w_in each) — stored in the block's
adapter lists, so the owning layer holds the ``adapters`` of all its block's uses, as a checkpoint
does. Every use attends with its own KV cache (2·g·d_h per token), as attention does.
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
    Kind,
    LoRAMatrix,
    NonNegativeInt,
    PositiveInt,
    Replicated,
    leaf,
)
from paramtally.core.terms.term import Term
from paramtally.core.text import say

__all__ = ["SharedTransformer"]


class SharedTransformer(Kind):
    """A use of a transformer block shared across layers (Zamba's hybrid layers)."""

    model_config = ConfigDict(title="Shared transformer")

    kind: Literal["shared_transformer"] = "shared_transformer"
    num_heads: PositiveInt = Field(title="Heads", description="Query heads (a).")
    num_kv_heads: PositiveInt | None = Field(
        None, title="KV heads", description="Key/value heads (g); empty means a."
    )
    head_dim: PositiveInt | None = Field(
        None, title="Head width", description="Width of one head (d_h); empty means the input width / heads."
    )
    input_width: PositiveInt | None = Field(
        None,
        title="Input width",
        description="Width q, k and v read (w_in): the hidden state beside the embeddings; "
        "empty means 2 × hidden.",
    )
    ffn_width: PositiveInt = Field(title="FFN width", description="Width of the shared gated MLP (f).")
    ffn_bias: bool = Field(False, title="FFN bias", description="Biases on the shared MLP's matrices.")
    owner: bool = Field(
        True,
        title="Holds the weights",
        description="This layer stores the shared block (its first use); off: it reuses an earlier layer's.",
    )
    adapter_rank: PositiveInt = Field(
        128, title="Adapter rank", description="Rank r of each use's adapter on the MLP's gate/up (Zamba2)."
    )
    adapters: NonNegativeInt = Field(
        0,
        title="Adapters held",
        description="Uses whose adapters this layer stores: all of its block's uses where it holds the "
        "block (Zamba2's adapter lists), else 0.",
    )
    attention_adapters: bool = Field(
        False, title="Attention adapters", description="Each use's rank-r adapters on q, k and v too."
    )

    SHORT: ClassVar[str] = "shared transformer"  # in labels such as "layer 6 (Mamba-2 ‖ shared transformer)"
    COLOR: ClassVar[str] = "#FFB000"
    PART: ClassVar[str] = "attention"
    PLAIN: ClassVar[bool] = False
    KERNELS: ClassVar[KernelPath | None] = None
    WINDOW_FIELD: ClassVar[str | None] = None
    PATTERN_NAMES: ClassVar[tuple[str, ...]] = ("shared", "zamba")
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {
        "num_heads": lambda h: max(1, h // 128),
        "ffn_width": lambda h: 4 * h,
    }
    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("ffn", r"shared_trans\w*\.feed_forward\.|gate_up_proj_adapter_list"),
        ("norms", r"shared_trans\w*\.(input_layernorm|pre_ff_layernorm)\."),
        ("attention", r"shared_trans\w*\.self_attn\.|_adapter_list|\.layers\.\d+\.linear\."),
    )
    EXAMPLES: ClassVar[tuple[dict[str, object], ...]] = (
        {"num_heads": 2, "ffn_width": 16},
        {"num_heads": 4, "num_kv_heads": 2, "ffn_width": 24, "owner": False},
        {
            "num_heads": 2,
            "ffn_width": 8,
            "adapter_rank": 2,
            "adapters": 3,
            "attention_adapters": True,
            "input_width": 16,
        },
    )

    def dims(self, ctx: Context) -> dict[str, int]:
        w_in = self.input_width or 2 * ctx.h
        a = self.num_heads
        return {
            "h": ctx.h,
            "w": w_in,
            "a": a,
            "g": self.num_kv_heads or a,
            "d_h": self.head_dim or w_in // a,
            "f": self.ffn_width,
            "r": self.adapter_rank,
        }

    def terms(self, ctx: Context, part: str = "attention") -> list[Term]:
        d = self.dims(ctx)
        nodes: list[Term] = []
        if self.owner:
            w, a, g, d_h, h, f = d["w"], d["a"], d["g"], d["d_h"], d["h"], d["f"]
            nodes += [
                leaf("shared q (reads w_in)", part, "w·a·d_h", w=w, a=a, d_h=d_h),
                leaf("shared k, v (read w_in)", part, "2·w·g·d_h", w=w, g=g, d_h=d_h),
                leaf("shared o", part, "a·d_h·h", a=a, d_h=d_h, h=h),
                leaf("shared MLP", "ffn", "3·h·f + 2·f + h" if self.ffn_bias else "3·h·f", h=h, f=f),
                leaf("shared norms (RMSNorm over w_in and h)", "norms", "w + h", w=w, h=h),
            ]
        nodes.append(leaf("this layer's linear", part, "h·h", h=d["h"]))
        if self.adapters:
            n, r = self.adapters, d["r"]
            nodes.append(leaf("uses' MLP adapters", "ffn", "n·(h·r + r·2·f)", n=n, h=d["h"], r=r, f=d["f"]))
            if self.attention_adapters:
                nodes.append(leaf("uses' q, k, v adapters", part, "n·3·2·w·r", n=n, w=d["w"], r=r))
        return nodes

    def cache(self, ctx: Context, tp: int) -> Cache:
        d = self.dims(ctx)
        g, d_h = d["g"], d["d_h"]
        return Cache(
            per_token=2 * max(g // tp, 1) * d_h,
            token_expr="2·L·max(g/t, 1)·d_h" if tp > 1 else "2·L·g·d_h",
            symbols=(("g", g), ("t", tp), ("d_h", d_h)) if tp > 1 else (("g", g), ("d_h", d_h)),
            source="each use of a shared transformer caches its own K and V (transformers' Zamba caches "
            "per layer): 2·L·g·d_h·tokens·b·bytes",
        )

    def tp_replicated(self, ctx: Context) -> Replicated | None:
        return None

    def projection_widths(self, ctx: Context) -> int:
        """q + k + v + o outputs and the MLP's gate, up and product, per token (activations)."""
        d = self.dims(ctx)
        return (2 * d["a"] + 2 * d["g"]) * d["d_h"] + 3 * d["f"] + d["h"]

    def prefill_width(self, ctx: Context) -> int:
        d = self.dims(ctx)
        return max((d["a"] + 2 * d["g"]) * d["d_h"], 2 * d["f"])

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> int:
        """The projection widths at B bytes and SDPA's log-sum-exp: an estimate, not measured."""
        d = self.dims(ctx)
        return hf.b * self.projection_widths(ctx) + (0 if hf.eager else hf.sdpa_kept(d["a"], d["d_h"]))

    def context_width(self, ctx: Context, decoding: bool = False) -> int:
        d = self.dims(ctx)
        return d["a"] * d["d_h"]

    def scan_flops(self, ctx: Context) -> int:
        return 0

    def score_heads(self) -> int:
        return self.num_heads

    def bias_heads(self) -> int:
        return 0

    def relative_tables(self) -> int:
        return 0

    def attended_window(self) -> int | None:
        return None

    def rotary_width(self, ctx: Context) -> int | None:
        return None

    def head_width(self, ctx: Context) -> tuple[str, int] | None:
        return ("head_dim" if self.head_dim else "num_heads"), self.dims(ctx)["d_h"]

    def gguf_tensors(self, ctx: Context) -> list[GGUFTensor]:
        return []

    def gguf_gqa(self, ctx: Context) -> int:
        d = self.dims(ctx)
        return d["a"] // d["g"]

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        return []

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        d = self.dims(ctx)
        if d["a"] % tp:
            return say(
                "tensor parallel size {tp} does not divide the shared transformer's {a} heads",
                tp=tp,
                a=d["a"],
            )
        return None

    def problems(self, ctx: Context) -> list[FieldProblem]:
        d = self.dims(ctx)
        found: list[FieldProblem] = []
        if d["a"] % d["g"]:
            found.append(
                (
                    ("num_kv_heads",),
                    say("KV heads ({g}) must divide the query heads ({a})", g=d["g"], a=d["a"]),
                    d["g"],
                )
            )
        return found
