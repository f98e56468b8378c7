"""What a llama.cpp GGUF file stores: one ggml type per tensor, chosen by llama.cpp's own rules.

A GGUF "format" such as Q4_K_M is a mix, not one block layout. ``llama-quantize`` picks each
tensor's type in ``llama_tensor_get_type`` (ggml-org/llama.cpp, ``src/llama-quant.cpp``, read at
commit 007dbbf3): the format's default type for most matrices; ``output.weight`` (and the token
embedding when the head is tied to it) at Q6_K in every format but Q8_0; ``attn_v`` and
``ffn_down`` one or two types higher in some layers (``use_more_bits``: the first and last eighth
of the layers and every third one between, for Q4_K_M and Q5_K_M); models of 8 experts with
``attn_k``/``attn_v`` at Q8_0; norms, biases, routers (``ffn_gate_inp``) and position embeddings
left unquantized (F32). A matrix whose row length (``ne[0]``, the input width) is not a multiple of
the type's block falls back to a type with smaller blocks (``tensor_type_fallback``). Bytes per
block and values per block come from the ``gguf`` package's ``GGML_QUANT_SIZES``.

Assumptions, stated: no importance matrix (plain ``llama-quantize``), no per-tensor overrides,
the Falcon-specific branches are not modelled, and what this calculator does not know as a matrix
(biases, q/k norms, recurrent-layer projections) is counted at the format's default type.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from paramtally.core.blocks import GGUFTensor
from paramtally.core.count.parameters import block_parts, count_parameters
from paramtally.core.schema import Architecture, Block

__all__ = [
    "GGUF_DEFAULT_TYPES",
    "LLAMA_CPP_SOURCE",
    "MAX_GGUF_LAYERS",
    "StageTypes",
    "bytes_of",
    "row_blocks",
    "stage_types",
    "type_bytes",
]

LLAMA_CPP_SOURCE = (
    "llama.cpp llama_tensor_get_type (src/llama-quant.cpp): a type per tensor — output.weight Q6_K "
    "(Q8_0 files keep Q8_0), attn_v/ffn_down bumped in some layers, norms/biases/routers F32; no "
    "importance matrix; block sizes from gguf GGML_QUANT_SIZES"
)

# llama-quantize's file types (LLAMA_FTYPE_MOSTLY_*) and their default tensor type
# (llama_ftype_get_default_type).
# llama.cpp picks some tensors' types by their layer's index, so the types are summed layer by layer;
# real GGUF files have a few hundred layers, and a bound keeps that sum's time and memory small.
MAX_GGUF_LAYERS = 65_536

GGUF_DEFAULT_TYPES: Mapping[str, str] = {
    "q8_0": "Q8_0",
    "q6_k": "Q6_K",
    "q5_k_m": "Q5_K",
    "q4_k_m": "Q4_K",
    "q4_0": "Q4_0",
    "q3_k_m": "Q3_K",
    "q2_k": "Q2_K",
    "iq4_xs": "IQ4_XS",
}

# tensor_type_fallback: a type whose block does not divide the row falls back to one that may.
_FALLBACK = {
    "IQ4_XS": "IQ4_NL",
    "Q2_K": "Q4_0",
    "Q3_K": "Q4_0",
    "Q4_K": "Q5_0",
    "Q5_K": "Q5_1",
    "Q6_K": "Q8_0",
}


@lru_cache(maxsize=1)
def _quant_sizes() -> dict[str, tuple[int, int]]:
    from gguf.constants import GGML_QUANT_SIZES  # imported late: it loads numpy

    return {kind.name: (int(block), int(size)) for kind, (block, size) in GGML_QUANT_SIZES.items()}


@lru_cache(maxsize=1)
def row_blocks() -> tuple[int, ...]:
    """The block lengths of every ggml type a GGUF format here gives a tensor: whether they divide
    a row's length decides the type a tensor falls back to (``_fallback``)."""
    kinds = {
        *GGUF_DEFAULT_TYPES.values(),
        *_FALLBACK,
        *_FALLBACK.values(),
        "Q3_K",
        "Q4_K",
        "Q5_K",
        "Q6_K",
        "Q8_0",
    }
    return tuple(sorted({type_bytes(kind)[0] for kind in kinds} - {1}))


