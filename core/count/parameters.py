"""Exact parameter counts, as ``sum(p.numel() for p in model.parameters())`` of the real model.

The report is the model's tree of terms: the embeddings, then each stack's input (positions,
front-end), its runs of layers (one block's terms, from ``core.blocks``, repeated over the run),
its final norm; then the head and what LoRA, adapters or new tokens add. Every block is counted
once however many layers share it, so the cost grows with the number of distinct blocks and runs,
never with the number of layers. Tied weights count once (as PyTorch's ``parameters()`` does).
Symbols: V vocab, h hidden, e embedding width.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from paramtally.core.blocks import Context
from paramtally.core.blocks.base import frozen_leaf, leaf, norm_leaf
from paramtally.core.count.breakdown import ADDED_PARTS, PARTS, LayerGroupRow, ParamReport
from paramtally.core.schema import Architecture, Block, Run, Stack, StackRole, VisionStack, block_node
from paramtally.core.schema.model import stack_runs
from paramtally.core.terms.term import Term, group
from paramtally.core.text import say

__all__ = [
    "block_frozen",
    "block_kind",
    "block_parts",
    "count_parameters",
    "layer_span",
    "run_title",
]


@lru_cache(maxsize=1024)
def block_parts(block: Block, h: int) -> dict[str, int]:
    """One layer's parameters by part."""
    parts: dict[str, int] = {}
    _add_parts(block_node(block, h).children, parts)
    return parts


@lru_cache(maxsize=1024)
def block_frozen(block: Block, h: int) -> int:
    """One layer's parameters that never train: its terms a kind made frozen (``Term.frozen``)."""
    return sum(term.value for _, term in block_node(block, h).leaves() if term.frozen)


@lru_cache(maxsize=4096)
def _run_nodes(block: Block, h: int, layers: int) -> tuple[Term, Term]:
    """(one layer of ``block``, ``layers`` of them): a stack's runs repeat a few blocks and
    counts (48 groups of two layers, of five kinds), so each pair is made once."""
    one = block_node(block, h)
    children = tuple([_repeated(child, layers) for child in one.children])
    return one, one._replace(value=one.value * layers, count=one.count * layers, children=children)


class _Same:
    """A term as a cache key: that very term, not an equal one. A term holds its formula's values
    as a dict, so it has no hash; and an identity costs less to hash than a tree of terms."""

    __slots__ = ("term",)

    def __init__(self, term: Term) -> None:
        self.term = term  # kept alive with the cache's entry, so its id is not reused meanwhile

    def __hash__(self) -> int:
        return id(self.term)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.term is self.term


def _repeated(node: Term, layers: int) -> Term:
    # By the block's field, not the block: the blocks of a stack share their mixers' and FFNs'
    # terms (core.schema.block_fields caches them), so each is repeated once for all its blocks.
    return _repeated_term(_Same(node), layers)


@lru_cache(maxsize=4096)
def _repeated_term(node: _Same, layers: int) -> Term:
    return node.term.repeated(layers)


class _StackPlan(NamedTuple):
    """What a stack's report rows are, whatever the hidden size: its runs' titles, its
    distinct blocks and (block, layers) pairs, and which of each every run has. An edit of the
    hidden size keeps the stack as it is, so the titles are written once, not on every edit."""

    titles: tuple[str, ...]
    blocks: tuple[Block, ...]  # in the order of their first run
    pairs: tuple[tuple[int, int], ...]  # (block index, layers), in the order of their first run
    run_blocks: tuple[int, ...]  # each run's block index
    run_pairs: tuple[int, ...]  # each run's pair index
    places: tuple[tuple[str, int, int, int, int, int], ...]  # each run's row fields up to its figures
    block_layers: tuple[int, ...]  # each distinct block's layers


@lru_cache(maxsize=256)
def _stack_plan(role: StackRole, stack: Stack, blocks: tuple[tuple[str, Block], ...]) -> _StackPlan:
    runs = stack_runs(role, stack, dict(blocks))
    mixed = len({run.block.mixer.kind for run in runs}) > 1  # then every title names its mixer
    distinct: dict[Block, int] = {}
    pairs: dict[tuple[int, int], int] = {}
    run_blocks, run_pairs = [], []
    for run in runs:
        block = distinct.setdefault(run.block, len(distinct))
        run_blocks.append(block)
        run_pairs.append(pairs.setdefault((block, run.layers), len(pairs)))
    titles = tuple(run_title(run, mixed) for run in runs)
    places = tuple((run.stack, run.group, run.start, run.count, run.repeats, run.period) for run in runs)
    block_layers = [0] * len(distinct)
    for run, block in zip(runs, run_blocks, strict=True):
        block_layers[block] += run.layers
    return _StackPlan(
        titles, tuple(distinct), tuple(pairs), tuple(run_blocks), tuple(run_pairs), places,
        tuple(block_layers),
    )  # fmt: skip


