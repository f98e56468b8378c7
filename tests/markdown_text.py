"""Exported Markdown read as a person sees it: rendered by GitHub's own renderer (cmark-gfm, through
cmarkgfm) and read back from the HTML: headings, list items, code blocks and each table's rows of
cell texts, entities decoded."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

import cmarkgfm

__all__ = ["Rendered", "read_markdown"]


@dataclass
class Rendered:
    html: str
    headings: list[tuple[str, str]] = field(default_factory=list)  # (tag, text)
    items: list[str] = field(default_factory=list)
    code: list[str] = field(default_factory=list)
    tables: list[list[list[str]]] = field(default_factory=list)  # header row first
    tags: set[str] = field(default_factory=set)  # every element the page has

    def facts(self) -> dict[str, str]:
        """The list items 'key: value' and each labelled code block, as the CSV's '#' lines hold them."""
        listed = dict(item.split(": ", 1) for item in self.items)
        labels = [text for tag, text in self.headings if tag == "strong-paragraph"]
        return listed | dict(zip(labels, (block.rstrip("\n") for block in self.code), strict=True))

    def rows(self, index: int = 0) -> list[dict[str, str]]:
        header, *body = self.tables[index]
        return [dict(zip(header, row, strict=True)) for row in body]


class _Reader(HTMLParser):
    def __init__(self, rendered: Rendered) -> None:
        super().__init__(convert_charrefs=True)
        self.rendered = rendered
        self.open: list[str] = []
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.rendered.tags.add(tag)
        self.open.append(tag)
        if tag in ("h1", "h2", "li", "pre", "td", "th", "p"):
            self.text = ""
        if tag == "table":
            self.rendered.tables.append([])
        if tag == "tr":
            self.rendered.tables[-1].append([])

    def handle_endtag(self, tag: str) -> None:
        self.open.pop()
        text = self.text.strip() if tag != "pre" else self.text
        if tag in ("h1", "h2"):
            self.rendered.headings.append((tag, text))
        elif tag == "li":
            self.rendered.items.append(text)
        elif tag == "pre":
            self.rendered.code.append(text)
        elif tag in ("td", "th"):
            self.rendered.tables[-1][-1].append(text)
        elif tag == "p" and text.endswith(" json") and "\n" not in text:
            self.rendered.headings.append(("strong-paragraph", text))  # a code block's label

    def handle_data(self, data: str) -> None:
        self.text += data


def read_markdown(text: str) -> Rendered:
    html = cmarkgfm.github_flavored_markdown_to_html(text)
    rendered = Rendered(html)
    _Reader(rendered).feed(html)
    return rendered
