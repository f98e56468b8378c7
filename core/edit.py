"""Edits to an architecture (or a memory scenario): each returns a new, fully validated model or raises.

Paths are dotted field paths as the form and error messages use them, e.g.
``attention.num_kv_heads`` or ``layers.2.moe.top_k``. A few values a person sets are not stored
fields but follow from them (``num_layers``, the sum of the layer groups' counts): ``DERIVED``
says how each is set, and describes it like a field so that the form shows it like one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo

from paramtally.core import layer_ops
from paramtally.core.schema import Architecture

Model = TypeVar("Model", bound=BaseModel)

__all__ = ["DERIVED", "Derived", "get_value", "with_value", "with_values", "without_biases"]


@dataclass(frozen=True)
class Derived:
    """A value that follows from the stored fields, and how setting it changes them."""

    info: FieldInfo  # type, limits and description, as a schema field has them
    apply: Callable[[Architecture, Any], Architecture]


class _DerivedFields(BaseModel):
    """How the derived values look as fields (type, limits, description), for the form."""

    num_layers: Annotated[int, Field(ge=1)] = Field(
        description="Layers in the stack: more go to the last layer group, fewer are cut from the end "
        "(the tree below splits and converts groups)."
    )


DERIVED: dict[str, Derived] = {
    "num_layers": Derived(
        _DerivedFields.model_fields["num_layers"],
        lambda arch, total: layer_ops.with_layers(arch, layer_ops.set_total(arch.layers, total)),
    ),
}


def _split(path: str) -> list[str | int]:
    return [int(part) if part.isdigit() else part for part in path.split(".")]


def get_value(arch: Architecture, path: str) -> Any:
    node: Any = arch
    for part in _split(path):
        node = node[part] if isinstance(part, int) else getattr(node, part)
    return node


def with_value(model: Model, path: str, value: Any) -> Model:
    """``model`` with one field changed; raises pydantic's ValidationError naming the field."""
    return with_values(model, {path: value})


def with_values(model: Model, values: Mapping[str, Any]) -> Model:
    """``model`` with several fields changed at once, validated once as a whole.

    Derived values (``DERIVED``) are set after the stored fields, each through its own edit.
    """
    derived = {path: value for path, value in values.items() if path in DERIVED}
    if derived and isinstance(model, Architecture):
        arch: Architecture = with_values(model, {p: v for p, v in values.items() if p not in derived})
        for path, value in derived.items():
            arch = DERIVED[path].apply(arch, value)
        return arch  # type: ignore[return-value]  # Model is Architecture here
    data = model.model_dump()
    for path, value in values.items():
        *parents, last = _split(path)
        node: Any = data
        for part in parents:
            node = node[part]
        if isinstance(node, tuple):  # model_dump keeps tuple fields as tuples
            raise TypeError(f"{path}: a whole entry of a list is edited, not a part of it")
        node[last] = value
    return type(model).model_validate(data)


def without_biases(arch: Architecture) -> Architecture:
    """The same model with every bias removed (norm β, which is not a bias of a matrix, stays)."""
    data = arch.model_dump()
    for key in ("q_bias", "k_bias", "v_bias", "o_bias"):
        data["attention"][key] = False
    data["ffn"]["bias"] = False
    data["head"]["bias"] = False
    data["head"]["decoder_bias"] = False
    for group in data["layers"]:
        if group["moe"]:
            group["moe"]["router_bias"] = False
            group["moe"]["expert_bias"] = False
            group["moe"]["shared_expert_bias"] = False
    data["name"] = f"{arch.name} (no biases)"
    return Architecture.model_validate(data)
