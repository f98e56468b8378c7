"""The layers whose stored parameters differ from the prediction, found per run, not per layer.

A prediction may hold 10⁹ layers (a hostile config, or a pattern repeated many times); the
checkpoint holds at most as many layers as it has tensors. So each stored layer is placed in its
run by arithmetic (the run's start, period and repeats), and the layers a run lacks are reported
as the gaps between the stored ones: one row per gap, never one per absent layer. The cost is
O(runs + stored layers · log), whatever the number of layers predicted.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import pairwise

from paramtally.core.count.breakdown import STACK_ORDER, LayerGroupRow
from paramtally.core.schema.stack import layers_below

__all__ = ["AbsentSpan", "differing_layers"]


@dataclass(frozen=True, slots=True)
class AbsentSpan:
    """``layers`` of one run that the checkpoint lacks, from ``first`` to ``last`` (inclusive)."""

    first: int
    last: int
    layers: int

    def label(self) -> str:
        if self.layers == 1:
            return f"layer {self.first}"
        if self.last - self.first + 1 == self.layers:
            return f"layers {self.first}–{self.last}"
        return f"{self.layers:,} layers from {self.first} to {self.last}"


# (sort key, label, predicted, actual) of one differing row
Row = tuple[tuple[int, int], str, int, int]


def differing_layers(
    groups: tuple[LayerGroupRow, ...],
    stored: Mapping[tuple[str, int], int],
    name: Callable[[str, str], str],
) -> list[tuple[str, int, int]]:
    """(label, predicted, actual) of every layer (or gap of absent layers) that differs, in order.

    ``stored`` maps (stack, layer index) to the parameters the checkpoint holds there (indices
    past a stack's end were set aside by the caller); ``name(stack, label)`` words the label.
    """
    place = _Placer(groups)
    held: dict[int, list[int]] = {}  # run → its stored layer indices, in order
    for stack, index in sorted(stored):
        number = place(stack, index)
        if number is not None:
            held.setdefault(number, []).append(index)
    rows: list[Row] = []
    for number, run in enumerate(groups):
        order = STACK_ORDER.get(run.stack, 3)
        indices = held.get(number, [])
        for index in indices:
            actual = stored[(run.stack, index)]
            if actual != run.params:
                rows.append(((order, index), name(run.stack, f"layer {index}"), run.params, actual))
        for span in _gaps(run, indices):
            label = name(run.stack, span.label())
            rows.append(((order, span.first), label, run.params * span.layers, 0))
    rows.sort(key=lambda row: row[0])
    return [(label, predicted, actual) for _, label, predicted, actual in rows]


class _Placer:
    """Finds the run holding a layer: bisection over a stack's top-level groups, then over the
    runs of one repetition of its pattern (a plain group is one run)."""

    def __init__(self, groups: tuple[LayerGroupRow, ...]) -> None:
        # stack → [(group start, group end, [(offset in the period, run number)])], by start
        spans: dict[str, dict[int, list[tuple[int, int]]]] = {}
        for number, run in enumerate(groups):
            spans.setdefault(run.stack, {}).setdefault(run.group, []).append((number, run.start))
        self.groups = groups
        self.stacks: dict[str, tuple[list[int], list[_Group]]] = {}
        for stack, by_group in spans.items():
            table = []
            for members in by_group.values():
                first = min(start for _, start in members)
                sample = groups[members[0][0]]
                ordered = sorted((start - first, number) for number, start in members)
                offsets = [offset for offset, _ in ordered]
                numbers = [number for _, number in ordered]
                table.append(_Group(first, first + sample.repeats * sample.period, offsets, numbers))
            table.sort(key=lambda group: group.first)
            self.stacks[stack] = ([group.first for group in table], table)

    def __call__(self, stack: str, index: int) -> int | None:
        starts, table = self.stacks.get(stack, ([], []))
        at = bisect_right(starts, index) - 1
        if at < 0 or index >= table[at].end:
            return None
        group = table[at]
        period = self.groups[group.numbers[0]].period
        inside = bisect_right(group.offsets, (index - group.first) % period) - 1
        number = group.numbers[inside] if inside >= 0 else -1
        return number if number >= 0 and _holds(self.groups[number], index) else None


@dataclass(frozen=True, slots=True)
class _Group:
    """One top-level layer group of a stack: its layers [first, end) and its runs by offset."""

    first: int
    end: int
    offsets: list[int]
    numbers: list[int]


def _holds(run: LayerGroupRow, index: int) -> bool:
    repeat, offset = divmod(index - run.start, run.period)
    return 0 <= repeat < run.repeats and offset < run.count


def _below(run: LayerGroupRow, limit: int) -> int:
    """How many of the run's layers lie below ``limit``."""
    return layers_below(run.start, run.count, run.repeats, run.period, limit)


def _first_at_or_after(run: LayerGroupRow, at: int) -> int:
    if at <= run.start:
        return run.start
    repeat, offset = divmod(at - run.start, run.period)
    return at if offset < run.count else run.start + (repeat + 1) * run.period


def _last_below(run: LayerGroupRow, limit: int) -> int:
    repeat, offset = divmod(limit - 1 - run.start, run.period)
    if repeat >= run.repeats:
        repeat, offset = run.repeats - 1, run.count - 1
    return limit - 1 if offset < run.count else run.start + repeat * run.period + run.count - 1


def _gaps(run: LayerGroupRow, indices: list[int]) -> list[AbsentSpan]:
    """The run's absent layers between its stored ones, as spans (at most stored + 1 of them)."""
    end = run.start + (run.repeats - 1) * run.period + run.count
    bounds = [run.start - 1, *indices, end]
    spans: list[AbsentSpan] = []
    for low, high in pairwise(bounds):
        missing = _below(run, high) - _below(run, low + 1)
        if missing > 0:
            spans.append(AbsentSpan(_first_at_or_after(run, low + 1), _last_below(run, high), missing))
    return spans
