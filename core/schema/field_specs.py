"""What a schema field is, for a form or a command line: its kind, range, choices and help, read
from pydantic.

Like magicgui's field→widget mapping, nothing here names a field of the architecture or the
scenario: a new field in ``core/schema``, ``core/blocks`` or ``core/scenario`` gets its editor (the
window) or its flag (the CLI) from its type and constraints, its label from ``Field(title=…)``,
its help from its description and its visibility from ``json_schema_extra`` (``visible_when``:
the sibling values it needs; ``visible_when_stack``: the values a stack holding the block needs;
``visible_with``: sibling parts, one of which must be present, as a language model's vocabulary
needs a decoder or an encoder;
``in_form: False``: edited elsewhere, e.g. the layer tree) alone.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from paramtally.core.schema.field_titles import label_for

__all__ = ["FieldSpec", "field_spec", "kind_title", "model_fields", "unwrap"]

Kind = Literal[
    "int", "float", "bool", "choice", "choices", "text", "model", "models", "union", "mapping", "other"
]


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One field as a form sees it. ``optional`` ints show an 'auto' (empty) value."""

    name: str
    kind: Kind
    label: str
    description: str = ""
    optional: bool = False
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] = ()
    model: type[BaseModel] | None = None
    default: Any = None
    visible_when: tuple[tuple[str, Any], ...] = ()  # (sibling field, value it needs) for the field to apply
    # (field of a stack holding the block, value it needs): rotary settings under rotary positions
    visible_when_stack: tuple[tuple[str, Any], ...] = ()
    # Sibling parts (optional models) one of which must be present for the field to apply: the
    # embeddings and head of a language model, absent from a vision tower alone.
    visible_with: tuple[str, ...] = ()
    in_form: bool = True  # False: another editor owns it (the layer tree, the kind switch)
    models: tuple[type[BaseModel], ...] = ()  # the kinds of a union, in registry order
    # What a person reads for each of ``choices`` (a kind's title, 'Mamba-2' for mamba2); none: the
    # choices themselves. Files and the command line keep the choices.
    choice_labels: tuple[str, ...] = ()
    # What a number counts, for the suffixes it may be typed with (core.typed_numbers): 'count' (32k,
    # 2T), or 'bytes' (80GB, 1GiB) for a field marked ``json_schema_extra={"unit": "bytes"}``; a
    # float is a 'number' (no suffix) unless marked.
    unit: str = "count"

    @property
    def item_label(self) -> str:
        """What one entry of a mapping or a list of parts is called, as a form section's title
        names it: 'Block' of 'Blocks', 'Step' of 'Steps', 'Branch' of 'Branches'."""
        return self.label.removesuffix("es" if self.label.endswith("ches") else "s")

    def choice_label(self, choice: Any) -> str:
        if self.choice_labels:
            return self.choice_labels[self.choices.index(choice)]
        return str(choice)


def kind_title(model: type[BaseModel]) -> str:
    """The name a kind shows in the kind switch: its model title ('Mixture of experts')."""
    return str(model.model_config.get("title") or model.__name__)


def unwrap(annotation: Any) -> tuple[Any, bool, list[Any]]:
    """(bare type, optional?, constraint metadata) of ``Annotated[int, Field(gt=0)] | None`` etc."""
    optional, metadata = False, []
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and type(None) in args:
        optional = True
        rest = [arg for arg in args if arg is not type(None)]
        annotation = rest[0] if len(rest) == 1 else annotation
    if typing.get_origin(annotation) is typing.Annotated:
        base, *extra = typing.get_args(annotation)
        for item in extra:
            metadata.extend(item.metadata if isinstance(item, FieldInfo) else [item])
        annotation = base
    return annotation, optional, metadata


def _bounds(metadata: list[Any], step: float) -> tuple[float | None, float | None]:
    low: Any = None
    high: Any = None
    for item in metadata:
        if isinstance(item, annotated_types.Ge):
            low = item.ge
        elif isinstance(item, annotated_types.Gt):
            low = float(item.gt) + step  # type: ignore[arg-type]
        elif isinstance(item, annotated_types.Le):
            high = item.le
        elif isinstance(item, annotated_types.Lt):
            high = float(item.lt) - step  # type: ignore[arg-type]
    return low, high


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _union_models(annotation: Any) -> tuple[type[BaseModel], ...]:
    """The models of a discriminated union (a mixer's or an FFN's kinds), else ()."""
    if typing.get_origin(annotation) not in (typing.Union, types.UnionType):
        return ()
    members = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
    models = tuple(arg for arg in members if _is_model(arg) and "kind" in arg.model_fields)
    return models if len(models) == len(members) and len(models) > 1 else ()


def field_spec(name: str, info: FieldInfo) -> FieldSpec:
    annotation, optional, metadata = unwrap(info.annotation)
    metadata = [*metadata, *info.metadata]
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    condition, stack_condition = extra.get("visible_when"), extra.get("visible_when_stack")
    common: dict[str, Any] = {
        "name": name,
        "label": info.title or label_for(name),
        "in_form": bool(extra.get("in_form", True)),
        "description": info.description or "",
        "optional": optional,
        "default": None if info.is_required() else info.default,
        "visible_when": tuple(condition.items()) if isinstance(condition, dict) else (),
        "visible_when_stack": tuple(stack_condition.items()) if isinstance(stack_condition, dict) else (),
        "visible_with": tuple(str(name) for name in needs)
        if isinstance(needs := extra.get("visible_with"), list)
        else (),
    }
    origin = typing.get_origin(annotation)
    union = _union_models(annotation)
    if union:
        kinds = tuple(model.model_fields["kind"].default for model in union)
        return FieldSpec(kind="union", choices=kinds, models=union, **common)
    if annotation is bool:
        return FieldSpec(kind="bool", **common)
    if annotation is int:
        low, high = _bounds(metadata, 1)
        return FieldSpec(
            kind="int", minimum=low, maximum=high, unit=str(extra.get("unit", "count")), **common
        )
    if annotation is float:
        low, high = _bounds(metadata, 0.001)
        unit = str(extra.get("unit", "number"))
        return FieldSpec(kind="float", minimum=low, maximum=high, unit=unit, **common)
    if annotation is str:
        return FieldSpec(kind="text", **common)
    if origin is Literal:
        choices = typing.get_args(annotation)
        names = extra.get("choice_labels")  # {choice: what a person reads}, e.g. the norms' kinds
        labels = tuple(str(names[choice]) for choice in choices) if isinstance(names, dict) else ()
        return FieldSpec(kind="choice", choices=choices, choice_labels=labels, **common)
    if _is_model(annotation):
        return FieldSpec(kind="model", model=annotation, **common)
    if origin is dict and _is_model(typing.get_args(annotation)[1]):
        return FieldSpec(kind="mapping", model=typing.get_args(annotation)[1], **common)
    if origin is tuple:
        item = typing.get_args(annotation)[0]
        if typing.get_origin(item) is Literal:
            return FieldSpec(kind="choices", choices=typing.get_args(item), **common)
        if _is_model(item):
            return FieldSpec(kind="models", model=item, **common)
        if typing.get_origin(item) is typing.Annotated:  # a tuple of a kind-tagged union
            kinds = _union_models(typing.get_args(item)[0])
            if kinds:
                return FieldSpec(kind="models", models=kinds, **common)
    return FieldSpec(kind="other", **common)


def model_fields(model: type[BaseModel]) -> Iterator[FieldSpec]:
    for name, info in model.model_fields.items():
        yield field_spec(name, info)
