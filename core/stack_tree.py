"""The rows of the layer tree: stacks → layer groups (→ the groups of a pattern) → their block's parts.

Each row says what it is (its text, from the schema's titles), what it holds (its parameters, all
its layers together) and where it lives (the group's address, ``core.groups``). The window shows
these rows as they are; it computes nothing. A group's parameters are its block's one-layer
parameters times its layers (times the repetitions of the patterns around it): the cost grows
with the number of groups, never with the number of layers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel

from paramtally.core.blocks import KIND_TAGS
from paramtally.core.breakdown import ParamReport
from paramtally.core.count import block_kind, count_parameters, run_title
from paramtally.core.errors import FieldPath
from paramtally.core.schema import Architecture, Block, LayerGroup, Run
from paramtally.core.schema.block import block_fields
from paramtally.core.schema.stack import resolve_block

__all__ = ["BLOCK_PARTS", "TreeRow", "block_field_params", "part_summary", "stack_rows"]

# The block's fields a tree row shows, in the order they are shown.
BLOCK_PARTS = ("mixer", "parallel_mixer", "cross_attention", "ffn", "norms", "lora", "adapter")
RowKind = Literal["stack", "group", "part"]


class TreeRow(NamedTuple):
    """One row of the tree. A named tuple: a 48-group stack makes some 300 per edit, and a tuple
    is made twice as fast as a frozen dataclass (measured)."""

    kind: RowKind
    group: FieldPath  # a stack ("decoder",), a group's address, or ("mtp",)
    part: str | None  # the block field of a part row
    text: str
    params: int
    detail: str  # every field, one per line (the tooltip)
    parent: int  # the parent row's index in the list, -1 at the top
    count: int | None = None  # type: ignore[assignment]  # a group's count (the tree edits it in place); shadows tuple.count

    @property
    def key(self) -> tuple[object, ...]:
        """What the row is, whatever its figures: rows with equal keys keep their place."""
        return (self.kind, self.group, self.part)


@lru_cache(maxsize=1024)
def block_field_params(block: Block, h: int) -> dict[str, int]:
    """One layer's parameters per block field (mixer, FFN, norms, …), in ``BLOCK_PARTS`` order."""
    found = {name: node.params for name, node in block_fields(block, h)}
    return found if "ffn" in found else found | {"ffn": 0}


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, tuple):
        return ", ".join(map(str, value)) or "none"
    return str(value)


@lru_cache(maxsize=1024)
def part_summary(part: BaseModel) -> tuple[str, str]:
    """(a line: the kind and what differs from its defaults, every field one per line), from titles."""
    fields = type(part).model_fields
    kind = getattr(part, "kind", None)
    title = str(type(part).model_config.get("title") or type(part).__name__)
    shown: list[str] = []
    detail: list[str] = []
    for name, info in fields.items():
        value = getattr(part, name)
        label = info.title or name
        if name == "kind" and kind in KIND_TAGS:
            continue
        detail.append(f"{label}: {_value_text(value)}")
        if value is None or value is False or (not info.is_required() and value == info.default):
            continue
        shown.append(label if value is True else f"{label} {_value_text(value)}")
    line = f"{title} — {', '.join(shown[:5])}" if shown else title
    return line, "\n".join(detail)


def stack_rows(arch: Architecture) -> tuple[TreeRow, ...]:
    """Every row of the tree, parents before their children."""
    return _rows(arch)


@dataclass(frozen=True, slots=True)
class _BlockText:
    """What a group's rows say of its block, whatever the hidden size: the block's kinds in
    words (plain, and naming its mixer), and each part's row (block field, text, detail)."""

    kinds: tuple[str, str]
    parts: tuple[tuple[str, str, str], ...]


@lru_cache(maxsize=1024)
def _block_text(block: Block) -> _BlockText:
    fields = Block.model_fields
    parts = []
    for name in BLOCK_PARTS:
        part = getattr(block, name)
        if part is None:
            continue
        line, detail = part_summary(part)
        title = fields[name].title or name
        parts.append((name, line if line.startswith(title) else f"{title}: {line}", detail))
    return _BlockText((block_kind(block), block_kind(block, name_mixer=True)), tuple(parts))


class _Blocks:
    """Each block's figures and part rows for one architecture, looked up by identity: the
    groups of a stack share a few block objects (validation resolved each distinct group once),
    and hashing a block deeply to find it in a cache costs more than its rows. A hybrid's 48
    groups of two layers have ten blocks: their part rows are written ten times, not 48."""

    def __init__(self, h: int) -> None:
        self.h = h
        # id → (the block, kept alive so its id stays its own; one layer's parameters; its text)
        self._seen: dict[int, tuple[Block, int, _BlockText]] = {}
        # (id, layers) → each part row's (block field, text, parameters, detail)
        self._parts: dict[tuple[int, int], tuple[tuple[str, str, int, str], ...]] = {}

    def figures(self, block: Block) -> tuple[Block, int, _BlockText]:
        seen = self._seen.get(id(block))
        if seen is None:
            params = sum(block_field_params(block, self.h).values())
            seen = self._seen[id(block)] = (block, params, _block_text(block))
        return seen

    def part_rows(self, block: Block, layers: int) -> tuple[tuple[str, str, int, str], ...]:
        key = (id(block), layers)
        found = self._parts.get(key)
        if found is None:
            by_field = block_field_params(self.figures(block)[0], self.h)
            found = self._parts[key] = tuple(
                (name, text, one * layers, f"{one * layers:,} parameters\n{detail}")
                for name, text, detail in self.figures(block)[2].parts
                for one in (by_field.get(name, 0),)
            )
        return found


