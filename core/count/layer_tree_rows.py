"""The rows of the layer tree: stacks → layer groups (→ the groups of a pattern) → their block's parts.

Each row says what it is (its text, from the schema's titles), what it holds (its parameters, all
its layers together) and where it lives (the group's address, ``core.schema.group_addresses``).
The window shows these rows as they are; it computes nothing. A group's parameters are its block's one-layer
parameters times its layers (times the repetitions of the patterns around it): the cost grows
with the number of groups, never with the number of layers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from paramtally.core.blocks import KIND_TAGS
from paramtally.core.count.breakdown import ParamReport
from paramtally.core.count.parameters import block_kind, count_parameters, layer_span, run_title
from paramtally.core.errors import FieldPath
from paramtally.core.schema import Architecture, Block, LayerGroup, LoRA, Run, Stack, StackRole
from paramtally.core.schema.block import block_fields
from paramtally.core.schema.field_specs import FieldSpec, field_spec, kind_title
from paramtally.core.schema.model import stack_runs
from paramtally.core.schema.stack import resolve_block
from paramtally.core.text import say

__all__ = ["BLOCK_PARTS", "TreeRow", "block_field_params", "lora_gaps", "part_summary", "stack_rows"]

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
    found = {name: node.value for name, node in block_fields(block, h)}
    return found if "ffn" in found else found | {"ffn": 0}


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, tuple):
        return ", ".join(map(str, value)) or "none"
    return str(value)


@lru_cache(maxsize=64)
def _part_fields(kind: type[BaseModel]) -> tuple[tuple[str, FieldInfo, FieldSpec], ...]:
    """A part's fields with their specs, made once per class (not once per distinct block: a preset
    of 7,700 blocks spent 1.6 s making them again)."""
    return tuple((name, info, field_spec(name, info)) for name, info in kind.model_fields.items())


@lru_cache(maxsize=1024)
def part_summary(part: BaseModel) -> tuple[str, str]:
    """(a line: the kind and what differs from its defaults, every field one per line), from titles."""
    kind = getattr(part, "kind", None)
    title = str(type(part).model_config.get("title") or type(part).__name__)
    shown: list[str] = []
    detail: list[str] = []
    for name, info, spec in _part_fields(type(part)):
        value = getattr(part, name)
        label = info.title or name
        if name == "kind" and kind in KIND_TAGS:
            continue
        text = (
            spec.choice_label(value)  # a choice as the form shows it ('LayerNorm', not 'layernorm')
            if spec.kind == "choice" and value in spec.choices
            else _value_text(value)
        )
        detail.append(f"{label}: {text}")
        if value is None or value is False or (not info.is_required() and value == info.default):
            continue
        shown.append(label if value is True else f"{label} {text}")
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
        if name == "lora" and (gaps := lora_gaps(block)):
            line, detail = _with_gaps(line, detail, block, gaps)
        title = fields[name].title or name
        parts.append((name, line if line.startswith(title) else f"{title}: {line}", detail))
    return _BlockText((block_kind(block), block_kind(block, name_mixer=True)), tuple(parts))


def _with_gaps(
    line: str, detail: str, block: Block, gaps: tuple[tuple[tuple[str, ...], str], ...]
) -> tuple[str, str]:
    """A LoRA row that names first the targets its block has no matrix for (they count 0): 'LoRA
    (q, v: none in a Mamba mixer) — Rank 16, Targets q, v, gate, up, down', so a narrow tree still
    shows it (the row said only 'Targets q, v, gate, …' after the mixer became Mamba)."""
    title = str(LoRA.model_config.get("title"))
    said = "; ".join(f"{', '.join(targets)}: {why}" for targets, why in gaps)
    notes = "\n".join(f"{', '.join(targets)}: {why}, so they count 0" for targets, why in gaps)
    return f"{title} ({said}){line.removeprefix(title)}", f"{detail}\n{notes}"


class _Template(NamedTuple):
    """A row of a stack as it is whatever the hidden size; its figures are filled in per edit."""

    kind: RowKind
    group: FieldPath
    part: str | None
    text: str
    parent: int  # the parent row's index within the stack's rows, -1 at the top
    count: int | None  # type: ignore[assignment]  # a group's count; shadows tuple.count
    slot: int  # a leaf group's (block, layers) pair, a part row's part slot; -1 else
    children: tuple[int, ...] = ()  # a stack's or a pattern's groups: its parameters are theirs


class _StackTemplate(NamedTuple):
    """A stack's rows with what their figures come from: its distinct blocks, (block, layers)
    pairs, and part slots (pair, block field, the part's detail). A hybrid's 48 groups of two
    layers have ten blocks, ten pairs and some thirty slots: an edit of the hidden size counts
    and writes those, then only puts the rows together."""

    rows: tuple[_Template, ...]
    blocks: tuple[Block, ...]
    pairs: tuple[tuple[int, int], ...]
    parts: tuple[tuple[int, str, str], ...]


# A row made straight from a tuple of its fields, past the Python function a named tuple's
# class calls to make one: a 48-group stack makes some 200 rows per edit.
_made = tuple.__new__


@lru_cache(maxsize=16)
def _rows(arch: Architecture) -> tuple[TreeRow, ...]:
    report = count_parameters(arch)
    rows: list[TreeRow] = []
    blocks = tuple(arch.blocks.items())
    for role, stack in arch.stacks_with_vision:
        _fill(rows, _stack_template(role, stack, blocks), arch.width_of(stack))
    if arch.mtp is not None and arch.mtp_block is not None:
        _mtp_rows(arch, rows, report)
    return tuple(rows)


def _fill(rows: list[TreeRow], template: _StackTemplate, h: int) -> None:
    """Append the stack's rows with their figures at hidden size ``h``."""
    offset = len(rows)
    by_field = [block_field_params(block, h) for block in template.blocks]
    one = [sum(fields.values()) for fields in by_field]
    pair_totals = [one[block] * layers for block, layers in template.pairs]
    pair_details = [
        say(
            "{total:,} parameters\n{layers:,} layers (F2 or double-click to change the count)",
            total=total,
            layers=layers,
        )
        for total, (_, layers) in zip(pair_totals, template.pairs, strict=True)
    ]
    parts = []
    for pair, name, detail in template.parts:
        block, layers = template.pairs[pair]
        params = by_field[block].get(name, 0) * layers
        parts.append((params, say("{total:,} parameters\n{detail}", total=params, detail=detail)))
    totals = [0] * len(template.rows)
    for index in range(len(template.rows) - 1, -1, -1):  # children after their parents
        row = template.rows[index]
        if row.children:
            totals[index] = sum(totals[child] for child in row.children)
        elif row.kind == "group":
            totals[index] = pair_totals[row.slot]
    for row, total in zip(template.rows, totals, strict=True):
        parent = row.parent + offset if row.parent >= 0 else -1
        if row.kind == "part":
            params, detail = parts[row.slot]
            rows.append(_made(TreeRow, ("part", row.group, row.part, row.text, params, detail, parent, None)))
            continue
        if row.kind == "stack":
            detail = say(
                "{total:,} parameters in its layers (its input and final norm are counted apart)", total=total
            )
        elif row.slot >= 0:
            detail = pair_details[row.slot]
        else:
            detail = say(
                "{total:,} parameters\n{repetitions} (F2 or double-click to change)",
                total=total,
                repetitions=_repetitions(row.count or 0),
            )
        rows.append(_made(TreeRow, (row.kind, row.group, None, row.text, total, detail, parent, row.count)))


@lru_cache(maxsize=256)
def _stack_template(role: StackRole, stack: Stack, blocks: tuple[tuple[str, Block], ...]) -> _StackTemplate:
    named = dict(blocks)
    runs = stack_runs(role, stack, named)
    # A top-level group without a pattern is one run, its block resolved by validation already.
    resolved = {run.group: run.block for run in runs}
    builder = _TemplateBuilder(named, len({run.block.mixer.kind for run in runs}) > 1)
    top = builder.add(_Template("stack", (role,), None, "", -1, None, -1))
    base = named[stack.block]
    start, children = 0, []
    for index, group in enumerate(stack.layers):
        block = None if group.pattern else resolved[index]
        children.append(builder.group(top, (role, "layers", index), group, base, block, start, 1, 0))
        start += group.layers
    title = str(type(stack).model_config.get("title") or "") if role == "vision" else role.capitalize()
    text = f"{title}: {stack.num_layers:,} layer{'s' if stack.num_layers != 1 else ''}"
    builder.rows[top] = builder.rows[top]._replace(text=text, children=tuple(children))
    return _StackTemplate(
        tuple(builder.rows), tuple(builder.blocks), tuple(builder.pairs), tuple(builder.part_slots)
    )


class _TemplateBuilder:
    def __init__(self, blocks: dict[str, Block], mixed: bool) -> None:
        self.named, self.mixed = blocks, mixed
        self.rows: list[_Template] = []
        self.blocks: dict[Block, int] = {}
        self.pairs: dict[tuple[int, int], int] = {}
        self.parts: dict[tuple[int, str], int] = {}  # (pair, block field) → its slot
        self.part_slots: list[tuple[int, str, str]] = []  # (pair, block field, the part's detail)

    def add(self, row: _Template) -> int:
        self.rows.append(row)
        return len(self.rows) - 1

    def group(
        self,
        parent: int,
        where: FieldPath,
        group: LayerGroup,
        outer: Block,
        block: Block | None,
        start: int,
        repeats: int,
        period: int,
    ) -> int:
        """The rows of ``group`` (repeated ``repeats`` times every ``period`` layers); its row.
        ``block``: the group's block when known (resolved from ``outer`` and its changes otherwise)."""
        if block is None:
            inherited = self.named[group.block] if group.block else outer
            block = resolve_block(inherited, group.override)
        me = self.add(_Template("group", where, None, "", parent, group.count, -1))
        if group.pattern:
            offset, children = 0, []
            period = group.period  # a sum over the pattern: once, not once per group in it (issue 30)
            for index, inner in enumerate(group.pattern):
                children.append(
                    self.group(
                        me, (*where, "pattern", index), inner, block, None, start + offset,
                        repeats * group.count, period,
                    )
                )  # fmt: skip
                offset += inner.layers
            span = layer_span(start, group.count * period) if repeats == 1 else f"{group.count} ×"
            text = f"{span}: {_repetitions(group.count)} of {period} layers"
            self.rows[me] = self.rows[me]._replace(text=text, children=tuple(children))
            return me
        layers = group.count * repeats
        words = _block_text(block)
        kind = words.kinds[self.mixed]
        if repeats == 1:
            title = f"{layer_span(start, group.count)} ({kind})"
        else:
            run = Run(where[0], int(where[2]), start, group.count, repeats, period, block)  # type: ignore[arg-type]
            title = run_title(run, self.mixed) if len(where) == 5 else f"{group.count} × ({kind})"
        index = self.blocks.setdefault(block, len(self.blocks))
        pair = self.pairs.setdefault((index, layers), len(self.pairs))
        self.rows[me] = self.rows[me]._replace(text=title, slot=pair)
        for name, text, detail in words.parts:
            if (pair, name) not in self.parts:
                self.parts[pair, name] = len(self.part_slots)
                self.part_slots.append((pair, name, detail))
            self.add(_Template("part", where, name, text, me, None, self.parts[pair, name]))
        return me


def _repetitions(count: int) -> str:
    return say("1 repetition") if count == 1 else say("{n:,} repetitions", n=count)


def _mtp_rows(arch: Architecture, rows: list[TreeRow], report: ParamReport) -> None:
    mtp, block = arch.mtp, arch.mtp_block
    assert mtp is not None and block is not None
    me = len(rows)
    modules = f"{mtp.count} module{'s' if mtp.count != 1 else ''}"
    detail = say(
        "{total:,} parameters, counted apart from the total (transformers does not build them)",
        total=report.mtp,
    )
    rows.append(TreeRow("stack", ("mtp",), None, f"MTP: {modules}", report.mtp, detail, -1))
    by_field = block_field_params(block, arch.hidden_size)
    for name, text, what in _block_text(block).parts:
        params = by_field.get(name, 0) * mtp.count
        detail = say("{total:,} parameters\n{detail}", total=params, detail=what)
        rows.append(TreeRow("part", ("mtp",), name, text, params, detail, me))


# Which part of a block holds each LoRA target's matrix.
_TARGET_PART = {
    "q": "mixer",
    "k": "mixer",
    "v": "mixer",
    "o": "mixer",
    "gate": "ffn",
    "up": "ffn",
    "down": "ffn",
}


def lora_gaps(block: Block) -> tuple[tuple[tuple[str, ...], str], ...]:
    """The targets of ``block``'s LoRA that its parts have no matrix for, each with why:
    ``((("q", "v"), "none in a Mamba mixer"),)`` for LoRA on q, v, gate, … over a Mamba mixer.
    Those targets count 0. Which matrices a part has does not depend on the hidden size, so they
    are read at h = 1 (the tree's rows are made once for every hidden size)."""
    lora = block.lora
    if lora is None:
        return ()
    have = {target for target, *_ in block.lora_matrices(1)}
    gaps: list[tuple[tuple[str, ...], str]] = []
    for part in ("mixer", "ffn"):
        missing = tuple(
            target for target in lora.targets if _TARGET_PART[target] == part and target not in have
        )
        if not missing:
            continue
        title = kind_title(type(getattr(block, part)))
        if part == "mixer":
            gaps.append((missing, f"none in a {title} mixer"))
        else:
            absent = not block.ffn.active_width()  # no FFN at all
            gaps.append((missing, "none: the block has no FFN" if absent else f"none in this {title}"))
    return tuple(gaps)
