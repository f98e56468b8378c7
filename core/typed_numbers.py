"""One syntax for a number a person types: in a window's field, a dialog, or on the command line.

- digits, with or without separators: ``175221817344``, ``175,221,817,344``, ``175 221 817 344``
  (a comma or a space separates groups of three digits), ``175_221_817_344`` (an underscore may
  stand between any two digits, as in Python);
- a decimal point and an exponent: ``1e3``, ``7.5e9``, ``2.5E-1``;
- a suffix for the scale of the quantity: ``k``, ``M``, ``B`` (or ``G``) and ``T`` for a count
  (thousand, million, billion, trillion: ``2T`` tokens; ``32k`` is 32,000), and ``Ki``, ``Mi``,
  ``Gi``, ``Ti`` for powers of 1,024 (``32Ki`` is 32,768); for a length in tokens (a context, a
  window, the positions) ``k`` and ``M`` are powers of 1,024, as those lengths are named (a 32k
  context holds 32,768 tokens, a 1M one 1,048,576); ``KB``,
  ``MB``, ``GB``, ``TB`` (powers of 1,000) and ``KiB``, ``MiB``, ``GiB``, ``TiB`` (of 1,024) for
  bytes; ``k``, ``M``, ``G``, ``T``, ``P`` for FLOPs; ``d``, ``h``, ``s`` for days. Letter case is
  free, and a space may stand before the suffix (``80 GB``); for a count, ``m`` is a million,
  never a thousandth. A share or a rate (a 'number': MFU, a dropout) takes no suffix.

The value is exact (a Fraction: ``7.25e9`` is 7,250,000,000, not a float near it). A number that
does not read says why in one line, for the field or flag to show.
"""

from __future__ import annotations

import re
from fractions import Fraction

from paramtally.core.errors import ParamTallyError
from paramtally.core.text import say

__all__ = [
    "GB",
    "GIB",
    "MAX_QUANTITY",
    "UNITS",
    "NumberError",
    "binary_size",
    "parse_number",
    "parse_quantity",
    "parse_whole",
    "suffixes",
]

_THOUSAND, _KIB = 10**3, 2**10
# The byte units every figure is read and shown in: GPU vendors sell GB, tools print GiB.
GIB = _KIB**3
GB = _THOUSAND**3


def binary_size(count: int) -> str:
    """Bytes as a person reads a file's size: 5,184,688,128 → '4.83 GiB'."""
    for power, unit in ((4, "TiB"), (3, "GiB"), (2, "MiB"), (1, "KiB")):
        if count >= _KIB**power:
            return f"{count / _KIB**power:,.2f} {unit}"
    return f"{count:,} B"


_SCALES: dict[str, dict[str, int | Fraction]] = {
    "count": {"k": _THOUSAND, "m": _THOUSAND**2, "b": _THOUSAND**3, "g": _THOUSAND**3, "t": _THOUSAND**4,
              "ki": _KIB, "mi": _KIB**2, "gi": _KIB**3, "ti": _KIB**4},
    "length": {"k": _KIB, "m": _KIB**2, "ki": _KIB, "mi": _KIB**2},
    "bytes": {"b": 1, "kb": _THOUSAND, "mb": _THOUSAND**2, "gb": GB, "tb": _THOUSAND**4,
              "kib": _KIB, "mib": _KIB**2, "gib": GIB, "tib": _KIB**4},
    "FLOP": {"k": _THOUSAND, "m": _THOUSAND**2, "g": _THOUSAND**3, "t": _THOUSAND**4, "p": _THOUSAND**5},
    "days": {"d": 1, "h": Fraction(1, 24), "s": Fraction(1, 86_400)},
    "number": {},  # a share or a rate (MFU 0.4): digits and an exponent, no suffix
}  # fmt: skip
_SHOWN = {  # the suffixes as a message names them
    "count": "k, M, B, T; Ki, Mi, Gi, Ti",
    "length": "k = 1,024 and M = 1,048,576 tokens",
    "bytes": "KB, MB, GB, TB, KiB, MiB, GiB, TiB",
    "FLOP": "k, M, G, T, P",
    "days": "d, h, s",
    "number": "none",
}
UNITS = tuple(_SCALES)
_ALIASES = {"params": "count"}  # a figure's unit that counts
# A target or level beyond 10³⁰ (parameters, bytes, FLOPs or days) is no design goal; below it, every
# figure compared with it is finite.
MAX_QUANTITY = 10**30
_LARGEST_EXPONENT = 100  # 1e100 is past every limit a field has; 1e1000000000 would take minutes
_MOST_DIGITS = 1000  # Python reads at most 4,300 digits into an int; no field holds 1,000
_SHOWN_CHARACTERS = 40  # of the text, quoted in a message
_SEPARATOR = "[,  \u202f\u2009]"  # comma, space, no-break space, narrow no-break space, thin space
_NUMBER = re.compile(
    rf"(?P<sign>[+-]?)(?P<whole>\d{{1,3}}(?:{_SEPARATOR}\d{{3}})+|\d*)"
    r"(?:\.(?P<fraction>\d*))?(?:[eE](?P<exponent>[+-]?\d+))?"
)
_SUFFIX = re.compile(r"(?P<number>.*?)\s*(?P<suffix>[A-Za-z]*)")


