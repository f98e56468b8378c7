"""HTML: one self-contained page (the design report) to open in any browser, attach or archive.

Self-contained means nothing is fetched: the style is inline CSS in the page, each chart an
inline ``<svg>``, no script, no link, no image file, no web font (the font list names local
families, CJK ones for a Chinese page). Every text is escaped (``html.escape``), so a name from a
file shows as written. Numbers read as a person reads them (175,221,817,344); formulas are set
apart in a monospaced font and may wrap.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from paramtally.core.io.formats.content import (
    DOCUMENTS,
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

__all__ = ["FORMAT"]

_FONTS = {
    "en": "'DejaVu Sans', 'Liberation Sans', Arial, 'Noto Sans CJK SC', sans-serif",
    "zh_CN": "'Noto Sans CJK SC', 'WenQuanYi Micro Hei', 'Microsoft YaHei', 'PingFang SC', sans-serif",
}
_STYLE = """
body { font-family: %s; color: #1a1a1a; max-width: 1100px; margin: 2em auto; padding: 0 1em;
       line-height: 1.45; }
h1 { font-size: 1.7em; border-bottom: 2px solid #0072B2; padding-bottom: .2em; }
h2 { font-size: 1.3em; margin-top: 1.8em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.1em; margin-top: 1.4em; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: .2em 1em; }
dl.facts dt { font-weight: bold; }
dl.facts dd { margin: 0; }
table { border-collapse: collapse; margin: .6em 0 1.2em; font-size: .92em; }
caption { text-align: left; font-weight: bold; padding: .3em 0; }
th, td { border: 1px solid #d0d0d0; padding: .25em .6em; vertical-align: top; text-align: left; }
th { background: #eef3f8; }
td.number { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.formula { font-family: 'DejaVu Sans Mono', Consolas, monospace; font-size: .9em; word-break: break-word; }
tr.counted td { font-weight: bold; }
tr.sum td { font-weight: bold; background: #f6f6f6; border-top: 2px solid #888; }
figure { margin: 1em 0; }
figure svg { max-width: 100%%; height: auto; }
"""


def write_html(content: Exported, options: Options) -> str:
    blocks = content.blocks()
    fonts = _FONTS.get(content.language, _FONTS["en"])
    lines = [
        "<!DOCTYPE html>",
        f'<html lang="{escape(content.language.replace("_", "-"))}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(content.title)}</title>",
        f"<style>{_STYLE % fonts}</style>",
        "</head>",
        "<body>",
        f"<h1>{escape(content.title)}</h1>",
        *_facts(content.facts),
        *(line for block in blocks for line in _block(block)),
        "</body>",
        "</html>",
        "",
    ]
    return escaped("\n".join(lines))  # a control character from a file's name shows as an escape


def _facts(facts: Sequence[tuple[str, str]]) -> list[str]:
    if not facts:
        return []
    items = [f"<dt>{escape(key)}</dt><dd>{escape(value)}</dd>" for key, value in facts]
    return ['<dl class="facts">', *items, "</dl>"]


def _block(block: Block) -> list[str]:
    if isinstance(block, Heading):
        level = min(max(block.level, 2), 6)
        return [f"<h{level}>{escape(block.text)}</h{level}>"]
    if isinstance(block, Paragraph):
        return [f"<p>{escape(block.text)}</p>"]
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, Terms):
        return _terms(block)
    return _chart(block)


def _table(table: Table) -> list[str]:
    caption = [f"<caption>{escape(table.title)}</caption>"] if table.title else []
    head = "".join(f"<th>{escape(column)}</th>" for column in table.columns)
    rows = ["<tr>" + "".join(_cell(row[column]) for column in table.columns) + "</tr>" for row in table.rows]
    return ["<table>", *caption, f"<thead><tr>{head}</tr></thead>", "<tbody>", *rows, "</tbody>", "</table>"]


def _cell(value: Any) -> str:
    if value is None:
        return "<td></td>"
    if isinstance(value, bool):
        return f"<td>{str(value).lower()}</td>"
    if isinstance(value, int):
        return f'<td class="number">{value:,}</td>'
    if isinstance(value, float):
        return f'<td class="number">{value:,.6g}</td>'
    return f"<td>{escape(str(value))}</td>"


def _terms(terms: Terms) -> list[str]:
    head = "".join(f"<th>{escape(header)}</th>" for header in terms.headers)
    rows = [
        _term_row(
            row.name,
            row.formula,
            row.value,
            "counted" if row.counted else "",
            f"padding-left: {0.6 + 1.4 * row.depth:.1f}em",
        )
        for row in terms.rows
    ]
    total = _term_row(terms.total_label, terms.sum_formula, terms.total, "sum", "")
    return [
        "<table>",
        f"<caption>{escape(terms.title)}</caption>",
        f"<thead><tr>{head}</tr></thead>",
        "<tbody>",
        *rows,
        total,
        "</tbody>",
        "</table>",
    ]


def _term_row(name: str, formula: str, value: int, kind: str, indent: str) -> str:
    attribute = f' class="{kind}"' if kind else ""
    style = f' style="{indent}"' if indent else ""
    return (
        f"<tr{attribute}><td{style}>{escape(name)}</td>"
        f'<td class="formula">{escape(formula)}</td><td class="number">{value:,}</td></tr>'
    )


def _chart(chart: Chart) -> list[str]:
    return [f'<figure aria-label="{escape(chart.title)}">', chart.svg, "</figure>"]


FORMAT = ExportFormat("html", "HTML", ".html", "HTML page", DOCUMENTS, write_html, writes_facts=True)
