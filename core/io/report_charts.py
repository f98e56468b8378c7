"""The design report's charts as SVG 1.1 text, drawn in plain Python (no Qt, no plotting library):
a bar chart (parameters by part) and a stacked bar with its legend (memory by part).

What the file is judged in (librsvg's ``rsvg-convert``, a browser) limits what it uses: plain
rectangles and text, no clip paths, no CSS classes, no external fonts; the font is a list of
families ending in a generic one, with CJK families for a Chinese report. Text widths are
estimated (a CJK character about one em, a Latin one about 0.6 em) to size the label column.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

__all__ = ["PALETTE", "bar_chart", "stacked_bar", "text_width"]

# Okabe–Ito's colour-blind-safe palette (Okabe & Ito 2008), then greys.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999", "#666666")
_LATIN = "'DejaVu Sans', 'Liberation Sans', Arial, 'Noto Sans CJK SC', 'WenQuanYi Micro Hei', sans-serif"
_CJK = (
    "'Noto Sans CJK SC', 'WenQuanYi Micro Hei', 'Microsoft YaHei', 'PingFang SC', 'DejaVu Sans', sans-serif"
)
_SIZE = 13
WIDTH = 760


def _font(cjk: bool) -> str:
    return quoteattr(_CJK if cjk else _LATIN)


def text_width(text: str, size: int = _SIZE) -> float:
    """An estimate of ``text``'s width in pixels at ``size``: wide (CJK) characters one em."""
    return sum(size if ord(char) >= 0x2E80 else size * 0.6 for char in text)


def _text(
    x: float, y: float, text: str, anchor: str = "start", weight: str = "normal", size: int = _SIZE
) -> str:
    bold = ' font-weight="bold"' if weight == "bold" else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{bold}>{escape(text)}</text>'
    )


def _document(title: str, height: float, body: list[str], cjk: bool) -> str:
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{WIDTH}" height="{height:.0f}" '
            f'viewBox="0 0 {WIDTH} {height:.0f}">',
            f"<title>{escape(title)}</title>",
            f'<rect x="0" y="0" width="{WIDTH}" height="{height:.0f}" fill="#ffffff"/>',
            f'<g font-family={_font(cjk)} fill="#1a1a1a">',
            _text(16, 26, title, weight="bold", size=15),
            *body,
            "</g>",
            "</svg>",
        ]
    )


def bar_chart(title: str, bars: Sequence[tuple[str, int, str]], cjk: bool = False) -> str:
    """One horizontal bar per (label, value, value as shown), longest value the full width."""
    label_width = max((text_width(label) for label, _, _ in bars), default=0) + 24
    value_width = max((text_width(shown) for _, _, shown in bars), default=0) + 16
    area = max(WIDTH - label_width - value_width - 16, 80)
    top, row = 44, 26
    largest = max((value for _, value, _ in bars), default=0) or 1
    body: list[str] = []
    for index, (label, value, shown) in enumerate(bars):
        y = top + index * row
        length = max(area * value / largest, 1.0 if value else 0.0)
        colour = PALETTE[index % len(PALETTE)]
        body += [
            _text(label_width - 8, y + 15, label, anchor="end"),
            f'<rect x="{label_width:.1f}" y="{y + 3:.1f}" width="{length:.1f}" height="{row - 8}" '
            f'fill="{colour}"/>',
            _text(label_width + length + 6, y + 15, shown),
        ]
    return _document(title, top + len(bars) * row + 12, body, cjk)


def stacked_bar(title: str, parts: Sequence[tuple[str, int, str]], total: str, cjk: bool = False) -> str:
    """One bar split into (label, value, value as shown) segments, then a legend row per part
    (a part too thin to see in the bar is still named there), and the total."""
    whole = sum(value for _, value, _ in parts) or 1
    left, width, top = 16.0, WIDTH - 32.0, 44
    body: list[str] = []
    x = left
    for index, (_, value, _) in enumerate(parts):
        length = width * value / whole
        colour = PALETTE[index % len(PALETTE)]
        body.append(f'<rect x="{x:.2f}" y="{top}" width="{length:.2f}" height="28" fill="{colour}"/>')
        x += length
    body.append(f'<rect x="{left}" y="{top}" width="{width}" height="28" fill="none" stroke="#1a1a1a"/>')
    legend = top + 48
    for index, (label, value, shown) in enumerate(parts):
        y = legend + index * 22
        colour = PALETTE[index % len(PALETTE)]
        share = f"{value / whole:.1%}"
        body += [
            f'<rect x="{left}" y="{y - 11}" width="12" height="12" fill="{colour}"/>',
            _text(left + 20, y, label),
            _text(WIDTH - 120, y, shown, anchor="end"),
            _text(WIDTH - 16, y, share, anchor="end"),
        ]
    end = legend + len(parts) * 22
    body.append(_text(WIDTH - 120, end + 4, total, anchor="end", weight="bold"))
    return _document(title, end + 18, body, cjk)
