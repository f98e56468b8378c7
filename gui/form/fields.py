"""What a schema field is, for the form: its kind, range, choices and help, read from pydantic.

Like magicgui's field→widget mapping, nothing here names a field of the architecture: a new
field in ``core/schema.py`` gets its editor from its type and constraints alone.
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

__all__ = ["FieldSpec", "field_spec", "field_title", "label_for", "model_fields"]

Kind = Literal["int", "float", "bool", "choice", "choices", "text", "model", "models", "other"]

# Words that read better in capitals in a label.
_WORDS = {
    "kv": "KV",
    "qk": "QK",
    "ffn": "FFN",
    "moe": "MoE",
    "lora": "LoRA",
    "mla": "MLA",
    "lm": "LM",
    "dim": "width",
    "num": "",
    "vocab": "vocabulary",
}


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


def label_for(name: str) -> str:
    words = [_WORDS.get(word, word) for word in name.split("_")]
    text = " ".join(word for word in words if word)
    return text[:1].upper() + text[1:]


def field_title(path: str) -> str:
    """A field path as a person reads it: 'attention.num_kv_heads' → 'Attention › KV heads',
    'layers.2.moe.top_k' → 'Layers › group 3 › MoE › Top k'."""
    parts = [
        f"group {int(part) + 1}" if part.isdigit() else label_for(part) for part in path.split(".") if part
    ]
    return " › ".join(parts)


def _unwrap(annotation: Any) -> tuple[Any, bool, list[Any]]:
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
    low = high = None
    for item in metadata:
        if isinstance(item, annotated_types.Ge):
            low = item.ge
        elif isinstance(item, annotated_types.Gt):
            low = item.gt + step
        elif isinstance(item, annotated_types.Le):
            high = item.le
        elif isinstance(item, annotated_types.Lt):
            high = item.lt - step
    return low, high  # type: ignore[return-value]


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def field_spec(name: str, info: FieldInfo) -> FieldSpec:
    annotation, optional, metadata = _unwrap(info.annotation)
    metadata = [*metadata, *info.metadata]
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    condition = extra.get("visible_when")
    common: dict[str, Any] = {
        "name": name,
        "label": label_for(name),
        "description": info.description or "",
        "optional": optional,
        "default": None if info.is_required() else info.default,
        "visible_when": tuple(condition.items()) if isinstance(condition, dict) else (),
    }
    origin = typing.get_origin(annotation)
    if annotation is bool:
        return FieldSpec(kind="bool", **common)
    if annotation is int:
        low, high = _bounds(metadata, 1)
        return FieldSpec(kind="int", minimum=low, maximum=high, **common)
    if annotation is float:
        low, high = _bounds(metadata, 0.001)
        return FieldSpec(kind="float", minimum=low, maximum=high, **common)
    if annotation is str:
        return FieldSpec(kind="text", **common)
    if origin is Literal:
        return FieldSpec(kind="choice", choices=typing.get_args(annotation), **common)
    if _is_model(annotation):
        return FieldSpec(kind="model", model=annotation, **common)
    if origin is tuple:
        item = typing.get_args(annotation)[0]
        if typing.get_origin(item) is Literal:
            return FieldSpec(kind="choices", choices=typing.get_args(item), **common)
        if _is_model(item):
            return FieldSpec(kind="models", model=item, **common)
    return FieldSpec(kind="other", **common)


def model_fields(model: type[BaseModel]) -> Iterator[FieldSpec]:
    for name, info in model.model_fields.items():
        yield field_spec(name, info)
