"""Standard (softmax) attention: MHA, GQA (g < a) and MQA (g = 1), full, sliding or chunked.

Parameters (transformers' ``*Attention`` modules): q h·a·d_h, k and v h·g·d_h each, o a·d_h·h,
plus each projection's bias where present; q/k norms spanning one head (Qwen3: d_h each), the whole
projection (OLMo-2: a·d_h and g·d_h) or each head with weights of its own (Command R+: [a, d_h] and
[g, d_h], no bias); an output projection that reads h whatever the heads' width (Helium); per-head
attention sinks (gpt-oss: one logit per head); an output gate (Qwen3-Next's gated attention:
q_proj doubles its width to carry a sigmoid gate per head dimension); a relative position bias
table of the layer's own, buckets·a (UMT5's every layer, where T5 keeps one per stack); a second set
of q, k and v projections, biased as the first, for the tokens that attend globally (Longformer's
and LED's query_global, key_global, value_global). Positions
(RoPE or none) cost no parameters. A sliding window or chunked attention keeps min(s, window) tokens in the
KV cache (Mistral; Llama-4's chunked layers keep their chunk).

Activations under the Hugging Face profiles (transformers 5.24, measured by
``tools/measure_activations.py``, goldens in ``tests/golden/activations.json``), per token: q (after
RoPE) B·a·d_h, k and v B·g·d_h each — eager attention's ``repeat_kv`` stores them at all a heads —,
the output-projection input B·a·d_h; q/k norms (Qwen3) keep what RMSNorm keeps over a and g heads
of d_h, LayerNorms (Persimmon) their input and each head's fp32 mean and 1/σ — where they read views
of one fused q/k/v output, that output whole, v too. SDPA (flash or memory-efficient kernels) keeps
a log-sum-exp, 4·a, and no scores, and in Whisper its output beside the output projection's copy,
B·a·d_h. gpt-oss's eager attention appends a sink column: per token its sink column B·a and the
int64 position of each row's maximum 8a.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar, Literal

from pydantic import ConfigDict, Field

from paramtally.core.blocks.activation_profiles import HFProfile, KernelPath
from paramtally.core.blocks.base import (
    LENGTH,
    Bounds,
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

__all__ = ["Attention"]

_KV_REPLICATED = (
    "vLLM: a TP rank keeps max(g/t, 1) whole KV heads, so past t = g the K and V projections "
    "(K = L·2·h·g·d_h, + biases) are replicated, as the KV cache is; per rank K·(1/g − 1/t) more "
    "than an even split"
)


class Attention(Kind):
    """Softmax attention over the sequence (or a window of it)."""

    model_config = ConfigDict(title="Attention")

    kind: Literal["attention"] = "attention"
    num_heads: PositiveInt = Field(title="Heads", description="Query heads (a).")
    num_kv_heads: PositiveInt | None = Field(
        None, title="KV heads", description="Key/value heads (g): a for MHA, 1 for MQA. Empty means a."
    )
    head_dim: PositiveInt | None = Field(
        None, title="Head width", description="Width of one head (d_h); empty means hidden size / heads."
    )
    q_bias: bool = Field(False, title="q bias", description="Bias on the query projection.")
    k_bias: bool = Field(False, title="k bias", description="Bias on the key projection.")
    v_bias: bool = Field(False, title="v bias", description="Bias on the value projection.")
    o_bias: bool = Field(False, title="o bias", description="Bias on the output projection.")
    qk_norm: bool = Field(
        False, title="q/k norm", description="A norm with weights over d_h on q and k (Qwen3)."
    )
    qk_norm_span: Literal["head", "projection", "heads"] = Field(
        "head",
        title="q/k norm span",
        description="What one q/k norm covers: one head's d_h shared by every head (Qwen3); the whole "
        "projection, a·d_h and g·d_h (OLMo-2); or each head with weights of its own and no bias, "
        "[a, d_h] and [g, d_h] (Command R+, StableLM-2-12B).",
        json_schema_extra={
            "visible_when": {"qk_norm": True},
            "choice_labels": {"head": "one head", "projection": "whole projection", "heads": "per head"},
        },
    )
    o_reads_hidden: bool = Field(
        False,
        title="o reads h",
        description="The output projection is h × h whatever a·d_h is (Helium's o_proj; such a "
        "model runs only where a·d_h = h).",
    )
    sliding_window: PositiveInt | None = Field(
        None,
        title="Window",
        description="Tokens a sliding-window (or chunked) layer attends to and caches; empty means all.",
        json_schema_extra=LENGTH,
    )
    # Both describe rotary positions and count nothing: the form shows them only where a stack
    # holding the block has rotary positions (not beside GPT-3's learned table or T5's bias).
    rope: bool = Field(
        True,
        title="RoPE",
        description="Rotary positions (no parameters); off for NoPE layers.",
        json_schema_extra={"visible_when_stack": {"positions": "rope"}},
    )
    rotary_fraction: float = Field(
        1.0,
        gt=0,
        le=1,
        title="Rotary share",
        description="Share of a head that is rotated (Phi-2: 0.4).",
        json_schema_extra={"visible_when_stack": {"positions": "rope"}},
    )
    sinks: bool = Field(
        False, title="Sinks", description="A learned attention-sink logit per head (gpt-oss)."
    )
    output_gate: bool = Field(
        False, title="Output gate", description="A sigmoid gate per head dimension from q_proj (Qwen3-Next)."
    )
    # Shown only beside a relative position bias, like the rotary fields beside rotary positions.
    relative_buckets: NonNegativeInt = Field(
        0,
        title="Relative buckets",
        description="Buckets of a relative position bias table this layer keeps of its own, one number "
        "per bucket and head (UMT5: every layer's self-attention; LongT5's transient-global bias); 0: "
        "none beyond the stack's.",
        json_schema_extra={"visible_when_stack": {"positions": "relative_bias"}},
    )
    global_projections: bool = Field(
        False,
        title="Global q, k, v",
        description="A second set of q, k and v projections, with the biases of the first, for the tokens "
        "that attend globally (Longformer, LED's encoder).",
    )

    SHORT: ClassVar[str] = "attention"  # in labels such as "layers 0–3 (attention, dense)"
    COLOR: ClassVar[str] = "#E69F00"
    PART: ClassVar[str] = "attention"
    PLAIN: ClassVar[bool] = True  # softmax attention over the whole context goes without saying
    KERNELS: ClassVar[KernelPath | None] = None
    # The pattern language's local and global layers are attention with and without this window.
    WINDOW_FIELD: ClassVar[str | None] = "sliding_window"
    PATTERN_NAMES: ClassVar[tuple[str, ...]] = ("attn",)
    TREE_VALUES: ClassVar[tuple[str, ...]] = ("sliding_window", "num_heads")
    VARIABLES: ClassVar[dict[str, str]] = {"num_heads": "num_heads", "num_kv_heads": "num_kv_heads"}
    # What a new part of this kind starts with, when a person switches to it (the rest: defaults).
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {"num_heads": lambda h: max(1, h // 128)}
    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("attention", r"[qk]_norm|[qk]_layernorm|(query|key)_layernorm|attn_[qk]_norm|\.sinks$"),
    )

    def heads(self, ctx: Context) -> tuple[int, int, int]:
        """(a, g, d_h) with the defaults filled in."""
        a = self.num_heads
        return a, self.num_kv_heads or a, self.head_dim or ctx.h // a

    def terms(self, ctx: Context, part: str = "attention") -> list[Term]:
        h = ctx.h
        a, g, d_h = self.heads(ctx)
        plain = g == a and a * d_h == h and not self.output_gate
        if plain:
            nodes = [leaf("q, k, v, o", part, "4·h²", h=h)]
        else:
            q = "2·h·a·d_h" if self.output_gate else "h·a·d_h"
            nodes = [
                leaf("q and gate" if self.output_gate else "q", part, q, h=h, a=a, d_h=d_h),
                leaf("k, v", part, "2·h·g·d_h", h=h, g=g, d_h=d_h),
                self._o(part, h, a, d_h),
            ]
        q_width = "2·a·d_h" if self.output_gate else "a·d_h"
        biases = [
            expr
            for expr, on in (
                (q_width, self.q_bias),
                ("g·d_h", self.k_bias),
                ("g·d_h", self.v_bias),
                ("h", self.o_bias),
            )
            if on
        ]
        if biases and plain:
            nodes.append(leaf("biases", part, f"{len(biases)}·h" if len(biases) > 1 else "h", h=h))
        elif biases:
            nodes.append(leaf("biases", part, " + ".join(biases), a=a, g=g, d_h=d_h, h=h))
        if self.qk_norm:
            nodes.append(self._qk_norms(ctx, part, a, g, d_h))
        if self.sinks:
            nodes.append(leaf("sinks", part, "a", a=a))
        if self.global_projections:
            nodes.append(self._global_projections(part, h, a, g, d_h))
        if self.relative_buckets:  # UMT5Attention.relative_attention_bias: nn.Embedding(buckets, a)
            nodes.append(
                leaf("relative position bias", part, "buckets·a", buckets=self.relative_buckets, a=a)
            )
        return nodes

    def _o(self, part: str, h: int, a: int, d_h: int) -> Term:
        if self.o_reads_hidden:  # HeliumAttention: o_proj = nn.Linear(h, h)
            return leaf("o", part, "h·h", h=h)
        return leaf("o", part, "a·d_h·h", a=a, d_h=d_h, h=h)

    def _global_projections(self, part: str, h: int, a: int, g: int, d_h: int) -> Term:
        """LongformerSelfAttention's query_global, key_global and value_global: an nn.Linear each,
        biased as query, key and value are."""
        q, kv = ("h", "h") if g == a and a * d_h == h else ("a·d_h", "g·d_h")
        weights = "3·h²" if q == "h" else "h·(a + 2·g)·d_h"
        biases = [width for width, on in ((q, self.q_bias), (kv, self.k_bias), (kv, self.v_bias)) if on]
        if q == "h" and biases:
            biases = [f"{len(biases)}·h" if len(biases) > 1 else "h"]
        formula = " + ".join([weights, *biases])
        return leaf("global q, k, v", part, formula, h=h, a=a, g=g, d_h=d_h)

    def _qk_norms(self, ctx: Context, part: str, a: int, g: int, d_h: int) -> Term:
        if self.qk_norm_span == "head":
            return norm_leaf(ctx, "q/k norms", d_h, part=part, times=2, symbol="d_h")
        if self.qk_norm_span == "projection":  # Olmo2Attention: RMSNorm(a·d_h) and RMSNorm(g·d_h)
            width = "(a + g)·d_h" if ctx.norm_per_width == 1 else f"{ctx.norm_per_width}·(a + g)·d_h"
            return leaf(f"q/k norms ({ctx.norm_label})", part, width, a=a, g=g, d_h=d_h)
        # CohereLayerNorm((a, d_h)) and StableLmLayerNormPerHead: a weight per head, no bias
        return leaf("q/k norms (per head)", part, "(a + g)·d_h", a=a, g=g, d_h=d_h)

    def cache(self, ctx: Context, tp: int) -> Cache:
        """K and V of max(g/t, 1) heads per token: a rank keeps whole heads, replicated past g."""
        _, g, d_h = self.heads(ctx)
        return Cache(
            per_token=2 * max(g // tp, 1) * d_h,
            window=self.sliding_window,
            token_expr="2·L·max(g/t, 1)·d_h" if tp > 1 else "2·L·g·d_h",
            symbols=(("g", g), ("t", tp), ("d_h", d_h)) if tp > 1 else (("g", g), ("d_h", d_h)),
            source="KV cache: 2·L·g·d_h·tokens·b·bytes (vLLM, llama.cpp); a TP rank keeps max(g/t, 1) heads",
        )

    def kv_projections(self, ctx: Context) -> int:
        """The numbers of one layer's K and V projections (weights and biases)."""
        _, g, d_h = self.heads(ctx)
        return 2 * ctx.h * g * d_h + g * d_h * (self.k_bias + self.v_bias)

    def tp_replicated(self, ctx: Context) -> Replicated | None:
        """The K and V projections of one layer and the KV heads g: vLLM gives a TP rank max(g/t, 1)
        whole heads, so past t = g these weights are replicated, as the cache is."""
        return Replicated("K/V", self.kv_projections(ctx), self.heads(ctx)[1], _KV_REPLICATED)

    def projection_widths(self, ctx: Context) -> int:
        """q + k + v + o output widths per token, the tensors TP splits (activations)."""
        a, g, d_h = self.heads(ctx)
        return (2 if self.output_gate else 1) * a * d_h + 2 * g * d_h + a * d_h

    def prefill_width(self, ctx: Context) -> int:
        """q, k and v outputs of one token while a prefill chunk runs (inference working set)."""
        a, g, d_h = self.heads(ctx)
        return ((2 if self.output_gate else 1) * a + 2 * g) * d_h

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> int:
        """q, K, V (eager: at all a heads) and the output projection's input; the KV cache's copies
        beside a fused q, k, v output; q/k norms; the output gate; eager's sink column; SDPA's
        log-sum-exp (see the module's docstring)."""
        a, g, d_h = self.heads(ctx)
        b = hf.b
        kv = a if hf.eager else g
        width = b * (2 * a * d_h + 2 * kv * d_h)
        if hf.cache_copies:
            width += b * 2 * g * d_h
        if self.qk_norm:
            width += _qk_norm_bytes(ctx, hf, a, g, d_h)
        if self.output_gate:
            width += 2 * b * a * d_h  # the sigmoid gate and the gated product (not measured: an estimate)
        if hf.eager and self.sinks:
            width += b * a + 8 * a  # the softmax's sink column and each row's argmax (int64)
        return width + (0 if hf.eager else hf.sdpa_kept(a, d_h))

    def cross_widths(self, ctx: Context, hf: HFProfile | None) -> tuple[int, int]:
        """As a decoder's cross-attention, bytes kept per decoder token (Q and the output projection's
        input) and per encoder token (K and V), split by TP; ``hf`` None: the megatron profile's
        16-bit widths."""
        a, g, d_h = self.heads(ctx)
        if hf is None:
            gate = 2 if self.output_gate else 1
            return 2 * (gate * a + a) * d_h, 4 * g * d_h
        kv = a if hf.eager else g  # eager attention repeats the KV heads it multiplies
        own = hf.b * 2 * a * d_h + (0 if hf.eager else hf.sdpa_kept(a, d_h))
        return own, hf.b * 2 * kv * d_h

    def context_width(self, ctx: Context, decoding: bool = False) -> int:
        """d_attn of Kaplan's 2·n_ctx·d_attn: FLOPs per attended token per layer, halved."""
        a, _, d_h = self.heads(ctx)
        return a * d_h

    def scan_flops(self, ctx: Context) -> int:
        """FLOPs per token of a recurrent scan (none: attention reads the context instead)."""
        return 0

    def score_heads(self) -> int:
        return self.num_heads

    def bias_heads(self) -> int:
        return self.num_heads

    def relative_tables(self) -> int:
        return 1 if self.relative_buckets else 0

    def attended_window(self) -> int | None:
        return self.sliding_window

    def rotary_width(self, ctx: Context) -> int | None:
        return int(self.heads(ctx)[2] * self.rotary_fraction) if self.rope else None

    def head_width(self, ctx: Context) -> tuple[str, int] | None:
        return ("head_dim" if self.head_dim else "num_heads"), self.heads(ctx)[2]

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        a, g, d_h = self.heads(ctx)
        h = ctx.h
        q_out = (2 if self.output_gate else 1) * a * d_h
        o_in = h if self.o_reads_hidden else a * d_h
        return [("q", h, q_out, 1), ("k", h, g * d_h, 1), ("v", h, g * d_h, 1), ("o", o_in, h, 1)]

    def gguf_tensors(self, ctx: Context) -> list[GGUFTensor]:
        return gguf_tensors_of(self.lora_matrices(ctx), kv=("k", "v"))

    def gguf_gqa(self, ctx: Context) -> int:
        a, g, _ = self.heads(ctx)
        return a // g

    def variable(self, name: str) -> int:
        if name == "num_kv_heads":
            return self.num_kv_heads or self.num_heads
        return super().variable(name)

    def bounds(self, name: str, values: Mapping[str, int]) -> Bounds:
        """The hidden size a multiple of the heads and the heads dividing it, where the head width
        follows from it; the query heads a multiple of the KV heads, which divide them."""
        if name == "hidden_size" and self.head_dim is None:
            return Bounds(step=values.get("num_heads", self.num_heads))
        if name == "num_heads":
            kv = values["num_kv_heads"] if "num_kv_heads" in values else self.num_kv_heads or 1
            return Bounds(step=kv, divides=values["hidden_size"] if self.head_dim is None else 0)
        if name == "num_kv_heads":
            return Bounds(divides=values.get("num_heads") or self.num_heads)
        return Bounds()

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        a, g, _ = self.heads(ctx)
        if a % tp:
            return say("tensor parallel size {tp} does not divide the {a} attention heads", tp=tp, a=a)
        if g % tp and tp % g:
            return say("tensor parallel size {tp} and the {g} KV heads do not divide each other", tp=tp, g=g)
        return None

    def problems(self, ctx: Context) -> list[FieldProblem]:
        """Rules that need the hidden size too, as (field path, message, value)."""
        a, g, _ = self.heads(ctx)
        found: list[FieldProblem] = []
        if a % g:
            found.append(
                (("num_kv_heads",), say("KV heads ({g}) must divide the query heads ({a})", g=g, a=a), g)
            )
        if self.head_dim is None and ctx.h % a:
            message = say(
                "the hidden size ({h:,}) is not a multiple of the {a} heads: change either, "
                "or set the head width",
                h=ctx.h,
                a=a,
            )
            found.append((("num_heads",), message, a))
        return found


def _qk_norm_bytes(ctx: Context, hf: HFProfile, a: int, g: int, d_h: int) -> int:
    """Bytes per token the q/k norms over a and g heads of d_h keep: RMSNorm's fp32 input copy, its
    normalized value and 1/rms; LayerNorm's input (the fused q/k/v output whole, v too, where the
    family's norms read views of it: Persimmon) and fp32 mean and 1/σ."""
    if ctx.norm == "layernorm":
        inputs = (a + 2 * g if hf.qk_norm_reads_fused_qkv else a + g) * d_h
        return hf.b * inputs + 8 * (a + g)
    normed = 4 if hf.fp32_norm else hf.b
    return (4 + normed) * (a + g) * d_h + 4 * (a + g)
