"""Edits to an architecture (or a memory scenario): each returns a new, fully validated model or raises.

A field is named by its path, a tuple of keys from the model down, e.g.
``("blocks", "default", "mixer", "num_kv_heads")`` or ``("decoder", "layers", 2, "count")`` — the
same tuples pydantic puts in its errors, so an error is shown at the field that was edited.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from paramtally.core.schema import Architecture

Model = TypeVar("Model", bound=BaseModel)
FieldPath = tuple[str | int, ...]

__all__ = ["FieldPath", "get_value", "with_value", "without_biases"]

# Bias switches of matrices (a LayerNorm's β is not one: norms keep theirs).
_MATRIX_BIASES = frozenset(
    {
        "q_bias",
        "k_bias",
        "v_bias",
        "o_bias",
        "kv_bias",
        "bias",
        "router_bias",
        "expert_bias",
        "shared_expert_bias",
    }
)
_BIASED_PARTS = ("mixer", "parallel_mixer", "cross_attention", "ffn")


def get_value(model: BaseModel, path: FieldPath) -> Any:
    node: Any = model
    for part in path:
        node = node[part] if isinstance(node, dict | tuple | list) else getattr(node, str(part))  # type: ignore[index]
    return node


def with_value(model: Model, path: FieldPath, value: Any) -> Model:
    """``model`` with one field changed; raises pydantic's ValidationError naming the field."""
    data = model.model_dump()
    *parents, last = path
    node: Any = data
    for part in parents:
        node = node[part]
    node[last] = value
    return type(model).model_validate(data)


def without_biases(arch: Architecture) -> Architecture:
    """The same model with every matrix bias removed (norm β, not a bias of a matrix, stays)."""
    data = arch.model_dump()
    for block in data["blocks"].values():
        _drop_biases(block)
    for role in ("encoder", "decoder"):
        for group in (data.get(role) or {}).get("layers", []):
            _drop_group_biases(group)
    if data.get("mtp"):
        data["mtp"]["override"] = _unbiased_override(data["mtp"]["override"])
    data["head"]["bias"] = False
    data["head"]["decoder_bias"] = False
    data["name"] = f"{arch.name} (no biases)"
    return Architecture.model_validate(data)


def _drop_biases(block: dict[str, Any]) -> None:
    for name in _BIASED_PARTS:
        part = block.get(name)
        if isinstance(part, dict):
            for key in _MATRIX_BIASES & part.keys():
                part[key] = False


def _unbiased_override(override: dict[str, Any]) -> dict[str, Any]:
    changed = {key: dict(value) if isinstance(value, dict) else value for key, value in override.items()}
    _drop_biases(changed)
    return changed


def _drop_group_biases(group: dict[str, Any]) -> None:
    group["override"] = _unbiased_override(group.get("override") or {})
    for inner in group.get("pattern") or []:
        _drop_group_biases(inner)
