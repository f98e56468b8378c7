"""A term: one named figure of a total (bytes of memory, FLOPs) with its formula and its source.

The number is evaluated once, exactly (``core.terms.formula``); the formula text, numbers filled in, is
made only when someone reads it, so a recompute after an edit stays cheap.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import NamedTuple

from paramtally.core.terms.formula import Number, evaluate, exact, formula_text, quantity_text

__all__ = ["Number", "Piece", "Term"]

# How a term grows with the context s: ceil(p·min(mult·(s + offset), cap)/q) bytes, cap None = ∞
# (offset: tokens kept beside the context, as generated ones are in the KV cache).
Piece = tuple[int, int, int, int | None, int]


class Term(NamedTuple):
    """``value`` of one part of a total; ``part`` names the report field it adds to.

    ``growth`` is set on the terms that grow with the context (KV cache, prefill working set),
    written from the same numbers as the formula, so that the longest context that fits is
    found from the very terms shown; a term without it is fixed.

    A named tuple rather than a frozen dataclass: as immutable, and made four times faster (the fit
    table makes terms for every pipeline stage of every layout it tries).
    """

    name: str
    part: str
    expr: str
    source: str
    values: Mapping[str, Number]
    value: int
    growth: Piece | None = None
    # A quantity's exact figure, evaluated once (seconds, tokens per second, dollars: shown with
    # their decimals); None for a count (bytes, FLOPs), whose figure is ``value``.
    figure: Number | None = None

    @classmethod
    def of(cls, name: str, part: str, expr: str, source: str, **values: Number) -> Term:
        return cls(name, part, expr, source, values, evaluate(expr, values))

    @classmethod
    def quantity(cls, name: str, part: str, expr: str, source: str, **values: Number) -> Term:
        """A term whose figure is not a whole count (seconds, tokens per second, dollars):
        ``amount`` is exact, ``value`` its ceiling."""
        figure = exact(expr, values)
        value = figure if isinstance(figure, int) else math.ceil(figure)
        return cls(name, part, expr, source, values, value, figure=figure)

    @property
    def whole(self) -> bool:
        """A count (bytes, FLOPs), not a quantity."""
        return self.figure is None

    @property
    def exact(self) -> Number:
        """The figure before rounding (a count: ``value``)."""
        return self.value if self.figure is None else self.figure

    @property
    def amount(self) -> float:
        return float(self.exact)

    def growing(
        self, per_token: Number, per: int = 1, cap: int | None = None, offset: int = 0, over: int = 1
    ) -> Term:
        """This term, growing by ``per_token``/``over`` for each of ``per``·(s + ``offset``) tokens, up
        to ``cap`` of them."""
        p, q = per_token.numerator, per_token.denominator * over  # an int is its own numerator
        common = math.gcd(p, q)  # lowest terms, as a Fraction has them (made quicker without one)
        growth = (p // common, q // common, per, cap, offset)
        name, part, expr, source, values, value, _, figure = self
        return Term(name, part, expr, source, values, value, growth, figure)

    @property
    def formula(self) -> str:
        """``expr = numbers filled in = value``, e.g. ``P·bits/8 = 8030261248·16/8 = 16,060,522,496``."""
        items = tuple(self.values.items())
        return formula_text(self.expr, items) if self.whole else quantity_text(self.expr, items)
