"""``paramtally sweep SOURCE --x FIELD=A:B:STEP --y FIELD=A:B:STEP``: a figure over a design space."""

from __future__ import annotations

import argparse

from paramtally.core.cli.memory import add_scenario_arguments
from paramtally.core.cli.output import add_output_arguments, emit_export
from paramtally.core.cli.scenario_flags import read_scenario, say_notes
from paramtally.core.explore.figures import FIGURES
from paramtally.core.explore.sweep import sweep
from paramtally.core.explore.sweep_export import iso_levels, sweep_export
from paramtally.core.io.export import about_rows
from paramtally.core.io.formats import find_format
from paramtally.core.io.model_sources import read_source

__all__ = ["add_arguments", "run"]


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
    add_output_arguments(parser, "sweep")


def run(args: argparse.Namespace) -> int:
    preset = read_source(args.source)
    arch = preset.architecture
    flagged = read_scenario(args, arch, preset, args.source)
    result = sweep(arch, flagged.scenario, args.x, args.y, args.figure, args.fits)
    levels = iso_levels(args.iso or "", result.figure.unit)
    # A table's file records the notes with what it was computed for, as the memory command's does.
    about = about_rows(arch, result.scenario, args.source) + [("note", note) for note in flagged.notes]
    emit_export(args, sweep_export(result, levels, about))
    say_notes(flagged.notes if not find_format(args.format).writes_facts else ())
    return 0
