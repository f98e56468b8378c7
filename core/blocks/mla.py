"""Multi-head latent attention (DeepSeek-V2/V3, §2.1 of the DeepSeek-V2 report).

q is either direct h → a·(d_nope + d_rope) or low-rank through r_q with its own norm; keys and
values come from one latent: kv_a h → r_kv + d_rope (576 = 512 + 64 in V3), a norm over r_kv,
kv_b r_kv → a·(d_nope + d_v); o a·d_v → h. The KV cache holds the latent and the shared rope key,
r_kv + d_rope numbers per token per layer, the same on every TP rank. DeepSeek-V3.2 adds a
lightning indexer per layer (its own projections and a LayerNorm; it caches a key of d_i).

Activations under the Hugging Face profiles (``DeepseekV3Attention``, ``DeepseekV2Attention``,
measured eager by ``tools/measure_activations.py``): q, K and V at all a heads and the output
projection's input as attention's, q and K over d_nope + d_rope, V and the o input over d_v; each
latent's RMSNorm (r_q where there is one — V2-Lite has none —, r_kv) keeps what RMSNorm keeps and
the up projection its input B·r. The rope halves are rotated by products with the cos/sin tables
and concatenated: nothing kept. SDPA adds its log-sum-exp, 4·a, but the CPU cannot measure it (q and
v head dims differ, so it runs the fp32 math fallback). The indexer's activations are not counted.
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
    gguf_tensors_of,
    leaf,
    norm_leaf,
)
from paramtally.core.terms.term import Term
from paramtally.core.text import say

__all__ = ["MLA"]


class MLA(Kind):
    """DeepSeek's multi-head latent attention."""

    model_config = ConfigDict(title="MLA")

    kind: Literal["mla"] = "mla"
    num_heads: PositiveInt = Field(title="Heads", description="Query heads (a).")
    q_lora_rank: PositiveInt | None = Field(
        None, title="q rank", description="Rank of the query down-projection (r_q); empty means direct q."
    )
    kv_lora_rank: PositiveInt = Field(title="KV rank", description="Rank of the compressed KV latent (r_kv).")
    qk_rope_head_dim: PositiveInt = Field(
        title="Rope width", description="Rotary part of a q/k head (d_rope)."
    )
    qk_nope_head_dim: NonNegativeInt = Field(
        title="No-rope width", description="Non-rotary part of a q/k head (d_nope)."
    )
    v_head_dim: PositiveInt = Field(title="Value width", description="Width of a value head (d_v).")
    q_bias: bool = Field(False, title="q bias", description="Bias on q_a (or q when direct).")
    kv_bias: bool = Field(False, title="kv bias", description="Bias on kv_a.")
    o_bias: bool = Field(False, title="o bias", description="Bias on the output projection.")
    indexer_heads: NonNegativeInt = Field(
        0,
        title="Indexer heads",
        description="Heads of DeepSeek-V3.2's lightning indexer (n_i), which picks the tokens each "
        "query attends to; 0 means none (dense MLA).",
    )
    indexer_head_dim: PositiveInt = Field(
        128, title="Indexer width", description="Width of one indexer head and of its key (d_i)."
    )

    SHORT: ClassVar[str] = "MLA"  # in labels such as "layers 0–3 (MLA, dense)"
    COLOR: ClassVar[str] = "#D55E00"
    PART: ClassVar[str] = "attention"
    PLAIN: ClassVar[bool] = True  # attention over the whole context goes without saying
    KERNELS: ClassVar[KernelPath | None] = None
    WINDOW_FIELD: ClassVar[str | None] = None
    TREE_VALUES: ClassVar[tuple[str, ...]] = ("num_heads",)
    VARIABLES: ClassVar[dict[str, str]] = {"num_heads": "num_heads"}
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {
        "num_heads": lambda h: max(1, h // 128),
        "kv_lora_rank": lambda h: 512,
        "qk_rope_head_dim": lambda h: 64,
        "qk_nope_head_dim": lambda h: 128,
        "v_head_dim": lambda h: 128,
    }
    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("attention", r"q_a_layernorm|kv_a_layernorm|attn_(q|kv)_a_norm"),
    )

    def _dims(self, ctx: Context) -> dict[str, int]:
        return {
            "h": ctx.h,
            "a": self.num_heads,
            "d_nope": self.qk_nope_head_dim,
            "d_rope": self.qk_rope_head_dim,
            "d_v": self.v_head_dim,
        }

    def terms(self, ctx: Context, part: str = "attention") -> list[Term]:
        dims = self._dims(ctx)
        nodes: list[Term] = []
        if self.q_lora_rank:
            r_q = self.q_lora_rank
            q_a = "h·r_q" + (" + r_q" if self.q_bias else "")
            nodes.append(leaf("q down (q_a)", part, q_a, r_q=r_q, **dims))
            nodes.append(norm_leaf(ctx, "q latent norm", r_q, part=part, symbol="r_q"))
            nodes.append(leaf("q up (q_b)", part, "r_q·a·(d_nope + d_rope)", r_q=r_q, **dims))
        else:
            q = "h·a·(d_nope + d_rope)" + (" + a·(d_nope + d_rope)" if self.q_bias else "")
            nodes.append(leaf("q", part, q, **dims))
        r_kv = self.kv_lora_rank
        kv_a = "h·(r_kv + d_rope)" + (" + r_kv + d_rope" if self.kv_bias else "")
        nodes.append(leaf("kv down (kv_a)", part, kv_a, r_kv=r_kv, **dims))
        nodes.append(norm_leaf(ctx, "kv latent norm", r_kv, part=part, symbol="r_kv"))
        nodes.append(leaf("kv up (kv_b)", part, "r_kv·a·(d_nope + d_v)", r_kv=r_kv, **dims))
        nodes.append(leaf("o", part, "a·d_v·h" + (" + h" if self.o_bias else ""), **dims))
        if self.indexer_heads and self.q_lora_rank:
            # DeepseekV32Indexer: wq_b [n_i·d_i, r_q], wk [d_i, h], k_norm = nn.LayerNorm(d_i) with β,
            # weights_proj [n_i, h]; no biases on the linears
            expr = "r_q·n_i·d_i + h·d_i + 2·d_i + h·n_i"
            nodes.append(
                leaf(
                    "indexer",
                    part,
                    expr,
                    r_q=self.q_lora_rank,
                    n_i=self.indexer_heads,
                    d_i=self.indexer_head_dim,
                    h=ctx.h,
                )
            )
        return nodes

    def cache(self, ctx: Context, tp: int) -> Cache:
        if self.indexer_heads:  # the indexer's key of d_i per token beside the latent (DeepSeek-V3.2)
            return Cache(
                per_token=self.kv_lora_rank + self.qk_rope_head_dim + self.indexer_head_dim,
                token_expr="L·(r_kv + d_rope + d_i)",
                symbols=(
                    ("r_kv", self.kv_lora_rank),
                    ("d_rope", self.qk_rope_head_dim),
                    ("d_i", self.indexer_head_dim),
                ),
                source="MLA caches r_kv + d_rope per token per layer, and DeepSeek-V3.2's indexer its key "
                "of d_i (DeepseekV32Indexer, cache.update_indexer), replicated over TP",
            )
        return Cache(
            per_token=self.kv_lora_rank + self.qk_rope_head_dim,
            token_expr="L·(r_kv + d_rope)",
            symbols=(("r_kv", self.kv_lora_rank), ("d_rope", self.qk_rope_head_dim)),
            source="MLA caches r_kv + d_rope per token per layer, replicated over TP (DeepSeek-V2 §2.1)",
        )

    def tp_replicated(self, ctx: Context) -> Replicated | None:
        """No K/V heads: kv_b splits by query head. (vLLM also keeps the small latent down-projections
        q_a and kv_a whole on every rank; that is not modelled.)"""
        return None

    def projection_widths(self, ctx: Context) -> int:
        qk = self.num_heads * (self.qk_nope_head_dim + self.qk_rope_head_dim)
        vo = self.num_heads * self.v_head_dim
        return 2 * qk + 2 * vo

    def prefill_width(self, ctx: Context) -> int:
        return self.num_heads * (2 * (self.qk_nope_head_dim + self.qk_rope_head_dim) + self.v_head_dim)

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> int:
        """q, K, V, the o input (``projection_widths``) and each latent's RMSNorm with its up
        projection's input (q_a_layernorm → q_b_proj, kv_a_layernorm → kv_b_proj)."""
        latents = [r for r in (self.q_lora_rank, self.kv_lora_rank) if r]
        width = hf.b * self.projection_widths(ctx) + sum(hf.rms_norm(r) + hf.b * r for r in latents)
        return width + (0 if hf.eager else 4 * self.num_heads)

    def context_width(self, ctx: Context, decoding: bool = False) -> int:
        # QKᵀ over d_nope + d_rope and A·V over d_v: their mean stands in for Kaplan's d_attn. A decode
        # step attends the cached latent itself, kv_b absorbed into q and o (DeepSeek-V2 §2.1.2; vLLM's
        # and FlashMLA's decode): QKᵀ over r_kv + d_rope and A·V over r_kv, for every head.
        if decoding:
            return self.num_heads * (2 * self.kv_lora_rank + self.qk_rope_head_dim) // 2
        return self.num_heads * (self.qk_nope_head_dim + self.qk_rope_head_dim + self.v_head_dim) // 2

    def scan_flops(self, ctx: Context) -> int:
        """FLOPs per token of a recurrent scan (none: attention reads the context instead)."""
        return 0

    def score_heads(self) -> int:
        return self.num_heads

    def bias_heads(self) -> int:
        """None: DeepSeek's attention takes no additive position bias."""
        return 0

    def relative_tables(self) -> int:
        return 0

    def attended_window(self) -> int | None:
        return None

    def rotary_width(self, ctx: Context) -> int | None:
        return self.qk_rope_head_dim

    def head_width(self, ctx: Context) -> tuple[str, int] | None:
        return None

    def gguf_tensors(self, ctx: Context) -> list[GGUFTensor]:
        return gguf_tensors_of(self.lora_matrices(ctx))

    def gguf_gqa(self, ctx: Context) -> int:
        return 1  # llama.cpp's DeepSeek-2 models have as many KV heads as query heads

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        h, a = ctx.h, self.num_heads
        q_out = a * (self.qk_nope_head_dim + self.qk_rope_head_dim)
        q: list[LoRAMatrix] = (
            [("q", h, self.q_lora_rank, 1), ("q", self.q_lora_rank, q_out, 1)]
            if self.q_lora_rank
            else [("q", h, q_out, 1)]
        )
        kv: list[LoRAMatrix] = [
            ("k", h, self.kv_lora_rank + self.qk_rope_head_dim, 1),
            ("v", self.kv_lora_rank, a * (self.qk_nope_head_dim + self.v_head_dim), 1),
        ]
        return [*q, *kv, ("o", a * self.v_head_dim, h, 1)]

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        if self.num_heads % tp:
            return say(
                "tensor parallel size {tp} does not divide the {a} attention heads", tp=tp, a=self.num_heads
            )
        return None

    def problems(self, ctx: Context) -> list[FieldProblem]:
        if self.indexer_heads and not self.q_lora_rank:  # the indexer reads the q latent
            message = say("an indexer needs the q rank: its queries come from the q latent (r_q)")
            return [(("indexer_heads",), message, self.indexer_heads)]
        return []
