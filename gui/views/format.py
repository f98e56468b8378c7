"""Text for figures the core computed: parameter counts, bytes in GiB and GB, shares, rates.

Formatting only; every number shown here arrives from ``core``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP

from paramtally.core.count.breakdown import human, percent
from paramtally.core.typed_numbers import GB, GIB
from paramtally.gui.i18n import translate

__all__ = [
    "bytes_apart",
    "bytes_both",
    "bytes_scaled",
    "duration_text",
    "gib",
    "params_text",
    "problem_text",
    "rate_text",
    "scientific",
    "seconds_text",
    "share_text",
    "signed_bytes_both",
    "terms_text",
]


def params_text(count: int) -> str:
    """175221817344 → '175,221,817,344 (175.22B)'."""
    return f"{count:,} ({human(count)})"


def gib(count: float) -> str:
    return f"{count / GIB:,.1f} GiB"


def bytes_both(count: float) -> str:
    """Both binary and decimal units, because GPU vendors sell GB and tools print GiB."""
    return f"{count / GIB:,.1f} GiB · {count / GB:,.1f} GB"


def bytes_apart(counts: Sequence[int | float]) -> list[str]:
    """Byte counts read side by side (a column of rows, the target beside them) as ``bytes_both``,
    or, when two of them would read the same, each with its exact bytes first: either side of a
    24 GB budget one token of context is 128 KiB, and three rows all read '22.4 GiB · 24.0 GB'."""
    texts = [bytes_both(count) for count in counts]
    if len(set(texts)) == len(texts):
        return texts
    return [f"{_exact(count)} B ({text})" for count, text in zip(counts, texts, strict=True)]


def _exact(count: int | float) -> str:
    return f"{count:,}" if isinstance(count, int) else f"{count:,.1f}"


def bytes_scaled(count: float) -> str:
    """In the binary unit that keeps it readable: a recurrent state of 8.4 MiB is not '0.0 GiB'."""
    for unit, size in (("GiB", GIB), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= size:
            return f"{count / size:,.1f} {unit}"
    return f"{count:,.0f} B"


def signed_bytes_both(count: float) -> str:
    """Free memory as '+x free', a shortfall as '−x missing'."""
    if count >= 0:
        return translate("Figures", "{amount} free").format(amount=bytes_both(count))
    return translate("Figures", "{amount} missing").format(amount=bytes_both(-count))


def share_text(part: float, total: float) -> str:
    if total <= 0:
        return "–"
    if part == 0:
        return "0 %"
    return f"{percent(part, total, 2 if 100 * part < 10 * total else 1)} %"


def rate_text(value: float | None, unit: str = "") -> str:
    """A rate or an optional figure; None when the core has no answer (e.g. training mode)."""
    if value is None:
        return "–"
    return f"{human(value)}{unit}" if value >= 1000 else f"{value:,.1f}{unit}"


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def scientific(value: float) -> str:
    """3.1536e+23 → '3.15 × 10²³' (FLOP counts outgrow K/M/B/T)."""
    if value == 0:
        return "0"
    # An int goes through Decimal: a float conversion would overflow past 1.8e308.
    number = Decimal(value) if isinstance(value, int) else value
    mantissa, exponent = f"{number:.2e}".split("e")
    return f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def duration_text(seconds: float) -> str:
    units = (
        (365.25 * 86400, QT_TRANSLATE_NOOP("Figures", "{amount} years")),
        (86400, QT_TRANSLATE_NOOP("Figures", "{amount} days")),
        (3600, QT_TRANSLATE_NOOP("Figures", "{amount} hours")),
        (60, QT_TRANSLATE_NOOP("Figures", "{amount} minutes")),
    )
    for size, unit in units:
        if seconds >= size:
            return translate("Figures", unit).format(amount=f"{seconds / size:,.1f}")
    return f"{seconds:,.1f} s"


def seconds_text(value: float | None) -> str:
    """A short time: '0.42 s', '35 ms', '2.1 min'; '–' when the core has none."""
    if value is None:
        return "–"
    if value < 1:
        return f"{value * 1000:,.3g} ms"
    return f"{value:,.3g} s" if value < 60 else duration_text(value)


def problem_text(reason: str) -> str:
    """pydantic's three-line message as 'field: reason' (the core's one_line shape)."""
    lines = [line.strip() for line in reason.splitlines() if line.strip()]
    if len(lines) >= 3 and "validation error" in lines[0]:
        return f"{lines[1]}: {lines[2].split(' [type=')[0]}"
    return " ".join(lines)


def terms_text(terms: Iterable[Any]) -> str:
    """Every term with its formula and source, a line each (the FLOPs and serving tooltips)."""
    return "\n".join(f"{term.name}: {term.formula}  [{term.source}]" for term in terms)
