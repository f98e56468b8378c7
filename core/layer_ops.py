"""Pure edits of the layer stack: each takes the tuple of layer groups and returns a new one.

The layer-tree editor turns a person's split / move / delete / convert into one of these and
hands the result to ``Architecture.model_validate`` (through ``with_layers``), so the rules
(at least one group, top-k within the experts) stay in the schema.
"""

from __future__ import annotations

from paramtally.core.errors import FieldError
from paramtally.core.schema import Adapter, Architecture, LayerGroup, LoRA, MoE

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
    "set_total",
    "split_group",
    "with_layers",
]

Layers = tuple[LayerGroup, ...]


def _check_index(layers: Layers, index: int) -> None:
    if not 0 <= index < len(layers):
        raise FieldError(f"layers.{index}", f"there is no layer group {index + 1} (there are {len(layers)})")


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
        raise FieldError(
            f"layers.{index}.count", f"the split point {first_count} must lie between 1 and {group.count - 1}"
        )
    first = group.model_copy(update={"count": first_count})
    second = group.model_copy(update={"count": group.count - first_count})
    return (*layers[:index], first, second, *layers[index + 1 :])


def merge_with_next(layers: Layers, index: int) -> Layers:
    """Join group ``index`` and the next one when their blocks are identical."""
    _check_index(layers, index)
    _check_index(layers, index + 1)
    a, b = layers[index], layers[index + 1]
    if a.model_copy(update={"count": 1}) != b.model_copy(update={"count": 1}):
        raise FieldError(f"layers.{index}", "only groups with the same blocks can be merged")
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
        raise FieldError("layers", "the stack needs at least one layer group")
    return (*layers[:index], *layers[index + 1 :])


def _replace(layers: Layers, index: int, **update: object) -> Layers:
    _check_index(layers, index)
    # model_validate (not model_copy) so that a bad count or MoE is refused here.
    data = layers[index].model_dump()
    data.update(
        {key: value.model_dump() if hasattr(value, "model_dump") else value for key, value in update.items()}
    )
    group = LayerGroup.model_validate(data)
    return (*layers[:index], group, *layers[index + 1 :])


def set_count(layers: Layers, index: int, count: int) -> Layers:
    return _replace(layers, index, count=count)


def set_moe(layers: Layers, index: int, moe: MoE | None) -> Layers:
    """Turn the group's FFN into an MoE block, or (``None``) back into the dense FFN."""
    return _replace(layers, index, moe=moe)


def set_lora(layers: Layers, index: int, lora: LoRA | None) -> Layers:
    return _replace(layers, index, lora=lora)


def set_adapter(layers: Layers, index: int, adapter: Adapter | None) -> Layers:
    return _replace(layers, index, adapter=adapter)


def set_total(layers: Layers, total: int) -> Layers:
    """The stack with ``total`` layers: more go to the last group; fewer are cut from the end.

    Cutting empties the last groups first (a 3-dense + 58-MoE stack cut to 2 layers keeps 2
    dense ones), so every group that stays keeps its blocks.
    """
    if total < 1:
        raise FieldError("num_layers", "needs at least 1 layer")
    current = sum(group.count for group in layers)
    if total >= current:
        last = layers[-1]
        return (*layers[:-1], last.model_copy(update={"count": last.count + total - current}))
    kept: list[LayerGroup] = []
    left = total
    for group in layers:
        if left == 0:
            break
        kept.append(group.model_copy(update={"count": min(group.count, left)}))
        left -= kept[-1].count
    return tuple(kept)


def with_layers(arch: Architecture, layers: Layers) -> Architecture:
    """``arch`` with a new stack, validated as a whole (cross-field rules included)."""
    data = arch.model_dump()
    data["layers"] = [group.model_dump() for group in layers]
    return Architecture.model_validate(data)
