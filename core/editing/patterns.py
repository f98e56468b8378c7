"""A stack from a repeating pattern written in a line: the pattern helper's language.

Clauses are separated by ``;`` (or new lines):

- a sequence of layer kinds, each with an optional count, the whole optionally repeated:
  ``[mamba2 ×7, attention ×1] × 4`` (``x`` or ``*`` work for ``×``; brackets nest). A kind is a
  mixer or an FFN of the registry (``core.blocks``) by its tag, ``local`` or ``global`` attention,
  or a mixer and an FFN joined by ``+`` (``mamba+moe``). A kind is also known by its title, as the
  menus name it (``Gated DeltaNet``, ``Mamba-2``, ``Mixture of experts``), in any letter case and
  with spaces, hyphens or underscores alike, and by the short names its module gives
  (``PATTERN_NAMES``: ``gdn``, ``attn``);
- a ratio of local to global attention layers: ``5 local : 1 global, window 1024``;
- an FFN every n-th layer: ``MoE every 2nd layer`` (layers 1, 3, 5, … counted from 0: the 2nd,
  4th, … layer; ``every layer`` is each one), optionally ``from layer 3``;
- a window for the local layers: ``window 4096``.

A sequence with a repeat count sets the stack's number of layers; without one the pattern fills
the layers the stack has (a last repetition may be cut short). A pattern makes 1 to
``MAX_PATTERN_LAYERS`` (4,096) layers, and every count it holds is refused in those words: the
helper once said 'between 1 and 1073741824' for a count, 'at most 4096' for a repetition, and
took ``[attention ×1] × 1000000000``. Each layer's block is the stack's
base block changed only where the pattern says: a mixer or FFN of another kind is the one of that
kind the stack's layers already have (DeepSeek-V3's 256-expert MoE, Jamba's attention), else the
kind made from the base block's part (keeping the heads and widths the kinds share, see
``core.blocks.retyped``); the groups are written as the difference from the base block.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from paramtally.core.blocks import FFNS, KINDS, MIXERS, windowed_mixer
from paramtally.core.count.parameters import block_kind, layer_span
from paramtally.core.editing.layer_ops import Layers, block_with_value, with_layers
from paramtally.core.errors import ParamTallyError
from paramtally.core.families.layer_pattern import periodic_groups
from paramtally.core.schema import Architecture, Block, LayerGroup, StackRole
from paramtally.core.schema.field_specs import kind_title
from paramtally.core.schema.group_addresses import difference
from paramtally.core.schema.stack import resolve_block
from paramtally.core.text import say

__all__ = [
    "MAX_PATTERN_LAYERS",
    "LayerSpec",
    "Pattern",
    "PatternError",
    "expand",
    "parse",
    "preview",
    "stack_from_pattern",
    "stack_parts",
]

# The mixer that the local and global layers are, and the field that holds a local layer's window.
_WINDOWED, _WINDOW = windowed_mixer()
_TIMES = r"\s*[×x*]\s*"
_ORDINAL = {"first": 1, "other": 2, "second": 2, "third": 3, "fourth": 4}


def _folded(word: str) -> str:
    """A kind's name compared without case, spaces, hyphens or underscores ('Gated DeltaNet')."""
    return re.sub(r"[\s_\-]+", "", word.lower())


# Every name a kind is known by, folded: its tag, its title ('Mixture of experts') and its other
# names (``PATTERN_NAMES``).
_NAMES = {
    _folded(name): tag for tag, kind in KINDS.items() for name in (tag, kind_title(kind), *kind.PATTERN_NAMES)
} | {"local": "local", "global": "global"}
# The layers a pattern makes, and so one repetition's, every count in it and the first layer of a
# rule: hundreds of layers are the largest stacks built; the preview lists every repetition's groups.
MAX_PATTERN_LAYERS = 4096
_DIGITS = 12  # every count, window and layer a pattern names is below 10¹²
# A window's value is read as any word, so that a bad one ('-5') is refused as a window.
_RATIO = re.compile(r"(\d+)\s*local\s*:\s*(\d+)\s*global\s*(?:,\s*window\s+(\S+))?")
_EVERY = re.compile(
    r"([\w\- ]+?)\s+(?:on\s+|in\s+)?every\s+(?:(\w+?)(?:st|nd|rd|th)?\s+)?layers?(?:\s+from\s+layer\s+(\d+))?"
)


class PatternError(ParamTallyError):
    """A pattern that cannot be read or applied; the message says which part and why."""


