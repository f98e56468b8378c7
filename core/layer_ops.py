"""Pure edits of a stack: each takes the stack's tuple of layer groups and returns a new one.

The layer-tree editor turns a person's split / move / delete / convert into one of these and
hands the result to ``Architecture.model_validate`` (through ``with_layers``), so the rules
(at least one group, top-k within the experts) stay in the schema. A group's block changes are
written into its ``override`` (``set_part``), so it keeps following its base block otherwise.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from paramtally.core.errors import FieldError, ParamTallyError
from paramtally.core.schema import Adapter, Architecture, LayerGroup, LoRA, MoE, StackRole, thaw
from paramtally.core.schema.stack import apply_override

__all__ = [
    "Layers",
    "delete_group",
    "group_starts",
    "merge_with_next",
    "move_group",
    "set_adapter",
    "set_count",
    "set_lora",
    "set_moe",
    "set_part",
    "set_total",
    "split_group",
    "with_layers",
]

Layers = tuple[LayerGroup, ...]


def _check_index(layers: Layers, index: int) -> None:
    if not 0 <= index < len(layers):
        raise FieldError(("layers", index), f"there is no layer group {index + 1} (there are {len(layers)})")


def group_starts(layers: Layers) -> tuple[int, ...]:
    """Index of the first layer of each group."""
    starts: list[int] = []
    start = 0
    for group in layers:
        starts.append(start)
        start += group.count
    return tuple(starts)


def split_group(layers: Layers, index: int, first_count: int) -> Layers:
    """Split group ``index`` into ``first_count`` layers and the rest, both keeping its blocks."""
    _check_index(layers, index)
    group = layers[index]
    if not 0 < first_count < group.count:
        message = f"the split point {first_count} must lie between 1 and {group.count - 1}"
        raise FieldError(("layers", index, "count"), message)
    first = group.model_copy(update={"count": first_count})
    second = group.model_copy(update={"count": group.count - first_count})
    return (*layers[:index], first, second, *layers[index + 1 :])


def merge_with_next(layers: Layers, index: int) -> Layers:
    """Join group ``index`` and the next one when their blocks are identical."""
    _check_index(layers, index)
    _check_index(layers, index + 1)
    a, b = layers[index], layers[index + 1]
    if a.model_copy(update={"count": 1}) != b.model_copy(update={"count": 1}):
        raise FieldError(("layers", index), "only groups with the same blocks can be merged")
    merged = a.model_copy(update={"count": a.count + b.count})
    return (*layers[:index], merged, *layers[index + 2 :])


def move_group(layers: Layers, source: int, destination: int) -> Layers:
    """Move group ``source`` so that it ends up at position ``destination`` (after removal)."""
    _check_index(layers, source)
    _check_index(layers, destination)
    items = list(layers)
    items.insert(destination, items.pop(source))
    return tuple(items)


def delete_group(layers: Layers, index: int) -> Layers:
    _check_index(layers, index)
    if len(layers) == 1:
        raise FieldError(("layers",), "the stack needs at least one layer group")
    return (*layers[:index], *layers[index + 1 :])


def _replace(layers: Layers, index: int, **update: object) -> Layers:
    _check_index(layers, index)
    # model_validate (not model_copy) so that a bad count or change is refused here.
    data = thaw(layers[index].model_dump())
    data.update(update)
    group = LayerGroup.model_validate(data)
    return (*layers[:index], group, *layers[index + 1 :])


def set_count(layers: Layers, index: int, count: int) -> Layers:
    return _replace(layers, index, count=count)


def set_part(
    layers: Layers, index: int, part: str, value: BaseModel | dict[str, Any] | None, inherited: Any = None
) -> Layers:
    """Give group ``index`` its own ``part`` of the block (``None`` removes an optional part).

    ``inherited`` is what the group would have without a change of its own: a value equal to it
    is no change (the group follows its base block again), so groups stay mergeable.
    """
    _check_index(layers, index)
    override = thaw(layers[index].override)
    dumped = value.model_dump() if isinstance(value, BaseModel) else value
    base = inherited.model_dump() if isinstance(inherited, BaseModel) else inherited
    if dumped == base:
        override.pop(part, None)
    else:
        override[part] = dumped
    return _replace(layers, index, override=override)


def set_moe(layers: Layers, index: int, moe: MoE | None) -> Layers:
    """Turn the group's FFN into an MoE block, or (``None``) back into its base block's FFN."""
    if moe is not None:
        return set_part(layers, index, "ffn", moe)
    _check_index(layers, index)
    override = thaw(layers[index].override)
    override.pop("ffn", None)
    return _replace(layers, index, override=override)


def set_lora(layers: Layers, index: int, lora: LoRA | None, inherited: LoRA | None = None) -> Layers:
    return set_part(layers, index, "lora", lora, inherited)


def set_adapter(
    layers: Layers, index: int, adapter: Adapter | None, inherited: Adapter | None = None
) -> Layers:
    return set_part(layers, index, "adapter", adapter, inherited)


def set_total(layers: Layers, total: int, stack: StackRole = "decoder") -> Layers:
    """The stack with ``total`` layers: more go to the last group; fewer are cut from the end.

    Cutting empties the last groups first (a 3-dense + 58-MoE stack cut to 2 layers keeps 2
    dense ones), so every group that stays keeps its blocks. A repeating pattern that is cut keeps
    its whole repetitions and writes out the part of the next one that is left; one that grows
    gets the new layers after it, as a group of the block its last layer has.
    """
    if total < 1:
        raise FieldError((stack, "num_layers"), "needs at least 1 layer")
    current = sum(group.layers for group in layers)
    if total >= current:
        last = layers[-1]
        if not last.pattern:
            return (*layers[:-1], last.model_copy(update={"count": last.count + total - current}))
        if total == current:
            return layers
        return (*layers, _last_layer_of(last).model_copy(update={"count": total - current}))
    kept: list[LayerGroup] = []
    left = total
    for group in layers:
        if left == 0:
            break
        kept += _first_layers(group, left)
        left -= min(group.layers, left)
    return tuple(kept)


def _inherit(inner: LayerGroup, outer: LayerGroup) -> LayerGroup:
    """``inner`` as a group of its own, outside the pattern of ``outer`` (it keeps what it inherits)."""
    if inner.block is not None:
        return inner
    merged = apply_override(outer.override, inner.override)
    return inner.model_copy(update={"block": outer.block, "override": merged})


def _last_layer_of(group: LayerGroup) -> LayerGroup:
    if not group.pattern:
        return group.model_copy(update={"count": 1})
    return _inherit(_last_layer_of(group.pattern[-1]), group)


def _first_layers(group: LayerGroup, n: int) -> list[LayerGroup]:
    """Groups holding the first ``n`` layers of ``group`` (all of them when it has no more)."""
    if n >= group.layers:
        return [group]
    if not group.pattern:
        return [group.model_copy(update={"count": n})]
    whole, rest = divmod(n, group.period)
    kept = [group.model_copy(update={"count": whole})] if whole else []
    for inner in group.pattern:
        if rest == 0:
            break
        kept += [_inherit(part, group) for part in _first_layers(inner, rest)]
        rest -= min(inner.layers, rest)
    return kept


def with_layers(arch: Architecture, layers: Layers, stack: StackRole = "decoder") -> Architecture:
    """``arch`` with a new stack of groups, validated as a whole (cross-field rules included)."""
    data = arch.model_dump()
    if data.get(stack) is None:
        raise ParamTallyError(f"{stack}: this model has no {stack} stack")
    data[stack]["layers"] = [thaw(group.model_dump()) for group in layers]
    return Architecture.model_validate(data)
