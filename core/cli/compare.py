"""``paramtally compare A B [C …]``: architectures side by side, against a baseline."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from paramtally.core.cli.memory import add_scenario_arguments
from paramtally.core.cli.output import add_output_arguments, emit, emit_export, format_table, printable
from paramtally.core.cli.scenario_flags import read_scenario, say_notes
from paramtally.core.count.breakdown import PART_LABELS, human
from paramtally.core.errors import ParamTallyError
from paramtally.core.explore.compare import ColumnFigures, Comparison, compare, load_columns
from paramtally.core.io.export import scenario_text
from paramtally.core.io.model_sources import read_source
from paramtally.core.io.subjects import comparison_export
from paramtally.core.memory.gpus import load_catalog
from paramtally.core.memory.scenario import gpus_text
from paramtally.core.typed_numbers import GB

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "sources", nargs="+", metavar="SOURCE", help="preset ids, preset JSON, config.json or model folders"
    )
    parser.add_argument(
        "--baseline", metavar="SOURCE", help="the column others are compared with (default: the first)"
    )
    add_scenario_arguments(parser)
    add_output_arguments(parser, "compare", own=("table",))


def run(args: argparse.Namespace) -> int:
    baseline = 0
    if args.baseline is not None:
        if args.baseline not in args.sources:
            raise ParamTallyError(f"--baseline: '{args.baseline}' is not one of the compared sources")
        baseline = args.sources.index(args.baseline)
    columns = load_columns(args.sources)
    # One scenario for all, as the window's Compare takes the open model's: the first column's (the
    # one saved with it, if any, as the window opens it).
    first = args.sources[0]
    users = [column.arch for column in columns]
    flagged = read_scenario(args, columns[0].arch, read_source(first), first, users)
    comparison = compare(columns, flagged.scenario, baseline)
    if args.format == "table":
        emit(_table(comparison, flagged.notes), args.output)
    else:
        emit_export(args, comparison_export(comparison))
        say_notes(flagged.notes)
    return 0


def _delta(comparison: Comparison, column: int, figure: str) -> str:
    if column == comparison.baseline:
        return ""
    delta = comparison.delta(column, figure)
    if delta.absolute is None:
        return ""
    percent = f" ({delta.percent:+.1f}%)" if delta.percent is not None else ""
    shown = f"{delta.absolute / GB:,.2f} GB" if figure == "memory_bytes" else human(delta.absolute)
    return f"{'' if delta.absolute < 0 else '+'}{shown}{percent}"


def _table(comparison: Comparison, notes: tuple[str, ...] = ()) -> str:
    columns = comparison.columns
    headers = [
        "",
        *(f"{c.source}{' (baseline)' if i == comparison.baseline else ''}" for i, c in enumerate(columns)),
    ]
    rows: list[list[str]] = []
    for figure, label in (("total", "total"), ("active", "active"), ("memory_bytes", "memory per GPU")):
        values = []
        for index, column in enumerate(columns):
            value = column.figure(figure)
            if value is None:
                values.append(column.memory_problem or "—")
                continue
            shown = f"{value / GB:,.2f} GB" if figure == "memory_bytes" else human(value)
            delta = _delta(comparison, index, figure)
            values.append(f"{shown} {delta}".strip())
        rows.append([label, *values])
    for part in comparison.parts:
        rows.append(
            [
                PART_LABELS[part],
                *(
                    f"{human(column.by_part.get(part, 0))} {_delta(comparison, index, part)}".strip()
                    for index, column in enumerate(columns)
                ),
            ]
        )
    for gpu in load_catalog():
        fewest = [comparison.fewest_gpus(index, gpu.id) for index in range(len(columns))]
        if any(count is not None for count in fewest):
            rows.append(
                [f"fits on {gpu.id}", *(_fits(column, n) for column, n in zip(columns, fewest, strict=True))]
            )
    table = format_table(headers, rows, right=set(range(1, len(headers))))
    scenario = f"Scenario: {scenario_text(comparison.scenario)}"  # the memory command's line
    lines = [scenario, *(f"  {note}" for note in notes), "", table.rstrip("\n")]
    if any(row[0].startswith("fits on ") for row in rows):
        lines.append(
            f"fits on: the fewest of {_counts_text()} GPUs (`paramtally solve --vary gpus` finds any count)"
        )
        lines += _fits_notes(columns)
    for index, diffs in enumerate(comparison.diffs):
        if index == comparison.baseline or not diffs:
            continue
        lines += ["", f"{_one(columns[index].source)} against {_one(columns[comparison.baseline].source)}:"]
        lines += [f"  {'.'.join(map(str, d.path))}: {_short(d.before)} → {_short(d.after)}" for d in diffs]
    return "\n".join(lines) + "\n"


def _fits(column: ColumnFigures, fewest: int | None) -> str:
    """The fewest GPUs that hold the column, "no" when none of the counts does; "—" when no
    count could be tried (the reason is in its memory per GPU)."""
    if not column.setups:
        return "—"
    return "no" if fewest is None else gpus_text(fewest)


def _fits_notes(columns: Sequence[ColumnFigures]) -> list[str]:
    """Why a column's fits are not under the scenario as it is, or not there at all."""
    notes = [f"  {_one(c.source)}: {c.setups_note}" for c in columns if c.setups_note]
    return notes + [
        f"  {_one(c.source)}: no setup laid out (—): {c.memory_problem}" for c in columns if not c.setups
    ]


def _short(value: object) -> str:
    text = "—" if value is None else str(value)
    return text if len(text) <= 80 else text[:77] + "…"


def _counts_text() -> str:
    """'1, 2, 4 … 64': the GPU counts the setups table tries."""
    from paramtally.core.memory.fit import COUNTS

    return f"{', '.join(map(str, COUNTS[:3]))} … {COUNTS[-1]}"


def _one(source: str) -> str:
    """A source as typed (a path may hold a line break), kept to its line."""
    return printable(source, one_line=True)
