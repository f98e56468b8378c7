"""KV cache: keys and values of every cached token, per GPU.

Standard attention keeps 2·g·d_h numbers per token per layer (g = a for MHA, 1 for MQA); a
tensor-parallel rank keeps max(g/t, 1) heads. MLA keeps the compressed latent plus the shared
rope key, r_kv + d_rope, identical on every TP rank. A sliding-window layer keeps
min(s, window) tokens. Data parallelism does not split one request's cache.
"""

from __future__ import annotations

from fractions import Fraction

from paramtally.core.quant import KV_DTYPE_BITS
from paramtally.core.scenario import Scenario
from paramtally.core.schema import Architecture
from paramtally.core.stages import Stage
from paramtally.core.terms import Piece, Spec

__all__ = ["kv_elements", "kv_pieces", "kv_specs"]

_SOURCE = "KV cache: 2·L·g·d_h·tokens·b·bytes (vLLM, llama.cpp); MLA latent per DeepSeek-V2 §2.1"
_MLA_SOURCE = "MLA caches r_kv + d_rope per token per layer, replicated over TP (DeepSeek-V2/V3)"


def kv_elements(arch: Architecture, tp: int) -> int:
    """Cached numbers per token per layer on one TP rank."""
    att = arch.attention
    if att.kind == "mla":
        return att.kv_lora_rank + att.qk_rope_head_dim
    return 2 * max(arch.num_kv_heads // tp, 1) * arch.head_dim


def _layer_expr(arch: Architecture, tokens: str, tp: int) -> tuple[str, dict[str, int]]:
    att = arch.attention
    if att.kind == "mla":
        return f"L·(r_kv + d_rope)·{tokens}·b·bits/8", {
            "r_kv": att.kv_lora_rank,
            "d_rope": att.qk_rope_head_dim,
        }
    heads = "max(g/t, 1)" if tp > 1 else "g"
    return f"2·L·{heads}·d_h·{tokens}·b·bits/8", {}


def kv_specs(arch: Architecture, s: Scenario, stage: Stage) -> list[Spec]:
    """KV-cache terms of one pipeline stage on one TP rank (none in training)."""
    if s.mode != "inference":
        return []
    bits = KV_DTYPE_BITS[s.kv_dtype]
    att = arch.attention
    common: dict[str, int | Fraction] = {"s": s.context, "b": s.batch, "bits": bits}
    if att.kind != "mla":
        common |= {"g": arch.num_kv_heads, "t": s.tp, "d_h": arch.head_dim}
    source = _MLA_SOURCE if att.kind == "mla" else _SOURCE
    specs = []
    full = stage.count - stage.window_layers
    if full:
        expr, dims = _layer_expr(arch, "s", s.tp)
        name = "KV cache" if not stage.window_layers else "KV cache (global layers)"
        specs.append(Spec.of(name, "kv_cache", expr, source + f"; {s.kv_dtype}", L=full, **common, **dims))
    if stage.window_layers:
        expr, dims = _layer_expr(arch, "min(s, w)", s.tp)
        specs.append(
            Spec.of(
                "KV cache (sliding-window layers)",
                "kv_cache",
                expr,
                "sliding-window layers keep min(s, window) tokens; " + source,
                L=stage.window_layers,
                w=att.sliding_window or 0,
                **common,
                **dims,
            )
        )
    return specs


def kv_pieces(arch: Architecture, s: Scenario, stage: Stage) -> list[Piece]:
    """The cache as pieces ceil(p·min(s, cap)/q) (cap None: unbounded), for the largest context."""
    per_token = Fraction(kv_elements(arch, s.tp) * s.batch) * KV_DTYPE_BITS[s.kv_dtype] / 8
    full = stage.count - stage.window_layers
    pieces: list[Piece] = []
    if full:
        c = per_token * full
        pieces.append((c.numerator, c.denominator, 1, None))
    if stage.window_layers:
        c = per_token * stage.window_layers
        pieces.append((c.numerator, c.denominator, 1, arch.attention.sliding_window))
    return pieces
