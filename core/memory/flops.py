"""FLOPs per token and per training run, and the time a run takes at a given MFU.

Forward per token ≈ 2·N_ne + 2·e·V + attention (Kaplan et al. 2020: a multiply-add per parameter
that multiplies; the input embedding is a lookup, so N_ne counts the active parameters outside the
token/position embeddings and the LM head, and the LM head's matmul adds 2·e·V). Attention reads
the context: a token at position i costs 4·d_attn·i per layer (QKᵀ and A·V), so prefill and
training average 2·L·s·d_attn over a causal sequence, while one decode step at context s costs the
full 4·L·s·d_attn. Training ≈ 3× forward (model FLOPs, what MFU counts); hardware FLOPs add what
recomputation runs again (full: a second forward of the layers; selective: the attention core) and
count the whole s×s score matrix where no causal FlashAttention kernel skips its masked half (as
Megatron-LM's 72·B·s·l·h²·(1 + s/(6h) + V/(12·l·h)) does). Training FLOPs come in two conventions
(``Scenario.attention_flops``): ``full`` counts every query over all s keys, 4·L·s·d_attn per token
forward, as the MFUs PaLM (Chowdhery et al. 2022, appendix B) and Megatron-LM (Narayanan et al.
2021) publish are counted — the default, so that a time at a published MFU is one; ``causal`` the
unmasked half, Kaplan's average. Both are reported. A run of D tokens ≈ 6·N·D (Chinchilla,
whose compute-optimal D ≈ 20·N). MoE counts the active parameters. What a layer computes once per
forward pass whatever its tokens (DeBERTa's relative table through its projections, 2·2k·h·d_attn
each: ``per_forward_flops``) is added to a request's prefill, one forward pass, not to a token: a
per-token figure would need the batch (a training step's sequences share one pass), so training
leaves it out. LoRA skips the base weights' gradients: 4·N + 6·A. Sliding-window layers attend
min(s, window). An encoder-decoder runs each stack over its own tokens, in a prefill and in
training (per target token): the encoder over the s_enc tokens, each attending all of them, the
decoder over s, cross-attending over the s_enc.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from paramtally.core.count.parameters import count_parameters
from paramtally.core.memory.decode_weight_reads import cross_projections
from paramtally.core.memory.estimate import effective_architecture
from paramtally.core.memory.gpus import GPU, find_gpu
from paramtally.core.memory.kv_cache import encoder_tokens
from paramtally.core.memory.scenario import Scenario, with_changes
from paramtally.core.memory.stages import model_layout
from paramtally.core.memory.vision import language_scenario, tower_tokens_per_image
from paramtally.core.schema import Architecture, Block
from paramtally.core.terms.formula import renamed
from paramtally.core.terms.term import Term

__all__ = [
    "CONVENTION",
    "AttentionFlops",
    "FlopsReport",
    "convention_text",
    "decode_per_token",
    "estimate_flops",
    "forward_per_token",
    "matmul_params",
    "prefill_flops",
]

KAPLAN = "Kaplan et al. 2020, Table 1: 2N + 2·n_layer·n_ctx·d_attn per token forward"
CHINCHILLA = "Hoffmann et al. 2022 (Chinchilla): C ≈ 6·N·D, compute-optimal D ≈ 20·N"
NON_EMBEDDING = (
    "N_ne: active parameters outside the token/position embeddings (a lookup, no matmul) and the "
    "LM head; 2·e·V: the LM head's matmul (tied or not)"
)
MEGATRON = (
    "Megatron-LM (Narayanan et al. 2021): 72·B·s·l·h²·(1 + s/(6h) + V/(12·l·h)) per iteration, "
    "96·…·(1 + s/(6h) + V/(16·l·h)) with full recomputation (a second forward of the layers, not "
    "of the LM head); selective recomputation runs the attention core again; without a causal "
    "FlashAttention kernel the whole s×s scores are computed (F_hw = 2·F_att)"
)


# A server's prefill computes the logits of each prompt's last token alone: the LM head runs once.
LAST_TOKEN_LOGITS = (
    "the LM head's 2·e·V for the last prompt token only, whose logits sample the first generated "
    "token (vLLM's LogitsProcessor reads each prompt's last position; prompt logprobs would need all s)"
)


def _head(matmuls: dict[str, int]) -> dict[str, int]:
    return {"e": matmuls["e"], "V": matmuls["V"]}


# Said where training adapters count an encoder-decoder as one stack (without adapters each stack
# is counted at its own tokens, as a prefill is).
_BOTH_STACKS = (
    "; an encoder-decoder's encoder and decoder at the same s tokens, causally, without cross-attention "
    "(an approximation)"
)
_RECOMPUTE_SEQUENCE = {
    "none": "",
    "selective": " + s_enc·A_e + s·(A_d + H)",
    "full": " + s_enc·F_e + s·(F − 2·e·V + H)",
}


AttentionFlops = Literal["full", "causal"]
CONVENTION = {
    "full": "full attention: each query over all s keys, as PaLM (Chowdhery et al. 2022, appendix B) and "
    "Megatron-LM (Narayanan et al. 2021) count the MFUs they publish",
    "causal": "causal attention: the unmasked half a causal mask leaves (Kaplan et al. 2020's average)",
}


def convention_text(convention: str) -> str:
    """What a FLOPs figure counts of attention, in words (every FLOPs output says it)."""
    return CONVENTION[convention]


@dataclass(frozen=True, slots=True)
class FlopsReport:
    params: int  # N: active parameters per token
    forward_per_token: int  # prefill: attention averaged over a causal sequence
    training_per_token: int  # model FLOPs (3 × forward), attention counted per ``attention_flops``
    tokens: int  # D
    chinchilla_tokens: int
    six_nd: int
    run_flops: int  # training_per_token · D
    gpu: str
    gpus: int
    mfu: float
    peak_flops: float  # per GPU, FLOP/s
    seconds: float  # run_flops / (gpus · peak · mfu)
    terms: tuple[Term, ...]
    non_embedding_params: int = 0  # N_ne
    decode_per_token: int | None = 0  # one generated token at context s; None: the model generates none
    hardware_training_per_token: int = 0  # with recomputation and the kernel's score matrix
    prefill_per_request: int = 0  # one prompt read, the LM head for its last token alone
    attention_flops: str = "full"  # the convention of training_per_token, the run and its time
    training_per_token_causal: int = 0  # model FLOPs per training token, causal attention
    training_per_token_full: int = 0  # … and full attention

    @property
    def days(self) -> float:
        return self.seconds / 86_400


def _flops_term(name: str, expr: str, source: str, **values: int) -> Term:
    return Term.of(name, "flops", expr, source, **values)


def matmul_params(arch: Architecture) -> tuple[int, int]:
    """(N_ne, e·V): active parameters that multiply outside the LM head, and the LM head's matmul.
    A token is the language model's: a vision tower and its projector run once per image, not per
    token, and are left out (the images' own FLOPs are not counted). A vision tower alone is the
    whole model, and its token a patch: every parameter multiplies but its lookups (positions, class
    token, tile tables); it has no LM head."""
    report = count_parameters(arch)
    if arch.vision is not None and arch.tower_only:
        lookups = sum(node.value for node in arch.vision.input_terms() if not node.name.startswith("patch"))
        return report.active - lookups, 0
    e, h = arch.embed_dim, arch.hidden_size
    # OPT's project_in/out and ELECTRA's embeddings_project sit with the embeddings but multiply.
    projections = arch.embeddings.projection_params(h)
    lookups = report.by_part.get("embeddings", 0) - projections + arch.added_vocab * e
    head = (arch.embeddings.vocab_size + arch.added_vocab) * e if arch.head.present else 0
    untied = head if arch.head.present and not arch.head.tied else 0
    # DeBERTa's own position projections multiply its relative table once per forward pass, not
    # the tokens (``_per_forward``).
    tables = sum(
        layers * mixer.table_params(block.context(h))
        for block, layers in arch.layers_by_block().items()
        for mixer in (block.mixer, block.parallel_mixer)
        if mixer is not None
    )
    return report.active - report.vision - report.projector - lookups - untied - tables, head


PER_FORWARD = (
    "once per layer and forward pass, whatever its tokens and sequences (a batch of b prompts runs it once): "
)


def _per_forward(arch: Architecture) -> tuple[str, str, dict[str, int]]:
    """What the layers compute once per forward pass rather than per token (DeBERTa's relative
    table through its projections), as a sum over the distinct blocks of layers × one layer's
    formula; its words; its values. Empty where nothing runs so."""
    h = arch.hidden_size
    found: list[tuple[int, Term]] = []
    for block, layers in _layers_by_block(arch, None):
        ctx = block.context(h)
        for mixer in (block.mixer, block.parallel_mixer):
            term = mixer.per_forward_flops(ctx) if mixer is not None else None
            if term is not None:
                found.append((layers, term))
    parts: list[str] = []
    values: dict[str, int] = {}
    for i, (layers, term) in enumerate(found):
        tag = "" if len(found) == 1 else f"_{i + 1}"
        names = {name: name + tag for name in term.values}
        expr = renamed(term.expr, names)
        parts.append(f"L{tag}·({expr})" if any(op in expr for op in "+−-") else f"L{tag}·{expr}")
        values |= {f"L{tag}": layers} | {names[name]: int(value) for name, value in term.values.items()}
    said = PER_FORWARD + "; ".join(dict.fromkeys(term.source for _, term in found)) if found else ""
    return " + ".join(parts), said, values


def _plus_per_forward(name: str, expr: str, source: str, arch: Architecture, **values: int) -> Term:
    """A forward pass's term (a request's prefill) with what the layers run once per pass added."""
    once, said, more = _per_forward(arch)
    if not once:
        return _flops_term(name, expr, source, **values)
    return _flops_term(name, f"{expr} + {once}", f"{source}; {said}", **values, **more)


def _context_terms(
    arch: Architecture,
    s: int,
    per: int,
    name: str,
    source: str,
    stack: str | None = None,
    cross_tokens: int | None = None,
    symbol: str = "s",
    decoding: bool = False,
) -> Term:
    """Attention over the context and recurrent scans for one token, forward, summed over the layers
    (of ``stack`` alone if given): ``per``·L·min(s, window)·d_attn (2 on average over a causal
    sequence, 4 at its end or over a whole bidirectional one). With ``cross_tokens`` (the encoder's),
    each decoder layer also cross-attends over all of them (4·L_x·s_enc·d_x). ``symbol``: the
    context's (an encoder's tokens are s_enc). ``decoding``: one new token over the cache (MLA
    attends its latent)."""
    h = arch.hidden_size
    attend: dict[tuple[int, int | None], int] = {}  # (d_attn, window) -> layers
    cross: dict[int, int] = {}  # d_attn of the cross-attention -> layers
    scan = 0
    for block, layers in _layers_by_block(arch, stack):
        ctx = block.context(h)
        if cross_tokens is not None and block.cross_attention is not None:
            width = block.cross_attention.context_width(ctx, decoding)
            cross[width] = cross.get(width, 0) + layers
        for mixer in (block.mixer, block.parallel_mixer):
            if mixer is None:
                continue
            width = mixer.context_width(ctx, decoding)
            if width:
                window = mixer.attended_window()
                attend[(width, window)] = attend.get((width, window), 0) + layers
            scan += layers * mixer.scan_flops(ctx)
    parts: list[str] = []
    values: dict[str, int] = {"s": s}
    for i, ((width, window), layers) in enumerate(sorted(attend.items(), key=lambda kv: kv[0][1] or 0)):
        tag = "" if len(attend) == 1 else f"_{i + 1}"
        if window is None:
            tokens = "s"
        elif per == 4:  # a decode step: the last token attends min(s, w) keys
            tokens = f"min(s, w{tag})"
        else:
            # Query i of a causal sequence attends min(i, w) keys: Σ over s queries ≈ s²/2 while
            # s ≤ w, s·w − w²/2 past it, i.e. (2·m − m²/s)·s/2 with m = min(s, w). 2·min(s, w)
            # alone halved Mistral's attention at 32k (w 4096).
            tokens = f"(2·min(s, w{tag}) − min(s, w{tag})²/s)"
        parts.append(f"{per}·L{tag}·{tokens}·d{tag}")
        values |= {f"L{tag}": layers, f"d{tag}": width} | ({} if window is None else {f"w{tag}": window})
    for i, (width, layers) in enumerate(sorted(cross.items())):
        tag = "" if len(cross) == 1 else f"_{i + 1}"
        parts.append(f"4·L_x{tag}·s_enc·d_x{tag}")
        values |= {f"L_x{tag}": layers, f"d_x{tag}": width, "s_enc": cross_tokens or 0}
    if scan:
        parts.append("F_scan")
        values["F_scan"] = scan
    source += (
        " with d = a·d_h; a sliding-window layer's query attends at most w keys (min(i, w) at position"
        " i); recurrent layers add their scan, DeBERTa's disentangled attention its c2p/p2c products with"
        " the relative table"
    )
    expr = " + ".join(parts) or "0"
    if symbol != "s":
        expr, values = (
            renamed(expr, {"s": symbol}),
            {(symbol if k == "s" else k): v for k, v in values.items()},
        )
    return _flops_term(name, expr, source + " (F_scan)", **values)


def estimate_flops(
    arch: Architecture, scenario: Scenario, catalog: tuple[GPU, ...] | None = None
) -> FlopsReport:
    """FLOPs per token and for the run; raises a ValidationError on an unknown ``gpu``."""
    gpu = find_gpu(scenario.gpu, catalog)
    return _estimate(arch, scenario, gpu)


@dataclass(frozen=True, slots=True)
class _TokenTerms:
    """One token's forward FLOPs at a context: prefill (causal average) and a decode step apart."""

    attention: Term
    decode_attention: Term
    full_attention: Term  # every query over all s keys (a training convention: ``CONVENTION``)
    forward: Term
    decode: Term
    matmuls: dict[str, int]  # N_ne, e, V of the formulas
    # One request's prompt read once (its FLOPs: s·F; an encoder-decoder's encoder over its s_enc
    # tokens, then the decoder's s), and the terms behind it.
    prefill: Term
    prefill_terms: tuple[Term, ...] = ()