def type_bytes(kind: str) -> tuple[int, int]:
    """(values per block, bytes per block) of a ggml type, e.g. Q4_K → (256, 144)."""
    return _quant_sizes()[kind]


@dataclass(frozen=True, slots=True)
class _Traits:
    """What llama.cpp reads from the model's hyper-parameters when it picks types."""

    ftype: str
    default: str
    n_layer: int
    n_gqa: int  # query heads per KV head of the first layer (0 without attention)
    n_expert: int
    is_70b: bool  # llama.cpp's LLM_TYPE_70B: 80 layers with grouped KV heads (Llama-2/3-70B, Qwen2-72B)


def _use_more_bits(i: int, n: int) -> bool:
    return i < n // 8 or i >= 7 * n // 8 or (i - n // 8) % 3 == 2


def _divides(ncols: int, kind: str) -> bool:
    return ncols % type_bytes(kind)[0] == 0


def _fallback(kind: str, ncols: int) -> str:
    if kind in ("F32", "F16") or _divides(ncols, kind):
        return kind
    other = _FALLBACK.get(kind, "F16")
    return other if _divides(ncols, other) else "F16"


def _output_type(t: _Traits, ncols: int) -> str:
    if not _divides(ncols, t.default):
        return "Q8_0"
    return t.default if t.default == "Q8_0" else "Q6_K"


def _attn_v_type(t: _Traits, i_v: int, n_v: int) -> str:
    kind, f = t.default, t.ftype
    if f == "q2_k":
        kind = "Q4_K" if t.n_gqa >= 4 else "Q3_K"
    elif f == "q3_k_m":
        kind = "Q5_K" if i_v < 2 else "Q4_K"
    elif f == "iq4_xs" and t.n_gqa >= 4:
        kind = "Q5_K"
    elif f in ("q4_k_m", "q5_k_m") and _use_more_bits(i_v, n_v):
        kind = "Q6_K"
    if t.is_70b and kind in ("Q3_K", "Q4_K"):
        kind = "Q5_K"  # the 70B's attn_v is 8× smaller than attn_q: more bits cost little
    return "Q8_0" if t.n_expert == 8 else kind


def _ffn_down_type(t: _Traits, i: int, n: int) -> str:
    f = t.ftype
    if f == "q2_k":
        return "Q3_K"
    if f == "q3_k_m":
        return "Q5_K" if i < n // 16 else "Q4_K"
    if f in ("q4_k_m", "q5_k_m") and _use_more_bits(i, n):
        return "Q6_K"
    if f == "iq4_xs" and i < n // 8:
        return "Q5_K"
    return t.default


def _attn_output_type(t: _Traits) -> str:
    f = t.ftype
    if t.n_expert == 8:
        return "Q5_K" if f in ("q2_k", "q3_k_m", "q4_k_m", "iq4_xs") else t.default
    return {"q2_k": "Q3_K", "q3_k_m": "Q4_K"}.get(f, t.default)


def _block_layout(block: Block, h: int) -> tuple[tuple[GGUFTensor, ...], int, int]:
    """One layer's quantizable matrices (each part's ``gguf_tensors``), its unquantized (F32)
    numbers and the rest."""
    ctx = block.context(h)
    matrices: list[GGUFTensor] = []
    for part in (block.mixer, block.parallel_mixer, block.cross_attention, block.ffn):
        if part is not None:
            matrices += part.gguf_tensors(ctx)
    parts = block_parts(block, h)
    unquantized = parts.get("norms", 0) + parts.get("router", 0)
    rest = sum(parts.values()) - unquantized - sum(m.numel for m in matrices)
    return tuple(matrices), unquantized, rest


