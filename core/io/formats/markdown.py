"""Markdown: GitHub-flavoured tables for a design doc, a pull request or a wiki.

The title is a heading; the facts a CSV records in its '#' lines follow as a short list (a JSON
fact, the architecture or the scenario, as one line in a fenced block), then each table (under
its own heading when there are several: everything at once). A document (the design report)
writes its headings, paragraphs and terms (a table whose rows in bold are added up, then their
sum) in order, and links each chart as an SVG file written beside the ``.md``
(``chart_files``); on standard output, with no file to sit beside, the charts are left out.
Numbers read as a person reads
them (175,221,817,344); every cell is one line, its Markdown punctuation escaped, so a name from
a file (``q_proj``, ``a|b``, ``<b>``) shows as written and cannot break the table or add markup.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import quote

from paramtally.core.io.formats.content import (
    DOCUMENTS,
    TABLES,
    Block,
    Chart,
    Exported,
    ExportFormat,
    Heading,
    Options,
    Paragraph,
    Table,
    Terms,
)
from paramtally.core.text import escaped

__all__ = ["FORMAT", "SVG_DECLARATION", "chart_files"]

SVG_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'


# CommonMark lets any ASCII punctuation be escaped; these start markup in a line or a table cell
# (emphasis, code, links, HTML and entities, strikethrough, cell breaks, GitHub's $math$).
_PUNCTUATION = re.compile(r"([\\`*_\[\]<>|~&$])")


def write_markdown(content: Exported, options: Options) -> str:
    blocks = content.blocks()  # first: a subject that cannot be computed says so before anything else
    lines = [f"# {_inline(content.title)}", "", *_facts(content.facts)]
    document = any(not isinstance(block, Table) for block in blocks)
    for block in blocks:
        lines += _block(block, options, named=len(blocks) > 1 and not document, document=document)
    return "\n".join(lines)


def _block(block: Block, options: Options, named: bool, document: bool) -> list[str]:
    if isinstance(block, Table):
        heading = [f"## {_inline(block.title)}", ""] if named else []
        caption = [f"**{_inline(block.title)}**", ""] if document and block.title else []
        return [*heading, *caption, *_table(block), ""]
    if isinstance(block, Heading):
        return [f"{'#' * block.level} {_inline(block.text)}", ""]
    if isinstance(block, Paragraph):
        return [_inline(block.text), ""]
    if isinstance(block, Terms):
        return [*_terms(block), ""]
    if options.beside is None:  # standard output: no file for the chart to sit beside
        return []
    return [f"![{_inline(block.title)}]({quote(_chart_name(options.beside, block))})", ""]


def _terms(terms: Terms) -> list[str]:
    """The terms as a table: the name indented by its depth (em spaces, which a cell keeps), the
    rows added up in bold, then the sum."""
    rows = []
    for row in terms.rows:
        name = "\u2003" * row.depth + _inline(row.name)
        rows.append(_row([f"**{name}**" if row.counted else name, _inline(row.formula), f"{row.value:,}"]))
    total = [f"**{_inline(terms.total_label)}**", _inline(terms.sum_formula), f"**{terms.total:,}**"]
    return [
        _row(_inline(header) for header in terms.headers),
        _row(["---", "---", "---:"]),
        *rows,
        _row(total),
    ]


def _chart_name(beside: str, chart: Chart) -> str:
    return f"{beside}-{chart.name}.svg"


def chart_files(content: Exported, beside: str) -> list[tuple[str, str]]:
    """The charts a Markdown document links, as (file name beside it, SVG text)."""
    return [
        (_chart_name(beside, block), SVG_DECLARATION + block.svg)
        for block in content.blocks()
        if isinstance(block, Chart)
    ]


def _facts(facts: Sequence[tuple[str, str]]) -> list[str]:
    listed = [f"- **{_inline(key)}**: {_inline(value)}" for key, value in facts if not key.endswith(" json")]
    lines = [*listed, ""] if listed else []
    for key, value in facts:
        if key.endswith(" json"):  # one line of JSON, copied whole from the block
            fence = "`" * max(3, _longest_run(value, "`") + 1)
            lines += [f"**{_inline(key)}**", "", f"{fence}json", escaped(value, keep=""), fence, ""]
    return lines


def _table(table: Table) -> list[str]:
    numeric = [_numeric(row[column] for row in table.rows) for column in table.columns]
    rule = ["---:" if right else "---" for right in numeric]
    return [
        _row(_inline(column) for column in table.columns),
        _row(rule),
        *(_row(_cell(row[column]) for column in table.columns) for row in table.rows),
    ]


def _row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _numeric(values: Iterable[Any]) -> bool:
    """A column of numbers (empty cells aside) is right-aligned, as a spreadsheet shows it."""
    shown = [value for value in values if value not in ("", None)]
    return bool(shown) and all(isinstance(v, int | float) and not isinstance(v, bool) for v in shown)


def _cell(value: Any) -> str:
    if value is None:
        return ""  # as the CSV leaves it: a figure that does not apply
    if isinstance(value, bool):
        return str(value).lower()  # as the CSV says it
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):  # fixed notation, as the CSV writes it: 0.00001393, not 1.393e-05
        return f"{value:,.8f}".rstrip("0").rstrip(".") or "0"
    return _inline(str(value))


def _inline(text: str) -> str:
    """``text`` as one line of literal Markdown text: control characters (a line break too) as
    escapes (``core.text``), markup punctuation backslash-escaped."""
    return _PUNCTUATION.sub(r"\\\1", escaped(text, keep=""))


def _longest_run(text: str, char: str) -> int:
    return max((len(run) for run in re.findall(f"{re.escape(char)}+", text)), default=0)


FORMAT = ExportFormat(
    "md",
    "Markdown",
    ".md",
    "Markdown",
    TABLES | DOCUMENTS | {"everything"},
    write_markdown,
    writes_facts=True,
    companions=chart_files,
)