def _layers_by_block(arch: Architecture, stack: str | None) -> Iterable[tuple[Block, int]]:
    """Each distinct block with its layers (of ``stack`` alone if given: a decode step runs the
    decoder's; an encoder-decoder's prefill runs each stack over its own tokens; a vision tower
    alone runs its own)."""
    if arch.tower_only:
        return _tower_layers(arch).items()
    if stack is None:
        return arch.layers_by_block().items()
    layers: dict[Block, int] = {}
    for run in arch.runs:
        if run.stack == stack:
            layers[run.block] = layers.get(run.block, 0) + run.layers
    return layers.items()


def _tower_layers(arch: Architecture) -> dict[Block, int]:
    layers: dict[Block, int] = {}
    for run in arch.vision_runs:
        layers[run.block] = layers.get(run.block, 0) + run.layers
    return layers


def _encoder_matmuls(arch: Architecture) -> int:
    """The encoder's active parameters outside its lookups (positions): a decode step runs without
    them (the encoder ran once, at prefill)."""
    report = count_parameters(arch)
    node = next((child for child in report.tree.children if child.name == "encoder"), None)
    if node is None:
        return 0
    inactive = sum((row.params - row.active) * row.layers for row in report.groups if row.stack == "encoder")
    return sum(leaf.value for _, leaf in node.leaves() if leaf.part != "embeddings") - inactive


