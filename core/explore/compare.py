"""Compare architectures side by side: figures, parts, GPU setups and a field-by-field schema diff.

A column is any architecture with a label saying where it came from: a preset id, a preset JSON
or ``config.json`` file (``load_source``), the open document or a pinned variant of it (an
``Architecture`` object). Every figure is the calculator's; differences are against the chosen
baseline column, absolute and in percent.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from paramtally.core.count.breakdown import PARTS
from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import FieldPath, ParamTallyError, one_line
from paramtally.core.io.model_sources import load_source
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.fit import SetupFit, fit_setups
from paramtally.core.memory.gpus import GPU
from paramtally.core.memory.scenario import Scenario, has_experts, with_changes
from paramtally.core.schema import Architecture
from paramtally.core.schema.group_addresses import difference, group_at, group_block, inherited_block
from paramtally.core.text import say

__all__ = [
    "HEADLINE",
    "Column",
    "ColumnFigures",
    "Comparison",
    "Delta",
    "FieldDiff",
    "canonical_dump",
    "compare",
    "load_columns",
    "schema_diff",
]

HEADLINE = ("total", "active", "memory_bytes")


@dataclass(frozen=True, slots=True)
class Column:
    """An architecture to compare and what to call it (a preset id, a file, "open document")."""

    source: str
    arch: Architecture


@dataclass(frozen=True, slots=True)
class ColumnFigures:
    """One column's figures under the comparison's scenario."""

    source: str
    name: str
    total: int
    active: int
    total_with_mtp: int
    memory_bytes: int | None  # None when the scenario does not fit this model (``memory_problem``)
    memory_problem: str
    by_part: Mapping[str, int]
    setups: tuple[SetupFit, ...]
    setups_note: str = ""  # how the setups depart from the scenario (an EP a dense model ignores)

    def figure(self, name: str) -> int | None:
        if name in HEADLINE:
            value: int | None = getattr(self, name)
            return value
        return self.by_part.get(name, 0)


@dataclass(frozen=True, slots=True)
class Delta:
    """``value`` against ``baseline``: the difference, and it in percent of the baseline."""

    value: int | None
    baseline: int | None

    @property
    def absolute(self) -> int | None:
        return None if self.value is None or self.baseline is None else self.value - self.baseline

    @property
    def percent(self) -> float | None:
        absolute = self.absolute
        return None if absolute is None or not self.baseline else 100 * absolute / self.baseline


@dataclass(frozen=True, slots=True)
class FieldDiff:
    """A schema field that differs from the baseline's: its path (a tuple), before and after.
    A field only one side has is ``None`` on the other."""

    path: FieldPath
    before: Any
    after: Any


@dataclass(frozen=True, slots=True)
class Comparison:
    columns: tuple[ColumnFigures, ...]
    baseline: int  # index of the baseline column
    scenario: Scenario
    parts: tuple[str, ...]  # the parts any column has, in the breakdown's order
    diffs: tuple[tuple[FieldDiff, ...], ...]  # per column, against the baseline (its own: empty)

    def delta(self, column: int, figure: str) -> Delta:
        """``figure`` (total, active, memory_bytes or a part) of a column against the baseline."""
        return Delta(self.columns[column].figure(figure), self.columns[self.baseline].figure(figure))

    def fewest_gpus(self, column: int, gpu: str) -> int | None:
        """The fewest GPUs of a kind (among the setups) that the column fits on."""
        counts = [s.count for s in self.columns[column].setups if s.gpu == gpu and s.fits]
        return min(counts, default=None)


def load_columns(sources: Sequence[str]) -> list[Column]:
    """Columns from what a person names on the command line (preset ids, files, folders)."""
    return [Column(source, load_source(source)) for source in sources]


def compare(
    columns: Sequence[Column],
    scenario: Scenario | None = None,
    baseline: int = 0,
    catalog: tuple[GPU, ...] | None = None,
) -> Comparison:
    """Every column's figures under ``scenario`` and its differences from column ``baseline``."""
    if not columns:
        raise ParamTallyError(say("compare needs at least one architecture"))
    if not 0 <= baseline < len(columns):
        raise ParamTallyError(
            say("baseline: no column {baseline} among {n}", baseline=baseline, n=len(columns))
        )
    scenario = scenario or Scenario()
    figures = tuple(_figures(column, scenario, catalog) for column in columns)
    present = {part for column in figures for part, value in column.by_part.items() if value}
    base = columns[baseline].arch
    diffs = tuple(tuple(schema_diff(base, column.arch)) for column in columns)
    return Comparison(figures, baseline, scenario, tuple(p for p in PARTS if p in present), diffs)