# A named tuple made straight from a tuple of its fields, past the Python function its class
# calls to make one: the report makes two per run (48 of each for a 48-group stack) per edit.
_made = tuple.__new__
# A distinct block's row fields after its run's place: mixer, FFN, parameters, active, by part.
_Figures = tuple[str, str, int, int, dict[str, int]]


def _add_parts(nodes: tuple[Term, ...] | list[Term], into: dict[str, int], times: int = 1) -> None:
    """Add each leaf's parameters (× ``times``) to its part's sum."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if node.children:
            stack.extend(node.children)
        else:
            into[node.part] = into.get(node.part, 0) + node.value * times


# --- outside the layers ---------------------------------------------------------------------


def _token_embedding(arch: Architecture) -> list[Term]:
    emb, h, e = arch.embeddings, arch.hidden_size, arch.embed_dim
    if arch.tower_only:  # it embeds patches, in the vision tower's own terms
        return []
    if emb.extra_rows:
        parts = [leaf("token embedding", "embeddings", "(V + x)·e", V=emb.vocab_size, x=emb.extra_rows, e=e)]
    else:
        parts = [leaf("token embedding", "embeddings", "V·e", V=emb.vocab_size, e=e)]
    if emb.decoder_vocab_size:
        parts.append(leaf("decoder token embedding", "embeddings", "V_d·e", V_d=emb.decoder_vocab_size, e=e))
    if emb.token_types:
        w = emb.lookup_width(h)
        width = "e" if w != h else "h"
        parts.append(leaf("token types", "embeddings", f"T·{width}", T=emb.token_types, **{width: w}))
    if emb.task_types:  # ErnieEmbeddings.task_type_embeddings, at the hidden size
        parts.append(leaf("task types", "embeddings", "T_task·h", T_task=emb.task_types, h=h))
    if emb.patch_inputs:  # FuyuModel.vision_embed_tokens: nn.Linear(C·p², h), biased
        parts.append(leaf("patch embedding (linear)", "embeddings", "P·h + h", P=emb.patch_inputs, h=h))
    if e != h:
        parts.append(_projection(emb.projection, e, h))
    return parts


def _projection(kind: str, e: int, h: int) -> Term:
    if kind == "in":
        return leaf("projection in", "embeddings", "e·h", e=e, h=h)
    if kind == "in_after_norm":
        return leaf("projection in", "embeddings", "e·h + h", e=e, h=h)
    return leaf("projections in and out", "embeddings", "2·e·h", e=e, h=h)


def _stack_input(arch: Architecture, stack: Stack, ctx: Context) -> list[Term]:
    """Positions, a front-end and an embedding norm: what a stack adds before its first layer."""
    h = arch.hidden_size
    nodes: list[Term] = []
    if stack.frontend is not None:
        front = stack.frontend
        convs = leaf(
            "two convolutions", "frontend", "m·h·k + h + h·h·k + h", m=front.mel_bins, h=h, k=front.kernel
        )
        nodes.append(convs)
    w = arch.embeddings.lookup_width(h)  # position rows and the embedding norm before a projection in
    if stack.positions == "learned":
        width = "e" if w != h else "h"
        expr = f"(n_pos + offset)·{width}" if stack.position_offset else f"n_pos·{width}"
        values = {"n_pos": stack.max_positions, "offset": stack.position_offset, width: w}
        made = frozen_leaf if stack.frozen_positions else leaf
        nodes.append(made("positions", "embeddings", expr, **values))
    if stack.relative_buckets:  # validation made sure the first layer attends: it has heads
        # The bias sits in the first layer's attention (T5's layer 0), with that layer's heads.
        first = next(run for run in arch.runs if run.start == 0 and getattr(arch, run.stack) is stack)
        heads = first.block.mixer.score_heads()
        nodes.append(
            leaf("relative position bias", "embeddings", "buckets·a", buckets=stack.relative_buckets, a=heads)
        )
    if stack.relative_embeddings:  # DebertaV2Encoder.rel_embeddings, shared by every layer
        rows = stack.relative_embeddings
        nodes.append(leaf("relative position embeddings", "embeddings", "rows·h", rows=rows, h=h))
        if stack.relative_norm:
            nodes.append(norm_leaf(ctx, "relative position norm", h))
    if stack.embedding_norm and ctx.norm_per_width:
        # ELECTRA normalizes at the embed width, before its projection in.
        before = arch.embeddings.projection == "in_after_norm" and w != h
        nodes.append(norm_leaf(ctx, "embedding norm", w if before else h, symbol="e" if before else "h"))
    return nodes


def _head(arch: Architecture, ctx: Context) -> list[Term]:
    head, h, e = arch.head, arch.hidden_size, arch.embed_dim
    V = arch.embeddings.decoder_vocab_size or arch.embeddings.vocab_size
    nodes: list[Term] = []
    if head.pooler:
        nodes.append(group("pooler", [leaf("dense", "lm_head", "h·h + h", h=h)]))
    if head.token_classifier:
        n = head.token_classifier
        dense = leaf("dense", "lm_head", "h·h + h", h=h)
        nodes.append(group("token classifier", [dense, leaf("classifier", "lm_head", "n·h + n", n=n, h=h)]))
    if head.attention_map_regression:
        nodes.append(_attention_map_regression(arch))
    if not head.present:
        return nodes
    parts: list[Term] = []
    if head.transform:  # BERT's h → h; ELECTRA's and DeBERTa's generator heads h → e
        width = "e" if e != h else "h"
        expr = f"h·{width} + {width}" if head.transform_bias else f"h·{width}"
        parts.append(leaf("transform dense", "lm_head", expr, **{"h": h, width: e}))
        parts.append(norm_leaf(ctx, "transform norm", e, part="lm_head", symbol=width))
    if head.tied:
        parts.append(Term("weights (tied to the token embedding)", 0, "lm_head", "0"))
    else:
        parts.append(leaf("weights", "lm_head", "e·V", e=e, V=V))
    if head.bias:
        parts.append(leaf("bias", "lm_head", "V", V=V))
    if head.decoder_bias:
        parts.append(leaf("decoder bias", "lm_head", "V", V=V))
    nodes.append(group("lm head", parts))
    return nodes


def _attention_map_regression(arch: Architecture) -> Term:
    """A weight per attention map (each layer's heads, over the main stack) and a bias: ESM's
    ``EsmContactPredictionHead.regression``, Linear(num_hidden_layers · num_attention_heads, 1)."""
    stack = arch.main_stack
    runs = [run for run in arch.runs if getattr(arch, run.stack) is stack]
    heads = {run.block.mixer.score_heads() for run in runs}
    name = "attention-map regression"
    if len(heads) == 1:
        return leaf(name, "lm_head", "L·a + 1", L=sum(run.layers for run in runs), a=heads.pop())
    maps = sum(run.layers * run.block.mixer.score_heads() for run in runs)
    return leaf(name, "lm_head", "maps + 1", maps=maps)


def _vocab_growth(arch: Architecture) -> Term | None:
    if not arch.added_vocab:
        return None
    dv, e, head = arch.added_vocab, arch.embed_dim, arch.head
    parts = [leaf("embedding rows", "vocab_growth", "dV·e", dV=dv, e=e)._replace(added=True)]
    # A tied head grows with the embedding; only its bias (if any) is new then.
    head_terms = ([] if head.tied else ["dV·e"]) + ["dV"] * (head.bias + head.decoder_bias)
    if head.present and head_terms:
        expr = " + ".join(head_terms)
        parts.append(leaf("LM head rows", "vocab_growth", expr, dV=dv, e=e)._replace(added=True))
    return group(f"vocabulary growth (+{dv:,} tokens)", parts)


def _mtp(arch: Architecture) -> tuple[Term, int] | None:
    """The prediction modules' tree and the parameters one token leaves idle in them."""
    mtp, block = arch.mtp, arch.mtp_block
    if mtp is None or block is None:
        return None
    h, V, e = arch.hidden_size, arch.embeddings.vocab_size, arch.embed_dim
    ctx = block.context(h)
    parts: list[Term] = []
    if mtp.own_embedding:
        parts.append(leaf("embedding copy", "embeddings", "V·e", V=V, e=e))
    parts.append(norm_leaf(ctx, "enorm and hnorm", h, times=2))
    parts.append(leaf("eh_proj", "attention", "2·h·h", h=h))
    parts.append(block_node(block, h))
    parts.append(norm_leaf(ctx, "head norm", h))
    if mtp.own_head:
        parts.append(leaf("head copy", "lm_head", "e·V", e=e, V=V))
    one = group("module", parts)
    title = "multi-token prediction" + (f" ({mtp.count} modules)" if mtp.count > 1 else "")
    node = one.repeated(mtp.count)
    tree = Term(title, node.value, "", f"one module = {one.value:,}", mtp.count, False, node.children)
    return tree, mtp.count * block.inactive(h)


# --- the layers -----------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def block_kind(block: Block, name_mixer: bool = False) -> str:
    """A block's kinds in a few words: "dense", "MoE", "window 4,096, dense", "Mamba, MoE".
    Softmax attention over the whole context goes without saying, unless ``name_mixer`` (a stack
    that mixes kinds, where "dense" alone would not tell an attention layer)."""
    mixer, ffn = block.mixer, block.ffn.SHORT
    window = mixer.attended_window()
    plain = mixer.PLAIN and not name_mixer
    words = [f"window {window:,}"] if window else [] if plain else [mixer.SHORT]
    if block.parallel_mixer is not None:
        words = [" ‖ ".join([mixer.SHORT, block.parallel_mixer.SHORT])]
    return ", ".join([*words, ffn])


def run_title(run: Run, name_mixer: bool = False) -> str:
    """``layers 0–95 (dense)``; a recurring run names its layers (``layers 0, 2, …, 40``)."""
    return _titled(run, block_kind(run.block, name_mixer))


def _titled(run: Run, kind: str) -> str:
    if run.repeats == 1:
        return f"{layer_span(run.start, run.count)} ({kind})"
    starts = [run.start + r * run.period for r in range(min(run.repeats, 4))]
    if run.repeats > 4:
        starts[2:] = [run.start + (run.repeats - 1) * run.period]
    spans = [layer_span(start, run.count, bare=True) for start in starts]
    if run.repeats > 4:
        spans.insert(2, "…")
    return f"{'layer' if run.count == 1 and run.repeats == 1 else 'layers'} {', '.join(spans)} ({kind})"


def layer_span(start: int, count: int, bare: bool = False) -> str:
    """'layers 8–11' ('layer 8' for one; ``bare``: '8–11'), in digit groups past 999."""
    if count == 1:
        return f"{start:,}" if bare else f"layer {start:,}"
    text = f"{start:,}–{start + count - 1:,}"
    return text if bare else f"layers {text}"


def _stack_nodes(
    arch: Architecture, stack: Stack, plan: _StackPlan
) -> tuple[list[Term], list[Term], list[Term]]:
    """(input terms, one node per run, final norm) of one stack."""
    h = arch.width_of(stack)
    ctx = arch.base_block(stack).context(h)
    pairs = []  # each pair's term fields after its title
    for block, layers in plan.pairs:
        one, node = _run_nodes(plan.blocks[block], h, layers)
        run = Term(
            "", node.value, "", say("one block = {n:,}", n=one.value), layers, node.added, node.children
        )
        pairs.append(run[1:])
    nodes = [
        _made(Term, (title, *pairs[pair])) for title, pair in zip(plan.titles, plan.run_pairs, strict=True)
    ]
    if isinstance(stack, VisionStack):
        pre = [norm_leaf(ctx, "pre-norm", h, symbol="e")] if stack.embedding_norm else []
        post = [norm_leaf(ctx, "post-norm", h, symbol="e")] if stack.final_norm else []
        return stack.input_terms() + pre, nodes, post
    tail = [norm_leaf(ctx, "final norm", h)] if stack.final_norm and ctx.norm_per_width else []
    return _stack_input(arch, stack, ctx), nodes, tail


def _parted(node: Term, part: str) -> Term:
    """``node`` with every term in ``part`` (the vision tower's layers: all of them 'vision')."""
    children = tuple([_parted(child, part) for child in node.children])
    return node._replace(part=part if not node.children else node.part, children=children)


@lru_cache(maxsize=64)
def _vision_parts(arch: Architecture) -> tuple[Term, Term] | None:
    """(the vision tower, the projector) as tree nodes, every term in its part; None without. A
    tower alone has an empty projector."""
    vision, projector = arch.vision, arch.projector
    if vision is None:
        return None
    plan = _stack_plan("vision", vision, tuple(arch.blocks.items()))
    inputs, runs, post = _stack_nodes(arch, vision, plan)
    tower = _parted(group("vision tower", [*inputs, *runs, *post]), "vision")
    terms = projector.terms(vision.width, arch.hidden_size) if projector is not None else []
    return tower, _parted(group("projector", terms), "projector")


@lru_cache(maxsize=1024)
def _inactive(block: Block, h: int) -> int:
    # Cached: a pattern's runs repeat their few blocks (Jamba: 8 runs of 4), and each asks.
    return block.inactive(h)


def _report(arch: Architecture) -> ParamReport:
    h = arch.hidden_size
    head_ctx = arch.base_block(arch.main_stack).context(h)
    embeddings = _token_embedding(arch)
    outside: list[Term] = list(embeddings)  # every term not in a run of layers
    body: list[Term] = []
    stacks = arch.stacks
    blocks = tuple(arch.blocks.items())
    plans = [_stack_plan(role, stack, blocks) for role, stack in stacks]
    for (role, stack), plan in zip(stacks, plans, strict=True):
        inputs, runs, tail = _stack_nodes(arch, stack, plan)
        outside += inputs + tail
        if len(stacks) == 1:
            embeddings += inputs
            body += runs + tail
        else:
            body.append(group(role, [*([group("input", inputs)] if inputs else []), *runs, *tail]))
    tail_nodes = _head(arch, head_ctx)
    growth = _vocab_growth(arch)
    if growth is not None:
        tail_nodes.append(growth)
    outside += tail_nodes
    multimodal = _vision_parts(arch)
    shown = multimodal[:1] if arch.tower_only and multimodal else multimodal or ()
    language = [group("embeddings", embeddings), *body, *tail_nodes] if not arch.tower_only else []
    tree = group(arch.name, [*shown, *language])

    rows: list[LayerGroupRow] = []
    parts: dict[str, int] = {}
    _add_parts([*shown, *outside], parts)
    inactive = frozen = 0
    for plan in plans:
        figures: list[_Figures] = []  # each distinct block's, in the order of its first run
        for block, layers in zip(plan.blocks, plan.block_layers, strict=True):
            by_part, idle = block_parts(block, h), _inactive(block, h)
            params = sum(by_part.values())
            figures.append((block.mixer.kind, block.ffn.kind, params, params - idle, by_part))
            inactive += layers * idle
            frozen += layers * block_frozen(block, h)
            for part, value in by_part.items():  # each block's parts added once, for all its layers
                parts[part] = parts.get(part, 0) + value * layers
        rows += _run_rows(plan, figures)
    added = sum(parts.get(part, 0) for part in ADDED_PARTS)
    ordered = {part: parts[part] for part in PARTS if part in parts}
    mtp, mtp_idle = _mtp(arch) or (None, 0)
    mtp_params = mtp.value if mtp is not None else 0
    vision, projector = (node.value for node in multimodal) if multimodal else (0, 0)
    frozen += sum(node.value for node in outside if node.frozen)
    return ParamReport(
        arch.name, tree.value, tree.value - inactive, added, tree, ordered, tuple(rows),
        mtp_params, mtp_params - mtp_idle, mtp, vision, projector, frozen, _tower_rows(arch),
    )  # fmt: skip


def _run_rows(plan: _StackPlan, figures: list[_Figures]) -> list[LayerGroupRow]:
    """A stack's runs as report rows: each run's place, then its block's figures."""
    places = zip(plan.places, plan.run_blocks, strict=True)
    return [_made(LayerGroupRow, place + figures[block]) for place, block in places]


def _tower_rows(arch: Architecture) -> tuple[LayerGroupRow, ...]:
    """The vision tower's runs of layers (none without one), at the tower's width.

    A row's parts are its block's own (attention, FFN, norms), as a language layer's are: the
    per-layer views split a tower layer as they split any layer, while the report's ``by_part``
    keeps the whole tower in its "vision" part. A tower layer's active figure is the whole of it,
    as ``ParamReport.active`` counts the tower.
    """
    vision = arch.vision
    if vision is None:
        return ()
    plan = _stack_plan("vision", vision, tuple(arch.blocks.items()))
    width = arch.width_of(vision)
    figures: list[_Figures] = []
    for block in plan.blocks:
        by_part = block_parts(block, width)
        params = sum(by_part.values())
        figures.append((block.mixer.kind, block.ffn.kind, params, params, by_part))
    return tuple(_run_rows(plan, figures))


@lru_cache(maxsize=64)
def count_parameters(arch: Architecture) -> ParamReport:
    """The full report for ``arch``; cached because a GUI redraw asks for it several times."""
    return _report(arch)
