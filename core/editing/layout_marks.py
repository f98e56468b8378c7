"""Which of TP, PP and EP the person set by hand, and what a GPU count typed did to the layout.

A GPU count (or a TP, PP, EP) typed while serving is laid out by ``core.memory.fit.count_layout``,
as the command line's ``--gpus`` is: the sizes set by hand are the command line's flags given. The
document keeps them ("marks": field → the size set) with the scenario they were set on, so an undo
or redo brings back the marks of its own step, and drops a mark once its field holds another
value (an edit made elsewhere: Goal Seek's Apply, an undo).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the scenario's module loads when the scenario is first asked for
    from paramtally.core.memory.fit import CountLayout
    from paramtally.core.memory.scenario import Scenario
    from paramtally.core.schema import Architecture

__all__ = ["Layout", "TypedLayout", "kept_marks", "layout_of", "typed_layout"]

Layout = tuple[int, int, int, int]  # GPUs, TP, PP, EP
Marks = dict[str, Any]  # a layout field set by hand → the size it was set at


@dataclass(frozen=True, slots=True)
class TypedLayout:
    """What values typed into the scenario's fields change, with the layout a count gives."""

    changes: dict[str, Any]  # the values typed, then the layout fields the count sets
    marks: Marks  # the layout fields set by hand once the changes are in
    said: tuple[Layout, str] | None  # the layout the count gave and its words; None: no count laid out


def layout_of(scenario: Scenario, changes: Mapping[str, Any] | None = None) -> Layout:
    """GPUs, TP, PP and EP of ``scenario`` with ``changes``."""
    sizes = [(changes or {}).get(name, getattr(scenario, name)) for name in ("gpus", "tp", "pp", "ep")]
    return sizes[0], sizes[1], sizes[2], sizes[3]


def kept_marks(marks: Mapping[str, Any], scenario: Scenario) -> Marks:
    """The marks whose fields still hold the size set."""
    return {name: size for name, size in marks.items() if getattr(scenario, name) == size}


def typed_layout(
    arch: Architecture, scenario: Scenario, values: Mapping[str, Any], marks: Mapping[str, Any]
) -> TypedLayout:
    """``values`` typed over ``scenario`` with the layout core gives a GPU count (or an EP) while
    serving; the TP, PP and EP typed in them become the person's, those the count chose not."""
    from paramtally.core.memory.fit import count_layout

    layout = count_layout(arch, scenario, values, marks.keys())
    changes = dict(values) | (layout.changes if layout is not None else {})
    said = (layout_of(scenario, changes), layout.note) if layout is not None else None
    return TypedLayout(changes, _marks_after(marks, values, layout), said)


def _marks_after(marks: Mapping[str, Any], values: Mapping[str, Any], layout: CountLayout | None) -> Marks:
    """The layout fields set by hand once ``values`` are set: those typed in them join, at the size
    the layout gives them (an EP lowered to what the copies take); those the count chose (a typed
    TP it could not take among them) leave."""
    from paramtally.core.memory.fit import LAYOUT_FIELDS

    joined = dict(marks) | {name: values[name] for name in LAYOUT_FIELDS & values.keys()}
    if layout is None:
        return joined
    return {
        name: layout.changes.get(name, size) for name, size in joined.items() if name not in layout.chosen
    }
