"""A term: one named figure of a total (bytes of memory, FLOPs) with its formula and its source.

The number is evaluated once, exactly (``core.formula``); the formula text, numbers filled in, is
made only when someone reads it, so a recompute after an edit stays cheap.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from paramtally.core.formula import Number, evaluate, formula_text

__all__ = ["Number", "Piece", "Term"]

# How a term grows with the context s: ceil(p·min(mult·s, cap)/q) bytes, cap None = ∞.
Piece = tuple[int, int, int, int | None]


@dataclass(frozen=True, slots=True)
class Term:
    """``value`` of one part of a total; ``part`` names the report field it adds to.

    ``growth`` is set on the terms that grow with the context (KV cache, prefill working set),
    written from the same numbers as the formula, so that the longest context that fits is
    found from the very terms shown; a term without it is fixed.
    """

    name: str
    part: str
    expr: str
    source: str
    values: Mapping[str, Number]
    value: int
    growth: Piece | None = None

    @classmethod
    def of(cls, name: str, part: str, expr: str, source: str, **values: Number) -> Term:
        return cls(name, part, expr, source, values, evaluate(expr, values))

    def growing(self, per_token: Number, per: int = 1, cap: int | None = None) -> Term:
        """This term, growing by ``per_token`` for each of ``per``·s tokens, up to ``cap`` of them."""
        rate = Fraction(per_token)
        return replace(self, growth=(rate.numerator, rate.denominator, per, cap))

    @property
    def formula(self) -> str:
        """``expr = numbers filled in = value``, e.g. ``P·bits/8 = 8030261248·16/8 = 16,060,522,496``."""
        return formula_text(self.expr, tuple(self.values.items()))
