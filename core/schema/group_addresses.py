"""Layer groups by address, the block each one has, and what it inherits.

A group is addressed by its field path: ``("decoder", "layers", 2)`` for a stack's third group,
``("decoder", "layers", 0, "pattern", 4)`` for the fifth group of the first group's pattern, and
``("mtp",)`` for the multi-token-prediction modules. A group's block is the block it inherits (its
named base block, else the stack's for a top-level group or its enclosing group's block inside a
pattern, as ``core.schema.stack.flatten`` resolves it) with its own ``override`` applied; the
override is kept as the sparse difference between the two (``difference``), so a group that is
set back to what it inherits has no change of its own and merges with its neighbours again.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Literal

from paramtally.core.blocks import KINDS, VALUE_KINDS
from paramtally.core.errors import FieldError, FieldPath
from paramtally.core.schema import MTP, Architecture, Block, LayerGroup, Stack, StackRole
from paramtally.core.schema.stack import resolve_block
from paramtally.core.text import say

__all__ = [
    "GroupLike",
    "Origin",
    "difference",
    "edit_targets",
    "field_origin",
    "group_at",
    "group_block",
    "groups_reached",
    "inherited_block",
    "leaf_groups",
    "split_value_path",
    "stack_of",
    "stacks_holding",
    "takes",
    "value_targets",
]

GroupLike = LayerGroup | MTP
Origin = Literal["inherited", "own", "own kind"]


def split_value_path(path: FieldPath) -> tuple[FieldPath | None, FieldPath]:
    """(the layer group, the path within its block) of a group's own value ``(*group, "override",
    *inside)``, e.g. ``("decoder", "layers", 2, "override", "mixer", "sliding_window")``; (None,
    ``path``) for any other field (the override itself among them)."""
    if "override" not in path[:-1]:
        return None, path
    at = path.index("override")
    return path[:at], path[at + 1 :]


def stack_of(group: FieldPath) -> StackRole | None:
    """The stack a group lies in (None for the MTP modules)."""
    role = group[0] if group else None
    return role if role in ("encoder", "decoder", "vision") else None  # type: ignore[return-value]


def stacks_holding(arch: Architecture, path: FieldPath) -> tuple[Stack, ...]:
    """The stacks whose layers the block at ``path`` is in: a layer group's own stack (the MTP
    modules': the decoder's, whose positions they take); for a base block ``("blocks", name)``,
    each stack that names it, itself or in a group (every stack when none does)."""
    role = stack_of(path) or ("decoder" if path[:1] == ("mtp",) else None)
    if role is not None:
        stack = getattr(arch, role)
        return (stack,) if stack is not None else ()
    stacks = tuple(stack for _, stack in arch.stacks)
    if path[:1] != ("blocks",) or len(path) < 2:
        return stacks
    name = path[1]
    naming = tuple(stack for stack in stacks if stack.block == name or _names(stack.layers, name))
    return naming or stacks


def _names(groups: tuple[LayerGroup, ...], name: object) -> bool:
    return any(group.block == name or _names(group.pattern, name) for group in groups)


def _check(group: FieldPath) -> None:
    if group == ("mtp",):
        return
    valid = len(group) >= 3 and stack_of(group) is not None and group[1] == "layers"
    valid = valid and all(
        isinstance(step, int) if i % 2 == 0 else step == "pattern" for i, step in enumerate(group[2:])
    )
    if not valid:
        raise FieldError(group, say("not the address of a layer group"))


def group_at(arch: Architecture, group: FieldPath) -> GroupLike:
    """The layer group (or the MTP modules) at ``group``."""
    _check(group)
    if group == ("mtp",):
        if arch.mtp is None:
            raise FieldError(group, say("this model has no multi-token prediction modules"))
        return arch.mtp
    stack = getattr(arch, str(group[0]))
    if stack is None:
        raise FieldError(group[:1], say("this model has no {stack} stack", stack=group[0]))
    node: Any = stack.layers
    for step in group[2:]:
        if step == "pattern":
            node = node.pattern
            continue
        assert isinstance(step, int)
        if not 0 <= step < len(node):
            raise FieldError(
                group, say("there is no layer group {n} (there are {count})", n=step + 1, count=len(node))
            )
        node = node[step]
    assert isinstance(node, LayerGroup)
    return node


def inherited_block(arch: Architecture, group: FieldPath) -> Block:
    """The block ``group`` starts from before its own changes."""
    node = group_at(arch, group)
    if node.block:
        return _named(arch, node.block, (*group, "block"))
    if len(group) <= 3:  # the MTP modules name their block; a top-level group falls back to the stack's
        return _named(arch, getattr(arch, str(group[0])).block, (group[0], "block"))
    return group_block(arch, group[:-2])


def group_block(arch: Architecture, group: FieldPath) -> Block:
    """The block ``group``'s layers have (for a pattern group: the one its inner groups start from)."""
    return resolve_block(inherited_block(arch, group), group_at(arch, group).override)


def _named(arch: Architecture, name: str, where: FieldPath) -> Block:
    if name not in arch.blocks:
        raise FieldError(where, say("no base block named '{name}'", name=name))
    return arch.blocks[name]


