"""Exported CSV read back as a spreadsheet or a script would: the byte-order mark, the '# key,value'
lines recording what it was computed for, then the table (``core.io.export.to_csv``)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from paramtally.core.io.export import BOM

__all__ = ["read_csv", "read_csv_text"]


def read_csv_text(text: str) -> tuple[bool, dict[str, str], list[dict[str, str]]]:
    """(starts with a byte-order mark, the '# key,value' lines, the table rows)."""
    bom = text.startswith(BOM)
    lines = text.removeprefix(BOM).split("\n")
    about: dict[str, str] = {}
    while lines and lines[0].startswith("#"):
        key, value = next(csv.reader([lines.pop(0)]))
        about[key.removeprefix("# ")] = value
    if about:
        assert lines.pop(0) == "", "one empty line between the record and the table"
    return bom, about, list(csv.DictReader(io.StringIO("\n".join(lines))))


def read_csv(path: Path) -> tuple[bool, dict[str, str], list[dict[str, str]]]:
    return read_csv_text(path.read_bytes().decode("utf-8"))