@lru_cache(maxsize=16)
def _rows(arch: Architecture) -> tuple[TreeRow, ...]:
    report = count_parameters(arch)
    rows: list[TreeRow] = []
    blocks = _Blocks(arch.hidden_size)
    # A top-level group without a pattern is one run, its block resolved by validation already.
    resolved = {(run.stack, run.group): run.block for run in arch.runs}
    for role, stack in arch.stacks:
        top = len(rows)
        rows.append(TreeRow("stack", (role,), None, "", 0, "", -1))
        base = arch.blocks[stack.block]
        mixed = len({run.block.mixer.kind for run in arch.runs if run.stack == role}) > 1
        start, total = 0, 0
        for index, group in enumerate(stack.layers):
            where = (role, "layers", index)
            block = None if group.pattern else resolved[(role, index)]
            total += _group_rows(arch, rows, blocks, top, where, group, base, block, start, 1, 0, mixed)
            start += group.layers
        text = f"{role.capitalize()}: {stack.num_layers:,} layer{'s' if stack.num_layers != 1 else ''}"
        detail = f"{total:,} parameters in its layers (its input and final norm are counted apart)"
        rows[top] = TreeRow("stack", (role,), None, text, total, detail, -1)
    if arch.mtp is not None and arch.mtp_block is not None:
        _mtp_rows(arch, rows, report)
    return tuple(rows)


def _group_rows(
    arch: Architecture,
    rows: list[TreeRow],
    blocks: _Blocks,
    parent: int,
    where: FieldPath,
    group: LayerGroup,
    outer: Block,
    block: Block | None,
    start: int,
    repeats: int,
    period: int,
    mixed: bool,
) -> int:
    """The rows of ``group`` (repeated ``repeats`` times every ``period`` layers); its parameters.
    ``block``: the group's block when known (resolved from ``outer`` and its changes otherwise)."""
    if block is None:
        inherited = arch.blocks[group.block] if group.block else outer
        block = resolve_block(inherited, group.override)
    me = len(rows)
    rows.append(TreeRow("group", where, None, "", 0, "", parent))
    if group.pattern:
        offset, total = 0, 0
        for index, inner in enumerate(group.pattern):
            total += _group_rows(
                arch, rows, blocks, me, (*where, "pattern", index), inner, block, None, start + offset,
                repeats * group.count, group.period, mixed,
            )  # fmt: skip
            offset += inner.layers
        span = _span(start, group.layers) if repeats == 1 else f"{group.count} ×"
        text = f"{span}: {group.count} repetitions of {group.period} layers"
        detail = f"{total:,} parameters\n{group.count} repetitions (F2 or double-click to change)"
        rows[me] = TreeRow("group", where, None, text, total, detail, parent, group.count)
        return total
    layers = group.count * repeats
    _, params, words = blocks.figures(block)
    total = params * layers
    kind = words.kinds[mixed]
    if repeats == 1:
        title = f"{_span(start, group.count)} ({kind})"
    else:
        run = Run(where[0], int(where[2]), start, group.count, repeats, period, block)  # type: ignore[arg-type]
        title = run_title(run, mixed) if len(where) == 5 else f"{group.count} × ({kind})"
    detail = f"{total:,} parameters\n{layers:,} layers (F2 or double-click to change the count)"
    rows[me] = TreeRow("group", where, None, title, total, detail, parent, group.count)
    _part_rows(rows, me, where, blocks.part_rows(block, layers))
    return total


def _part_rows(
    rows: list[TreeRow], parent: int, where: FieldPath, parts: tuple[tuple[str, str, int, str], ...]
) -> None:
    rows += [TreeRow("part", where, name, text, one, detail, parent) for name, text, one, detail in parts]


def _mtp_rows(arch: Architecture, rows: list[TreeRow], report: ParamReport) -> None:
    mtp, block = arch.mtp, arch.mtp_block
    assert mtp is not None and block is not None
    me = len(rows)
    modules = f"{mtp.count} module{'s' if mtp.count != 1 else ''}"
    detail = f"{report.mtp:,} parameters, counted apart from the total (transformers does not build them)"
    rows.append(TreeRow("stack", ("mtp",), None, f"MTP: {modules}", report.mtp, detail, -1))
    _part_rows(rows, me, ("mtp",), _Blocks(arch.hidden_size).part_rows(block, mtp.count))


def _span(start: int, count: int) -> str:
    return f"layer {start}" if count == 1 else f"layers {start}–{start + count - 1}"