class NumberError(ParamTallyError):
    """Typed text that is not a number of its kind; the message says why, in a line."""


class TooLarge(NumberError):
    """A number past every limit a quantity has (an exponent above 100): refused before it is made."""


def suffixes(unit: str) -> str:
    """The suffixes ``unit`` takes, as a message names them ('k, M, B, T')."""
    return _SHOWN[_ALIASES.get(unit, unit)]


def _example(unit: str) -> str:
    examples = {
        "bytes": "1073741824, 1,073,741,824, 1.07e9 or 1 GiB",
        "days": "30, 2.5e1 or 720h",
        "number": "0.4, 0.95 or 4e-1",
        "length": "32768, 32,768 or 32k",
    }
    return examples.get(unit, "32768, 32,768, 3.2e4 or 32k")


def _quoted(text: str) -> str:
    return text if len(text) <= _SHOWN_CHARACTERS else text[: _SHOWN_CHARACTERS - 1] + "…"


def parse_number(text: str, unit: str = "count") -> Fraction:
    """The exact number ``text`` spells for a quantity of ``unit`` ('count', 'bytes', 'FLOP',
    'days'); NumberError saying why when it spells none."""
    unit = _ALIASES.get(unit, unit)
    typed = _quoted(text.strip())
    if len(text) > _MOST_DIGITS + _SHOWN_CHARACTERS:
        raise NumberError(
            say("'{typed}' is too long: a number has at most {n:,} digits", typed=typed, n=_MOST_DIGITS)
        )
    parts = _SUFFIX.fullmatch(text.strip())
    assert parts is not None  # the pattern matches any text
    body = re.sub(r"(?<=\d)_(?=\d)", "", parts["number"])
    number = _NUMBER.fullmatch(body)
    if not typed:
        raise NumberError(say("type a number: {example}", example=_example(unit)))
    if number is None or not (number["whole"] or number["fraction"]):
        if "," in body and re.fullmatch(r"[+-]?[\d,]+(\.\d*)?", body):
            raise NumberError(
                say(
                    "'{typed}': a comma separates thousands (1,500); a fraction takes a point (1.5)",
                    typed=typed,
                )
            )
        raise NumberError(
            say("'{typed}' is not a number: type {example}", typed=typed, example=_example(unit))
        )
    suffix = parts["suffix"].lower()
    scale = _SCALES[unit].get(suffix, 1 if not suffix else None)
    if scale is None and not _SCALES[unit]:
        raise NumberError(
            say("'{typed}' is not a number: type {example}", typed=typed, example=_example(unit))
        )
    if scale is None:
        raise NumberError(
            say(
                "'{typed}': unknown suffix '{suffix}' (it takes {suffixes})",
                typed=typed,
                suffix=parts["suffix"],
                suffixes=_SHOWN[unit],
            )
        )
    if len(number["whole"]) + len(number["fraction"] or "") > _MOST_DIGITS:
        raise NumberError(
            say("'{typed}' is too long: a number has at most {n:,} digits", typed=typed, n=_MOST_DIGITS)
        )
    exponent = int(number["exponent"] or 0)
    if abs(exponent) > _LARGEST_EXPONENT:
        error = TooLarge if exponent > 0 else NumberError
        raise error(say("'{typed}': an exponent runs from -{n} to {n}", typed=typed, n=_LARGEST_EXPONENT))
    digits = re.sub(_SEPARATOR, "", number["whole"]) + "." + (number["fraction"] or "")
    value = Fraction(digits) * Fraction(10) ** exponent * scale
    return -value if number["sign"] == "-" else value


def parse_whole(text: str, unit: str = "count") -> int:
    """The whole number ``text`` spells (``32k``, ``1e3``, ``1,024``); NumberError otherwise."""
    value = parse_number(text, unit)
    if value.denominator != 1:
        typed = _quoted(text.strip())
        if abs(value) >= 10**15:  # 1e400 is no float
            raise NumberError(say("'{typed}' is not a whole number", typed=typed))
        raise NumberError(say("'{typed}' is not a whole number ({near:g})", typed=typed, near=float(value)))
    return value.numerator


def parse_quantity(text: str, unit: str, what: str) -> Fraction:
    """A figure's target or level (``7e9``, ``7B``, ``80GB``, ``80GiB``, ``30d``), at least 0; the
    error names ``what`` it is for."""
    too_large = NumberError(f"{what}: '{_quoted(text)}' is more than 10^30 {unit}, beyond any model")
    try:
        value = parse_number(text, unit)
    except TooLarge:
        raise too_large from None
    except NumberError:
        said = f"'{_quoted(text)}' is not a number of {unit} (suffixes: {suffixes(unit)})"
        raise NumberError(f"{what}: {said}") from None
    if value < 0:
        raise NumberError(f"{what}: '{_quoted(text)}' is negative; a number of {unit} is at least 0")
    if value > MAX_QUANTITY:
        raise too_large
    return value