@dataclass(frozen=True, slots=True)
class StageTypes:
    """Numbers of one pipeline stage by ggml type: all, routed experts, K/V projections."""

    all: Mapping[str, int]
    routed: Mapping[str, int]
    kv: Mapping[str, int]


@lru_cache(maxsize=64)
def _traits(arch: Architecture, quant: str) -> _Traits:
    block = arch.base_block(arch.main_stack)
    n_gqa = block.mixer.gguf_gqa(block.context(arch.hidden_size))
    experts = [block.ffn.routing()[0] for block in arch.layers_by_block() if block.ffn.ROUTED]
    n = arch.num_layers
    return _Traits(quant, GGUF_DEFAULT_TYPES[quant], n, n_gqa, max(experts, default=0), n == 80 and n_gqa > 1)


def _layer_blocks(arch: Architecture) -> tuple[list[Block], list[int]]:
    """The distinct blocks and each layer's index into them, encoder layers first (as the pipeline
    stages count them); indices, not blocks, so that no block is hashed layer by layer."""
    offsets: dict[str, int] = {}
    start = 0
    for role, stack in arch.stacks:
        offsets[role] = start
        start += stack.num_layers
    distinct: list[Block] = []
    which = [-1] * start
    for run in arch.runs:
        if run.block not in distinct:
            distinct.append(run.block)
        number = distinct.index(run.block)
        for first in run.starts():
            begin = offsets[run.stack] + first
            which[begin : begin + run.count] = [number] * run.count
    assert -1 not in which
    return distinct, which


_VARYING = ("attn_v", "ffn_down")  # tensor categories whose type depends on the layer

# Numbers by type of layers [0, i), for i = 0 … L: all, routed experts, K/V projections.
_Prefix = tuple[tuple[dict[str, int], ...], tuple[dict[str, int], ...], tuple[dict[str, int], ...]]


@lru_cache(maxsize=64)
def _per_layer(arch: Architecture, quant: str) -> _Prefix:
    """Running sums over the layers of their numbers by type, each tensor typed in llama.cpp's order."""
    t = _traits(arch, quant)
    h = arch.hidden_size
    distinct, which = _layer_blocks(arch)
    layouts = [_block_layout(block, h) for block in distinct]
    n_v = sum(sum(m.category == "attn_v" for m in layouts[number][0]) for number in which)
    i_v = i_down = 0
    fallen: dict[tuple[str, int], str] = {}  # (type, row length) → the type that fits the row
    # A layer's numbers by type, made once per block and types of its attn_v and ffn_down tensors
    # (the only ones whose type depends on the layer), in the order a tensor by tensor sum meets them.
    made: dict[tuple[int, tuple[str, ...]], tuple[dict[str, int], dict[str, int], dict[str, int]]] = {}
    sums: tuple[list[dict[str, int]], ...] = ([{}], [{}], [{}])
    # Plain dicts, not Counters: a Counter's missing key is a Python call, and this runs for every
    # layer.
    every: dict[str, int] = {}
    routed: dict[str, int] = {}
    kv: dict[str, int] = {}
    slots = [[m.category for m in matrices if m.category in _VARYING] for matrices, _, _ in layouts]
    for index, number in enumerate(which):
        varying: list[str] = []
        for category in slots[number]:
            if category == "attn_v":
                varying.append(_attn_v_type(t, i_v, n_v))
                i_v += 1
            else:
                # Dense models count ffn_down tensors; MoE models read the layer from the name.
                varying.append(_ffn_down_type(t, index if t.n_expert > 1 else i_down, t.n_layer))
                i_down += 1
        key = (number, tuple(varying))
        if key not in made:
            made[key] = _layer_types(t, layouts[number], varying, fallen)
        for total, layer in zip((every, routed, kv), made[key], strict=True):
            for kind, numel in layer.items():
                total[kind] = total.get(kind, 0) + numel
        sums[0].append(dict(every))
        sums[1].append(dict(routed))
        sums[2].append(dict(kv))
    return tuple(tuple(one) for one in sums)  # type: ignore[return-value]