@dataclass(frozen=True)
class LayerSpec:
    """What a pattern says about one layer (None: as the base block has it)."""

    mixer: str | None = None
    window: int | None = None  # a local layer's window
    global_: bool = False  # attention over the whole context
    ffn: str | None = None


@dataclass(frozen=True)
class Pattern:
    """One period of layers, the repetitions (None: fill the stack), and the rules on top."""

    period: tuple[LayerSpec, ...] = (LayerSpec(),)
    repeats: int | None = None
    ffn_rules: tuple[tuple[str, int, int], ...] = ()  # (FFN kind, every n-th, first layer)
    window: int | None = None

    def layers(self, current: int) -> int:
        return len(self.period) * self.repeats if self.repeats is not None else current


# --- reading -----------------------------------------------------------------------------------


def parse(text: str) -> Pattern:
    """The pattern a line describes; PatternError naming the part it cannot read."""
    clauses = [part.strip() for part in re.split(r"[;\n]", text) if part.strip()]
    if not clauses:
        raise PatternError(say("the pattern is empty: write e.g. [mamba2 ×7, attention] × 4"))
    if long := re.search(rf"\d{{{_DIGITS + 1},}}", text):  # Python reads at most 4,300 digits
        raise PatternError(
            say("{typed}…: a number here has at most {n} digits", typed=long[0][:_DIGITS], n=_DIGITS)
        )
    pattern = Pattern()
    sequence_seen = False
    for clause in clauses:
        lower = clause.lower()
        if ratio := _RATIO.fullmatch(lower):
            local, glob = int(ratio[1]), int(ratio[2])
            if local + glob == 0:
                raise PatternError(say("'{clause}': a ratio needs at least one layer", clause=clause))
            local_layer = LayerSpec(mixer=_WINDOWED, window=_window(ratio[3], clause) or 0)
            _check_layers(local + glob)  # before the tuple is made: a typed 10⁹ would fill the memory
            period = (local_layer,) * local + (LayerSpec(mixer=_WINDOWED, global_=True),) * glob
            pattern = _with_sequence(pattern, period, None)
            sequence_seen = _once(sequence_seen, clause)
        elif rule := _EVERY.fullmatch(lower):
            kind = _kind(rule[1], clause)
            if kind not in FFNS:
                raise PatternError(
                    say(
                        "'{clause}': only an FFN ({ffns}) can be set every n-th layer",
                        clause=clause,
                        ffns=", ".join(FFNS),
                    )
                )
            every = (
                1 if rule[2] is None else _ORDINAL.get(rule[2]) or (int(rule[2]) if rule[2].isdigit() else 0)
            )
            if every < 1:
                raise PatternError(say("'{clause}': say every 2nd (3rd, …) layer", clause=clause))
            first = int(rule[3]) if rule[3] is not None else every - 1
            pattern = replace(pattern, ffn_rules=(*pattern.ffn_rules, (kind, every, first)))
        elif window := re.fullmatch(r"window\s+(\S+)", lower):
            pattern = replace(pattern, window=_window(window[1], clause))
        else:
            period, repeats = _sequence(clause)
            pattern = _with_sequence(pattern, period, repeats)
            sequence_seen = _once(sequence_seen, clause)
    return pattern


def _once(seen: bool, clause: str) -> bool:
    if seen:
        raise PatternError(
            say("'{clause}': one sequence (or ratio) per pattern; combine them in brackets", clause=clause)
        )
    return True


def _with_sequence(pattern: Pattern, period: tuple[LayerSpec, ...], repeats: int | None) -> Pattern:
    _check_layers(len(period) * (repeats or 1))
    return replace(pattern, period=period, repeats=repeats)


def _window(text: str | None, clause: str) -> int | None:
    """The tokens a window clause gives; refused, saying so, unless a whole number from 1."""
    if text is None:
        return None
    if not re.fullmatch(r"[+-]?\d+", text) or int(text) < 1:
        raise PatternError(
            say(
                "'{clause}': the window {text} is refused: a window is a whole number of tokens, at least 1",
                clause=clause,
                text=text,
            )
        )
    return int(text)


def _kind(word: str, clause: str) -> str:
    kind = _NAMES.get(_folded(word), "")
    if not kind:
        known = ", ".join((*MIXERS, "local", "global", *FFNS))
        raise PatternError(
            say(
                "'{clause}': unknown layer kind '{word}' (kinds: {known})",
                clause=clause,
                word=word,
                known=known,
            )
        )
    return kind


