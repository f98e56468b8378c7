"""Pure edits of a stack: each takes the stack's tuple of layer groups (or the architecture) and
returns a new one.

The layer-tree editor turns a person's split / move / delete / convert into one of these and
hands the result to ``Architecture.model_validate`` (through ``with_layers``), so the rules
(at least one group, top-k within the experts) stay in the schema. A group's block changes are
written into its ``override`` as the difference from what it inherits (``core.schema.group_addresses``), so it
keeps following its base block otherwise. Groups are addressed by field path, also inside a
pattern (``("decoder", "layers", 0, "pattern", 2)``); a range of layers is split out of the
groups it cuts (``split_at``) before an edit of its blocks (``edit_range``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from paramtally.core.blocks import INSERTION_KINDS, KIND_TAGS, retyped
from paramtally.core.errors import FieldError, FieldPath, ParamTallyError
from paramtally.core.schema import MTP, Adapter, Architecture, Block, LayerGroup, LoRA, MoE, StackRole, thaw
from paramtally.core.schema.field_titles import field_title
from paramtally.core.schema.group_addresses import (
    difference,
    field_origin,
    group_at,
    group_block,
    inherited_block,
    leaf_groups,
    stack_of,
)
from paramtally.core.schema.stack import apply_override
from paramtally.core.text import say

__all__ = [
    "Layers",
    "adapts",
    "block_with_value",
    "delete_group",
    "edit_range",
    "group_starts",
    "merge_with_next",
    "mergeable",
    "move_group",
    "moved_groups",
    "part_targets",
    "paste_block",
    "set_adapter",
    "set_count",
    "set_lora",
    "set_moe",
    "set_part",
    "set_total",
    "siblings",
    "split_at",
    "split_group",
    "with_group",
    "with_group_block",
    "with_group_value",
    "with_layers",
    "with_siblings",
    "without_group_value",
]

Layers = tuple[LayerGroup, ...]


def _check_index(layers: Layers, index: int) -> None:
    if not 0 <= index < len(layers):
        raise FieldError(
            ("layers", index),
            say("there is no layer group {n} (there are {count})", n=index + 1, count=len(layers)),
        )


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
        message = say(
            "the split point {n} must lie between 1 and {most}", n=first_count, most=group.count - 1
        )
        raise FieldError(("layers", index, "count"), message)
    first = group.model_copy(update={"count": first_count})
    second = group.model_copy(update={"count": group.count - first_count})
    return (*layers[:index], first, second, *layers[index + 1 :])


def mergeable(arch: Architecture, group: FieldPath) -> bool:
    """Whether ``group`` and the group after it could be one group: the same pattern, or groups of one
    block each with the same block, however their overrides spell it (a preset's sparse override and
    a pasted block's full one say the same)."""
    layers = siblings(arch, group)
    index = int(group[-1])
    if not 0 <= index < len(layers) - 1:
        return False
    a, b = layers[index], layers[index + 1]
    if a.pattern or b.pattern:
        return a.model_copy(update={"count": b.count}) == b
    return group_block(arch, group) == group_block(arch, (*group[:-1], index + 1))


def merge_with_next(arch: Architecture, group: FieldPath) -> Architecture:
    """``group`` with the next group's layers in it, when they are the same (``mergeable``)."""
    if not mergeable(arch, group):
        raise FieldError(group, say("only groups with the same blocks can be merged"))
    layers, index = siblings(arch, group), int(group[-1])
    merged = layers[index].model_copy(update={"count": layers[index].count + layers[index + 1].count})
    return with_siblings(arch, group[:-1], (*layers[:index], merged, *layers[index + 2 :]))


def siblings(arch: Architecture, group: FieldPath) -> Layers:
    """The groups beside ``group`` (its stack's groups, or its pattern's), itself included."""
    if len(group) == 3:
        stack = getattr(arch, str(group[0]), None)
        if stack is None:
            raise FieldError(group[:1], say("this model has no {stack} stack", stack=group[0]))
        return tuple(stack.layers)
    owner = group_at(arch, group[:-2])
    assert isinstance(owner, LayerGroup)
    return tuple(owner.pattern)


def move_group(layers: Layers, source: int, destination: int) -> Layers:
    """Move group ``source`` so that it ends up at position ``destination`` (after removal)."""
    _check_index(layers, source)
    _check_index(layers, destination)
    items = list(layers)
    items.insert(destination, items.pop(source))
    return tuple(items)


def moved_groups(before: Architecture, after: Architecture, groups: list[FieldPath]) -> list[FieldPath]:
    """Where ``groups`` (addresses in ``before``) are in ``after`` when the edit between them only
    reordered their siblings (a move, its undo, its redo), so that a selection follows the group it
    shows; a group whose siblings changed otherwise, or did not change, keeps its address. Of equal
    groups, the nearest one is taken (they read alike)."""
    found: list[FieldPath] = []
    for group in groups:
        found.append(group)
        if len(group) < 3 or not isinstance(group[-1], int):
            continue
        try:
            old, new = siblings(before, group), siblings(after, group)
        except (ParamTallyError, AssertionError, IndexError):
            continue
        index = group[-1]
        if old == new or len(old) != len(new) or not 0 <= index < len(old):
            continue
        if any(old.count(item) != new.count(item) for item in old):
            continue  # not a reordering: the groups themselves changed
        places = [place for place, item in enumerate(new) if item == old[index]]
        found[-1] = (*group[:-1], min(places, key=lambda place: abs(place - index)))
    return found


def delete_group(layers: Layers, index: int, holder: str = "stack") -> Layers:
    """The groups without group ``index``; the last one of a ``holder`` (a stack, a pattern) stays."""
    _check_index(layers, index)
    if len(layers) == 1:
        raise FieldError(("layers",), say("the {holder} needs at least one layer group", holder=holder))
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


def part_targets(arch: Architecture, groups: list[FieldPath], part: str, value: Any) -> list[FieldPath]:
    """The groups among ``groups`` that ``value``, given as their blocks' ``part``, reaches: an
    insertion (LoRA, an adapter) only the groups it adapts (LoRA on Jamba's pattern: not the Mamba
    layers over a MoE), every one of them when it adapts none; any other part every one."""
    if value is not None and part in _INSERTION_FIELDS:
        return [group for group in groups if adapts(arch, group, value)] or groups
    return groups


def adapts(arch: Architecture, group: FieldPath, insertion: LoRA | Adapter) -> bool:
    """Whether ``insertion`` on ``group``'s block adds anything: LoRA's targets are projections of
    attention and the FFN, which a Mamba mixer over no FFN does not have."""
    h = arch.hidden_size
    block = group_block(arch, group).model_copy(update={insertion.FIELD: insertion})
    return insertion.term(block.context(h), block.lora_matrices(h)).value > 0


# The block fields that hold an insertion (``core.blocks.INSERTION_KINDS``).
_INSERTION_FIELDS = frozenset(kind.FIELD for kind in INSERTION_KINDS)


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
        raise FieldError((stack, "num_layers"), say("needs at least 1 layer"))
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
        raise ParamTallyError(
            say("{path}: {reason}", path=stack, reason=say("this model has no {stack} stack", stack=stack))
        )
    data[stack]["layers"] = [thaw(group.model_dump()) for group in layers]
    return Architecture.model_validate(data)


# --- groups by address: their blocks, copy and paste, ranges -----------------------------------


def with_group(arch: Architecture, group: FieldPath, new: LayerGroup | MTP) -> Architecture:
    """``arch`` with the group (or MTP modules) at ``group`` replaced, validated as a whole."""
    group_at(arch, group)  # refuses an address that leads nowhere
    data = thaw(arch.model_dump())
    if group == ("mtp",):
        data["mtp"] = thaw(new.model_dump())
        return Architecture.model_validate(data)
    parent: Any = data[str(group[0])]
    steps = group[1:]  # ("layers", i) then ("pattern", j) for each pattern inside
    for key, index in zip(steps[:-2:2], steps[1:-2:2], strict=True):
        parent = parent[key][index]
    steps = steps[-2:]
    parent[steps[0]][steps[1]] = thaw(new.model_dump())
    return Architecture.model_validate(data)


def with_siblings(arch: Architecture, parent: FieldPath, groups: Layers) -> Architecture:
    """``arch`` with the list of groups at ``parent`` (``("decoder", "layers")``, or a group's
    ``(…, "pattern")``) replaced: the tree's split, move, merge and delete inside a pattern."""
    if len(parent) == 2:
        role = stack_of(parent)
        if role is None:
            raise FieldError(parent, say("not a stack's layer groups"))
        return with_layers(arch, groups, role)
    owner = group_at(arch, parent[:-1])
    assert isinstance(owner, LayerGroup)
    if not groups:
        raise FieldError(parent, say("a pattern needs at least one layer group"))
    return with_group(arch, parent[:-1], owner.model_copy(update={"pattern": tuple(groups)}))


def with_group_block(arch: Architecture, group: FieldPath, block: Block) -> Architecture:
    """Give ``group`` the block ``block``: its override becomes the difference from what it inherits."""
    node = group_at(arch, group)
    override = difference(inherited_block(arch, group).model_dump(), block.model_dump())
    return with_group(arch, group, node.model_copy(update={"override": override}))


def block_with_value(block: Block, path: FieldPath, value: Any, h: int) -> Block:
    """``block`` with one field changed; a ``kind`` switches the part, keeping what the kinds share."""
    data = thaw(block.model_dump())
    *parents, last = path
    node: Any = data
    for step in parents:
        if not isinstance(node, dict) or node.get(step) is None:
            raise FieldError(
                path, say("this block has no {part}", part=".".join(map(str, path[: len(parents)])))
            )
        node = node[step]
    if last == "kind" and node.get("kind") in KIND_TAGS and value in KIND_TAGS:
        replaced = retyped(node, str(value), h)
        node.clear()
        node.update(replaced)
    elif len(path) == 1 and isinstance(value, BaseModel):
        node[last] = value.model_dump()
    else:
        node[last] = value
    return Block.model_validate(data)


def with_group_value(arch: Architecture, group: FieldPath, path: FieldPath, value: Any) -> Architecture:
    """``group``'s block with the field at ``path`` (within the block) set to ``value``.

    A part switched back to the kind it inherits is the inherited part again, whole: rebuilt from
    the kind's defaults it lost what the other kind did not have (GPT-3's attention biases after a
    turn through Mamba-2)."""
    current = group_block(arch, group)
    if path[-1] == "kind" and _kind_at(current, path[:-1]) != value:
        if _kind_at(inherited_block(arch, group), path[:-1]) == value:
            return without_group_value(arch, group, path)
    return with_group_block(arch, group, block_with_value(current, path, value, arch.hidden_size))


def _kind_at(block: Block, part: FieldPath) -> object:
    node: Any = block
    for step in part:
        node = getattr(node, str(step), None)
    return getattr(node, "kind", None)


def without_group_value(arch: Architecture, group: FieldPath, path: FieldPath) -> Architecture:
    """``group`` follows what it inherits again at ``path`` (a whole part when ``path`` ends in kind)."""
    node = group_at(arch, group)
    if path[-1] != "kind" and field_origin(arch, group, path) == "own kind":
        part = field_title(path[:1], group_block(arch, group))
        raise FieldError(
            (*group, "override", *path), say("the {part} is of its own kind here: reset its kind", part=part)
        )
    override = thaw(node.override)
    path = path[:-1] if path[-1] == "kind" else path
    chain: list[dict[str, Any]] = [override]
    for step in path[:-1]:
        inner = chain[-1].get(str(step))
        if not isinstance(inner, dict):
            return arch  # nothing of its own there
        chain.append(inner)
    chain[-1].pop(str(path[-1]), None)
    for depth in range(len(chain) - 1, 0, -1):  # parts left empty go too
        if not chain[depth]:
            chain[depth - 1].pop(str(path[depth - 1]), None)
    return with_group(arch, group, node.model_copy(update={"override": override}))


def paste_block(
    arch: Architecture, groups: list[FieldPath], source: Block, part: str | None = None
) -> Architecture:
    """Give each of ``groups`` the block ``source`` (or only its ``part``: "mixer", "ffn", "lora" …).

    A whole block keeps to the stack it lands in (``_in_stack``)."""
    for group in groups:
        if part is not None:
            target = group_block(arch, group).model_copy(update={part: getattr(source, part)})
            target = Block.model_validate(target.model_dump())
        else:
            target = _in_stack(arch, group, source)
        arch = with_group_block(arch, group, target)
    return arch


def _in_stack(arch: Architecture, group: FieldPath, block: Block) -> Block:
    """``block`` as a layer of ``group``'s stack: cross-attention (and the norm before it, as in T5,
    BART and Whisper) is a decoder's part, attending to the encoder's output. An encoder group takes
    the block without it; a decoder group of an encoder-decoder keeps its own when the block has none
    (an encoder's block pasted onto T5's decoder took its cross-attention away: a decoder that cannot
    see the input)."""
    role = stack_of(group)
    cross = block.cross_attention
    if role in ("encoder", "vision"):  # nothing to cross-attend to
        cross = None
    elif role == "decoder" and arch.encoder is not None and cross is None:
        cross = group_block(arch, group).cross_attention
    if cross == block.cross_attention:
        return block
    norms = block.norms.count + (1 if cross is not None else -1)
    data = block.model_dump()
    data["cross_attention"] = cross.model_dump() if cross is not None else None
    data["norms"] = {**data["norms"], "count": max(norms, 0)}
    return Block.model_validate(data)


def split_at(layers: Layers, layer: int) -> Layers:
    """The same layers with a group boundary before ``layer`` (within the stack).

    A plain group is split; a repeating pattern splits between whole repetitions, and a cut inside
    one repetition writes that repetition out as groups of their own (each keeps its block).
    """
    start = 0
    for index, group in enumerate(layers):
        if start < layer < start + group.layers:
            head = _first_layers(group, layer - start)
            tail = _last_layers(group, start + group.layers - layer)
            return (*layers[:index], *head, *tail, *layers[index + 1 :])
        start += group.layers
    return layers


def _last_layers(group: LayerGroup, n: int) -> list[LayerGroup]:
    """Groups holding the last ``n`` layers of ``group``."""
    if n >= group.layers:
        return [group]
    if not group.pattern:
        return [group.model_copy(update={"count": n})]
    whole, rest = divmod(n, group.period)
    kept: list[LayerGroup] = []
    for inner in reversed(group.pattern):
        if rest == 0:
            break
        kept = [_inherit(part, group) for part in _last_layers(inner, rest)] + kept
        rest -= min(inner.layers, rest)
    return kept + ([group.model_copy(update={"count": whole})] if whole else [])


def edit_range(
    arch: Architecture, stack: StackRole, first: int, stop: int, change: Callable[[Block], Block]
) -> Architecture:
    """Layers ``first`` to ``stop - 1`` of ``stack`` with ``change`` applied to each of their blocks.

    The range is split out of the groups it cuts; then every group inside it (every group of a
    pattern inside it) gets the changed block, as the difference from what it inherits.
    """
    layers = getattr(arch, stack).layers if getattr(arch, stack) is not None else ()
    total = sum(group.layers for group in layers)
    if not 0 <= first < stop <= total:
        raise FieldError(
            (stack, "layers"),
            say("layers {first}–{last} are not within 0–{most}", first=first, last=stop - 1, most=total - 1),
        )
    arch = with_layers(arch, split_at(split_at(layers, first), stop), stack)
    start = 0
    for index, group in enumerate(getattr(arch, stack).layers):
        if first <= start and start + group.layers <= stop:
            for leaf in leaf_groups(arch, (stack, "layers", index)):
                arch = with_group_block(arch, leaf, change(group_block(arch, leaf)))
        start += group.layers
    return arch