def _layer_types(
    t: _Traits,
    layout: tuple[tuple[GGUFTensor, ...], int, int],
    varying: list[str],
    fallen: dict[tuple[str, int], str],
) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """One layer's numbers by type (all, routed experts, K/V projections), its attn_v and ffn_down
    tensors of the ``varying`` types in turn."""
    matrices, unquantized, rest = layout
    every = {"F32": unquantized}
    every[t.default] = every.get(t.default, 0) + rest
    routed: dict[str, int] = {}
    kv: dict[str, int] = {}
    chosen = iter(varying)
    for m in matrices:
        if m.category in _VARYING:
            kind = next(chosen)
        elif m.category == "attn_k" and t.n_expert == 8:
            kind = "Q8_0"
        elif m.category == "attn_output":
            kind = _attn_output_type(t)
        else:
            kind = t.default
        key = (kind, m.ncols)
        if key not in fallen:
            fallen[key] = _fallback(kind, m.ncols)
        kind = fallen[key]
        every[kind] = every.get(kind, 0) + m.numel
        if m.routed:
            routed[kind] = routed.get(kind, 0) + m.numel
        if m.kv:
            kv[kind] = kv.get(kind, 0) + m.numel
    return every, routed, kv


def _between(prefix: tuple[dict[str, int], ...], first: int, stop: int) -> Counter[str]:
    high, low = prefix[stop], prefix[first]
    return Counter({kind: high[kind] - low.get(kind, 0) for kind in high if high[kind] != low.get(kind, 0)})


@lru_cache(maxsize=1024)
def stage_types(
    arch: Architecture, quant: str, first: int, count: int, params: int, index: int, last: bool, keep16: bool
) -> StageTypes:
    """Numbers held by the stage of layers [first, first + count) with ``params`` parameters in all,
    by ggml type. Outside the layers: the token embedding (stage 0) and the LM head and a tied copy
    (last stage) take llama.cpp's token_embd/output types; what else lies outside is F32 (positions,
    norms) on the first stage and the default type on the last (pooler, prediction modules)."""
    t = _traits(arch, quant)
    every, routed, kv = (_between(prefix, first, first + count) for prefix in _per_layer(arch, quant))
    outside = params - sum(every.values())
    e, vocab = arch.embed_dim, arch.embeddings.vocab_size
    head = arch.head
    tied = not head.present or head.tied
    output = "F16" if keep16 else _fallback(_output_type(t, e), e)
    token = output if tied else ("F16" if keep16 else _fallback(t.default, e))
    report = count_parameters(arch)
    if index == 0:
        embeddings = report.embedding_params  # the token embedding, positions, token types
        every[token] += vocab * e
        every["F32"] += embeddings - vocab * e
        # llama.cpp keeps a vision tower and its projector in their own mmproj file, at F16 by
        # default (convert_hf_to_gguf.py --mmproj).
        every["F16"] += report.vision + report.projector
        outside -= embeddings + report.vision + report.projector
    if last:
        growth = report.by_part.get("vocab_growth", 0)
        matrix = vocab * e if head.present and (not head.tied or index > 0) else 0
        every[output] += matrix + growth
        outside -= matrix + growth
        final_norms = sum(
            arch.base_block(stack).context(arch.hidden_size).norm_per_width * arch.hidden_size
            for _, stack in arch.stacks
            if stack.final_norm
        )
        every["F32"] += final_norms
        every[t.default] += outside - final_norms
    return StageTypes(*({k: v for k, v in c.items() if v} for c in (every, routed, kv)))


def bytes_of(numbers: Mapping[str, int]) -> Fraction:
    """Exact bytes of numbers stored by type."""
    total = Fraction(0)
    for kind, numel in numbers.items():
        block, size = type_bytes(kind)
        total += Fraction(numel * size, block)
    return total
