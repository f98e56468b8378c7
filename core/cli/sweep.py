"""``paramtally sweep SOURCE --x FIELD=A:B:STEP --y FIELD=A:B:STEP``: a figure over a design space."""

from __future__ import annotations

import argparse
from typing import Any

from paramtally.core.cli.memory import add_scenario_arguments, scenario_from_args
from paramtally.core.cli.output import add_output_arguments, emit, emit_json
from paramtally.core.explore.figures import FIGURES, parse_quantity
from paramtally.core.explore.sweep import Sweep, sweep
from paramtally.core.export import to_csv
from paramtally.core.sources import load_source

__all__ = ["add_arguments", "run", "sweep_json", "sweep_rows"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source", metavar="SOURCE", help="preset id, preset JSON, config.json or model folder"
    )
    axis = "FIELD=FIRST:LAST:STEP (or FIELD=V1,V2,…)"
    parser.add_argument("--x", required=True, metavar="AXIS", help=f"the first field: {axis}")
    parser.add_argument("--y", required=True, metavar="AXIS", help="the second field, the same way")
    parser.add_argument(
        "--figure",
        default="total",
        choices=[figure.name for figure in FIGURES],
        help="what each cell holds (default total)",
    )
    parser.add_argument("--fits", metavar="GPU:COUNT", help="also whether each variant fits this setup")
    parser.add_argument(
        "--iso", metavar="V[,V…]", help="levels whose crossings to list (e.g. 7e9,10e9; 80GB)"
    )
    add_scenario_arguments(parser)
    add_output_arguments(parser, ("csv", "json"))


def run(args: argparse.Namespace) -> int:
    arch = load_source(args.source)
    result = sweep(arch, scenario_from_args(args, arch), args.x, args.y, args.figure, args.fits)
    texts = [level.strip() for level in (args.iso or "").split(",") if level.strip()]
    levels = [parse_quantity(text, result.figure.unit, "--iso") for text in texts]
    if args.format == "json":
        emit_json(sweep_json(result, levels), args.output)
    else:
        # A grid of cells has no room for the crossings JSON lists: a column per level says which side
        # of it each cell is (the iso-line runs between a yes and a no).
        marks = [(f"{result.figure.name}>={text}", level) for text, level in zip(texts, levels, strict=True)]
        columns = [
            result.x.name,
            result.y.name,
            result.figure.name,
            *(["fits"] if result.fits is not None else []),
            *(name for name, _ in marks),
        ]
        emit(to_csv(sweep_rows(result, marks), columns), args.output)
    return 0


def sweep_rows(result: Sweep, marks: list[tuple[str, Any]] | None = None) -> list[dict[str, Any]]:
    """One row per cell (y outer, x inner); an invalid variant has an empty value. ``marks``: a
    column per (name, level) saying whether the cell's figure is at least the level."""
    rows = []
    for j, y in enumerate(result.y.values):
        for i, x in enumerate(result.x.values):
            value = result.value(i, j)
            row: dict[str, Any] = {
                result.x.name: x,
                result.y.name: y,
                result.figure.name: "" if value is None else value,
            }
            if result.fits is not None:
                row["fits"] = bool(result.fits[j, i]) if value is not None else ""
            for name, level in marks or ():
                row[name] = "" if value is None else value >= level
            rows.append(row)
    return rows


def sweep_json(result: Sweep, levels: list[Any]) -> dict[str, Any]:
    values = [[result.value(i, j) for i in range(len(result.x.values))] for j in range(len(result.y.values))]
    data: dict[str, Any] = {
        "figure": result.figure.name,
        "unit": result.figure.unit,
        "x": {"field": result.x.name, "values": list(result.x.values)},
        "y": {"field": result.y.name, "values": list(result.y.values)},
        "values": values,
        "method": result.method,
        "pieces": result.pieces,
        "evaluations": result.evaluations,
    }
    if result.reason:
        data["reason"] = result.reason
    if result.fits is not None:
        data["setup"] = result.setup
        data["fits"] = [
            [bool(result.fits[j, i]) if result.valid[j, i] else None for i in range(len(result.x.values))]
            for j in range(len(result.y.values))
        ]
        data["boundary"] = [[list(a), list(b)] for a, b in result.boundary()]
    if levels:
        data["iso"] = [
            {
                "level": float(level) if level.denominator > 1 else int(level),
                "pairs": [[list(a), list(b)] for a, b in result.crossings(level)],
            }
            for level in levels
        ]
    return data
