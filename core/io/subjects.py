"""What each subject exports (``core.io.formats``): its title, the facts it was computed for, its
tables and its JSON object, made by the same function for the command line and the window.

The rows and objects themselves are ``core.io.export``'s; a design-space sweep's are
``core.explore.sweep_export``'s.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from paramtally.core.count.breakdown import ParamReport
from paramtally.core.io import export
from paramtally.core.io.formats import Exported, Table

if TYPE_CHECKING:
    from paramtally.core.explore.compare import Comparison
    from paramtally.core.memory.estimate import MemoryReport
    from paramtally.core.memory.fit import SetupFit
    from paramtally.core.memory.flops import FlopsReport
    from paramtally.core.memory.scenario import Scenario
    from paramtally.core.memory.serving import ServingReport
    from paramtally.core.schema import Architecture

__all__ = [
    "breakdown_export",
    "comparison_export",
    "everything_export",
    "gpus_export",
    "layers_export",
    "memory_export",
]

Facts = Sequence[tuple[str, str]]


def _breakdown_table(report: ParamReport) -> Table:
    return Table(export.BREAKDOWN_COLUMNS, export.breakdown_rows(report), "Parameter breakdown")


def _layers_table(report: ParamReport) -> Table:
    return Table(export.LAYER_COLUMNS, export.layer_rows(report), "Parameters per layer")


def _memory_table(memory: MemoryReport) -> Table:
    return Table(export.MEMORY_COLUMNS, export.memory_rows(memory), "Memory per GPU")


def _gpus_table(setups: Sequence[SetupFit]) -> Table:
    return Table(export.GPU_COLUMNS, export.gpu_rows(setups), "GPU setups")


def breakdown_export(report: ParamReport, facts: Facts = (), layers: bool = False) -> Exported:
    """``paramtally count``: the breakdown (``layers``: the per-layer table instead) and, as JSON,
    the count's totals, parts and runs of layers (``layers``: the per-layer rows too)."""
    title = f"{report.name}: {'parameters per layer' if layers else 'parameter breakdown'}"
    table = _layers_table if layers else _breakdown_table
    return Exported(
        "breakdown",
        title,
        facts,
        lambda: (table(report),),
        lambda: export.report_json(report, layers=layers),
    )


def layers_export(report: ParamReport, facts: Facts = ()) -> Exported:
    """The per-layer table on its own: ``count --layers``'s table (its JSON is the count's)."""
    return dataclasses.replace(breakdown_export(report, facts, layers=True), subject="layers", data=None)


def memory_export(
    architecture: Architecture,
    scenario: Scenario,
    memory: MemoryReport,
    setups: tuple[SetupFit, ...],
    flops: FlopsReport | None,
    serving: ServingReport | None = None,
    source: str = "",
    facts: Facts = (),
    setups_table: bool = False,
) -> Exported:
    """``paramtally memory``: the busiest GPU's memory terms (``setups_table``: the GPU setups
    instead) and, as JSON, everything the command computed (``export.memory_json``, with
    ``setups`` as given: the command fits them with the largest batch); no JSON without FLOPs."""
    what = "GPU setups" if setups_table else "memory per GPU"

    def tables() -> tuple[Table, ...]:
        return (_gpus_table(setups) if setups_table else _memory_table(memory),)

    def data(flops: FlopsReport) -> Callable[[], object]:
        return lambda: export.memory_json(architecture, scenario, memory, setups, flops, serving, source)

    return Exported(
        "memory", f"{architecture.name}: {what}", facts, tables, None if flops is None else data(flops)
    )


def gpus_export(architecture: Architecture, setups: tuple[SetupFit, ...], facts: Facts = ()) -> Exported:
    """The GPU setups on their own (``memory --setups``'s table; its JSON is the memory's)."""
    return Exported("gpus", f"{architecture.name}: GPU setups", facts, lambda: (_gpus_table(setups),))


def everything_export(
    report: ParamReport,
    memory: MemoryReport | None,
    setups: tuple[SetupFit, ...],
    architecture: Architecture,
    scenario: Scenario,
    serving: ServingReport | None,
    facts: Facts = (),
) -> Exported:
    """The window's everything: every table (the memory ones when the scenario has figures) and,
    as JSON, ``export.export_json``."""

    def tables() -> tuple[Table, ...]:
        found = [_breakdown_table(report), _layers_table(report)]
        if memory is not None:
            found.append(_memory_table(memory))
        if setups:
            found.append(_gpus_table(setups))
        return tuple(found)

    def data() -> object:
        return export.export_json(report, memory, setups or None, architecture, scenario, serving)

    return Exported("everything", architecture.name, facts, tables, data)


def comparison_export(comparison: Comparison) -> Exported:
    """``paramtally compare`` and the Compare tab: long-form rows (headline, parts, fits, schema
    diff) after the scenario all columns share (the rows name the models); as JSON
    ``export.comparison_json``."""
    baseline = comparison.columns[comparison.baseline].source
    return Exported(
        "compare",
        f"Comparison against {baseline}",
        export.about_rows(None, comparison.scenario),
        lambda: (Table(export.COMPARE_COLUMNS, export.comparison_rows(comparison), "Comparison"),),
        lambda: export.comparison_json(comparison),
    )