def _figures(column: Column, scenario: Scenario, catalog: tuple[GPU, ...] | None) -> ColumnFigures:
    report = count_parameters(column.arch)
    memory: int | None = None
    problem = ""
    setups: tuple[SetupFit, ...] = ()
    try:
        memory = estimate_memory(column.arch, scenario).total_bytes
    except (ValidationError, ParamTallyError) as exc:
        problem = one_line(exc)
    # The setups lay each count out for the column itself: a scenario's TP that a column's heads
    # do not divide (8 on T5's 12), or an EP for a model without experts, leaves its memory figure
    # out, not where it fits.
    laid_out = _setups_scenario(column.arch, scenario)
    note = (
        f"its setups at EP 1: no experts to spread over EP {scenario.ep}" if laid_out is not scenario else ""
    )
    try:
        setups = fit_setups(column.arch, laid_out, catalog)
    except (ValidationError, ParamTallyError) as exc:
        problem, note = problem or one_line(exc), ""
    return ColumnFigures(
        column.source, report.name, report.total, report.active, report.total_with_mtp,
        memory, problem, dict(report.by_part), setups, note,
    )  # fmt: skip


def _setups_scenario(arch: Architecture, scenario: Scenario) -> Scenario:
    """The scenario a column's GPU setups are laid out under: each count chooses its own TP and PP,
    and expert parallelism means nothing to a model without experts (Mixtral's EP 8 beside GPT-2:
    GPT-2's setups at EP 1, its memory figure refused as ``memory gpt2 --ep 8`` refuses it)."""
    if scenario.ep == 1 or has_experts(arch):
        return scenario
    return with_changes(scenario, (("ep", 1),))


def schema_diff(before: Architecture, after: Architecture) -> Iterator[FieldDiff]:
    """Every schema field whose value differs, nested blocks and layer groups included."""
    yield from _diff((), canonical_dump(before), canonical_dump(after))


def canonical_dump(arch: Architecture) -> dict[str, Any]:
    """``arch`` as JSON data, each layer group's override written as the sparse difference from
    what the group inherits (``core.schema.group_addresses.difference``): a preset's override
    spelling out defaults (q_bias: false) and an edited one without them are the same change, and
    compare as such."""
    data: dict[str, Any] = arch.model_dump(mode="json")
    for group in _groups(arch):
        node: Any = data
        for step in group:
            node = node[step]
        inherited = inherited_block(arch, group).model_dump(mode="json")
        node["override"] = difference(inherited, group_block(arch, group).model_dump(mode="json"))
    return data


def _groups(arch: Architecture) -> Iterator[FieldPath]:
    """Every layer group's address, patterns' groups included, and the MTP modules'."""
    for role, stack in arch.stacks:
        for index in range(len(stack.layers)):
            yield from _with_inner(arch, (role, "layers", index))
    if arch.mtp is not None:
        yield ("mtp",)


def _with_inner(arch: Architecture, group: FieldPath) -> Iterator[FieldPath]:
    yield group
    node = group_at(arch, group)
    for index in range(len(getattr(node, "pattern", ()))):
        yield from _with_inner(arch, (*group, "pattern", index))


def _diff(path: FieldPath, before: Any, after: Any) -> Iterator[FieldDiff]:
    if isinstance(before, dict) and isinstance(after, dict) and _same_kind(before, after):
        for key in [*before, *(key for key in after if key not in before)]:
            yield from _diff((*path, key), before.get(key), after.get(key))
    elif isinstance(before, list) and isinstance(after, list):
        for index in range(max(len(before), len(after))):
            old = before[index] if index < len(before) else None
            new = after[index] if index < len(after) else None
            yield from _diff((*path, index), old, new)
    elif before != after:
        yield FieldDiff(path, before, after)


def _same_kind(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Two parts of different kinds (attention and MLA) differ whole, not field by field."""
    return before.get("kind") == after.get("kind")
