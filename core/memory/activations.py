"""Activation memory: what the backward pass needs kept, per GPU (Korthikanti et al. 2022).

The paper's per-layer bytes for 16-bit activations, f = 4h and MHA are sbh(34 + 5as/h). Written
per stored tensor it is s·b·(R + S) + 5·a·s²·b with R = 10h for the tensors TP does not split
(two LayerNorm inputs 4h, the QKV and MLP inputs 4h, two dropout masks 2h) and S = 24h for the
ones it does (Q and K 4h, V 2h, output-projection input 2h, MLP 16h). We generalize per block from
the widths that are really there: S = 2·(the mixer's projection widths: q + k + v + o for
attention) + 4f for a plain FFN (activation input and output) or 8f for a gated one (gate, up,
activation output, product), an MoE layer's f being k·f_e plus the shared width; R counts 2h per
norm, 2h for the mixer's input, 2h for the FFN's input if there is one and 2h of dropout masks;
a decoder's cross-attention adds its query input 2h and its mask h to R, and its own Q, output
input, K and V (over the encoder's tokens) and scores apart (``cross_widths``). Each distinct
block is its own term, so a model whose MoE layers differ is counted layer for layer.
An MoE layer also keeps D = 2h·k per token: Megatron-LM's token dispatcher copies each routed
token's input for its experts, which keep the copy for their first matrix's weight gradient
(``dispatched_width``).

Pipelines: under 1F1B stage i keeps p − i micro-batches in flight, at most the n micro-batches a
step has; the interleaved schedule (v chunks per GPU) multiplies that by 1 + (p − 1)/(p·v)
(Korthikanti et al. 2022 §4.2.3). Expert parallelism changes nothing here: with balanced routing a
GPU computes as many token–expert pairs for its E/ep experts as it would for all E.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from paramtally.core.blocks import KernelPath, MixerProtocol
from paramtally.core.count.parameters import block_kind
from paramtally.core.memory.activations_hf import (
    HF_SOURCE,
    cache_copies,
    hf_profile,
    hf_score_bytes,
    hf_widths,
)
from paramtally.core.memory.activations_outside import bias_mask_term, head_terms, input_terms
from paramtally.core.memory.kv_cache import encoder_tokens
from paramtally.core.memory.model_states import padded_vocab
from paramtally.core.memory.scenario import Scenario, with_changes
from paramtally.core.memory.stages import Stage
from paramtally.core.schema import Architecture, Block
from paramtally.core.terms.term import Term
from paramtally.core.text import say

__all__ = [
    "INFERENCE_CHUNK",
    "activation_terms",
    "dispatched_width",
    "kernel_path_omissions",
    "layer_activation_bytes",
    "shared_training_terms",
    "token_widths",
    "training_view",
]

INFERENCE_CHUNK = 2048  # prefill tokens processed at once (chunked prefill); an assumption, stated

KORTHIKANTI = (
    "Korthikanti et al. 2022 §4 (16-bit activations, dropout masks kept), generalized per block: "
    "R = 2h per norm + 2h mixer input + 2h FFN input + 2h dropout masks; S = 2·(mixer projection "
    "widths) + 4f plain / 8f gated FFN (MoE: f = k·f_e + shared width); 5·a·s² scores unless "
    "FlashAttention or selective recompute; full recompute keeps 2sbh; sequence parallel divides R "
    "by t; 1F1B: stage i holds p − i micro-batches"
)
DISPATCHED = (
    "; MoE: D = 2h·k per token, the routed copies of the layer's input the experts keep (Megatron-LM "
    "megatron/core/transformer/moe/moe_utils.py permute, gathered over TP in token_dispatcher.py), "
    "whole on each TP rank"
)


# The hf profiles whose attention is eager (hf-eager-fallback: eager, recurrent mixers on their
# PyTorch path where the kind has measured it: ``KernelPath.pytorch_path``).
EAGER = frozenset({"hf-eager", "hf-eager-fallback"})

INTERLEAVED = (
    "interleaved 1F1B with v chunks per GPU: × (1 + (p − 1)/(p·v)) (Korthikanti et al. 2022 §4.2.3, "
    "for the first stage; later stages scaled alike)"
)
FEW_MICRO_BATCHES = "fewer micro-batches (n) than stages in flight: a stage keeps n (Megatron-LM)"
EXPERT_PARALLEL = (
    "; expert parallelism leaves them as they are: with balanced routing a GPU computes as many "
    "token–expert pairs for its E/ep experts as it would for all of them"
)


def _mixers(block: Block) -> list[MixerProtocol]:
    return [m for m in (block.mixer, block.parallel_mixer, block.cross_attention) if m is not None]


def _self_mixers(block: Block) -> list[MixerProtocol]:
    """The mixers over the layer's own tokens (a cross-attention reads the encoder's: ``cross_widths``)."""
    return [m for m in (block.mixer, block.parallel_mixer) if m is not None]


def dispatched_width(block: Block, h: int) -> int:
    """Bytes per token the experts keep of the tokens dispatched to them, whole on each TP rank.

    Megatron-LM's dispatcher permutes each token's input once per routed expert
    (megatron/core/transformer/moe/moe_utils.py ``permute``: ``tokens.index_select(0,
    sorted_indices)``), gathers it over the TP group (token_dispatcher.py ``dispatch_postprocess``)
    and the experts' fc1 keeps that copy for its weight gradient: 2h per routed token. The combine
    keeps no copy of the expert outputs: the router's probabilities are applied in the experts'
    activation (experts.py ``activation_func_with_probs``) and ``unpermute`` only scatters back."""
    return 2 * h * block.ffn.routing()[1] if block.ffn.ROUTED else 0


def token_widths(block: Block, h: int) -> tuple[int, int]:
    """(R, S): bytes per token per layer of 16-bit activations kept whole / split by TP (the
    cross-attention's TP-split tensors apart: ``cross_widths``).

    R is Korthikanti's 10h per sublayer pair: each norm's input 2h, the attention's and the MLP's
    inputs 2h each and their output dropout masks h each; a decoder's cross-attention is a third
    sublayer, its norm counted with the block's and its query projection's input 2h and output
    mask h beside them (as Megatron-LM's T5 decoder layer keeps them)."""
    ctx = block.context(h)
    ffn_width = block.ffn.active_width()
    r = 2 * h * block.norms.count + 2 * h + (2 * h if ffn_width else 0) + 2 * h
    if block.cross_attention is not None:
        r += 3 * h
    mixers = sum(m.projection_widths(ctx) for m in _self_mixers(block))
    s = 2 * mixers + (8 if block.ffn.gated else 4) * ffn_width
    return r, s


class CrossWidths(NamedTuple):
    """A cross-attention's bytes per layer, split by TP: ``own`` per decoder token (Q and the
    output projection's input), ``encoder`` per encoder token (K and V), ``scores`` the c of
    c·a_x·s·s_enc, ``heads`` a_x."""

    own: int
    encoder: int
    scores: int
    heads: int


@lru_cache(maxsize=1024)
def cross_widths(arch: Architecture, block: Block, profile: str, byte: int) -> CrossWidths | None:
    """What a decoder layer's cross-attention keeps: its K and V are the encoder's s_enc tokens'
    (Whisper's 1,500 frames beside a 448-token transcript), its scores s × s_enc."""
    cross = block.cross_attention
    if cross is None:
        return None
    ctx = block.context(arch.hidden_size)
    if profile == "megatron":
        return CrossWidths(*cross.cross_widths(ctx, None), 5, cross.score_heads())
    eager = profile in EAGER
    own, encoder = cross.cross_widths(ctx, hf_profile(arch, byte, eager))
    return CrossWidths(own, encoder, hf_score_bytes(arch, byte) if eager else 0, cross.score_heads())


@lru_cache(maxsize=1024)
def _score_heads(block: Block) -> int:
    # Cached: every stage of every layout the fit table tries asks for each block it holds.
    return sum(m.score_heads() for m in _self_mixers(block))


def _over(symbol: str, divisor: int) -> str:
    return f"/{symbol}" if divisor > 1 else ""


def _activation_bytes(s: Scenario) -> int:
    return 4 if s.dtype == "fp32" else 2


def _widths(arch: Architecture, block: Block, s: Scenario) -> tuple[int, int, int, int]:
    """(R, S, c, D): bytes per token kept whole / split by TP, c of the c·a·s scores (0: none) and
    the experts' dispatched copies D (megatron; the hf profiles count theirs in S)."""
    return _block_widths(arch, block, s.activations, _activation_bytes(s), s.use_cache)


@lru_cache(maxsize=1024)
def _block_widths(
    arch: Architecture, block: Block, profile: str, byte: int, cache: bool = False
) -> tuple[int, int, int, int]:
    # Cached: every stage of every layout the fit table tries asks again.
    if profile == "megatron":
        h = arch.hidden_size
        r, w = token_widths(block, h)
        return r, w, 5 if _score_heads(block) else 0, dispatched_width(block, h)
    fallback = profile == "hf-eager-fallback"
    hf = hf_widths(arch, block, byte, eager=profile in EAGER, cache=cache, fallback=fallback)
    return hf.r, hf.s, hf.scores, 0


def _layer_expr(s: Scenario, scores: int, dispatched: int = 0) -> str:
    t, sp = s.tp, (s.tp if s.sequence_parallel else 1)
    if s.recompute == "full":
        kept = "2" if s.activations == "megatron" else str(_activation_bytes(s))
        return f"{kept}·s·b·h{_over('t', sp)}"
    if s.activations == "megatron":
        keep_scores = scores and not (s.flash_attention or s.recompute == "selective")
    else:
        keep_scores = scores and s.recompute != "selective"
    score = f" + {scores}·a·s{_over('t', t)}" if keep_scores else ""
    copies = " + D" if dispatched else ""  # gathered over TP: whole on each rank, sequence parallel too
    return f"s·b·(R{_over('t', sp)} + S{_over('t', t)}{copies}{score})"


def _scale(s: Scenario) -> tuple[str, dict[str, int]]:
    """Korthikanti's bytes are for 16-bit activations; fp32 doubles them (the hf terms count B)."""
    return ("·B/2", {"B": 4}) if s.dtype == "fp32" and s.activations == "megatron" else ("", {})


def _layer_values(arch: Architecture, block: Block, s: Scenario) -> dict[str, int]:
    r, w, _, dispatched = _widths(arch, block, s)
    h = arch.hidden_size
    values = {"s": s.context, "b": s.batch, "h": h, "a": _score_heads(block), "t": s.tp, "R": r, "S": w}
    return values | ({"D": dispatched} if dispatched and s.recompute != "full" else {})


def _source(s: Scenario) -> str:
    return KORTHIKANTI if s.activations == "megatron" else HF_SOURCE


def _cache_source(arch: Architecture, s: Scenario) -> str:
    """What a term says when it counts the KV cache's copies (``activations_hf.cache_copies``)."""
    if s.activations == "megatron" or s.recompute == "full":
        return ""
    if not cache_copies(arch, s.activations != "hf-sdpa", s.use_cache):
        return ""
    return (
        "; use_cache (Hugging Face's default, on in training too): K and V copied into the KV cache while "
        "the query's view keeps the fused q, k, v output, + B·2·g·d_h in S (measured: GPT-2's c_attn, "
        "Falcon's query_key_value under ALiBi); off with model.config.use_cache = False or --no-use-cache"
    )


def _kernel_paths(blocks: Iterable[Block], profile: str) -> list[KernelPath]:
    """The kernels ``blocks``' mixers' hf widths assume (``KERNELS``), each once: under
    hf-eager-fallback, those of the kinds that count their PyTorch path instead are left out."""
    paths = (mixer.KERNELS for block in blocks for mixer in _self_mixers(block))
    fallback = profile == "hf-eager-fallback"
    return [
        path for path in dict.fromkeys(paths) if path is not None and not (fallback and path.pytorch_path)
    ]


def _kernel_source(blocks: list[Block], profile: str) -> str:
    """What a term of hf layers says of its recurrent mixers: their widths are not measured, or,
    under hf-eager-fallback, those on transformers' PyTorch path are, as measured."""
    names = [path.name for path in _kernel_paths(blocks, profile)]
    said = ""
    if profile == "hf-eager-fallback":
        paths = (mixer.KERNELS for block in blocks for mixer in _self_mixers(block))
        measured = [path for path in dict.fromkeys(paths) if path is not None and path.pytorch_path]
        if measured:
            said = (
                f"; {' and '.join(path.name for path in measured)} layers on transformers' PyTorch path, "
                f"without {' or '.join(dict.fromkeys(path.kernels for path in measured))} "
                f"({'; '.join(path.pytorch_path for path in measured)}), measured "
                "(tools/measure_activations.py, kernel_fallback_cases)"
            )
    if not names:
        return said
    return said + (
        f"; the {' and '.join(names)} mixer widths are not measured: an estimate of what the fused CUDA "
        "kernels keep (without them transformers' PyTorch fallback keeps more, as 'Not modelled' says)"
    )


def kernel_path_omissions(arch: Architecture, s: Scenario) -> tuple[str, ...]:
    """Under the hf profiles in training, what the figure leaves out for each recurrent mixer kind
    ``arch`` holds: the PyTorch fallback transformers runs without the mixer's CUDA kernels."""
    if s.mode != "training" or s.activations == "megatron":
        return ()
    notes = []
    for path in _kernel_paths(arch.layers_by_block(), s.activations):
        notes.append(
            say(
                "transformers' PyTorch path for the {name} layers — the figure assumes the {kernels} "
                "CUDA kernels; without them transformers keeps fp32 scan tensors, {ratio}× the "
                "figure as measured for {case}",
                name=path.name,
                kernels=path.kernels,
                ratio=path.fallback_ratio,
                case=path.case,
            )
        )
    return tuple(notes)


def layer_activation_bytes(arch: Architecture, s: Scenario, block: Block | None = None) -> int:
    """Bytes one layer of ``block`` (default: the main stack's base block) keeps for one micro-batch."""
    block = block if block is not None else arch.base_block(arch.main_stack)
    scale, extra = _scale(s)
    _, _, scores, dispatched = _widths(arch, block, s)
    expr = _layer_expr(s, scores, dispatched) + scale
    return Term.of("", "", expr, "", **_layer_values(arch, block, s), **extra).value


def _in_flight(s: Scenario, stage: Stage) -> tuple[str, dict[str, int], str]:
    """How many micro-batches' activations the stage keeps, as a factor of the formula, its values
    and where the rule comes from."""
    m = s.pp - stage.index
    if s.virtual_stages > 1:
        values = {"m": m, "p": s.pp, "v": s.virtual_stages}
        return "m·(1 + (p − 1)/(p·v))·", values, INTERLEAVED
    if s.micro_batches is not None and s.micro_batches < m:
        return ("n·" if s.micro_batches > 1 else ""), {"n": s.micro_batches}, FEW_MICRO_BATCHES
    return ("m·" if m > 1 else ""), {"m": m}, ""


def _training_terms(arch: Architecture, s: Scenario, stage: Stage, last: bool) -> list[Term]:
    scale, extra = _scale(s)
    factor, flight, flight_source = _in_flight(s, stage)
    source = (
        _source(s) + (f"; {flight_source}" if flight_source else "") + (EXPERT_PARALLEL if s.ep > 1 else "")
    )
    # Blocks that keep the same bytes per layer share a term; an encoder's layers read its own
    # tokens (Whisper's 1,500 frames beside a 448-token transcript), so they are a class apart.
    classes: dict[
        tuple[str, int, int, int, int, int, CrossWidths | None], tuple[int, list[Block], Scenario]
    ] = {}
    for role, held, seen in _by_stack(arch, stage, s):
        for block, layers in held:
            cross = cross_widths(arch, block, seen.activations, _activation_bytes(seen))
            key = (role, *_widths(arch, block, seen), _score_heads(block), cross)
            count, blocks, _ = classes.get(key, (0, [], seen))
            classes[key] = (count + layers, [*blocks, block], seen)
    terms = []
    for (role, _, _, scores, dispatched, _, cross), (count, blocks, seen) in classes.items():
        labels = sorted({block_kind(block) for block in blocks})
        where = f"{role} " if role else ""
        name = "activations" if len(classes) == 1 else f"activations ({where}{'; '.join(labels)} layers)"
        expr = factor + "L·" + _layer_expr(seen, scores, dispatched) + scale
        values = _layer_values(arch, blocks[0], seen) | {"L": count} | flight | extra
        said = source + (_kernel_source(blocks, seen.activations) if seen.activations != "megatron" else "")
        said += DISPATCHED if "D" in values else ""
        said += _cache_source(arch, seen)
        terms.append(Term.of(name, "activations", expr, said, **values))
        if cross is not None and seen.recompute != "full":  # full recompute: the layer's input alone
            tokens = encoder_tokens(arch, seen) or seen.context
            terms.append(
                _cross_term(seen, cross, count, tokens, factor + "L·", scale, flight | extra, source)
            )
    if s.activations != "megatron":
        terms += _hf_outside_terms(arch, s, stage, last, factor, flight)
    elif last and arch.head.present:
        terms.append(_megatron_output_term(arch, s))
    return terms


def _megatron_output_term(arch: Architecture, s: Scenario) -> Term:
    vocab = arch.embeddings.vocab_size
    padded = padded_vocab(vocab + arch.added_vocab, s.tp) if s.vocab_padding else vocab
    v_symbol = "V_p" if padded != vocab else "V"
    return Term.of(
        "output layer (fp32 logits)",
        "activations",
        f"4·s·b·(h + {v_symbol}){_over('t', s.tp)}",
        "Korthikanti et al. 2022 §4.3: output layer 4sbh/t·(1 + V/h), on the last stage"
        + ("; V_p: Megatron-LM's padded vocabulary" if padded != vocab else ""),
        s=s.context,
        b=s.batch,
        h=arch.hidden_size,
        t=s.tp,
        **{v_symbol: padded},
    )


def _hf_outside_terms(
    arch: Architecture, s: Scenario, stage: Stage, last: bool, factor: str, flight: dict[str, int]
) -> list[Term]:
    """The hf profiles' terms outside the layers (``activations_outside``): the inputs and position
    tables on the first stage, the attention bias masks of each stage's layers, the final norms,
    logits and labels on the last."""
    terms = input_terms(arch, s, factor, flight) if stage.index == 0 else []
    if s.recompute != "full":
        stacks = [(role, held) for role, held, _ in _by_stack(arch, stage, s)]
        mask = bias_mask_term(arch, s, stacks, factor, flight)
        terms += [mask] if mask is not None else []
    if last and arch.head.present:
        terms += head_terms(arch, s, factor, flight)
    return terms


def _cross_term(
    s: Scenario,
    cross: CrossWidths,
    layers: int,
    tokens: int,
    factor: str,
    scale: str,
    more: dict[str, int],
    source: str,
) -> Term:
    """The decoder layers' cross-attention: Q and its output per decoder token, K and V per encoder
    token (s_e), scores s × s_e."""
    t = _over("t", s.tp)
    if s.activations == "megatron":
        keep_scores = not (s.flash_attention or s.recompute == "selective")
    else:
        keep_scores = cross.scores > 0 and s.recompute != "selective"
    score = f" + {cross.scores}·a_x·s·s_e{t}" if keep_scores else ""
    expr = f"{factor}b·(s·Q_x{t} + s_e·K_x{t}{score}){scale}"
    values = {
        "L": layers,
        "b": s.batch,
        "s": s.context,
        "s_e": tokens,
        "Q_x": cross.own,
        "K_x": cross.encoder,
    }
    values |= {"a_x": cross.heads, "t": s.tp} | more
    said = source + "; cross-attention: Q_x per decoder token, K_x (its K and V) per encoder token s_e"
    return Term.of("activations (decoder cross-attention)", "activations", expr, said, **values)


def _by_stack(
    arch: Architecture, stage: Stage, s: Scenario
) -> list[tuple[str, tuple[tuple[Block, int], ...], Scenario]]:
    """The stage's blocks by the stack they are in, each with the scenario its layers see: an
    encoder's its own tokens (``encoder_tokens``), a decoder's the context ('': no encoder)."""
    if stage.decoder_blocks is stage.blocks:
        return [("", stage.blocks, s)]
    decoder = {id(block): n for block, n in stage.decoder_blocks}
    encoder = []
    for block, n in stage.blocks:
        left = n - decoder.get(id(block), 0)
        if left > 0:
            encoder.append((block, left))
    tokens = encoder_tokens(arch, s) or s.context
    found = []
    if encoder:
        found.append(("encoder", tuple(encoder), with_changes(s, (("context", tokens),))))
    if stage.decoder_blocks:
        found.append(("decoder", stage.decoder_blocks, s))
    return found


def _prefill_width(block: Block, h: int) -> int:
    ctx = block.context(h)
    mixers = sum(m.prefill_width(ctx) for m in _mixers(block))
    return mixers + (2 if block.ffn.gated else 1) * block.ffn.active_width()


_INFERENCE_SOURCE = (
    "working set of one layer while a prefill chunk of C tokens runs: residual and norm output 2h, "
    "mixer projections and FFN intermediates W split by TP (the widest layer's; W_i: each kind of "
    "layer's), at B bytes; an estimate, as vLLM profiles it"
)


@lru_cache(maxsize=256)
def _widest(arch: Architecture) -> tuple[str, dict[str, int]]:
    """``W`` or ``max(W_1, W_2, …)``: the widest layer's prefill width, one symbol per distinct width.

    The maximum is taken in the formula, so that each symbol stays a polynomial in the fields a
    design-space sweep varies (``core.explore``) while the widest block changes across the grid."""
    h = arch.hidden_size
    # Blocks of equal width share a symbol: the formula names only the widths that differ.
    widths = list(dict.fromkeys(_prefill_width(block, h) for block in arch.layers_by_block()))
    if len(widths) <= 1:
        return "W", {"W": widths[0] if widths else 0}
    symbols = {f"W_{i}": width for i, width in enumerate(widths, start=1)}
    return f"max({', '.join(symbols)})", symbols


def training_view(s: Scenario) -> Scenario:
    """``s`` as the training activation terms read it: ZeRO and the data-parallel size change none of
    them, and expert parallelism only by being there (a note in the source), so the layouts the fit
    table tries that differ only in those (every ZeRO stage, every count of data-parallel copies)
    can share their terms (``shared_training_terms``)."""
    ep = 2 if s.ep > 1 else 1
    return with_changes(s, (("zero", 0), ("gpus", s.tp * s.pp * ep), ("ep", ep)))


@lru_cache(maxsize=4096)
def shared_training_terms(arch: Architecture, view: Scenario, stage: Stage, last: bool) -> tuple[Term, ...]:
    """``activation_terms`` of a training scenario seen through ``training_view`` (cached)."""
    return tuple(_training_terms(arch, view, stage, last))


def activation_terms(arch: Architecture, s: Scenario, stage: Stage, last: bool) -> list[Term]:
    """Activation terms of one pipeline stage on one GPU."""
    if s.mode == "training":
        return _training_terms(arch, s, stage, last)
    view = InferenceView(s.tp, s.context, s.batch, 4 if s.dtype == "fp32" else 2)
    return list(_inference_terms(arch, view, last))


class InferenceView(NamedTuple):
    """The scenario as the serving activation terms read it: every stage but the last of every
    layout with the same TP size has the same terms (``_inference_terms``, made once)."""

    tp: int
    context: int
    batch: int
    byte: int  # bytes per activation


@lru_cache(maxsize=256)
def _inference_terms(arch: Architecture, s: InferenceView, last: bool) -> tuple[Term, ...]:
    h = arch.hidden_size
    width, widths = _widest(arch)  # cached: every stage of every layout asks (read, never changed)
    widest = max(widths.values())
    byte = s.byte
    working = Term.of(
        "activations (prefill working set)",
        "activations",
        f"min(s·b, C)·B·(2·h + {width}{_over('t', s.tp)})",
        _INFERENCE_SOURCE,
        s=s.context,
        b=s.batch,
        C=INFERENCE_CHUNK,
        B=byte,
        h=h,
        **widths,
        t=s.tp,
    )
    terms = [working.growing(byte * (2 * h * s.tp + widest), per=s.batch, cap=INFERENCE_CHUNK, over=s.tp)]
    if last and arch.head.present and not arch.generates:
        # An encoder's head (BertForMaskedLM's) scores every token at once, in the weights' dtype:
        # nothing is sampled, so there is no last token to keep alone.
        every = Term.of(
            "logits (every token)",
            "activations",
            "b·s·V·B",
            "an encoder's head scores all s tokens of each sequence (transformers returns every logit)",
            b=s.batch,
            s=s.context,
            V=arch.embeddings.vocab_size,
            B=byte,
        )
        terms.append(every.growing(byte * arch.embeddings.vocab_size, per=s.batch))
    elif last and arch.head.present:
        terms.append(
            Term.of(
                "logits (fp32, last token)",
                "activations",
                "b·V·4",
                "sampling reads fp32 logits of each sequence's last token",
                b=s.batch,
                V=arch.embeddings.vocab_size,
            )
        )
    return tuple(terms)
