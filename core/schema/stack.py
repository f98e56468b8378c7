"""A stack of layers as layer groups: runs of one block, optionally a repeating pattern of runs.

A layer group names a base block (or inherits its parent's) and overrides only what differs, as
a sparse nested mapping: ``{"mixer": {"sliding_window": null}}`` makes a global-attention layer of
a sliding-window block; a different ``kind`` replaces that part whole (``{"ffn": {"kind": "moe",
…}}``). A group with a ``pattern`` repeats it ``count`` times, so "one attention layer after
seven Mamba layers, four times" is three lines, not 32 — and every figure is computed per
distinct block and run, never per layer.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from pydantic import ConfigDict, Field, ValidationError, field_validator

from paramtally.core.blocks.base import LENGTH, NonNegativeInt, Spec
from paramtally.core.errors import plain_reason, shown, without_union_tags
from paramtally.core.schema.block import Block
from paramtally.core.schema.frozen import Frozen, FrozenDict, thaw
from paramtally.core.schema.hashed import HashedSpec
from paramtally.core.schema.limits import MAX_GROUPS, MAX_LAYER_GROUPS, MAX_LAYERS, MAX_PATTERN_RUNS, MAX_RUNS
from paramtally.core.text import say

__all__ = [
    "MAX_LAYERS",
    "MAX_LAYER_GROUPS",
    "MAX_PATTERN_RUNS",
    "MAX_RUNS",
    "AudioFrontend",
    "LayerGroup",
    "PositionKind",
    "ResolveError",
    "Run",
    "Stack",
    "StackRole",
    "apply_override",
    "flatten",
    "layers_below",
    "resolve_at",
    "resolve_block",
]

PositionKind = Literal["learned", "rope", "alibi", "sinusoidal", "relative_bias", "none"]
StackRole = Literal["encoder", "decoder", "vision"]


class LayerGroup(HashedSpec):
    """Consecutive layers of one block, or ``count`` repetitions of a pattern of groups."""

    model_config = ConfigDict(title="Layer group")

    count: int = Field(
        gt=0,
        le=MAX_LAYERS,
        title="Layers",
        description="Layers in the group (with a pattern: its repetitions).",
    )
    block: str | None = Field(
        None, title="Base block", description="Name of the base block; empty means the enclosing one."
    )
    override: Frozen = Field(
        FrozenDict(),
        title="Changes",
        description="Only what differs from the base block, as a nested mapping of its fields.",
    )
    pattern: tuple[LayerGroup, ...] = Field(
        (),
        strict=False,
        max_length=MAX_LAYER_GROUPS,
        title="Pattern",
        description="Groups of one repetition; the group repeats them `count` times.",
    )

    def field_title(self, name: str) -> str | None:
        """A field's title as this group reads it (None: the schema's): a pattern's count is how
        often it repeats ('must be more than 0' named the stack's layer groups)."""
        return "Repetitions" if name == "count" and self.pattern else None

    @property
    def period(self) -> int:
        """Layers in one repetition."""
        return sum(group.layers for group in self.pattern) if self.pattern else 1

    @property
    def layers(self) -> int:
        return self.count * self.period


class AudioFrontend(Spec):
    """Whisper's convolutional front-end: two 1-D convolutions, mel bins → h → h, kernel k."""

    model_config = ConfigDict(title="Audio front-end")

    mel_bins: int = Field(gt=0, le=1 << 16, title="Mel bins", description="Input channels of the first conv.")
    kernel: int = Field(3, gt=0, le=64, title="Kernel", description="Kernel width of both convolutions.")


class Stack(HashedSpec):
    """An encoder or a decoder: its input (positions, front-end), its layer groups, its final norm."""

    model_config = ConfigDict(title="Stack")

    # The layer tree edits these two (the form shows the base block's own fields instead).
    block: str = Field(
        "default",
        title="Base block",
        description="The block its groups start from.",
        json_schema_extra={"in_form": False},
    )
    layers: tuple[LayerGroup, ...] = Field(
        min_length=1,
        max_length=MAX_LAYER_GROUPS,
        strict=False,
        title="Layer groups",
        description="In order.",
        json_schema_extra={"in_form": False},
    )
    positions: PositionKind = Field(
        "rope", title="Positions", description="Position encoding; only a learned table has weights."
    )
    max_positions: NonNegativeInt = Field(
        0,
        title="Max positions",
        description="Longest context; rows of a learned position table.",
        json_schema_extra=LENGTH,
    )
    position_offset: NonNegativeInt = Field(
        0,
        title="Position offset",
        description="Extra rows in a learned position table (OPT and BART keep 2).",
    )
    frozen_positions: bool = Field(
        False,
        title="Frozen positions",
        description="The position table is a fixed table of sines kept as a parameter that is not "
        "trained (Marian, Pegasus, Whisper's encoder): in the count and the weights, without gradients "
        "or optimizer states.",
        json_schema_extra={"visible_when": {"positions": "learned"}},
    )
    relative_buckets: NonNegativeInt = Field(
        0,
        title="Relative buckets",
        description="Buckets of a relative position bias, one table of a bias per head for the stack "
        "(T5: in its first layer; MPNet: the encoder's, read by every layer).",
    )
    relative_embeddings: NonNegativeInt = Field(
        0,
        title="Relative rows",
        description="Rows of a relative position table of width h that every layer reads (DeBERTa's "
        "rel_embeddings: twice the position buckets).",
    )
    relative_norm: bool = Field(
        False,
        title="Relative norm",
        description="A norm over the relative position table (DeBERTa's norm_rel_ebd).",
    )
    embedding_norm: bool = Field(
        False, title="Embedding norm", description="A norm right after the embeddings (BLOOM, BERT, BART)."
    )
    final_norm: bool = Field(True, title="Final norm", description="A norm after the last layer.")
    frontend: AudioFrontend | None = Field(
        None, title="Audio front-end", description="Whisper's encoder input."
    )

    @field_validator("layers", mode="before")
    @classmethod
    def _few_enough_groups(cls, value: Any) -> Any:
        """Refuse more than ``MAX_GROUPS`` groups before pydantic builds one of them."""
        found = _groups_in(value, MAX_GROUPS + 1)
        if found > MAX_GROUPS:
            raise ValueError(
                say(
                    "holds more than {most:,} layer groups, those of its patterns included "
                    "(at most {most:,} in a stack)",
                    most=MAX_GROUPS,
                )
            )
        return value

    @property
    def num_layers(self) -> int:
        return sum(group.layers for group in self.layers)


def _groups_in(layers: Any, most: int) -> int:
    """Layer groups in ``layers`` (raw data or LayerGroups), nested patterns included, counted
    up to ``most`` (anything not a list of groups counts none: validation names it)."""
    found = 0
    pending = [layers]
    while pending and found < most:
        items = pending.pop()
        if not isinstance(items, list | tuple):
            continue
        found += len(items)
        for item in items:
            inner = item.get("pattern") if isinstance(item, dict) else getattr(item, "pattern", None)
            if inner:
                pending.append(inner)
    return found


@dataclass(frozen=True, slots=True)
class Run:
    """``count`` consecutive layers of one block from ``start``, recurring ``repeats`` times every
    ``period`` layers (a plain group is one run with ``repeats`` 1)."""

    stack: StackRole
    group: int  # index of the stack's top-level layer group
    start: int  # first layer, counted within the stack
    count: int
    repeats: int
    period: int
    block: Block

    @property
    def layers(self) -> int:
        return self.count * self.repeats

    def starts(self) -> Iterator[int]:
        return (self.start + r * self.period for r in range(self.repeats))

    def layers_in(self, first: int, stop: int) -> int:
        """How many of its layers lie in [first, stop), without visiting them one by one."""
        if stop <= first or self.repeats == 0:
            return 0
        if self.repeats == 1:  # most runs: consecutive layers, met where the spans overlap
            return max(min(stop, self.start + self.count) - max(first, self.start), 0)
        shape = (self.start, self.count, self.repeats, self.period)
        return layers_below(*shape, stop) - layers_below(*shape, first)


def layers_below(start: int, count: int, repeats: int, period: int, limit: int) -> int:
    """How many layers of a run (``count`` from ``start``, ``repeats`` times every ``period``) lie
    below ``limit``, without visiting them one by one."""
    offset = limit - start
    if offset <= 0:
        return 0
    whole, rest = divmod(offset, period)
    if whole >= repeats:
        return count * repeats
    return whole * count + min(rest, count)


def apply_override(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``override`` merged in: mappings merge, a new ``kind`` replaces the part whole."""
    merged = dict(base)
    for key, value in override.items():
        old = merged.get(key)
        same_kind = (
            not isinstance(value, Mapping)
            or "kind" not in value
            or (isinstance(old, Mapping) and old.get("kind") == value.get("kind"))
        )
        if isinstance(value, Mapping) and isinstance(old, Mapping) and same_kind:
            merged[key] = apply_override(old, value)
        else:
            merged[key] = thaw(value)
    return merged


@lru_cache(maxsize=4096)
def resolve_block(base: Block, override: FrozenDict) -> Block:
    """The block ``base`` becomes with ``override``; a ValidationError located inside the block."""
    if not override:
        return base
    return Block.model_validate(apply_override(base.model_dump(), override))


def flatten(
    stack: StackRole,
    groups: tuple[LayerGroup, ...],
    blocks: Mapping[str, Block],
    base: str,
    room: int = MAX_RUNS,
) -> tuple[Run, ...]:
    """The stack's runs, in order, at most ``room`` of them (``MAX_RUNS``: each costs every view
    its rows). Raises ``ResolveError`` (with a field path) on a bad group or one run too many."""
    runs: list[Run] = []
    start = 0
    for index, group in enumerate(groups):
        where: tuple[str | int, ...] = (stack, "layers", index)
        block = _base(blocks, group.block or base, where)
        block = _apply(block, group, where)
        if not group.pattern:
            if len(runs) >= room:
                raise too_many_runs(where, room)
            runs.append(Run(stack, index, start, group.count, 1, group.count, block))
        else:
            inner = _pattern_runs(group.pattern, blocks, block, where, room - len(runs))
            period = group.period
            runs += [
                Run(stack, index, start + offset, count, group.count, period, b) for offset, count, b in inner
            ]
        start += group.layers
    return tuple(runs)


class ResolveError(Exception):
    """A layer group that names an unknown block or whose changes do not validate."""

    def __init__(self, loc: tuple[str | int, ...], message: str, value: object) -> None:
        super().__init__(message)
        self.loc, self.message, self.value = loc, message, value


def too_many_runs(where: tuple[str | int, ...], room: int) -> ResolveError:
    """The refusal of a group whose runs pass ``MAX_RUNS`` (``room``: what was left of it)."""
    return ResolveError(
        where,
        say(
            "with this group the model has more than {most:,} runs of layers ({before:,} "
            "before it), at most {most:,} allowed: a run is consecutive layers of one block, a "
            "pattern's runs counted once however often it repeats",
            most=MAX_RUNS,
            before=MAX_RUNS - room,
        ),
        None,
    )


def _base(blocks: Mapping[str, Block], name: str, where: tuple[str | int, ...]) -> Block:
    if name not in blocks:
        names = sorted(blocks)
        known = ", ".join(one if len(one) <= 40 else one[:39] + "…" for one in names[:8]) or "none"
        known += f", … {len(names)} in all" if len(names) > 8 else ""
        message = say("no base block named {name} (blocks: {known})", name=shown(name, 60), known=known)
        raise ResolveError((*where, "block"), message, name)
    return blocks[name]


def _apply(block: Block, group: LayerGroup, where: tuple[str | int, ...]) -> Block:
    return resolve_at(block, group.override, where)


def resolve_at(base: Block, override: FrozenDict, where: tuple[str | int, ...]) -> Block:
    """``resolve_block``, a refusal of the override located at ``where`` (a group, the MTP)."""
    try:
        return resolve_block(base, override)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        loc = without_union_tags(error["loc"])
        raise ResolveError((*where, "override", *loc), plain_reason(error), error.get("input")) from None


def _pattern_runs(
    pattern: tuple[LayerGroup, ...],
    blocks: Mapping[str, Block],
    outer: Block,
    where: tuple[str | int, ...],
    room: int,
) -> list[tuple[int, int, Block]]:
    """(offset, count, block) of one repetition, nested patterns written out; at most
    ``MAX_PATTERN_RUNS``, and at most ``room`` (what the model's ``MAX_RUNS`` leaves)."""
    found: list[tuple[int, int, Block]] = []
    most = min(MAX_PATTERN_RUNS, room)
    offset = 0
    for index, group in enumerate(pattern):
        here = (*where, "pattern", index)
        block = _base(blocks, group.block, here) if group.block else outer
        block = _apply(block, group, here)
        if not group.pattern:
            found.append((offset, group.count, block))
        else:
            inner = _pattern_runs(group.pattern, blocks, block, here, room)
            step = group.period
            if len(inner) == 1 and inner[0][1] == step:  # one block throughout: one run in all
                found.append((offset, group.layers, inner[0][2]))
            else:  # written out, up to the bound (1,000 such groups took 2.6 s of CPU)
                for repeat in range(group.count):
                    found += [(offset + repeat * step + o, c, b) for o, c, b in inner]
                    if len(found) > most:
                        break
        if len(found) > most:
            if most < MAX_PATTERN_RUNS:
                raise too_many_runs(here, room)
            raise ResolveError(
                (*here, "count"),
                say("one repetition of a pattern may hold at most {most} runs", most=MAX_PATTERN_RUNS),
                group.count,
            )
        offset += group.layers
    return _merge_adjacent(found)


def _merge_adjacent(runs: list[tuple[int, int, Block]]) -> list[tuple[int, int, Block]]:
    merged: list[tuple[int, int, Block]] = []
    for offset, count, block in runs:
        if merged and merged[-1][2] == block and merged[-1][0] + merged[-1][1] == offset:
            merged[-1] = (merged[-1][0], merged[-1][1] + count, block)
        else:
            merged.append((offset, count, block))
    return merged
