"""The design variables: the one registry of fields a goal-seek or a sweep may vary.

Each variable says what it is, how it is read from and written to an architecture (or a
scenario), which values it may take (its ``Domain``: the schema's constraints and any
``multiple_of`` asked for) and which other variables change that set. Besides the named ones,
any integer field of the architecture may be named by its dotted path
(``blocks.default.mixer.head_dim``, ``decoder.layers.1.count``).

What a name means when a model has several places holding it:

- ``num_layers`` is the main stack's layer count (the decoder; the encoder of an encoder-only
  model). When the stack has several top-level layer groups, the largest one (the last of equal
  ones) grows or shrinks and the others keep theirs — DeepSeek-V3's 3 dense layers stay and its
  MoE group changes. A group with a pattern changes by whole repetitions, so the layers move in
  steps of its period (Jamba: 8). ``encoder_layers`` does the same on the encoder.
- ``num_heads``, ``num_kv_heads``: the query (KV) heads of every attention and MLA mixer, self- and
  cross-attention alike; a model whose layers differ there names one place by its path instead.
- ``ffn_width``, ``expert_width``, ``num_experts``, ``top_k``: the field of every dense FFN (of
  every MoE), wherever it is written — base blocks and the layer groups that override it.
- Every other field keeps its value: varying the hidden size keeps the heads (the head width
  follows as h / a) and the FFN width — unless the FFN widths are asked to follow it
  (``with_ffn_scaled``): each dense FFN width, expert width and set shared-expert width then keeps
  its ratio to the hidden size, w' = ⌈w·h'/h⌉ (Llama-3-8B's 14,336 at 4,096 is 3.5·h'), as a
  model family scales its FFN with its width.
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from annotated_types import Ge, Le

from paramtally.core.blocks import FFNS, KINDS, Bounds, KindProtocol, kinds_with
from paramtally.core.blocks.base import MAX_SIZE
from paramtally.core.editing.edits import get_value
from paramtally.core.errors import ParamTallyError, unknown_name
from paramtally.core.explore.domain import Domain, divisors, progression
from paramtally.core.memory.scenario import Scenario, needs_text, unused_fields
from paramtally.core.schema import Architecture, Block, Stack, StackRole, thaw
from paramtally.core.schema.field_specs import kind_title
from paramtally.core.schema.model import vision_only_blocks
from paramtally.core.schema.stack import MAX_LAYERS
from paramtally.core.text import say

__all__ = ["FFN_WIDTHS", "VARIABLES", "Variable", "available", "find_variable", "variant", "with_ffn_scaled"]

Change = Callable[[Architecture, dict[str, Any], int], None]  # (base, its dump to edit, value)
Others = Mapping[str, int]  # values other variables are about to take, by name
Allowed = Callable[[Architecture, Scenario, int, Others], Domain]  # (…, multiple_of, others)
_SLOTS = ("mixer", "parallel_mixer", "cross_attention", "ffn")
_MIXER_SLOTS = ("mixer", "parallel_mixer", "cross_attention")
_SLOT_WORDS = {_MIXER_SLOTS: "mixers", ("ffn",): "FFNs"}  # the parts in those slots, in a message
_NONE: Others = {}


@dataclass(frozen=True, slots=True)
class Variable:
    """One design variable: what it is, how to read and write it, and the values it may take.

    ``change`` edits the architecture's dump (None for a scenario field), so that several
    variables can be set together and validated once. ``allowed`` is the domain; ``others``
    gives the values coupled variables (``couples``) are about to take, since those change it
    (top-k at most the experts).
    """

    name: str
    title: str
    description: str
    constraint: str  # the rule its values respect, in words
    read: Callable[[Architecture, Scenario], int]
    change: Change | None
    allowed: Allowed
    couples: frozenset[str] = field(default_factory=frozenset)
    # Values at which the calculator branches, so that a figure jumps there alone.
    singular: Callable[[Architecture], frozenset[int]] = lambda arch: frozenset()

    @property
    def on_scenario(self) -> bool:
        return self.change is None

    @property
    def words(self) -> str:
        """The variable as a person reads it and as it is typed, 'Heads (num_heads)': the window's
        Goal Seek shows its title, the command line takes its name."""
        if self.title.lower() == self.name:
            return self.name
        return say("{title} ({name})", title=self.title, name=self.name)

    def domain(
        self,
        arch: Architecture,
        scenario: Scenario,
        multiple_of: int = 1,
        others: Others = _NONE,
        parallel: bool = True,
    ) -> Domain:
        """The allowed values; ``parallel`` adds the rules of the scenario's parallel layout (tp
        dividing the heads, a layer per pipeline stage), which only memory figures need."""
        if multiple_of < 1:
            raise ParamTallyError(say("--multiple-of must be at least 1, not {n}", n=multiple_of))
        if not parallel and not self.on_scenario:
            scenario = scenario.model_copy(update={"tp": 1, "pp": 1, "gpus": 1})
        found = self.allowed(arch, scenario, multiple_of, others)
        if not len(found):
            if multiple_of > 1:
                raise ParamTallyError(
                    say(
                        "{variable}: no value that is a multiple of {step} is allowed ({constraint})",
                        variable=self.words,
                        step=multiple_of,
                        constraint=self.constraint,
                    )
                )
            raise ParamTallyError(
                say(
                    "{variable}: no value is allowed ({constraint})",
                    variable=self.words,
                    constraint=self.constraint,
                )
            )
        return found

    def write(self, arch: Architecture, scenario: Scenario, value: int) -> tuple[Architecture, Scenario]:
        return variant(arch, scenario, ((self, value),))


@lru_cache(maxsize=32)
def _dump(arch: Architecture) -> bytes:
    """The architecture's fields as plain mutable data, pickled: a fresh copy to edit is one
    ``pickle.loads`` (a sweep edits the same architecture dozens of times)."""
    return pickle.dumps(thaw(arch.model_dump()), protocol=pickle.HIGHEST_PROTOCOL)


def variant(
    arch: Architecture, scenario: Scenario, assignments: Sequence[tuple[Variable, int]]
) -> tuple[Architecture, Scenario]:
    """``arch`` and ``scenario`` with every variable set, validated once (pydantic's errors name
    the field; a value the variable cannot take at all is a ParamTallyError)."""
    data: dict[str, Any] | None = None
    updates: dict[str, int] = {}
    for variable, value in assignments:
        if variable.change is None:
            updates[variable.name] = value
        else:
            data = data if data is not None else pickle.loads(_dump(arch))
            variable.change(arch, data, value)
    new_arch = Architecture.model_validate(data) if data is not None else arch
    new_scenario = Scenario.model_validate({**scenario.model_dump(), **updates}) if updates else scenario
    return new_arch, new_scenario


# --- reading and writing the dumped architecture ---------------------------------------------


def _blocks(arch: Architecture) -> list[Block]:
    """Every block the language model holds: the base blocks, each run's resolved one, MTP's (a
    vision tower's own blocks are not the language model's: its width is its own)."""
    tower = vision_only_blocks(arch)
    named = (block for name, block in arch.blocks.items() if name not in tower)
    found = {**dict.fromkeys(named), **dict.fromkeys(run.block for run in arch.runs)}
    if arch.mtp_block is not None:
        found[arch.mtp_block] = None
    return list(found)


def _used_blocks(arch: Architecture) -> list[Block]:
    """The blocks some layer has (base blocks no layer uses left out)."""
    used = dict.fromkeys(run.block for run in arch.runs)
    if arch.mtp_block is not None:
        used[arch.mtp_block] = None
    return list(used)


def _parts(blocks: list[Block], variable: str, slots: tuple[str, ...] = _SLOTS) -> list[KindProtocol]:
    """The parts in ``slots`` of ``blocks`` that hold the design variable ``variable``."""
    parts: list[KindProtocol | None] = [getattr(block, slot) for block in blocks for slot in slots]
    return [part for part in parts if part is not None and variable in part.VARIABLES]


def _bounds(arch: Architecture, variable: str, others: Others) -> list[Bounds]:
    """What every part of every block asks of ``variable``'s values (``KindProtocol.bounds``), the
    other variables at the values they are about to take."""
    values = {"hidden_size": arch.hidden_size, **others}
    parts: list[KindProtocol | None] = [getattr(block, slot) for block in _blocks(arch) for slot in _SLOTS]
    return [part.bounds(variable, values) for part in parts if part is not None]


def _kinds_there(blocks: list[Block], slots: tuple[str, ...]) -> str:
    """What the blocks have in ``slots`` instead, by title: 'mixers: MLA', 'FFNs: Dense FFN'."""
    titles = dict.fromkeys(
        kind_title(type(part))
        for block in blocks
        for slot in slots
        if (part := getattr(block, slot)) is not None
    )
    return f"{_SLOT_WORDS.get(slots, 'parts')}: {', '.join(titles)}" if titles else ""


def _written_parts(
    data: dict[str, Any], kinds: frozenset[str], tower: frozenset[str] = frozenset()
) -> Iterator[tuple[dict[str, Any], bool, str]]:
    """Every mapping in the dump that writes a part of one of ``kinds``, whether it is whole (a base
    block's part, or an override that brings in a new kind) or only changes some keys, and its kind;
    none of the blocks in ``tower`` (a vision tower's own)."""
    base_kinds = {
        name: {slot: block[slot]["kind"] for slot in _SLOTS if block.get(slot)}
        for name, block in data["blocks"].items()
    }
    for name, block in data["blocks"].items():
        if name in tower:
            continue
        for slot in _SLOTS:
            part = block.get(slot)
            if part and part["kind"] in kinds:
                yield part, True, part["kind"]
    for role in ("encoder", "decoder"):
        stack = data.get(role)
        if stack:
            yield from _group_parts(stack["layers"], base_kinds, base_kinds.get(stack["block"], {}), kinds)
    mtp = data.get("mtp")
    if mtp:
        yield from _override_parts(mtp.get("override") or {}, dict(base_kinds.get(mtp["block"], {})), kinds)


def _group_parts(
    groups: list[dict[str, Any]],
    base_kinds: dict[str, dict[str, str]],
    enclosing: dict[str, str],
    kinds: frozenset[str],
) -> Iterator[tuple[dict[str, Any], bool, str]]:
    for group in groups:
        resolved = dict(base_kinds.get(group["block"], {}) if group.get("block") else enclosing)
        yield from _override_parts(group.get("override") or {}, resolved, kinds)
        if group.get("pattern"):
            yield from _group_parts(group["pattern"], base_kinds, resolved, kinds)


def _override_parts(
    override: dict[str, Any], resolved: dict[str, str], kinds: frozenset[str]
) -> Iterator[tuple[dict[str, Any], bool, str]]:
    """The parts an override writes; ``resolved`` becomes the kinds of the block it makes."""
    for slot in _SLOTS:
        part = override.get(slot)
        if not isinstance(part, dict):
            continue
        inherited = resolved.get(slot, "")
        kind = str(part.get("kind", inherited))
        resolved[slot] = kind
        if kind in kinds:
            yield part, "kind" in part and kind != inherited, kind


def _set_everywhere(variable: str) -> Change:
    """Write ``variable`` into every part that holds it, in the field its kind keeps it in."""

    def change(arch: Architecture, data: dict[str, Any], value: int) -> None:
        for part, whole, kind in _written_parts(data, kinds_with(variable), vision_only_blocks(arch)):
            key = KINDS[kind].VARIABLES[variable]
            if whole or key in part:
                part[key] = value

    return change


def _one_value(name: str, values: set[int], what: str, instead: str = "") -> int:
    if not values:
        raise ParamTallyError(
            say("{name}: the model has no {what} (its {instead})", name=name, what=what, instead=instead)
            if instead
            else say("{name}: the model has no {what}", name=name, what=what)
        )
    if len(values) > 1:
        listed = ", ".join(f"{v:,}" for v in sorted(values))
        raise ParamTallyError(
            say(
                "{name}: the {what} differ ({listed}); vary one of them by its field path instead",
                name=name,
                what=what,
                listed=listed,
            )
        )
    return values.pop()


def _part_variable(
    name: str,
    title: str,
    description: str,
    constraint: str,
    slots: tuple[str, ...],
    what: str,
    allowed: Allowed,
    couples: tuple[str, ...] = (),
) -> Variable:
    """A variable the parts in ``slots`` of the kinds that declare it hold (``VARIABLES``)."""

    def read(arch: Architecture, scenario: Scenario) -> int:
        blocks = _used_blocks(arch)
        parts = _parts(blocks, name, slots)
        instead = "" if parts else _kinds_there(blocks, slots)
        return _one_value(name, {part.variable(name) for part in parts}, what, instead)

    change = _set_everywhere(name)
    return Variable(name, title, description, constraint, read, change, allowed, frozenset(couples))


# --- the named variables ---------------------------------------------------------------------


def _hidden_domain(arch: Architecture, scenario: Scenario, multiple_of: int, others: Others) -> Domain:
    """A multiple of what each part asks (the heads of every attention without a set head width,
    the SSM heads of a Mamba-2 mixer whose inner width is expand × hidden)."""
    step = math.lcm(multiple_of, *(b.step for b in _bounds(arch, "hidden_size", others)))
    return progression(1, MAX_SIZE, step)


def _change_hidden(arch: Architecture, data: dict[str, Any], value: int) -> None:
    data["hidden_size"] = value


# The FFN widths that follow the hidden size when asked to: (part kind, its width fields).
FFN_WIDTHS: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (tag, kind.SCALED_WIDTHS) for tag, kind in FFNS.items() if kind.SCALED_WIDTHS
)


def _scale_ffn_widths(arch: Architecture, data: dict[str, Any], value: int) -> None:
    """Every FFN width written in the dump times value / h, rounded up (never below 1); a width an
    override leaves out follows its base block's."""
    for kind, keys in FFN_WIDTHS:
        for part, _, _ in _written_parts(data, frozenset({kind}), vision_only_blocks(arch)):
            for key in keys:
                width = part.get(key)
                if isinstance(width, int) and width > 0:
                    part[key] = -(-width * value // arch.hidden_size)


def with_ffn_scaled(variable: Variable) -> Variable:
    """The hidden size with every FFN width keeping its ratio to it (``FFN_WIDTHS``)."""
    if variable.name != "hidden_size":
        raise ParamTallyError(
            say(
                "the FFN width follows the hidden size only, not {variable}: vary the hidden size "
                "to scale it",
                variable=variable.words,
            )
        )

    def change(arch: Architecture, data: dict[str, Any], value: int) -> None:
        _scale_ffn_widths(arch, data, value)
        _change_hidden(arch, data, value)

    description = "The model width h; every FFN width keeps its ratio to it (w·h'/h, rounded up)."
    return replace(variable, description=description, change=change)


def _divisors_of_all(bounds: list[Bounds]) -> int:
    """The number every part's value must divide (their ``divides``' gcd), or 0: none asks."""
    return math.gcd(*(b.divides for b in bounds if b.divides))


def _heads_domain(arch: Architecture, scenario: Scenario, multiple_of: int, others: Others) -> Domain:
    """Query heads: a multiple of what each part asks (every KV-head count) and of TP, dividing the
    hidden size where the head width follows from it."""
    bounds = _bounds(arch, "num_heads", others)
    step = math.lcm(multiple_of, scenario.tp, *(b.step for b in bounds))
    if within := _divisors_of_all(bounds):
        return Domain.of(d for d in divisors(within) if d % step == 0)
    return progression(1, MAX_SIZE, step)


def _kv_heads_domain(arch: Architecture, scenario: Scenario, multiple_of: int, others: Others) -> Domain:
    """KV heads divide the query heads; TP splits them or replicates them (t and g divide)."""
    if not _parts(_blocks(arch), "num_kv_heads"):
        return Domain.of(())
    heads = _divisors_of_all(_bounds(arch, "num_kv_heads", others))
    t = scenario.tp
    return Domain.of(g for g in divisors(heads) if g % multiple_of == 0 and (g % t == 0 or t % g == 0))


def _experts_domain(arch: Architecture, scenario: Scenario, multiple_of: int, others: Others) -> Domain:
    least = max((b.least for b in _bounds(arch, "num_experts", others)), default=1)
    return progression(least, MAX_SIZE, multiple_of)


def _top_k_domain(arch: Architecture, scenario: Scenario, multiple_of: int, others: Others) -> Domain:
    most = min((b.most for b in _bounds(arch, "top_k", others) if b.most), default=1)
    return progression(1, most, multiple_of)


def _size_domain(arch: Architecture, scenario: Scenario, multiple_of: int, others: Others) -> Domain:
    return progression(1, MAX_SIZE, multiple_of)


def _stack(arch: Architecture, role: StackRole | None) -> tuple[StackRole, Stack]:
    if role is None:
        if arch.tower_only:  # its layers are the tower's
            return "vision", arch.main_stack
        return ("decoder" if arch.decoder is not None else "encoder"), arch.main_stack
    stack = arch.encoder if role == "encoder" else arch.decoder
    if stack is None:
        raise ParamTallyError(say("{role}_layers: the model has no {role}", role=role))
    return role, stack


def _resized_group(stack: Stack) -> int:
    """The layer group that takes a change of the layer count: the largest (the last of equals)."""
    sizes = [group.layers for group in stack.layers]
    return max(range(len(sizes)), key=lambda index: (sizes[index], index))


def _layers_variable(name: str, role: StackRole | None, what: str) -> Variable:
    def read(arch: Architecture, scenario: Scenario) -> int:
        return _stack(arch, role)[1].num_layers

    def allowed(arch: Architecture, scenario: Scenario, multiple_of: int, others: Others) -> Domain:
        _, stack = _stack(arch, role)
        group = stack.layers[_resized_group(stack)]
        fixed = stack.num_layers - group.layers
        elsewhere = arch.num_layers - stack.num_layers  # the other stack's layers
        least = max(fixed + group.period, scenario.pp - elsewhere)  # a layer per pipeline stage
        most = fixed + group.period * (MAX_LAYERS // group.period)
        return progression(least, most, multiple_of, offset=fixed, period=group.period)

    def change(arch: Architecture, data: dict[str, Any], value: int) -> None:
        key, stack = _stack(arch, role)
        index = _resized_group(stack)
        group = stack.layers[index]
        count, rest = divmod(value - (stack.num_layers - group.layers), group.period)
        if rest or count < 1:
            raise ParamTallyError(
                say(
                    "{name}: {value:,} layers are not a whole number of the group's repetitions",
                    name=name,
                    value=value,
                )
            )
        data[key]["layers"][index]["count"] = count

    return Variable(
        name,
        "Layers" if role is None else "Encoder layers",
        f"Layers of {what}; with several layer groups the largest changes (a pattern by whole "
        "repetitions), the others stay.",
        "whole repetitions of the resized group's pattern; at least one layer per pipeline stage",
        read,
        change,
        allowed,
    )


def _scenario_bounds(name: str) -> tuple[int, int]:
    """The integer range a Scenario field accepts, from its ``ge``/``le`` metadata."""
    low, high = 0, 1 << 62
    for meta in Scenario.model_fields[name].metadata:
        if isinstance(meta, Ge):
            low = max(low, int(meta.ge))  # type: ignore[call-overload]
        elif isinstance(meta, Le):
            high = min(high, int(meta.le))  # type: ignore[call-overload]
    return low, high


def _scenario_variable(name: str, title: str, description: str, step_of_layout: bool = False) -> Variable:
    low, high = _scenario_bounds(name)

    def read(arch: Architecture, scenario: Scenario) -> int:
        if name in unused_fields(arch):  # the context of a vision tower alone: it would change nothing
            raise ParamTallyError(
                say("{name}: a scenario field for models with {needs}; {model} has none",
                    name=name, needs=needs_text(name), model=arch.name)
            )  # fmt: skip
        return int(getattr(scenario, name))

    def allowed(arch: Architecture, scenario: Scenario, multiple_of: int, others: Others) -> Domain:
        step = math.lcm(multiple_of, scenario.tp * scenario.pp) if step_of_layout else multiple_of
        return progression(low, high, step)

    constraint = f"{low:,} to {high:,}" + (", a multiple of tp·pp" if step_of_layout else "")
    return Variable(name, title, description, constraint, read, None, allowed)


def _change_vocab(arch: Architecture, data: dict[str, Any], value: int) -> None:
    data["embeddings"]["vocab_size"] = value


VARIABLES: tuple[Variable, ...] = (
    _layers_variable("num_layers", None, "the main stack (the decoder; an encoder-only model's encoder)"),
    _layers_variable("encoder_layers", "encoder", "the encoder"),
    Variable(
        "hidden_size",
        "Hidden size",
        "The model width h; heads and FFN widths stay, the head width follows as h / a.",
        "a multiple of the heads of every attention without a set head width (and of Mamba-2's "
        "SSM heads over its expand)",
        lambda arch, scenario: arch.hidden_size,
        _change_hidden,
        _hidden_domain,
        frozenset({"num_heads"}),
        # The embedding has projections in and out only when its width differs (OPT-350m).
        lambda arch: frozenset({arch.embeddings.embed_dim} if arch.embeddings.embed_dim else ()),
    ),
    _part_variable(
        "ffn_width",
        "FFN width",
        "The intermediate width of every dense FFN.",
        "any width ≥ 1",
        ("ffn",),
        "dense FFN",
        _size_domain,
    ),
    _part_variable(
        "expert_width",
        "Expert width",
        "The intermediate width of every routed expert (shared experts without their own width follow).",
        "any width ≥ 1",
        ("ffn",),
        "mixture of experts",
        _size_domain,
    ),
    _part_variable(
        "num_experts",
        "Experts",
        "The routed experts of every MoE layer.",
        "at least the experts per token",
        ("ffn",),
        "mixture of experts",
        _experts_domain,
        couples=("top_k",),
    ),
    _part_variable(
        "top_k",
        "Experts per token",
        "The routed experts each token uses in every MoE layer.",
        "at most the experts",
        ("ffn",),
        "mixture of experts",
        _top_k_domain,
        couples=("num_experts",),
    ),
    _part_variable(
        "num_heads",
        "Heads",
        "The query heads of every attention and MLA mixer (self and cross).",
        "a multiple of the KV heads (and of tp); a divisor of the hidden size when the head width "
        "follows from it",
        _MIXER_SLOTS,
        "attention",
        _heads_domain,
        couples=("hidden_size", "num_kv_heads"),
    ),
    _part_variable(
        "num_kv_heads",
        "KV heads",
        "The key/value heads of every attention mixer (self and cross).",
        "a divisor of the query heads; tp and the KV heads divide one another",
        _MIXER_SLOTS,
        "attention",
        _kv_heads_domain,
        couples=("num_heads",),
    ),
    Variable(
        "vocab_size",
        "Vocabulary",
        "Rows of the token embedding (and of an untied head).",
        "any size ≥ 1",
        lambda arch, scenario: arch.embeddings.vocab_size,
        _change_vocab,
        _size_domain,
    ),
    _scenario_variable("context", "Context", "Tokens per sequence (s) of the scenario."),
    _scenario_variable("batch", "Batch", "Sequences at once (b) of the scenario."),
    _scenario_variable(
        "gpus", "GPUs", "GPUs of the scenario; data parallel = gpus / (tp·pp).", step_of_layout=True
    ),
)

_BY_NAME = {variable.name: variable for variable in VARIABLES}


def available(arch: Architecture, scenario: Scenario) -> list[Variable]:
    """The named variables this model has (no ``top_k`` without experts), in registry order."""
    found = []
    for variable in VARIABLES:
        try:
            variable.read(arch, scenario)
        except ParamTallyError:
            continue
        found.append(variable)
    return found


def find_variable(name: str, arch: Architecture) -> Variable:
    """A named variable, or any integer field of ``arch`` named by its dotted path."""
    if name in _BY_NAME:
        return _BY_NAME[name]
    if "." in name:
        return _path_variable(name, arch)
    raise ParamTallyError(
        unknown_name(
            say("field"),
            name,
            list(_BY_NAME),
            say("name one of {names} or a field path", names=", ".join(_BY_NAME)),
        )
    )


def _path_variable(name: str, arch: Architecture) -> Variable:
    path = tuple(int(part) if part.isdigit() else part for part in name.split("."))
    try:
        current = get_value(arch, path)
    except (AttributeError, KeyError, IndexError, TypeError):
        raise ParamTallyError(say("{name}: no such field in {model}", name=name, model=arch.name)) from None
    if not isinstance(current, int) or isinstance(current, bool):
        raise ParamTallyError(
            say("{name}: not an integer field (it holds {current})", name=name, current=repr(current))
        )

    def change(arch: Architecture, data: dict[str, Any], value: int) -> None:
        node: Any = data
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value

    low = 0 if current == 0 else 1
    return Variable(
        name,
        name,
        f"The field {name}.",
        "what the schema accepts there",
        lambda arch, scenario: int(get_value(arch, path)),
        change,
        lambda arch, scenario, multiple_of, others: progression(low, MAX_SIZE, multiple_of),
    )
