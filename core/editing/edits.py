"""Edits to an architecture (or a memory scenario): each returns a new, fully validated model or raises.

A field is named by its path, a tuple of keys from the model down, e.g.
``("blocks", "default", "mixer", "num_kv_heads")`` or ``("decoder", "layers", 2, "count")`` — the
same tuples pydantic puts in its errors, so an error is shown at the field that was edited. A few
values a person sets are not stored fields but follow from them (a stack's ``num_layers``, the
sum of its layer groups' layers): ``DERIVED`` says how each is set and describes it like a field,
so that the form shows it like one. A layer group's own value of a block field, as the form edits
it, is addressed through the group's override, ``(*group, "override", *inside)``, and set as the
group's difference from what it inherits (``with_field_values``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo

from paramtally.core.blocks import KIND_TAGS, retyped
from paramtally.core.editing import layer_ops
from paramtally.core.errors import FieldPath
from paramtally.core.schema import Architecture, StackRole, thaw
from paramtally.core.schema.group_addresses import split_value_path
from paramtally.core.schema.vision import STEP_KINDS, retyped_step

Model = TypeVar("Model", bound=BaseModel)

__all__ = [
    "DERIVED",
    "Derived",
    "FieldPath",
    "get_value",
    "with_field_values",
    "with_value",
    "with_values",
    "without_biases",
]


@dataclass(frozen=True)
class Derived:
    """A value that follows from the stored fields, how to read it and how setting it changes them."""

    info: FieldInfo  # type, limits, title and description, as a schema field has them
    read: Callable[[Architecture], Any]
    apply: Callable[[Architecture, Any], Architecture]


class _DerivedFields(BaseModel):
    """How the derived values look as fields (type, limits, description), for the form."""

    num_layers: Annotated[int, Field(ge=1, le=1 << 30)] = Field(
        title="Layers",
        description="Layers in the stack: more go to the last layer group, fewer are cut from the end "
        "(the tree below splits and converts groups).",
    )


def _stack_layers(role: StackRole) -> Derived:
    def read(arch: Architecture) -> int | None:
        stack = getattr(arch, role)
        return None if stack is None else stack.num_layers

    def apply(arch: Architecture, total: int) -> Architecture:
        stack = getattr(arch, role)
        return layer_ops.with_layers(arch, layer_ops.set_total(stack.layers, total, role), role)

    return Derived(_DerivedFields.model_fields["num_layers"], read, apply)


DERIVED: dict[FieldPath, Derived] = {
    (role, "num_layers"): _stack_layers(role) for role in ("encoder", "decoder", "vision")
}

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
    if isinstance(model, Architecture) and path in DERIVED:
        return DERIVED[path].read(model)
    node: Any = model
    for part in path:
        node = node[part] if isinstance(node, dict | tuple | list) else getattr(node, str(part))  # type: ignore[index]
    return node


def with_value(model: Model, path: FieldPath, value: Any) -> Model:
    """``model`` with one field changed; raises pydantic's ValidationError naming the field."""
    return with_values(model, {path: value})


def with_values(model: Model, values: Mapping[FieldPath, Any]) -> Model:
    """``model`` with several fields changed at once, validated once as a whole.

    Derived values (``DERIVED``) are set after the stored fields, each through its own edit.
    """
    derived = {path: value for path, value in values.items() if path in DERIVED}
    if derived and isinstance(model, Architecture):
        arch: Architecture = with_values(model, {p: v for p, v in values.items() if p not in derived})
        for path, value in derived.items():
            arch = DERIVED[path].apply(arch, value)
        return arch  # type: ignore[return-value]  # Model is Architecture here
    # Only the edited paths are opened up (one level at a time, as plain dicts and lists); every
    # sub-model beside them goes back in as it is, already valid, and pydantic takes a model
    # instance without validating it again. So the model is validated as a whole (its own and
    # every cross-field rule, with the same messages) for the cost of the edited branches, not of
    # a dump and a validation of every block and layer group.
    data: dict[str, Any] = dict(model)
    opened = {id(data)}
    for path, value in values.items():
        *parents, last = path
        node: Any = data
        for part in parents:
            child = node[part]
            if id(child) not in opened and (copy := _opened(child)) is not child:
                # Only a container is copied back in; a scalar on the path is read past, as the
                # plain dump would, so a bad path fails with the same error.
                node[part] = child = copy
                opened.add(id(child))
            node = child
        if last == "kind" and node.get("kind") in KIND_TAGS and value in KIND_TAGS and node["kind"] != value:
            # A mixer or FFN of another kind: what the kinds share is kept (core.blocks.retyped).
            replaced = retyped(_plain(node), value, data["hidden_size"])
            node.clear()
            node.update(replaced)
        elif (
            last == "kind"
            and node.get("kind") in STEP_KINDS
            and value in STEP_KINDS
            and node["kind"] != value
        ):
            replaced = retyped_step(_plain(node), value, data["hidden_size"])  # a projector step
            node.clear()
            node.update(replaced)
        else:
            node[last] = value
    return type(model).model_validate(data)


def with_field_values(model: Model, values: Mapping[FieldPath, Any]) -> Model:
    """``with_values`` for the fields a person types into: a layer group's own values among them
    (``(*group, "override", *inside)``) are set after the others as the group's difference from what
    it inherits (``layer_ops.with_group_value``), not written into its override as stored."""
    grouped = [path for path in values if split_value_path(path)[0] is not None]
    if not grouped or not isinstance(model, Architecture):
        return with_values(model, values)
    arch: Architecture = with_values(model, {p: v for p, v in values.items() if p not in grouped})
    for path in grouped:
        group, inside = split_value_path(path)
        assert group is not None
        arch = layer_ops.with_group_value(arch, group, inside, values[path])
    return arch  # type: ignore[return-value]  # Model is Architecture here


def _opened(value: Any) -> Any:
    """One level of ``value`` as a mutable copy (a model as a dict of its fields); else itself."""
    if isinstance(value, BaseModel | dict):
        return dict(value)
    if isinstance(value, tuple | list):
        return list(value)
    return value


def _plain(value: Any) -> Any:
    """``value`` in plain dicts and lists all the way down, as a model's dump thawed has it."""
    if isinstance(value, BaseModel):
        return thaw(value.model_dump())
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def without_biases(arch: Architecture) -> Architecture:
    """The same model with every matrix bias removed (norm β, not a bias of a matrix, stays)."""
    data = arch.model_dump()
    for block in data["blocks"].values():
        _drop_biases(block)
    for role in ("encoder", "decoder", "vision"):
        for group in (data.get(role) or {}).get("layers", []):
            _drop_group_biases(group)
    if data.get("vision"):
        data["vision"]["patches"]["bias"] = False
    if data.get("projector"):  # its linear layers and MLPs (a norm's β stays, as in the blocks)
        projector = data["projector"]
        for steps in (projector["steps"], *(branch["steps"] for branch in projector["branches"])):
            for step in steps:
                if step["kind"] != "norm" and "bias" in step:  # a norm's β is no matrix's bias
                    step["bias"] = False
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
