"""``paramtally solve SOURCE --vary FIELD --target FIGURE=VALUE``: goal-seek one design variable."""

from __future__ import annotations

import argparse
from typing import Any

from paramtally.core.cli.memory import add_scenario_arguments
from paramtally.core.cli.output import add_output_arguments, emit, emit_json, format_table
from paramtally.core.cli.scenario_flags import read_scenario, say_notes, whole_number
from paramtally.core.count.breakdown import human
from paramtally.core.errors import ParamTallyError
from paramtally.core.explore.figures import FIGURES
from paramtally.core.explore.solve import Point, Solution, solve
from paramtally.core.explore.variables import VARIABLES
from paramtally.core.io.export import flops_convention_line
from paramtally.core.io.model_sources import read_source
from paramtally.core.typed_numbers import GB

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source", metavar="SOURCE", help="preset id, preset JSON, config.json or model folder"
    )
    names = ", ".join(variable.name for variable in VARIABLES)
    parser.add_argument(
        "--vary", required=True, metavar="FIELD", help=f"the field to solve for: {names}, or a field path"
    )
    figures = ", ".join(figure.name for figure in FIGURES)
    parser.add_argument(
        "--target",
        required=True,
        metavar="FIGURE=VALUE",
        help=f"{figures} (=, >= or <=; e.g. total=7e9, memory<=80GB, time=30d), "
        "or fits=GPU:COUNT (fits=GPU when varying gpus)",
    )
    parser.add_argument(
        "--multiple-of",
        type=whole_number(),
        default=1,
        metavar="N",
        help="only values that are multiples of N",
    )
    parser.add_argument(
        "--scale-ffn",
        action="store_true",
        help="with --vary hidden_size: every FFN width (dense, expert, shared expert) keeps its ratio "
        "to the hidden size, w·h'/h rounded up, instead of staying as it is",
    )
    add_scenario_arguments(parser)
    add_output_arguments(parser, own=("table", "json"))


def run(args: argparse.Namespace) -> int:
    preset = read_source(args.source)
    arch = preset.architecture
    if args.scale_ffn and args.vary != "hidden_size":
        raise ParamTallyError(f"--scale-ffn goes with --vary hidden_size, not --vary {args.vary}")
    flagged = read_scenario(args, arch, preset, args.source)
    solution = solve(arch, flagged.scenario, args.vary, args.target, args.multiple_of, args.scale_ffn)
    if args.format == "json":
        emit_json(solution.as_dict(), args.output)
        say_notes(flagged.notes)
    else:
        notes = flagged.notes
        if "time" in solution.point.figures:  # the convention the time's FLOPs are counted in
            notes = (*notes, flops_convention_line(flagged.scenario))
        emit(_table(arch.name, solution, arch.max_positions, notes), args.output)
    return 0


def _table(name: str, solution: Solution, max_positions: int, scenario_notes: tuple[str, ...] = ()) -> str:
    target = solution.target
    goal = "fits " + target.text.partition("=")[2] if target.gpu else f"{target.name} {_op(target.op)} "
    if not target.gpu:
        threshold = target.threshold
        goal += _number(threshold if threshold.denominator > 1 else int(threshold), target.name)
    head = f"{name}: {solution.field} = {solution.value:,} ({goal})"
    if solution.scale_ffn:
        head += ", every FFN width scaled with it"
    columns = _columns(solution.point)
    rows = [
        [role, *(_cell(point, key) for key in columns)]
        for role, point in (("below", solution.below), ("answer", solution.point), ("above", solution.above))
        if point is not None
    ]
    table = format_table(["", solution.field, *columns[1:]], rows, right=set(range(1, len(columns))))
    notes = []
    if solution.field == "context" and max_positions and solution.value > max_positions:
        notes.append(f"note: beyond the model's {max_positions:,} positions")
    said = [f"  {note}" for note in scenario_notes]
    return "\n".join([head, *said, "", table.rstrip("\n"), *notes]) + "\n"


def _columns(point: Point) -> list[str]:
    return ["value", *point.figures, "meets"]


def _cell(point: Point, key: str) -> str:
    if key == "value":
        return f"{point.value:,}"
    if key in ("meets", "fits"):
        return "yes" if (point.meets if key == "meets" else point.figures[key]) else "no"
    return _number(point.figures[key], key)


def _number(value: Any, key: str = "") -> str:
    if isinstance(value, bool | str):
        return str(value)
    if key == "time":
        return f"{float(value):,.4g} days"
    if isinstance(value, int) and (key.endswith("bytes") or key in ("memory", "kv")):
        return f"{value:,} ({value / GB:,.2f} GB)"
    if isinstance(value, int):
        return f"{value:,} ({human(value)})" if value >= 10_000 else f"{value:,}"
    return f"{float(value):,.4g}"


def _op(op: str) -> str:
    return "≥" if op == ">=" else "≤"