def leaf_groups(arch: Architecture, group: FieldPath) -> Iterator[FieldPath]:
    """``group`` itself when its layers are one block, else every group inside its pattern."""
    node = group_at(arch, group)
    if isinstance(node, MTP) or not node.pattern:
        yield group
        return
    for index in range(len(node.pattern)):
        yield from leaf_groups(arch, (*group, "pattern", index))


def difference(base: Mapping[str, Any], target: Mapping[str, Any]) -> dict[str, Any]:
    """The sparse override that turns ``base`` into ``target`` (both block dumps).

    Mappings of the same kind differ field by field; a part of another kind (or one that appears
    or goes) is written whole, as ``apply_override`` replaces it whole — but for the fields its
    kind's defaults give anyway (a group given 24 experts wrote gated, activation, router bias…
    into its override, and a comparison listed each as a change).
    """
    found: dict[str, Any] = {}
    for key in base.keys() | target.keys():
        old, new = base.get(key), target.get(key)
        if old == new:
            continue
        if isinstance(old, Mapping) and isinstance(new, Mapping) and old.get("kind") == new.get("kind"):
            found[key] = difference(old, new)
        else:
            found[key] = _without_defaults(new)
    return {key: found[key] for key in target if key in found} | {
        key: value for key, value in found.items() if key not in target
    }


def _without_defaults(part: Any) -> Any:
    """A mixer or FFN written whole, less the fields at its kind's defaults (the same part once
    validated); anything else as it is."""
    if not isinstance(part, Mapping):
        return part
    kind = KINDS.get(str(part.get("kind")))
    if kind is None:
        return dict(part)
    fields = kind.model_fields
    return {
        name: value
        for name, value in part.items()
        if name == "kind"
        or name not in fields
        or fields[name].is_required()
        or fields[name].get_default(call_default_factory=True) != value
    }


def field_origin(arch: Architecture, group: FieldPath, path: FieldPath) -> Origin:
    """Where ``group``'s value at ``path`` (within its block) comes from: "inherited", its "own"
    change (which a reset takes back), or "own kind": the field belongs to a part the group gave
    another kind, so only resetting that kind brings the inherited part back."""
    override: Any = group_at(arch, group).override
    for depth, step in enumerate(path):
        if not isinstance(override, Mapping) or step not in override:
            return "inherited"
        override = override[step]
        if depth < len(path) - 1 and isinstance(override, Mapping) and "kind" in override:
            inherited = getattr(inherited_block(arch, group), str(path[0]), None)
            if getattr(inherited, "kind", None) != override["kind"]:
                return "own kind"
    return "own"


def edit_targets(arch: Architecture, groups: Iterable[FieldPath]) -> tuple[FieldPath, ...]:
    """The groups of one block that an edit of ``groups`` (a selection in the layer tree) changes:
    each group itself, or every group inside its pattern; each once, in the order given."""
    found: dict[FieldPath, None] = {}
    for group in groups:
        found |= dict.fromkeys(leaf_groups(arch, group))
    return tuple(found)


def value_targets(
    arch: Architecture, groups: Iterable[FieldPath], block_path: FieldPath
) -> tuple[FieldPath, ...]:
    """The ``edit_targets`` whose block takes a value at ``block_path`` (``takes``): a window is
    given to the attention layers of a selection, not to its Mamba layers."""
    return tuple(group for group in edit_targets(arch, groups) if takes(group_block(arch, group), block_path))


def takes(block: Block, block_path: FieldPath) -> bool:
    """Whether a value edit at ``block_path`` applies to ``block`` (``VALUE_KINDS``)."""
    kinds = VALUE_KINDS.get(block_path)
    return kinds is None or getattr(getattr(block, str(block_path[0])), "kind", None) in kinds


def groups_reached(
    arch: Architecture, groups: Iterable[FieldPath], block_path: FieldPath
) -> tuple[FieldPath, ...]:
    """The groups among ``groups`` (the first: the one whose block the edit was made in) that an
    edit of their block's field at ``block_path`` reaches: each whose block has that field meaning
    what it means in the first's — its part of the same kind (Experts: a MoE, not a dense FFN; an
    attention's query heads, not a Mamba-2 mixer's SSM heads), or of a kind ``VALUE_KINDS`` gives
    the same meaning. A kind switch reaches every group. Each group once, in the order given."""
    ordered = list(dict.fromkeys(groups))
    if not ordered:
        return ()
    first = group_block(arch, ordered[0])
    first_kinds = _part_kinds(first, block_path)
    shared = block_path in VALUE_KINDS and takes(first, block_path)  # a meaning other kinds share
    reached = []
    for group in ordered:
        block = group_block(arch, group)
        kinds = _part_kinds(block, block_path)
        if kinds is None:
            continue
        if block_path[-1] == "kind" or kinds == first_kinds or (shared and takes(block, block_path)):
            reached.append(group)
    return tuple(reached)


def _part_kinds(block: Block, block_path: FieldPath) -> tuple[str, ...] | None:
    """The kinds of the parts on the way to the field (('moe',) for ('ffn', 'num_experts')); None
    when the block has no such field (a dense FFN's experts)."""
    node: Any = block
    kinds: list[str] = []
    for step in block_path[:-1]:
        node = getattr(node, str(step), None)
        if node is None:
            return None
        kinds.append(str(getattr(node, "kind", type(node).__name__)))
    if str(block_path[-1]) not in type(node).model_fields:
        return None
    return tuple(kinds)
