"""The export formats, in one registry: each has a name (``--format``), a file suffix, a writer and
the subjects it can export (``content.Subject``). The command line's ``--format`` choices, the
window's File → Export menu and the Compare and Design-space tabs' Export menus all read it.

A new format is one module with a ``FORMAT`` (an ``ExportFormat`` whose writer takes a subject's
``Exported`` content) and its line here. ``write_file`` is how the command line and the window
write one to a file: atomically, with the files a format writes beside it (a Markdown report's
charts) first.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path

from paramtally.core.errors import ParamTallyError
from paramtally.core.io.atomic import write_text_atomic
from paramtally.core.io.formats import csv_table, html, json_data, markdown, pictures
from paramtally.core.io.formats.content import (
    CHARTS,
    DOCUMENTS,
    TABLES,
    Block,
    Chart,
    Exported,
    ExportFormat,
    Heading,
    Options,
    Paragraph,
    Subject,
    Table,
    TermRow,
    Terms,
    Writer,
)
from paramtally.core.text import say

__all__ = [
    "CHARTS",
    "DOCUMENTS",
    "FORMATS",
    "TABLES",
    "Block",
    "Chart",
    "ExportFormat",
    "Exported",
    "Heading",
    "Options",
    "Paragraph",
    "Subject",
    "Table",
    "TermRow",
    "Terms",
    "Writer",
    "export_text",
    "find_format",
    "format_names",
    "formats_for",
    "write_file",
]

FORMATS: tuple[ExportFormat, ...] = (
    csv_table.FORMAT,
    json_data.FORMAT,
    markdown.FORMAT,
    html.FORMAT,
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
    raise ParamTallyError(
        say("no export format '{name}' (there are {names})", name=name, names=_names(FORMATS))
    )


def export_text(form: ExportFormat | str, content: Exported, options: Options | None = None) -> str:
    """``content`` written in ``form``: the text a command prints or writes to ``--output``, and the
    window writes to the file chosen."""
    chosen = find_format(form) if isinstance(form, str) else form
    if chosen.write is None:
        raise ParamTallyError(say("{title} is drawn by the window: no text to write", title=chosen.title))
    if not chosen.can_export(content.subject):
        raise ParamTallyError(
            say("{title} cannot be exported as {format}", title=content.title, format=chosen.title)
        )
    return chosen.write(content, options or Options())


def write_file(
    form: ExportFormat | str, content: Exported, path: Path, options: Options | None = None
) -> list[Path]:
    """``content`` written in ``form`` to ``path``, and the files the format writes beside it
    (``<stem>-<chart>.svg``), each atomically, those first so that the file never links one
    missing; the files written, ``path`` last."""
    chosen = find_format(form) if isinstance(form, str) else form
    beside = dataclasses.replace(options or Options(), beside=path.stem)
    text = export_text(chosen, content, beside)  # first: a refusal writes nothing
    written: list[Path] = []
    if chosen.companions is not None:
        for name, companion in chosen.companions(content, path.stem):
            write_text_atomic(path.with_name(name), companion)
            written.append(path.with_name(name))
    write_text_atomic(path, text)
    return [*written, path]


def _names(forms: Iterable[ExportFormat]) -> str:
    return ", ".join(form.name for form in forms)
