"""The export formats, in one registry: each has a name (``--format``), a file suffix, a writer and
the subjects it can export (``content.Subject``). The command line's ``--format`` choices, the
window's File → Export menu and the Compare and Design-space tabs' Export menus all read it.

A new format is one module with a ``FORMAT`` (an ``ExportFormat`` whose writer takes a subject's
``Exported`` content) and its line here.
"""

from __future__ import annotations

from collections.abc import Iterable

from paramtally.core.errors import ParamTallyError
from paramtally.core.io.formats import csv_table, json_data, markdown, pictures
from paramtally.core.io.formats.content import (
    CHARTS,
    TABLES,
    Block,
    Exported,
    ExportFormat,
    Options,
    Subject,
    Table,
    Writer,
)

__all__ = [
    "CHARTS",
    "FORMATS",
    "TABLES",
    "Block",
    "ExportFormat",
    "Exported",
    "Options",
    "Subject",
    "Table",
    "Writer",
    "export_text",
    "find_format",
    "format_names",
    "formats_for",
]

FORMATS: tuple[ExportFormat, ...] = (
    csv_table.FORMAT,
    json_data.FORMAT,
    markdown.FORMAT,
    *pictures.FORMATS,
)


def formats_for(*subjects: Subject) -> tuple[ExportFormat, ...]:
    """The formats that can export any of ``subjects``, in the registry's order."""
    return tuple(form for form in FORMATS if any(form.can_export(subject) for subject in subjects))


def format_names(*subjects: Subject) -> tuple[str, ...]:
    """The ``--format`` choices of a command exporting ``subjects``."""
    return tuple(form.name for form in formats_for(*subjects))


def find_format(name: str) -> ExportFormat:
    for form in FORMATS:
        if form.name == name:
            return form
    raise ParamTallyError(f"no export format '{name}' (there are {_names(FORMATS)})")


def export_text(form: ExportFormat | str, content: Exported, options: Options | None = None) -> str:
    """``content`` written in ``form``: the text a command prints or writes to ``--output``, and the
    window writes to the file chosen."""
    chosen = find_format(form) if isinstance(form, str) else form
    if chosen.write is None:
        raise ParamTallyError(f"{chosen.title} is drawn by the window: no text to write")
    if not chosen.can_export(content.subject):
        raise ParamTallyError(f"{content.title} cannot be exported as {chosen.title}")
    return chosen.write(content, options or Options())


def _names(forms: Iterable[ExportFormat]) -> str:
    return ", ".join(form.name for form in forms)
