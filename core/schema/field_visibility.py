"""Whether a field means something for a model, as its ``json_schema_extra`` says: the one rule
the window's form (which rows it shows) and the design report (which fields it lists) both ask.

A field applies when one of its ``visible_with`` sibling parts is present (a vocabulary needs a
language stack), its ``visible_when`` siblings hold the values it needs (a LayerNorm's β only under
LayerNorm, the head's transform bias only with a transform) and, for a field of a block, a stack
holding the block has its ``visible_when_stack`` values (rotary settings under rotary positions).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import BaseModel

from paramtally.core.errors import FieldPath
from paramtally.core.schema import Architecture
from paramtally.core.schema.field_specs import FieldSpec, model_fields
from paramtally.core.schema.group_addresses import stacks_holding

__all__ = ["ShownField", "applies", "has_parts", "shown_fields"]


def has_parts(spec: FieldSpec, model: BaseModel) -> bool:
    """Whether one of the sibling parts ``spec`` needs (``visible_with``) is present in ``model``;
    what decides it is the model's shape, not a value."""
    return not spec.visible_with or any(getattr(model, name) is not None for name in spec.visible_with)


def applies(spec: FieldSpec, model: BaseModel, arch: Architecture, prefix: FieldPath) -> bool:
    """Whether the field ``spec`` of ``model`` (at ``prefix`` in ``arch``) means something as the
    model's values are."""
    if not has_parts(spec, model):
        return False
    if any(getattr(model, name) != needed for name, needed in spec.visible_when):
        return False
    return not spec.visible_when_stack or any(
        all(getattr(stack, name) == needed for name, needed in spec.visible_when_stack)
        for stack in stacks_holding(arch, prefix)
    )


@dataclass(frozen=True, slots=True)
class ShownField:
    """A field that applies to the model; ``in_form`` False for one another editor owns (the layer
    tree's groups and their changes)."""

    path: FieldPath
    spec: FieldSpec
    in_form: bool


def shown_fields(arch: Architecture) -> Iterator[ShownField]:
    """Every field of ``arch`` that applies, parts first-to-last as the schema declares them; a part
    (a model, a mapping or a list of models) is walked into, not yielded."""
    yield from _walk(arch, arch, (), True)


def _walk(arch: Architecture, model: BaseModel, prefix: FieldPath, in_form: bool) -> Iterator[ShownField]:
    for spec in model_fields(type(model)):
        if not applies(spec, model, arch, prefix):
            continue
        value, path, owned = getattr(model, spec.name), (*prefix, spec.name), in_form and spec.in_form
        if isinstance(value, BaseModel):
            yield from _walk(arch, value, path, owned)
        elif spec.kind == "mapping" and isinstance(value, dict):
            for key, item in value.items():
                yield from _walk(arch, item, (*path, key), owned)
        elif isinstance(value, tuple) and value and all(isinstance(item, BaseModel) for item in value):
            for index, item in enumerate(value):
                yield from _walk(arch, item, (*path, index), owned)
        else:
            yield ShownField(path, spec, owned)
