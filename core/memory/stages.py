"""Where parameters sit: pipeline stages and the blocks each stage holds.

Stages split the layers (encoder first, then decoder) as evenly as possible (the first stages
take one more when they do not divide). Stage 0 holds the embeddings, the last stage the final
norms and the LM head, and with a tied head split over stages the last stage keeps its own copy
of the embedding (Megatron-LM). A stage lists each distinct block it holds with its number of
layers, counted from the runs without visiting layers one by one, and apart the blocks of its
decoder layers: only they keep a KV cache or a recurrent state while generating (an encoder reads
the input once per request and keeps nothing; its output is the decoder's cross-attention cache).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from paramtally.core.blocks.base import Replicated
from paramtally.core.count.parameters import block_frozen, block_parts, count_parameters
from paramtally.core.schema import Architecture, Block, LoRA
from paramtally.core.schema.frozen import thaw
from paramtally.core.schema.model import vision_only_blocks

__all__ = ["ModelLayout", "Stage", "model_layout", "with_lora"]


# Not frozen (a frozen dataclass is six times slower to make, and the fit table lays out every
# stage of every layout it tries), but hashed by its fields: stages key cached terms. Never changed.
@dataclass(slots=True, unsafe_hash=True)
class Stage:
    index: int
    first: int  # index of the stage's first layer (encoder layers come first)
    count: int  # layers in the stage
    params: int  # parameters held (before tensor-parallel split), adapters included
    adapters: int  # trainable adapter parameters among them (LoRA, bottleneck adapters)
    embed16: int  # token embedding / LM head parameters that may stay at 16 bits
    blocks: tuple[tuple[Block, int], ...] = ()  # each distinct block held, with its layers here
    experts: int = 0  # routed-expert parameters among them (expert parallelism splits these)
    vocab_matrices: int = 0  # vocabulary-sized matrices held: token embedding, LM head, tied copy
    # What TP keeps whole past t = g in its layers (K/V heads, Mamba-2 groups), summed by kind and g.
    replicated: tuple[Replicated, ...] = ()
    # The blocks of its decoder layers with their layers here: ``blocks`` itself (the same object)
    # when every layer of the model is a decoder's, none in an encoder-only model.
    decoder_blocks: tuple[tuple[Block, int], ...] = ()
    vision: int = 0  # the vision tower's parameters held (the first stage's; a training may freeze them)
    # Parameters held that never train (ParamReport.frozen): a frozen position table on the stage
    # that holds the stack inputs, a kind's frozen terms (a router's correction bias) in its layers.
    frozen: int = 0


@dataclass(frozen=True, slots=True)
class ModelLayout:
    total: int
    active: int
    adapters: int
    stages: tuple[Stage, ...]
    # One layer's parameters and routed-expert parameters of each block the stages hold, by the
    # identity of the very block objects ``stages`` hold (one per distinct block). A map cached
    # apart from the layout could hold the blocks of another, equal architecture once one cache had
    # dropped its entry and the other not (a KeyError in `compare`, or another block's figures).
    block_sizes: Mapping[int, tuple[int, int]] = field(default_factory=dict, compare=False)


def with_lora(arch: Architecture, rank: int, targets: tuple[str, ...]) -> Architecture:
    """``arch`` with LoRA of ``rank`` on ``targets`` in every block (replacing any)."""
    lora = LoRA.model_validate({"rank": rank, "targets": targets}).model_dump()
    data = arch.model_dump()
    tower = vision_only_blocks(arch)  # a vision tower stays as it is (frozen)
    for name, block in data["blocks"].items():
        if name not in tower:
            block["lora"] = lora
    for role in ("encoder", "decoder"):
        if data.get(role):
            data[role]["layers"] = [_without_own_lora(group) for group in data[role]["layers"]]
    return Architecture.model_validate(data)


def _without_own_lora(group: dict[str, object]) -> dict[str, object]:
    override = thaw(group.get("override") or {})
    override.pop("lora", None)
    pattern = group.get("pattern") or ()
    assert isinstance(pattern, list | tuple)
    return {**group, "override": override, "pattern": [_without_own_lora(dict(g)) for g in pattern]}


@lru_cache(maxsize=256)
def model_layout(arch: Architecture, pp: int) -> ModelLayout:
    report = count_parameters(arch)
    embeddings, tail, emb16, head16 = _outside_layers(arch)
    head = arch.head
    tied_copy = arch.embeddings.vocab_size * arch.embed_dim if head.present and head.tied and pp > 1 else 0
    runs = arch.runs
    sizes = _run_sizes(arch)
    spans = _run_spans(arch)
    decoder_runs = _decoder_runs(arch)
    # Frozen position tables sit with the stack inputs: the embeddings' (the first stage) in a model of
    # one stack, the tail's (the last) in an encoder-decoder (_outside_layers); the layers' own
    # frozen terms sit with their layers.
    frozen_on = 0 if len(arch.stacks) == 1 else pp - 1
    frozen_outside = report.frozen - sum(size[5] * run.layers for size, run in zip(sizes, runs, strict=True))
    size, extra = divmod(arch.num_layers, pp)
    stages: list[Stage] = []
    first = 0
    low = 0  # the spans before it end before the stage
    for index in range(pp):
        count = size + (1 if index < extra else 0)
        stop = first + count
        # Only the runs whose span meets the stage: a deep pipeline of a stack of many groups would
        # otherwise ask every run on every stage. Their layers are added in the order of the runs.
        while low < len(spans) and spans[low][1] <= first:
            low += 1
        on_stage: list[tuple[int, int]] = []
        for at in range(low, len(spans)):
            begin, end, number, offset, layers = spans[at]
            if begin >= stop:
                break
            # A run within the stage puts all its layers there (most runs of a many-group stack).
            n = (
                layers
                if first <= begin and end <= stop
                else runs[number].layers_in(first - offset, stop - offset)
            )
            if n:
                on_stage.append((number, n))
        on_stage.sort()
        blocks, params, adapters, experts, replicated, frozen = _held(on_stage, sizes)
        if decoder_runs is None:
            decoder_blocks = blocks
        else:
            decoder_blocks = _held([one for one in on_stage if one[0] in decoder_runs], sizes)[0]
        embed16 = vocab_matrices = 0
        if index == 0:
            params += embeddings
            embed16 += emb16
            vocab_matrices += 1
        if index == pp - 1:
            params += tail + tied_copy
            embed16 += head16 + tied_copy
            vocab_matrices += head.present and (not head.tied or pp > 1)
        stages.append(
            Stage(
                index, first, count, params, adapters, embed16, blocks, experts, vocab_matrices, replicated,
                decoder_blocks, report.vision if index == 0 else 0,
                frozen + (frozen_outside if index == frozen_on else 0),
            )
        )  # fmt: skip
        first = stop
    adapters_total = sum(stage.adapters for stage in stages)
    block_sizes = {id(size[0]): (size[1], size[3]) for size in sizes}
    return ModelLayout(report.total, report.active, adapters_total, tuple(stages), block_sizes)


# (block, one layer's parameters, adapters, routed experts, what TP keeps whole, frozen parameters)
_RunSize = tuple[Block, int, int, int, tuple[Replicated, ...], int]


def _held(
    on_stage: list[tuple[int, int]], sizes: tuple[_RunSize, ...]
) -> tuple[tuple[tuple[Block, int], ...], int, int, int, tuple[Replicated, ...], int]:
    """What the layers of a stage hold, summed from its runs' (number, layers there) in run order:
    its blocks with their layers, parameters, adapters, routed experts, what TP keeps whole and
    parameters that never train."""
    # Layers counted by block first, then each block's figures times its layers: a stack of many
    # groups has many runs of few blocks. Keyed by identity (equal blocks are one object and share
    # one size, ``_run_sizes``): hashing a block is slower.
    layers: dict[int, list[Any]] = {}
    for number, n in on_stage:
        size = sizes[number]
        known = layers.get(id(size))
        if known is None:
            layers[id(size)] = [size, n]
        else:
            known[1] += n
    held = []
    kept: dict[tuple[str, int], list[Any]] = {}  # (kind, g): [the first block's, numbers]
    params = adapters = experts = frozen = 0
    for (block, block_params, block_adapters, block_experts, replicated, block_fixed), n in layers.values():
        held.append((block, n))
        params += n * block_params
        frozen += n * block_fixed
        adapters += n * block_adapters
        experts += n * block_experts
        for one in replicated:  # the first block with a kind and g names it, as it is met
            key = one.what, one.g
            known = kept.get(key)
            if known is None:
                kept[key] = [one, n * one.numbers]
            else:
                known[1] += n * one.numbers
    if not kept:  # most models: nothing TP keeps whole
        return tuple(held), params, adapters, experts, (), frozen
    found = [Replicated(one.what, numbers, one.g, one.source) for one, numbers in kept.values()]
    if len(found) > 1:
        found.sort(key=_replicated_order)
    return tuple(held), params, adapters, experts, tuple(found), frozen


def _replicated_order(one: Replicated) -> tuple[str, int]:
    return one.what, one.g


@lru_cache(maxsize=64)
def _outside_layers(arch: Architecture) -> tuple[int, int, int, int]:
    """Parameters outside the layers: (embeddings, the tail — final norms, LM head, pooler, vocab
    growth, stack inputs —, those of them that may stay at 16 bits on the first stage, on the last).
    A vision tower and its projector sit with the embeddings on the first stage: their output is
    what the first layer reads beside the text's."""
    report = count_parameters(arch)
    embeddings = report.embedding_params + report.vision + report.projector
    layer_total = sum(row.params * row.layers for row in report.groups)
    emb16 = report.by_part.get("embeddings", 0)
    head16 = report.by_part.get("lm_head", 0) + report.by_part.get("vocab_growth", 0)
    return embeddings, report.total - embeddings - layer_total, emb16, head16