def _sequence(clause: str) -> tuple[tuple[LayerSpec, ...], int | None]:
    """A comma-separated sequence, brackets nesting; (one period, repeats of the outermost brackets)."""
    text = clause.strip()
    outer = re.fullmatch(rf"\[(.*)\]{_TIMES}(\d+)", text, flags=re.S)
    if outer and _balanced(outer[1]):
        return _items(outer[1], clause), _count(outer[2], clause)
    return _items(text, clause), None


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += {"[": 1, "]": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def _split(text: str) -> list[str]:
    """Top-level comma-separated items (commas inside brackets stay)."""
    items, depth, current = [], 0, ""
    for char in text:
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == "," and depth == 0:
            items.append(current)
            current = ""
        else:
            current += char
    return [*items, current]


def _count(text: str, clause: str) -> int:
    count = int(text)
    if not 1 <= count <= MAX_PATTERN_LAYERS:
        raise PatternError(
            say(
                "'{clause}': a count is a whole number from 1 to {most:,} "
                "(a pattern makes at most {most:,} layers)",
                clause=clause,
                most=MAX_PATTERN_LAYERS,
            )
        )
    return count


def _items(text: str, clause: str) -> tuple[LayerSpec, ...]:
    layers: list[LayerSpec] = []
    for item in _split(text):
        item = item.strip()
        if not item:
            raise PatternError(say("'{clause}': an empty item (two commas in a row?)", clause=clause))
        nested = re.fullmatch(rf"\[(.*)\](?:{_TIMES}(\d+))?", item, flags=re.S)
        if nested and _balanced(nested[1]):
            one = list(_items(nested[1], clause))
            times = _count(nested[2], clause) if nested[2] else 1
        elif plain := re.fullmatch(rf"([\w+\- ]+?)(?:{_TIMES}(\d+))?", item):
            one, times = [_layer(plain[1], clause)], _count(plain[2], clause) if plain[2] else 1
        else:
            raise PatternError(
                say(
                    "'{clause}': cannot read '{item}' (write a kind, then × and a count)",
                    clause=clause,
                    item=item,
                )
            )
        # Checked before the layers are written out: `attention × 1000000000` took 80 s and 16 GB.
        _check_layers(len(layers) + len(one) * times)
        layers += one * times
    return tuple(layers)


def _check_layers(layers: int) -> None:
    if layers > MAX_PATTERN_LAYERS:
        raise PatternError(
            say(
                "the pattern makes {layers:,} layers; a pattern makes at most {most:,}",
                layers=layers,
                most=MAX_PATTERN_LAYERS,
            )
        )


def _layer(text: str, clause: str) -> LayerSpec:
    spec = LayerSpec()
    for word in re.split(r"\s*\+\s*", text.strip()):
        kind = _kind(word, clause)
        if kind in FFNS:
            spec = replace(spec, ffn=kind)
        elif kind == "local":
            spec = replace(spec, mixer=_WINDOWED)
        elif kind == "global":
            spec = replace(spec, mixer=_WINDOWED, global_=True)
        else:
            spec = replace(spec, mixer=kind)
        if kind == "local":
            spec = replace(spec, window=0)  # the window comes from a rule or the base block
    return spec


# --- applying ----------------------------------------------------------------------------------


def stack_parts(blocks: Iterable[Block]) -> dict[str, Any]:
    """Each mixer and FFN kind among ``blocks`` (a stack's layers, in order) with the first part of
    that kind: what a pattern's layer of that kind takes."""
    found: dict[str, Any] = {}
    for block in blocks:
        for part in (block.mixer, block.ffn):
            found.setdefault(str(part.kind), part)
    return found


def expand(
    pattern: Pattern, base: Block, h: int, current_layers: int, parts: Mapping[str, Any] | None = None
) -> Layers:
    """The layer groups ``pattern`` makes of a stack whose base block is ``base``; a layer of a
    kind in ``parts`` (``stack_parts``) takes that part."""
    known = dict(parts or {})
    total = pattern.layers(current_layers)
    if total > MAX_PATTERN_LAYERS:  # filling a stack of more layers than a pattern makes
        raise PatternError(
            say(
                "the pattern would fill the stack's {total:,} layers; a pattern makes at most "
                "{most:,}: give it a repeat count",
                total=total,
                most=MAX_PATTERN_LAYERS,
            )
        )
    period = len(pattern.period)
    for _, every, first in pattern.ffn_rules:
        period = math.lcm(period, every)
        if first >= total:
            raise PatternError(
                say(
                    "the first layer of a rule ({first}) is past the last layer ({last})",
                    first=first,
                    last=total - 1,
                )
            )
    if period > MAX_PATTERN_LAYERS:
        raise PatternError(
            say(
                "the rules repeat only every {period:,} layers; a pattern makes at most {most:,}",
                period=period,
                most=MAX_PATTERN_LAYERS,
            )
        )
    blocks: dict[LayerSpec, Block] = {}

    def spec_of(layer: int, periodic: bool) -> LayerSpec:
        spec = pattern.period[layer % len(pattern.period)]
        for kind, every, first in pattern.ffn_rules:
            if (periodic or layer >= first) and (layer - first) % every == 0:
                spec = replace(spec, ffn=kind)
        if spec not in blocks:
            blocks[spec] = _block(spec, base, h, pattern.window, known)
        return spec

    def changes(spec: LayerSpec) -> dict[str, Any]:
        return difference(base.model_dump(), blocks[spec].model_dump())

    # A rule that starts late ("from layer 9") leaves the layers before it as exceptions.
    late = max((first for _, every, first in pattern.ffn_rules), default=0)
    exceptions = {
        layer: spec
        for layer in range(min(late, total))
        if (spec := spec_of(layer, False)) != spec_of(layer, True)
    }
    groups = periodic_groups(total, period, lambda layer: spec_of(layer, True), changes, exceptions)
    return tuple(LayerGroup.model_validate(group) for group in groups)


def _block(spec: LayerSpec, base: Block, h: int, window: int | None, known: Mapping[str, Any]) -> Block:
    block = base
    if spec.mixer is not None and spec.mixer != block.mixer.kind:
        block = _switched(block, "mixer", spec.mixer, h, known)
    if spec.global_:
        block = block_with_value(block, ("mixer", _WINDOW), None, h)
    elif spec.window is not None:
        size = spec.window or window or base.mixer.attended_window()
        if not size:
            raise PatternError(
                say("local layers need a window: add ', window 1024' (or a clause 'window 1024')")
            )
        block = block_with_value(block, ("mixer", _WINDOW), size, h)
    if spec.ffn is not None and spec.ffn != block.ffn.kind:
        block = _switched(block, "ffn", spec.ffn, h, known)
    return block


def _switched(block: Block, part: str, kind: str, h: int, known: Mapping[str, Any]) -> Block:
    """``block`` with its ``part`` of ``kind``: the stack's own of that kind, else made from its part."""
    if kind in known:
        return Block.model_validate({**block.model_dump(), part: known[kind].model_dump()})
    return block_with_value(block, (part, "kind"), kind, h)


def stack_from_pattern(arch: Architecture, stack: StackRole, text: str) -> tuple[Layers, Architecture]:
    """The layer groups the pattern ``text`` makes of ``arch``'s ``stack`` (its base block changed
    where the pattern says, a kind its layers have taking their part), and ``arch`` with them;
    PatternError (or the schema's refusal) when the line cannot be read or makes no valid model."""
    pattern = parse(text)
    layers = getattr(arch, stack)
    if layers is None:
        raise ParamTallyError(
            say("{path}: {reason}", path=stack, reason=say("this model has no {stack} stack", stack=stack))
        )
    base = arch.blocks[layers.block]
    parts = stack_parts(run.block for run in arch.runs if run.stack == stack)
    groups = expand(pattern, base, arch.hidden_size, layers.num_layers, parts)
    return groups, with_layers(arch, groups, stack)


def preview(groups: Layers, base: Block) -> list[tuple[int, str]]:
    """What the groups are, as (depth, text) lines: 'layers 0–31: 4 repetitions of 8 layers', then
    one line per group of the pattern ('1 × Mamba, MoE')."""
    lines: list[tuple[int, str]] = []
    start = 0
    for group in groups:
        _describe(group, base, start, 0, lines)
        start += group.layers
    return lines


def _describe(group: LayerGroup, outer: Block, start: int, depth: int, lines: list[tuple[int, str]]) -> None:
    block = resolve_block(outer, group.override)
    if depth:
        head = f"{group.count} × "
    else:
        head = f"{layer_span(start, group.layers)}: "
    if not group.pattern:
        lines.append((depth, head + block_kind(block, name_mixer=True)))
        return
    lines.append((depth, f"{head}{group.count} repetitions of {group.period} layers"))
    for inner in group.pattern:
        _describe(inner, block, start, depth + 1, lines)
