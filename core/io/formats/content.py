"""What an export format writes and what it is: the content of one subject, and a format's entry.

A *subject* is what a person exports: a table (the breakdown, the per-layer table, one GPU's
memory terms, the GPU setups, a comparison, a design-space sweep), everything at once, or a chart.
Its content (``Exported``) is built once, by the command line and the window alike
(``core.io.subjects``, ``core.explore.sweep_export``), and every format reads what it needs:
a CSV its one table and the facts it was computed for, JSON the data object, a document format
(Markdown) the facts and every block in order.

A block is a table, or, in a document (issue 35's design report: the architecture, the
derivation, memory, the setups that fit, FLOPs), a heading, a paragraph, a list of terms with
their formulas and their sum, or a chart drawn as SVG (``core.io.report_charts``). Each document
format (Markdown, HTML) writes each kind; a table format refuses content that is not one table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from paramtally.core.errors import ParamTallyError
from paramtally.core.text import say

__all__ = [
    "CHARTS",
    "DOCUMENTS",
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
    "report",  # the design report: derivation, memory, setups, FLOPs (`paramtally report`)
]
TABLES: frozenset[Subject] = frozenset({"breakdown", "layers", "memory", "gpus", "compare", "sweep"})
CHARTS: frozenset[Subject] = frozenset({"bar_chart", "pie_chart", "memory_chart", "compare_chart", "heatmap"})
DOCUMENTS: frozenset[Subject] = frozenset({"report"})


@dataclass(frozen=True)
class Table:
    """Rows under named columns: what a CSV holds; ``title`` names it among others in a document."""

    columns: tuple[str, ...]
    rows: Sequence[Mapping[str, Any]]
    title: str = ""


@dataclass(frozen=True)
class Heading:
    """A section's title; ``level`` 2 is a section, 3 a sub-section (the content's title is 1)."""

    text: str
    level: int = 2


@dataclass(frozen=True)
class Paragraph:
    """A few sentences of plain text (no markup: each format escapes it)."""

    text: str


@dataclass(frozen=True)
class TermRow:
    """One term of a sum: its name (``depth`` deep in a tree), its formula with the numbers filled
    in, and its figure; ``counted`` says whether it is one of the terms the sum adds (a tree's
    group is shown, its children are added)."""

    name: str
    formula: str
    value: int
    depth: int = 0
    counted: bool = True


@dataclass(frozen=True)
class Terms:
    """Terms with their formulas, then their sum: ``total`` is ``total_label = a + b + … = total``
    written out (``sum_formula``). The figures are the calculator's; a format only writes them."""

    title: str
    rows: Sequence[TermRow]
    total_label: str
    total: int
    sum_formula: str
    headers: tuple[str, str, str] = ("term", "formula", "value")


@dataclass(frozen=True)
class Chart:
    """A chart drawn as one SVG document; ``name`` ends the file name a Markdown report links it
    by ('parts': ``report-parts.svg``)."""

    title: str
    name: str
    svg: str


Block = Table | Heading | Paragraph | Terms | Chart


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
    language: str = "en"  # the language its words are in (a report's: 'en' or 'zh_CN')

    def table(self) -> Table:
        """The one table a single-table format (CSV) writes."""
        blocks = self.blocks()
        if len(blocks) != 1 or not isinstance(blocks[0], Table):
            raise ParamTallyError(
                say("{title}: {n} tables, not one; choose one table or JSON", title=self.title, n=len(blocks))
            )
        return blocks[0]


@dataclass(frozen=True)
class Options:
    """How a person wants files written. ``excel``: a CSV starts with a byte-order mark (see
    ``core.io.export``); the window's "CSV for Excel" switch. ``beside``: the file's name without
    its suffix, when it is written to a file: a Markdown document links its charts as
    ``<beside>-<chart>.svg`` files next to it (``ExportFormat.companions``); None (standard output)
    leaves the charts out."""

    excel: bool = False
    beside: str | None = None


class Writer(Protocol):
    def __call__(self, content: Exported, options: Options) -> str: ...


class Companions(Protocol):
    def __call__(self, content: Exported, beside: str) -> Sequence[tuple[str, str]]: ...


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
    # The files written next to the main one, as (file name, text): a Markdown report's charts.
    companions: Companions | None = field(default=None, compare=False)

    @property
    def file_filter(self) -> str:
        """'CSV (*.csv)', as a save dialog lists it."""
        return f"{self.kind} (*{self.suffix})"

    @property
    def picture(self) -> bool:
        return self.write is None

    def can_export(self, subject: Subject) -> bool:
        return subject in self.exports
