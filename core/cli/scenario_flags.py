"""The command line's scenario flags, generated from ``core.memory.scenario.Scenario``'s fields.

Every field gets a flag named after it (``kv_dtype`` → ``--kv-dtype``), its help from the field's
description, its choices from a ``Literal``, its type and range from the annotation and its
bounds (``core.schema.field_specs`` reads them, as the window's form does), so a new Scenario field has a flag
without code here. A yes/no field is ``--flag`` / ``--no-flag``; a tuple of choices is a comma
list; fields marked ``json_schema_extra={"cli_exclusive": NAME}`` share a mutually exclusive group
(``--dtype`` or ``--quant``).

Unset flags keep the scenario a preset was saved with (the window's Save keeps the memory tab's),
else the one the model opens with in the window; ``--tp 2`` (or ``--pp``, ``--ep``) alone on one GPU
means tp·pp·ep GPUs. While serving, ``--gpus`` (or ``--tp``, ``--pp``, ``--ep``, or ``--mode
inference`` over a saved training scenario) lays the model out as the window does when a GPU count
is typed (``core.memory.fit.count_layout``): the flags given are the fields set by hand.
"""

from __future__ import annotations

import argparse
import math
import warnings
from collections.abc import Callable, KeysView, Sequence
from dataclasses import dataclass
from typing import Any

import annotated_types

from paramtally.core.errors import ParamTallyWarning
from paramtally.core.io.presets import Preset
from paramtally.core.io.user_presets import saved_scenario
from paramtally.core.memory.fit import LAYOUT_FIELDS, count_layout
from paramtally.core.memory.scenario import (
    Mode,
    Scenario,
    mode_only_fields,
    needs_text,
    opening_scenario,
    unused_fields,
)
from paramtally.core.schema import Architecture
from paramtally.core.schema.field_specs import FieldSpec, model_fields, unwrap
from paramtally.core.text import escaped
from paramtally.core.typed_numbers import NumberError, parse_whole

__all__ = [
    "FlagScenario",
    "add_scenario_arguments",
    "flag_name",
    "read_scenario",
    "say_notes",
    "scenario_fields",
    "scenario_from_args",
    "whole_number",
]

_METAVARS = {"int": "N", "float": "F", "text": "TEXT", "choices": "LIST"}


def flag_name(field: str) -> str:
    return "--" + field.replace("_", "-")


def scenario_fields() -> list[FieldSpec]:
    return list(model_fields(Scenario))


def whole_number(unit: str = "count") -> Callable[[str], int]:
    """An argparse ``type`` reading a whole number as the window's fields do (``32k``, ``2T``,
    ``1e6``, ``1,024``; bytes as ``1GiB``), refusing in the parser's words what it cannot read."""

    def number(text: str) -> int:
        try:
            return parse_whole(text, unit)
        except NumberError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return number


def _number(value: Any) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


def _bounds(name: str) -> str:
    """The field's limits as written in its annotation: '1–4,096', '> 0 and ≤ 1', '≥ 1'."""
    info = Scenario.model_fields[name]
    _, _, metadata = unwrap(info.annotation)
    limits = {type(item).__name__: item for item in [*metadata, *info.metadata]}
    low = limits.get("Ge") or limits.get("Gt")
    high = limits.get("Le") or limits.get("Lt")
    if isinstance(low, annotated_types.Ge) and isinstance(high, annotated_types.Le):
        return f"{_number(low.ge)}–{_number(high.le)}"
    words = []
    for item, sign, attribute in ((low, "≥", "ge"), (low, ">", "gt"), (high, "≤", "le"), (high, "<", "lt")):
        if item is not None and hasattr(item, attribute):
            words.append(f"{sign} {_number(getattr(item, attribute))}")
    return " and ".join(words)


def _default_text(spec: FieldSpec) -> str:
    default = spec.default
    if default is None:
        return "none"
    if isinstance(default, bool):
        return "on" if default else "off"
    if isinstance(default, tuple):
        return ",".join(map(str, default))
    return _number(default) if spec.kind in ("int", "float") else str(default)


def _help(spec: FieldSpec) -> str:
    info = Scenario.model_fields[spec.name]
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    notes = []
    if extra.get("mode"):
        notes.append(f"{extra['mode']} only")
    if extra.get("needs"):
        notes.append(f"models with {needs_text(spec.name)} only")
    if spec.kind in ("int", "float") and _bounds(spec.name):
        notes.append(_bounds(spec.name))
    if spec.kind == "choices":
        notes.append("comma list of " + ",".join(map(str, spec.choices)))
    notes.append(f"default {_default_text(spec)}")
    text = f"{spec.description.rstrip('.')} ({'; '.join(notes)})"
    return text.replace("%", "%%")  # argparse formats help with %


def _options(spec: FieldSpec) -> dict[str, Any]:
    if spec.kind == "bool":
        return {"action": argparse.BooleanOptionalAction, "default": None}
    if spec.kind == "choice":
        return {"choices": [str(choice) for choice in spec.choices]}
    if spec.kind == "int":
        return {"type": whole_number(spec.unit), "metavar": _METAVARS["int"]}
    if spec.kind == "float":
        return {"type": float, "metavar": _METAVARS["float"]}
    if spec.kind == "choices":
        return {"metavar": _METAVARS["choices"]}
    if spec.kind == "text":
        return {"metavar": spec.name.upper()}
    raise TypeError(f"Scenario.{spec.name}: no command-line flag for a field of kind {spec.kind}")


