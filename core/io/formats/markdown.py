"""Markdown: GitHub-flavoured tables for a design doc, a pull request or a wiki.

The title is a heading; the facts a CSV records in its '#' lines follow as a short list (a JSON
fact, the architecture or the scenario, as one line in a fenced block), then each table (under
its own heading when there are several: everything at once). Numbers read as a person reads
them (175,221,817,344); every cell is one line, its Markdown punctuation escaped, so a name from
a file (``q_proj``, ``a|b``, ``<b>``) shows as written and cannot break the table or add markup.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from paramtally.core.io.formats.content import TABLES, Exported, ExportFormat, Options, Table
from paramtally.core.text import escaped

__all__ = ["FORMAT"]

# CommonMark lets any ASCII punctuation be escaped; these start markup in a line or a table cell
# (emphasis, code, links, HTML and entities, strikethrough, cell breaks, GitHub's $math$).
_PUNCTUATION = re.compile(r"([\\`*_\[\]<>|~&$])")


def write_markdown(content: Exported, options: Options) -> str:
    tables = content.blocks()  # first: a subject that cannot be computed says so before anything else
    lines = [f"# {_inline(content.title)}", "", *_facts(content.facts)]
    for table in tables:
        if len(tables) > 1:
            lines += [f"## {_inline(table.title)}", ""]
        lines += [*_table(table), ""]
    return "\n".join(lines)


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
    "md", "Markdown", ".md", "Markdown", TABLES | {"everything"}, write_markdown, writes_facts=True
)