@lru_cache(maxsize=64)
def _run_sizes(arch: Architecture) -> tuple[_RunSize, ...]:
    """Each run's block with one layer's parameters, trainable adapter parameters, routed-expert
    ones and what TP keeps whole in it (every layout asks)."""
    sizes = []
    # Runs of equal blocks get the same block object: the stages key their blocks by it, and equal
    # blocks that are not the same object are compared field by field.
    canonical: dict[Block, _RunSize] = {}
    for run in arch.runs:
        size = canonical.get(run.block)
        if size is None:
            block = run.block
            parts = block_parts(block, arch.hidden_size)
            adapters = parts.get("lora", 0) + parts.get("adapters", 0)
            replicated = _block_replicated(block, arch.hidden_size)
            size = canonical[block] = (
                block,
                sum(parts.values()),
                adapters,
                parts.get("moe_experts", 0),
                replicated,
                block_frozen(block, arch.hidden_size),
            )
        sizes.append(size)
    return tuple(sizes)


@lru_cache(maxsize=64)
def _run_spans(arch: Architecture) -> tuple[tuple[int, int, int, int, int], ...]:
    """Each run's first layer and the layer after its last (counted from the encoder's first), its
    index in ``arch.runs``, its stack's first layer and its number of layers, by first layer."""
    offsets = _stack_offsets(arch)
    spans = []
    for number, run in enumerate(arch.runs):
        begin = offsets[run.stack] + run.start
        end = begin + (run.repeats - 1) * run.period + run.count if run.repeats else begin
        spans.append((begin, end, number, offsets[run.stack], run.layers))
    return tuple(sorted(spans))


@lru_cache(maxsize=64)
def _decoder_runs(arch: Architecture) -> frozenset[int] | None:
    """The indices in ``arch.runs`` of the decoder's runs; None when every run is the decoder's."""
    if arch.encoder is None and arch.decoder is not None:
        return None
    return frozenset(number for number, run in enumerate(arch.runs) if run.stack == "decoder")


def _stack_offsets(arch: Architecture) -> dict[str, int]:
    """The global index of each stack's first layer (stages count the encoder first)."""
    offsets: dict[str, int] = {}
    start = 0
    for role, stack in arch.stacks:
        offsets[role] = start
        start += stack.num_layers
    return offsets


def _block_replicated(block: Block, h: int) -> tuple[Replicated, ...]:
    """What TP keeps whole in one layer of ``block``, mixer by mixer."""
    ctx = block.context(h)
    found = []
    for mixer in (block.mixer, block.parallel_mixer, block.cross_attention):
        one = mixer.tp_replicated(ctx) if mixer is not None else None
        if one is not None and one.numbers:
            found.append(one)
    return tuple(found)
