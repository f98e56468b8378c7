"""Writing command output: to stdout, or atomically to ``--output FILE``.

Names come from files nobody vouches for (a checkpoint's tensor names, a path typed), so what is
printed or written shows control characters, bidirectional controls and lone surrogates as
escapes (``\\x1b``, ``\\u202e``, ``\\ud800``, see ``core.text``): a tensor named with an escape
sequence cannot recolour or rewrite the terminal, nor a NUL reach a pipe, nor a surrogate stop
the output half-way. A table cell and a message are always one line.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

from paramtally.core.errors import ParamTallyError
from paramtally.core.io.atomic import write_text_atomic
from paramtally.core.text import escaped, json_text

if TYPE_CHECKING:
    from paramtally.core.io.formats import Exported, Subject

__all__ = [
    "add_output_arguments",
    "check_output",
    "emit",
    "emit_export",
    "emit_json",
    "format_table",
    "how_many",
    "printable",
    "read_sources",
]

_READ = ("source", "sources", "path")  # the arguments naming what a command reads


def how_many(count: int, noun: str) -> str:
    """``count`` of ``noun`` in words: '1 file', '2 files' (the noun takes an s unless one)."""
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def printable(text: str, one_line: bool = False) -> str:
    """``text`` with unsafe characters as escapes (with ``one_line``, tabs and newlines too)."""
    return escaped(text, keep="" if one_line else "\n\t")


def read_sources(args: argparse.Namespace) -> list[str]:
    """What the command reads, as typed: its SOURCE(s), or ``verify``'s PATH."""
    found: list[str] = []
    for name in _READ:
        value = getattr(args, name, None)
        found += [value] if isinstance(value, str) else value or []
    return found


def check_output(args: argparse.Namespace) -> None:
    """Refuse an ``--output`` that is a file the command reads: the figures would replace the model."""
    output = getattr(args, "output", None)
    if not output or output == "-" or not os.path.exists(output):
        return
    for source in read_sources(args):
        if os.path.isdir(source):  # its config.json, and the weights count and verify read there
            read = Path(source) / "config.json"
            weights = _is_read_from_a_folder(Path(output)) and os.path.samefile(Path(output).parent, source)
        else:
            read, weights = Path(source), False
        if weights or (os.path.exists(read) and os.path.samefile(read, output)):
            raise ParamTallyError(
                f"--output {output} is the file {source} is read from; write to another file"
            )


def _is_read_from_a_folder(path: Path) -> bool:
    """A file of a model folder that ``count`` or ``verify`` reads: its config, weights or index."""
    return path.name in ("config.json", "model.safetensors.index.json") or path.suffix in (
        ".safetensors",
        ".gguf",
    )


class _FormatChoices(Sequence[str]):
    """``--format``'s choices: the command's own forms, then the export formats that can write its
    subject, read from the registry (``core.io.formats``) the first time argparse asks, which it
    does only for a ``--format`` given or for ``--help``: a count printed as a table imports none
    of the exporters (issue 29: a command imports only what it runs)."""

    def __init__(self, own: tuple[str, ...], subject: Subject | None) -> None:
        self._own, self._subject = own, subject

    @cached_property
    def _names(self) -> tuple[str, ...]:
        from paramtally.core.io.formats import format_names

        return self._own + (format_names(self._subject) if self._subject is not None else ())

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        if isinstance(index, int) and 0 <= index < len(self._own):  # the default: no registry
            return self._own[index]
        return self._names[index]

    def __len__(self) -> int:
        return len(self._names)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._own or name in self._names


def add_output_arguments(
    parser: argparse.ArgumentParser, subject: Subject | None = None, own: tuple[str, ...] = ()
) -> None:
    """``--format``: the command's ``own`` forms (``table``: text for the terminal, the default), then
    every export format that can write ``subject`` (``core.io.formats``); and ``--output``."""
    formats = _FormatChoices(own, subject)
    # A metavar, or argparse lists the choices as it adds the option; --help still lists them.
    parser.add_argument(
        "--format", choices=formats, default=formats[0], metavar="FORMAT", help="output format: %(choices)s"
    )
    parser.add_argument(
        "--output", "-o", metavar="FILE", help="write to FILE instead of stdout ('-': stdout)"
    )


def emit(text: str, output: str | None) -> None:
    if output and output != "-":  # '-' is stdout, as for most tools
        write_text_atomic(Path(output), printable(text))
    else:
        sys.stdout.write(printable(text))


def emit_export(args: argparse.Namespace, content: Exported) -> None:
    """``content`` in the export format ``--format`` names, to ``--output`` or stdout."""
    from paramtally.core.io.formats import Options, export_text

    emit(export_text(args.format, content, Options()), args.output)


def emit_json(data: Any, output: str | None) -> None:
    emit(json_text(data) + "\n", output)


def format_table(headers: list[str], rows: list[list[str]], right: set[int] | None = None) -> str:
    """Aligned plain-text columns; ``right`` holds the indexes of right-aligned columns."""
    right = right or set()
    rows = [[printable(str(cell), one_line=True) for cell in row] for row in rows]
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=False)]

    def line(cells: list[str]) -> str:
        padded = [
            str(cell).rjust(width) if index in right else str(cell).ljust(width)
            for index, (cell, width) in enumerate(zip(cells, widths, strict=False))
        ]
        return "  ".join(padded).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return "\n".join([line(headers), rule, *(line(row) for row in rows)]) + "\n"
