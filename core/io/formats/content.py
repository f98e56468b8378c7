"""What an export format writes and what it is: the content of one subject, and a format's entry.

A *subject* is what a person exports: a table (the breakdown, the per-layer table, one GPU's
memory terms, the GPU setups, a comparison, a design-space sweep), everything at once, or a chart.
Its content (``Exported``) is built once, by the command line and the window alike
(``core.io.subjects``, ``core.explore.sweep_export``), and every format reads what it needs:
a CSV its one table and the facts it was computed for, JSON the data object, a document format
(Markdown) the facts and every block in order.

A block is a table today. A report (issue 35's design report: the architecture, the derivation,
memory, the setups that fit, FLOPs) is content with many blocks, and adds the kinds it needs
(a heading, a paragraph, a chart drawn as SVG) to ``Block``; each document format then writes
each kind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from paramtally.core.errors import ParamTallyError

__all__ = [
    "CHARTS",
    "TABLES",
    "Block",
    "ExportFormat",
    "Exported",
    "Options",
    "Subject",
    "Table",
    "Writer",
]

Subject = Literal[
    "breakdown",  # the parameter breakdown, one row per node (`paramtally count`)
    "layers",  # the per-layer table
    "memory",  # one GPU's memory terms (`paramtally memory`)
    "gpus",  # the GPU setups and whether each fits
    "compare",  # architectures side by side (`paramtally compare`)
    "sweep",  # a figure over a design space (`paramtally sweep`)
    "everything",  # the window's model, scenario and every table at once
    "bar_chart",
    "pie_chart",
    "memory_chart",
    "compare_chart",
    "heatmap",
]
TABLES: frozenset[Subject] = frozenset({"breakdown", "layers", "memory", "gpus", "compare", "sweep"})
CHARTS: frozenset[Subject] = frozenset({"bar_chart", "pie_chart", "memory_chart", "compare_chart", "heatmap"})


@dataclass(frozen=True)
class Table:
    """Rows under named columns: what a CSV holds; ``title`` names it among others in a document."""

    columns: tuple[str, ...]
    rows: Sequence[Mapping[str, Any]]
    title: str = ""


Block = Table


@dataclass(frozen=True)
class Exported:
    """One subject's content. ``facts``: what it was computed for, as (key, value) (the CSV's '#'
    lines); ``blocks`` and ``data`` are made when a format asks for them, so a CSV never builds
    the JSON object nor JSON the rows."""

    subject: Subject
    title: str
    facts: Sequence[tuple[str, str]] = ()
    blocks: Callable[[], Sequence[Block]] = tuple
    data: Callable[[], Any] | None = None

    def table(self) -> Table:
        """The one table a single-table format (CSV) writes."""
        blocks = self.blocks()
        if len(blocks) != 1 or not isinstance(blocks[0], Table):
            raise ParamTallyError(f"{self.title}: {len(blocks)} tables, not one; choose one table or JSON")
        return blocks[0]


@dataclass(frozen=True)
class Options:
    """How a person wants files written. ``excel``: a CSV starts with a byte-order mark (see
    ``core.io.export``); the window's "CSV for Excel" switch."""

    excel: bool = False


class Writer(Protocol):
    def __call__(self, content: Exported, options: Options) -> str: ...


@dataclass(frozen=True)
class ExportFormat:
    """One format: ``name`` is the ``--format`` choice, ``title`` what a menu says ('Breakdown as
    CSV…'), ``kind`` what a file dialog's filter says; ``exports`` the subjects it can write.
    ``write`` is None for a picture: the window draws charts (``gui/views/export.py``), core has
    no picture of them to write. ``writes_facts``: the file records what it was computed for
    (a CSV's '#' lines); where it does not (JSON holds its own), a command says its notes apart."""

    name: str
    title: str
    suffix: str
    kind: str
    exports: frozenset[Subject]
    write: Writer | None = field(default=None, compare=False)
    writes_facts: bool = False

    @property
    def file_filter(self) -> str:
        """'CSV (*.csv)', as a save dialog lists it."""
        return f"{self.kind} (*{self.suffix})"

    @property
    def picture(self) -> bool:
        return self.write is None

    def can_export(self, subject: Subject) -> bool:
        return subject in self.exports