def add_scenario_arguments(parser: argparse.ArgumentParser) -> None:
    """A flag for every Scenario field (``scenario_from_args`` reads them)."""
    group = parser.add_argument_group(
        "scenario",
        "what the memory and time figures are for; a number as 32768, 32,768, 3.2e4 or 32k "
        "(k, M, B, T; bytes: KB, MB, GB, TB, KiB, MiB, GiB, TiB)",
    )
    exclusive: dict[str, Any] = {}
    for spec in scenario_fields():
        info = Scenario.model_fields[spec.name]
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        target: Any = group
        shared = extra.get("cli_exclusive")
        if isinstance(shared, str):
            if shared not in exclusive:
                exclusive[shared] = group.add_mutually_exclusive_group()
            target = exclusive[shared]
        target.add_argument(flag_name(spec.name), dest=spec.name, help=_help(spec), **_options(spec))


def _value(spec: FieldSpec, raw: Any) -> Any:
    if spec.kind == "choices" and isinstance(raw, str):
        return tuple(part.strip() for part in raw.split(",") if part.strip())
    return raw


@dataclass(frozen=True, slots=True)
class FlagScenario:
    """The scenario the flags describe, and what a reader of the figures should know of it: that
    it starts from the one saved with the preset, what ``--gpus`` laid out."""

    scenario: Scenario
    notes: tuple[str, ...] = ()


def scenario_from_args(
    args: argparse.Namespace, arch: Architecture | None = None, preset: Preset | None = None, source: str = ""
) -> Scenario:
    """``read_scenario``'s scenario."""
    return read_scenario(args, arch, preset, source).scenario


def read_scenario(
    args: argparse.Namespace,
    arch: Architecture | None = None,
    preset: Preset | None = None,
    source: str = "",
    users: Sequence[Architecture] | None = None,
) -> FlagScenario:
    """The Scenario the flags describe over the one ``preset`` (read from ``source``) was saved with,
    field by field, as the window opens it; without one, over the scenario ``arch`` opens with in the
    window (its context no longer than its positions), else the Scenario's defaults. A flag none of
    ``users`` (the models the scenario is for; ``arch`` alone by default) has a use for is warned of."""
    flags = _flags(args)
    saved = saved_scenario(preset, source or "the preset") if preset is not None else None
    base = saved or (opening_scenario(arch) if arch is not None else Scenario())
    values, notes = dict(flags), []
    if saved is not None:
        given = ", ".join(flag_name(name) for name in flags)
        notes.append(
            f"scenario as saved with {escaped(source, keep='')}"
            + (f"; set on the command line: {given}" if given else "")
        )
    shape = {name: values.get(name, getattr(base, name)) for name in ("tp", "pp", "ep")}
    if "gpus" not in values and LAYOUT_FIELDS & values.keys() and base.gpus == 1 and min(shape.values()) > 0:
        values["gpus"] = math.prod(shape.values())  # `--tp 2` alone means two GPUs, not an error
    elif arch is not None:  # serving: the flags given are the fields set by hand
        layout = count_layout(arch, base, flags, LAYOUT_FIELDS & flags.keys())
        if layout is not None:
            # Said when the count changed the layout the flags and the base give, not when it kept it.
            if any(values.get(name, getattr(base, name)) != size for name, size in layout.changes.items()):
                notes.append(layout.note)
            values |= layout.changes
    scenario = Scenario.model_validate(base.model_dump() | values)
    models = tuple(users) if users is not None else (arch,) if arch is not None else ()
    _warn_ignored(flags.keys(), scenario, models)
    return FlagScenario(scenario, tuple(notes))


def _warn_ignored(given: KeysView[str], scenario: Scenario, models: tuple[Architecture, ...]) -> None:
    """A warning for each flag given that changes nothing: one of the other mode, or one none of
    ``models`` has a use for (encoder tokens without an encoder, the KV cache's dtype without a
    decoder); one line a flag."""
    other: Mode = "training" if scenario.mode == "inference" else "inference"
    of_the_other_mode = mode_only_fields(other) & given
    for name in sorted(of_the_other_mode):
        warnings.warn(
            f"{flag_name(name)} is for {other} only; ignored in {scenario.mode} (--mode {other} uses it)",
            ParamTallyWarning,
            stacklevel=3,
        )
    unused = frozenset.intersection(*(unused_fields(model) for model in models)) if models else frozenset()
    whom = f"{models[0].name}, which has none" if len(models) == 1 else "models without one"
    for name in sorted(unused & given - of_the_other_mode):  # one line a flag: its mode's said first
        warnings.warn(
            f"{flag_name(name)} is for models with {needs_text(name)}; ignored for {whom}",
            ParamTallyWarning,
            stacklevel=3,
        )


def _flags(args: argparse.Namespace) -> dict[str, Any]:
    """The scenario fields given on the command line, by name."""
    flags: dict[str, Any] = {}
    for spec in scenario_fields():
        raw = getattr(args, spec.name, None)
        if raw is not None:
            flags[spec.name] = _value(spec, raw)
    return flags


def say_notes(notes: tuple[str, ...]) -> None:
    """Notes an output has no header for (JSON, a sweep's CSV): on stderr, as warnings are."""
    for note in notes:
        warnings.warn(note, ParamTallyWarning, stacklevel=2)
