"""Edits to an architecture (or a memory scenario): each returns a new, fully validated model or raises.

Paths are dotted field paths as the form and error messages use them, e.g.
``attention.num_kv_heads`` or ``layers.2.moe.top_k``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

from paramtally.core.schema import Architecture

Model = TypeVar("Model", bound=BaseModel)

__all__ = ["get_value", "with_value", "with_values", "without_biases"]


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
    """``model`` with several fields changed at once, validated once as a whole."""
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
