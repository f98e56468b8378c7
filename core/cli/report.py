"""``paramtally report SOURCE``: the design report of one architecture under a scenario (issue 35),
as one self-contained HTML page or as Markdown with its charts as SVG files beside it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from paramtally.core.cli.output import printable
from paramtally.core.cli.scenario_flags import add_scenario_arguments, read_scenario
from paramtally.core.io.formats import Options, export_text, format_names, write_file
from paramtally.core.io.model_sources import read_source
from paramtally.core.io.report import report_export
from paramtally.core.io.report_i18n import LANGUAGES
from paramtally.core.schema.advice import warn_hints

__all__ = ["add_arguments", "run"]

EPILOG = (
    "HTML is one page with everything inline (style, SVG charts). Markdown written with -o FILE.md "
    "links its charts as FILE-parts.svg and FILE-memory.svg beside it; on standard output it has "
    "no charts."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source", metavar="SOURCE", help="preset id, preset JSON, config.json or model folder"
    )
    add_scenario_arguments(parser)
    parser.add_argument("--format", choices=format_names("report"), default="html", help="output format")
    parser.add_argument(
        "--output", "-o", metavar="FILE", help="write to FILE instead of stdout ('-': stdout)"
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default="en",
        help="the report's language (en, or zh_CN: Simplified Chinese)",
    )


def run(args: argparse.Namespace) -> int:
    from paramtally.core.cli import version  # late: the package imports this module's siblings

    preset = read_source(args.source)
    arch = preset.architecture
    flagged = read_scenario(args, arch, preset, args.source)
    content = report_export(arch, flagged.scenario, args.source, flagged.notes, args.lang, version())
    if args.output and args.output != "-":
        write_file(args.format, content, Path(args.output))
    else:
        sys.stdout.write(printable(export_text(args.format, content, Options())))
        if args.format == "md":
            print(
                "paramtally report: the charts are left out of Markdown on standard output; "
                "with -o FILE.md they are written as FILE-parts.svg and FILE-memory.svg beside it",
                file=sys.stderr,
            )
    warn_hints(arch, flagged.scenario, preset.file_keys)
    return 0
