"""Writing command output: to stdout, or atomically to ``--output FILE``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from paramtally.core.atomic import write_text_atomic

__all__ = ["add_output_arguments", "emit", "emit_json", "format_table"]


def add_output_arguments(parser: argparse.ArgumentParser, formats: tuple[str, ...]) -> None:
    parser.add_argument("--format", choices=formats, default=formats[0], help="output format")
    parser.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of stdout")


def emit(text: str, output: str | None) -> None:
    if output:
        write_text_atomic(Path(output), text)
    else:
        sys.stdout.write(text)


def emit_json(data: Any, output: str | None) -> None:
    emit(json.dumps(data, indent=2, ensure_ascii=False) + "\n", output)


def format_table(headers: list[str], rows: list[list[str]], right: set[int] | None = None) -> str:
    """Aligned plain-text columns; ``right`` holds the indexes of right-aligned columns."""
    right = right or set()
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=False)]

    def line(cells: list[str]) -> str:
        padded = [
            str(cell).rjust(width) if index in right else str(cell).ljust(width)
            for index, (cell, width) in enumerate(zip(cells, widths, strict=False))
        ]
        return "  ".join(padded).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return "\n".join([line(headers), rule, *(line(row) for row in rows)]) + "\n"
