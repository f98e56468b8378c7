"""What serving keeps per sequence: the KV cache of attention layers and the state of recurrent ones.

Each block's mixer says what one layer keeps on one TP rank (``core.blocks``): keys and values per
cached token (standard attention: 2·g·d_h, a TP rank keeping max(g/t, 1) heads; MLA: r_kv + d_rope,
the same on every rank), at most a window of tokens for sliding-window layers, or a fixed-size
recurrent state (Mamba, linear attention) whatever the context, at 16 or 32 bits whatever the KV
cache's type (``state_bits``). Only decoder layers keep a cache:
an encoder reads the input once per request, and its keys and values are the decoder's
cross-attention cache, kept once per request. Data parallelism does not split one request's cache.
Layers with the same cache shape are summed into one term.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from paramtally.core.blocks import Cache
from paramtally.core.memory.gguf_types import GGUF_DEFAULT_TYPES
from paramtally.core.memory.quant import KV_DTYPE_BITS
from paramtally.core.memory.scenario import Scenario, weights_format
from paramtally.core.memory.stages import Stage
from paramtally.core.memory.vision import cross_image_tokens
from paramtally.core.schema import Architecture, Block
from paramtally.core.terms.formula import Number, exact, renamed
from paramtally.core.terms.term import Term

__all__ = ["RECURRENT_STATE", "KvStages", "encoder_tokens", "kv_terms", "state_bits"]

# The term of the state SSM and linear-attention layers keep: the memory report names the part after it.
RECURRENT_STATE = "recurrent state"


def encoder_tokens(arch: Architecture, s: Scenario) -> int | None:
    """Tokens (or frames) the encoder reads for one request: the scenario's, else the encoder's
    maximum; None when neither is known, and the encoder then reads the context's length. Without an
    encoder, the image tokens a cross-attention over the vision tower reads (Mllama), else None. An
    encoder alone (BERT) reads the context: None."""
    if arch.encoder is None and arch.vision is not None:  # Mllama: cross-attention reads the image
        return cross_image_tokens(arch, s)
    if arch.decoder is None:
        return None
    if s.encoder_tokens is not None:
        return s.encoder_tokens
    return arch.encoder.max_positions if arch.encoder is not None and arch.encoder.max_positions else None


@lru_cache(maxsize=1024)
def _caches(block: Block, h: int, tp: int) -> tuple[tuple[Cache, ...], Cache | None]:
    """What one layer of ``block`` keeps on one TP rank: its mixers' caches, and cross-attention's."""
    ctx = block.context(h)
    mixers = tuple(mixer.cache(ctx, tp) for mixer in (block.mixer, block.parallel_mixer) if mixer is not None)
    cross = block.cross_attention.cache(ctx, tp) if block.cross_attention is not None else None
    return mixers, cross


class KvView(NamedTuple):
    """The scenario as the KV terms read it (the terms of alike stages are made once: ``_kv_terms``)."""

    kv_dtype: str
    context: int
    batch: int
    generated: int
    state_bits: int  # of the recurrent state (``state_bits``)


def state_bits(s: Scenario) -> int:
    """Bits per number of the recurrent state of SSM and linear-attention layers: not a KV cache, so
    the KV cache's type does not reach it. llama.cpp (a GGUF format, or its q8_0/q4_0 caches) keeps
    its recurrent tensors (r, s) in F32; vLLM keeps them in the model's dtype (mamba_ssm_cache_dtype
    "auto"): 32 bits for fp32, else 16 (an fp8 KV cache leaves them at 16)."""
    if s.kv_dtype in ("q8_0", "q4_0") or weights_format(s) in GGUF_DEFAULT_TYPES:
        return 32
    return 32 if "fp32" in (s.dtype, s.kv_dtype) else 16


def kv_terms(arch: Architecture, s: Scenario, stage: Stage) -> list[Term]:
    """KV-cache and recurrent-state terms of one pipeline stage on one TP rank (none in training)."""
    return KvStages(arch, s).terms(stage) if s.mode == "inference" else []


class KvStages:
    """What the KV terms of one layout's stages share, made once per layout: the scenario as they
    read it, and each block's caches on a TP rank, by the block's identity (the stages of a layout
    share their block objects; hashing a block to look its caches up is the slower part)."""

    def __init__(self, arch: Architecture, s: Scenario) -> None:
        self._view = KvView(s.kv_dtype, s.context, s.batch, s.generated, state_bits(s))
        self._tokens = encoder_tokens(arch, s)
        self._h, self._tp = arch.hidden_size, s.tp
        self._caches: dict[int, tuple[tuple[Cache, ...], Cache | None]] = {}

    def terms(self, stage: Stage) -> list[Term]:
        held = []
        for block, layers in stage.decoder_blocks:
            caches = self._caches.get(id(block))
            if caches is None:
                caches = self._caches[id(block)] = _caches(block, self._h, self._tp)
            held.append((layers, *caches))
        return list(_kv_terms(tuple(held), self._view, self._tokens))


@lru_cache(maxsize=1024)
def _kv_terms(
    held: tuple[tuple[int, tuple[Cache, ...], Cache | None], ...], s: KvView, tokens: int | None
) -> tuple[Term, ...]:
    """The terms of layers holding these caches: the same for every stage, layout and TP size whose
    layers keep the same (MLA's latent cache is the same on every TP rank)."""
    bits = KV_DTYPE_BITS[s.kv_dtype]
    by_window: dict[int | None, list[tuple[int, Cache]]] = {}
    states: list[tuple[int, Cache]] = []
    cross: list[tuple[int, Cache]] = []
    for layers, caches, cross_cache in held:
        for cache in caches:
            if cache.per_token:
                entries = by_window.get(cache.window)
                if entries is None:
                    by_window[cache.window] = [(layers, cache)]
                else:
                    entries.append((layers, cache))
            if cache.per_sequence:
                states.append((layers, cache))
        if cross_cache is not None:
            cross.append((layers, cross_cache))
    windows = list(by_window)
    terms = [
        _token_term(_token_name(window, windows), entries, s, bits, window)
        for window, entries in by_window.items()
    ]
    if states:
        terms.append(_state_term(states, s, s.state_bits))
    if cross:
        terms.append(_cross_term(cross, s, bits, tokens))
    return tuple(terms)


def _token_name(window: int | None, windows: list[int | None]) -> str:
    if len(windows) == 1:
        return "KV cache"
    if window is None:
        return "KV cache (global layers)"
    sliding = [w for w in windows if w is not None]
    return "KV cache (sliding-window layers)" if len(sliding) == 1 else f"KV cache (window {window:,})"


def _shared_expr(
    entries: list[tuple[int, Cache]], attribute: str, numbers: int
) -> tuple[str, dict[str, Number]]:
    """The entries' common formula for L layers when they all have the same shape, else ``N`` (their
    ``numbers`` per token or per sequence, summed)."""
    first = entries[0][1]
    if len(entries) == 1:
        return getattr(first, attribute), {"L": entries[0][0], **dict(first.symbols)}
    expr, symbols = getattr(first, attribute), first.symbols
    for _, cache in entries:
        if cache is not first and (getattr(cache, attribute) != expr or cache.symbols != symbols):
            return _summed_expr(entries, attribute, numbers)
    return expr, {"L": sum(layers for layers, _ in entries), **dict(symbols)}


_SHAPES_WRITTEN_OUT = 4  # layers of more shapes than this are said as N, their numbers summed


@lru_cache(maxsize=256)
def _summed_text(
    shapes: tuple[tuple[str, tuple[str, ...]], ...],
) -> tuple[str, tuple[dict[str, str], ...]]:
    """The sum of the shapes' formulas, each (formula, its symbols to number) over its own L_i, and
    each shape's renaming (the same text after every edit: made once)."""
    names = tuple(
        {name: f"{name}_{i}" for name in numbered} | {"L": f"L_{i}"}
        for i, (_, numbered) in enumerate(shapes, 1)
    )
    parts = [renamed(expr, rename) for (expr, _), rename in zip(shapes, names, strict=True)]
    return f"({' + '.join(parts)})", names


def _summed_expr(
    entries: list[tuple[int, Cache]], attribute: str, numbers: int
) -> tuple[str, dict[str, Number]]:
    """Layers of a few shapes (a hybrid's Mamba-2 and DeltaNet states, attention beside MLA): each
    shape's formula over its own layers L_i, summed. A symbol keeps its name where every shape gives
    it the same value; else each shape's is numbered (g_1, g_2). ``N`` beyond a few shapes."""
    shapes: dict[tuple[str, tuple[tuple[str, int], ...]], int] = {}
    for layers, cache in entries:
        key = (getattr(cache, attribute), cache.symbols)
        shapes[key] = shapes.get(key, 0) + layers
    if len(shapes) > _SHAPES_WRITTEN_OUT:
        return "N", {"N": numbers}
    values_of: dict[str, set[int]] = {}
    for _, symbols in shapes:
        for name, value in symbols:
            values_of.setdefault(name, set()).add(value)
    numbered = tuple(
        (expr, tuple(name for name, _ in symbols if len(values_of[name]) > 1)) for expr, symbols in shapes
    )
    combined, names = _summed_text(numbered)
    values: dict[str, Number] = {}
    for i, ((_, symbols), layers) in enumerate(shapes.items()):
        values[f"L_{i + 1}"] = layers
        values |= {names[i].get(name, name): value for name, value in symbols}
    # The formulas divide by t where the numbers keep whole heads or channels: say the sum only
    # where it gives the numbers counted.
    return (combined, values) if exact(combined, values) == numbers else ("N", {"N": numbers})


@lru_cache(maxsize=256)
def _token_text(
    per_layers: str, window: bool, generated: bool, source: str, kv_dtype: str
) -> tuple[str, str]:
    """The KV term's formula and source (the same for every stage whose layers keep alike)."""
    kept = "(s + n)" if generated else "s"  # n: generated tokens (g is taken by the KV heads)
    tokens = f"min({kept.strip('()')}, w)" if window else kept
    if window:
        source += "; sliding-window layers keep min(s, window) tokens"
    if generated:
        source += "; the prompt's s tokens and the n generated after it"
    return f"{per_layers}·{tokens}·b·bits/8", f"{source}; {kv_dtype}"


def _token_term(
    name: str, entries: list[tuple[int, Cache]], s: KvView, bits: Number, window: int | None
) -> Term:
    numbers = sum([layers * cache.per_token for layers, cache in entries])
    per_layers, symbols = _shared_expr(entries, "token_expr", numbers)
    expr, source = _token_text(
        per_layers, window is not None, s.generated > 0, entries[0][1].source, s.kv_dtype
    )
    values: dict[str, Number] = {"s": s.context, "b": s.batch, "bits": bits, **symbols}
    if window is not None:
        values["w"] = window
    if s.generated:
        values["n"] = s.generated
    term = Term.of(name, "kv_cache", expr, source, **values)
    return term.growing(numbers * s.batch * bits, cap=window, offset=s.generated, over=8)


def _state_term(entries: list[tuple[int, Cache]], s: KvView, bits: Number) -> Term:
    numbers = sum([layers * cache.per_sequence for layers, cache in entries])
    per_layers, values = _shared_expr(entries, "state_expr", numbers)
    source = entries[0][1].source + (
        f"; independent of the context; {bits}-bit whatever the KV cache's type "
        "(vLLM: the model's dtype; llama.cpp: F32 beside its quantized caches)"
    )
    return Term.of(
        RECURRENT_STATE, "kv_cache", f"{per_layers}·b·bits/8", source, b=s.batch, bits=bits, **values
    )


def _cross_term(entries: list[tuple[int, Cache]], s: KvView, bits: Number, tokens: int | None) -> Term:
    numbers = sum([layers * cache.per_token for layers, cache in entries])
    per_layers, values = _shared_expr(entries, "token_expr", numbers)
    source = "cross-attention keeps the encoder's keys and values for each request"
    if tokens is not None:
        return Term.of(
            "cross-attention KV cache", "kv_cache", f"{per_layers}·s_enc·b·bits/8",
            f"{source} (s_enc tokens); {s.kv_dtype}",
            s_enc=tokens, b=s.batch, bits=bits, **values,
        )  # fmt: skip
    term = Term.of(
        "cross-attention KV cache", "kv_cache", f"{per_layers}·s·b·bits/8",
        f"{source}; the encoder reads as many tokens as the context; {s.kv_dtype}",
        s=s.context, b=s.batch, bits=bits, **values,
    )  # fmt: skip
    return term.growing(numbers * s.batch * bits, over=8)