def _cross_projections(arch: Architecture) -> int:
    """The decoder's cross-attention K and V projections, all its layers."""
    h = arch.hidden_size
    return sum(run.layers * cross_projections(run.block, h) for run in arch.runs if run.stack == "decoder")


def attends_both_ways(arch: Architecture) -> bool:
    """Every token attends every other of its sequence, no causal mask: an encoder alone (BERT) over
    its context, a vision tower alone over one image's patches (PixtralVisionModel's eager attention
    measured 4·L·n²·E FLOPs over n patches, the whole score matrix)."""
    return arch.tower_only or (arch.decoder is None and arch.encoder is not None)


@lru_cache(maxsize=256)
def _token_terms(arch: Architecture, context: int, encoder_tokens: int | None) -> _TokenTerms:
    # Cached: the report, the prefill and the decode figures of the serving estimates all read them.
    n_ne, head = matmul_params(arch)
    matmuls = {"N_ne": n_ne, "e": arch.embed_dim, "V": head // arch.embed_dim}
    bidirectional = attends_both_ways(arch)
    said = "QKᵀ and A·V: each token attends all s (an encoder or a vision tower, unmasked)"
    attention = _context_terms(
        arch, context, 4 if bidirectional else 2, "attention per token (prefill, forward)",
        said if bidirectional else KAPLAN + " (a causal average)",
    )  # fmt: skip
    full_attention = _context_terms(
        arch, context, 4, "attention per token (full: each query over all s keys, forward)",
        "QKᵀ and A·V over every key, the masked half too (" + CONVENTION["full"] + ")",
    )  # fmt: skip
    # An encoder-decoder's decoder cross-attends over the encoder's tokens; an encoder alone (BERT)
    # is one stack over the context, as a decoder-only model is.
    decoding = None if arch.encoder is None or arch.decoder is None else (encoder_tokens or context)
    decode_attention = _context_terms(
        arch, context, 4, "attention of one decode step at context s",
        "QKᵀ and A·V over all s cached tokens" + ("" if decoding is None else
        "; the decoder's layers, cross-attending over the encoder's s_enc tokens"),
        None if decoding is None else "decoder", decoding, decoding=True,
    )  # fmt: skip
    forward = _flops_term(
        "forward per token (prefill)", "2·N_ne + 2·e·V + F_att", f"{KAPLAN}; {NON_EMBEDDING}",
        F_att=attention.value, **matmuls,
    )  # fmt: skip
    if decoding is None:
        decode = _flops_term(
            "decode step per token at context s", "2·N_ne + 2·e·V + F_dec", f"{NON_EMBEDDING}; one new "
            "token reads all s cached keys and values", F_dec=decode_attention.value, **matmuls,
        )  # fmt: skip
    else:
        decode = _flops_term(
            "decode step per token at context s", "2·(N_ne − N_enc − N_x) + 2·e·V + F_dec",
            f"{NON_EMBEDDING}; a step runs the decoder alone: N_enc, the encoder's, and N_x, the "
            "cross-attention's K and V projections, ran once at prefill; one new token reads all s cached "
            "keys and values", N_enc=_encoder_matmuls(arch), N_x=_cross_projections(arch),
            F_dec=decode_attention.value, **matmuls,
        )  # fmt: skip
    if decoding is None and not arch.generates:  # an encoder or a tower alone: no last token to pick
        prefill = _plus_per_forward(
            "prefill per request", "s·F", "the input's s tokens at F each (forward per token, with the "
            "head, if any, on every token: nothing is generated)", arch, s=context, F=forward.value,
        )  # fmt: skip
        return _TokenTerms(attention, decode_attention, full_attention, forward, decode, matmuls, prefill)
    if decoding is None:
        prefill = _plus_per_forward(
            "prefill per request", "s·(F − 2·e·V) + 2·e·V", "the prompt's s tokens at F each (forward "
            "per token); " + LAST_TOKEN_LOGITS, arch, s=context, F=forward.value, **_head(matmuls),
        )  # fmt: skip
        return _TokenTerms(attention, decode_attention, full_attention, forward, decode, matmuls, prefill)
    parts = _encoder_decoder_prefill(arch, context, decoding, matmuls)
    return _TokenTerms(
        attention, decode_attention, full_attention, forward, decode, matmuls, parts[-1], parts
    )


def _training_name(convention: str) -> str:
    return f"training per token ({convention} attention)"


def _encoder_decoder_training(arch: Architecture, s: Scenario, token: _TokenTerms) -> tuple[Term, Term, Term]:
    """Training per target token of an encoder-decoder, causal and full: each sequence runs the
    encoder over its s_enc tokens (each attending all of them) and the decoder over its s target
    tokens, cross-attending over the s_enc (the prefill's F_e and F), three times over for the
    backward; full attention adds the decoder self-attention's masked half H (an encoder's and a
    cross-attention's scores have none). And the hardware FLOPs with recomputation: without a causal
    kernel the masked half is computed too."""
    enc_attention, encoder, dec_attention, decoder, prefill = token.prefill_terms
    s_enc = int(prefill.values["s_enc"])  # a token count
    sequence = {"s_enc": s_enc, "F_e": encoder.value, "s": s.context, "F": decoder.value}
    half = _context_terms(arch, s.context, 2, "decoder self-attention", KAPLAN, "decoder").value
    said = (
        "per target token: the encoder over the sequence's s_enc tokens and the decoder over its s, "
        "cross-attending over the s_enc; backward ≈ 2× forward; " + KAPLAN
    )
    causal = _flops_term(
        _training_name("causal"), "3·(s_enc·F_e + s·F)/s", said + "; " + CONVENTION["causal"], **sequence
    )
    full = _flops_term(
        _training_name("full"), "3·(s_enc·F_e + s·(F + H))/s",
        said + "; H: the decoder self-attention's masked half; " + CONVENTION["full"], **sequence, H=half,
    )  # fmt: skip
    values: dict[str, int] = {}
    if not s.flash_attention:
        values["H"] = half
    if s.recompute == "selective":
        values |= {"A_e": enc_attention.value, "A_d": dec_attention.value}
    elif s.recompute == "full":
        values |= {"e": token.matmuls["e"], "V": token.matmuls["V"]}
    again = _RECOMPUTE_SEQUENCE[s.recompute]
    expr = f"(3·(s_enc·F_e + s·(F + H)){again})/s" if again else "3·(s_enc·F_e + s·(F + H))/s"
    if "H" not in values:  # a causal kernel skips the masked half
        expr = expr.replace("(F + H)", "F").replace("(A_d + H)", "A_d").replace(" + H)", ")")
    hardware = _flops_term(
        f"hardware FLOPs per training token (recompute {s.recompute})", expr,
        MEGATRON + "; per target token of an encoder-decoder, as training per token; H: the decoder "
        "self-attention's masked half, computed without a causal kernel", **sequence, **values,
    )  # fmt: skip
    return causal, full, hardware


def _encoder_decoder_prefill(
    arch: Architecture, context: int, encoder_tokens: int, matmuls: dict[str, int]
) -> tuple[Term, Term, Term, Term, Term]:
    """An encoder-decoder reads a request once: the encoder over its s_enc tokens (each attending
    all of them) and the cross-attention's K and V of its output, then the decoder over the s
    prompt tokens (causal self-attention, cross-attention over the s_enc); 2·FLOPs per multiply-add
    as for a decoder (Kaplan et al. 2020)."""
    n_enc, n_x = _encoder_matmuls(arch), _cross_projections(arch)
    enc_attention = _context_terms(
        arch, encoder_tokens, 4, "attention per encoder token (prefill, forward)",
        "QKᵀ and A·V: each of the encoder's s_enc tokens attends all of them", "encoder", symbol="s_enc",
    )  # fmt: skip
    encoder = _flops_term(
        "forward per encoder token (prefill)", "2·N_enc + 2·N_x + F_att_e",
        "N_enc: the encoder's active parameters outside its lookups; N_x: the cross-attention's K and V "
        "projections, applied to each encoder output; F_att_e: its attention",
        N_enc=n_enc, N_x=n_x, F_att_e=enc_attention.value,
    )  # fmt: skip
    dec_attention = _context_terms(
        arch, context, 2, "attention per decoder token (prefill, forward)",
        KAPLAN + " (a causal average over the s prompt tokens); cross-attention over the s_enc",
        "decoder", encoder_tokens,
    )  # fmt: skip
    decoder = _flops_term(
        "forward per decoder token (prefill)", "2·(N_ne − N_enc − N_x) + 2·e·V + F_att_d",
        f"{NON_EMBEDDING}; the decoder's own", N_enc=n_enc, N_x=n_x, F_att_d=dec_attention.value, **matmuls,
    )  # fmt: skip
    prefill = _plus_per_forward(
        "prefill per request", "s_enc·F_e + s·(F − 2·e·V) + 2·e·V",
        "the encoder over its s_enc tokens, then the decoder over the s prompt tokens; " + LAST_TOKEN_LOGITS,
        arch, s_enc=encoder_tokens, F_e=encoder.value, s=context, F=decoder.value, **_head(matmuls),
    )  # fmt: skip
    return enc_attention, encoder, dec_attention, decoder, prefill


@lru_cache(maxsize=256)
def forward_per_token(arch: Architecture, context: int, encoder_tokens: int | None = None) -> int:
    """Prefill FLOPs of one token at ``context`` for ``arch`` as run (``effective_architecture``):
    the report's own term, for the serving estimates (the same ``_token_terms`` the report reads:
    pass the encoder's tokens as it does)."""
    return _token_terms(arch, context, encoder_tokens).forward.value


@lru_cache(maxsize=256)
def prefill_flops(arch: Architecture, context: int, encoder_tokens: int | None = None) -> tuple[int, ...]:
    """What a prefill's formula reads: (F_p) one prompt's prefill FLOPs (the LM head for its last
    token alone); an encoder-decoder's (F_p, F_e, s_enc): with the forward FLOPs per encoder token
    and the encoder's tokens."""
    prefill = _token_terms(arch, context, encoder_tokens).prefill
    encoder = (int(prefill.values[name]) for name in ("F_e", "s_enc") if name in prefill.values)
    return (prefill.value, *encoder)


@lru_cache(maxsize=256)
def decode_per_token(arch: Architecture, context: int, encoder_tokens: int | None = None) -> int:
    """FLOPs of one decode step at ``context`` (the whole cache read; an encoder-decoder's decoder
    cross-attending over ``encoder_tokens``, else the context), as the report's term."""
    return _token_terms(arch, context, encoder_tokens).decode.value


@lru_cache(maxsize=128)
def _estimate(arch: Architecture, s: Scenario, gpu: GPU) -> FlopsReport:
    arch = effective_architecture(arch, s)
    s = language_scenario(arch, s)  # the context holds the image tokens
    if arch.tower_only:  # a tower's tokens are one image's (or tile's) patches, attending each other
        n = tower_tokens_per_image(arch, s.image_size) // (arch.vision.tiles_per_image if arch.vision else 1)
        s = with_changes(s, (("context", n),))
    report = count_parameters(arch)
    adapters = model_layout(arch, 1).adapters if s.mode == "training" else 0
    n = report.active
    token = _token_terms(arch, s.context, encoder_tokens(arch, s))
    attention, decode_attention, forward, decode = (
        token.attention,
        token.decode_attention,
        token.forward,
        token.decode,
    )
    matmuls, n_ne = token.matmuls, token.matmuls["N_ne"]
    # Without a causal kernel the masked half is computed too; an encoder or a tower alone has none.
    unmasked = s.flash_attention or attends_both_ways(arch)
    hardware_attention = attention.value if unmasked else 2 * attention.value
    if adapters:
        a = min(adapters, n_ne)
        trainings = [
            _flops_term(
                _training_name(convention) + " (adapters only)", "4·(N_ne − A + e·V) + 6·A + 3·F_att",
                "forward and input gradients through the frozen base (4N), full 6A for the adapters; "
                + CONVENTION[convention], A=a, F_att=seen.value, **matmuls,
            )
            for convention, seen in (("causal", attention), ("full", token.full_attention))
        ]  # fmt: skip
        base = "4·(N_ne − A + e·V) + 6·A + 3·F_hw"
        extra: dict[str, int] = {"A": a}
    elif arch.encoder is not None and arch.decoder is not None:
        *trainings, hardware = _encoder_decoder_training(arch, s, token)
    else:
        trainings = [
            _flops_term(
                _training_name(convention), "3·(2·N_ne + 2·e·V + F_att)",
                f"backward ≈ 2× forward; {KAPLAN}; {CONVENTION[convention]}", F_att=seen.value, **matmuls,
            )
            for convention, seen in (("causal", attention), ("full", token.full_attention))
        ]  # fmt: skip
        base, extra = "3·(2·N_ne + 2·e·V + F_hw)", {}
    if adapters or arch.encoder is None or arch.decoder is None:
        recompute = {"none": "", "selective": " + F_hw", "full": " + 2·N_ne + F_hw"}[s.recompute]
        hardware = _flops_term(
            f"hardware FLOPs per training token (recompute {s.recompute})", base + recompute, MEGATRON,
            F_hw=hardware_attention, **extra, **matmuls,
        )  # fmt: skip
    causal, full = trainings
    training, other = (full, causal) if s.attention_flops == "full" else (causal, full)
    chinchilla = _flops_term("Chinchilla-optimal tokens", "20·N", CHINCHILLA + "; MoE: active N", N=n)
    tokens = s.tokens if s.tokens is not None else chinchilla.value
    six_nd = _flops_term("run (6·N·D)", "6·N·D", CHINCHILLA, N=n, D=tokens)
    run = _flops_term(
        "run with attention", "C_tok·D", f"{training.name} × tokens", C_tok=training.value, D=tokens
    )
    peak = gpu.bf16_tflops * 1e12
    seconds = run.value / (s.gpus * peak * s.mfu)
    return FlopsReport(
        params=n,
        forward_per_token=forward.value,
        training_per_token=training.value,
        tokens=tokens,
        chinchilla_tokens=chinchilla.value,
        six_nd=six_nd.value,
        run_flops=run.value,
        gpu=gpu.id,
        gpus=s.gpus,
        mfu=s.mfu,
        peak_flops=peak,
        seconds=seconds,
        # The prefill terms last (an encoder-decoder's: each stack's forward per token, then the request).
        # A model that generates nothing (an encoder or a vision tower alone) has no decode step.
        terms=(
            attention,
            *((decode_attention,) if arch.generates else ()),
            forward,
            *((decode,) if arch.generates else ()),
            training,
            hardware,
            chinchilla,
            six_nd,
            run,
            token.full_attention,
            other,
            *(token.prefill_terms or (token.prefill,)),  # one prompt: the serving figures' F_p
        ),
        prefill_per_request=token.prefill.value,
        non_embedding_params=n_ne,
        decode_per_token=decode.value if arch.generates else None,
        hardware_training_per_token=hardware.value,
        attention_flops=s.attention_flops,
        training_per_token_causal=causal.value,
        training_per_token_full=full.value,
    )
