"""The term: one named figure of a total (parameters, bytes of memory, FLOPs) with its formula.

Parameters, memory and FLOPs are made of this one type, so every view, export and explore tool reads
a figure and its formula the same way. The number is evaluated once, exactly
(``core.terms.formula``); the formula text, numbers filled in, is made only when someone reads it,
so a recompute after an edit stays cheap. A term may hold child terms (the parameter breakdown is a
tree: a group sums its children) and may stand for ``count`` repeated units (the layers of a run).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import NamedTuple

from paramtally.core.terms.formula import Number, evaluate, exact, formula_text, quantity_text
from paramtally.core.text import say

__all__ = ["Number", "Path", "Piece", "Term", "group"]

# How a term grows with the context s: ceil(p·min(mult·(s + offset), cap)/q) bytes, cap None = ∞
# (offset: tokens kept beside the context, as generated ones are in the KV cache).
Piece = tuple[int, int, int, int | None, int]
Path = tuple[str, ...]  # a term's place in a tree: the names from the root down
_NO_VALUES: Mapping[str, Number] = MappingProxyType({})


class Term(NamedTuple):
    """``value`` of one part of a total; ``part`` names the category (or report field) it adds to.

    The formula is an expression with its values (``expr``, ``values``: the figure and its text
    come from the same numbers) or, without an expression, finished ``text`` (a group's note, "one
    block = …"). ``source`` names where a rule comes from (a paper, a transformers module).
    ``value`` covers ``count`` repeated units (the layers of a run), the formula says one unit;
    ``added`` marks what is not the base model (LoRA, adapters, new tokens); ``children`` are the
    terms a group sums.

    ``growth`` is set on the memory terms that grow with the context (KV cache, prefill working
    set), written from the same numbers as the formula, so that the longest context that fits is
    found from the very terms shown; a term without it is fixed. ``figure`` is a quantity's exact
    value (seconds, tokens per second, dollars: shown with their decimals); None for a count
    (parameters, bytes, FLOPs), whose figure is ``value``. ``frozen`` marks parameters that never
    train (no gradients, no optimizer states).

    A named tuple rather than a frozen dataclass: as immutable, and made four times faster
    (measured). A parameter report makes some sixty per edit, and the fit table makes memory terms
    for every pipeline stage of every layout it tries. ``values`` is kept as the dict the term was
    made from (no one changes it), so a term is not hashed.
    """

    name: str
    value: int
    part: str = ""
    text: str = ""  # a formula given as finished text
    count: int = 1  # type: ignore[assignment]  # shadows tuple.count, which a term never needs
    added: bool = False
    children: tuple[Term, ...] = ()
    expr: str = ""
    values: Mapping[str, Number] = _NO_VALUES  # the expression's symbols and their numbers
    source: str = ""
    growth: Piece | None = None
    figure: Number | None = None
    frozen: bool = False  # parameters built with requires_grad false: no gradients, no optimizer states

    @classmethod
    def of(cls, name: str, part: str, expr: str, source: str, **values: Number) -> Term:
        """The term whose whole number (rounded up) and formula come from ``expr``."""
        # Made from the tuple of its fields, past the named tuple's constructor and its defaults:
        # the fit table makes thousands for a new scenario.
        value = evaluate(expr, values)
        return _made(cls, (name, value, part, "", 1, False, (), expr, values, source, None, None, False))

    @classmethod
    def quantity(cls, name: str, part: str, expr: str, source: str, **values: Number) -> Term:
        """A term whose figure is not a whole count (seconds, tokens per second, dollars):
        ``exact`` is the figure, ``value`` its ceiling."""
        figure = exact(expr, values)
        value = figure if isinstance(figure, int) else math.ceil(figure)
        return _made(cls, (name, value, part, "", 1, False, (), expr, values, source, None, figure, False))

    @property
    def whole(self) -> bool:
        """A count (parameters, bytes, FLOPs), not a quantity."""
        return self.figure is None

    @property
    def exact(self) -> Number:
        """The figure before rounding (a count: ``value``)."""
        return self.value if self.figure is None else self.figure

    @property
    def amount(self) -> float:
        return float(self.exact)

    @property
    def unit_value(self) -> int:
        """The figure of one of the ``count`` units."""
        return self.value // self.count

    @property
    def is_leaf(self) -> bool:
        return not self.children

    def growing(
        self, per_token: Number, per: int = 1, cap: int | None = None, offset: int = 0, over: int = 1
    ) -> Term:
        """This term, growing by ``per_token``/``over`` for each of ``per``·(s + ``offset``) tokens, up
        to ``cap`` of them."""
        p, q = per_token.numerator, per_token.denominator * over  # an int is its own numerator
        common = math.gcd(p, q)  # lowest terms, as a Fraction has them (made quicker without one)
        growth = (p // common, q // common, per, cap, offset)
        return _made(Term, (*self[:10], growth, *self[11:]))

    @property
    def formula(self) -> str:
        """One unit with its numbers filled in, ``expr = numbers = value``: ``4·h² = 4·12288² =
        603,979,776``, ``P·bits/8 = 8030261248·16/8 = 16,060,522,496``; a quantity to four
        significant digits; without an expression, the finished text."""
        if not self.expr:
            return self.text
        items = tuple(self.values.items())  # the texts are cached by expression and values
        return formula_text(self.expr, items) if self.figure is None else quantity_text(self.expr, items)

    @property
    def full_formula(self) -> str:
        """The formula of all ``count`` units: ``96 × (…) = 173,946,175,488``."""
        if self.count == 1 or not self.formula:
            return self.formula
        return say(
            "{count} × ({formula}) = {params:,}", count=self.count, formula=self.formula, params=self.value
        )

    def repeated(self, count: int) -> Term:
        """This term (and its children) as ``count`` times as many units."""
        children = tuple([child.repeated(count) for child in self.children]) if self.children else ()
        name, value, part, text, units, added, _, *rest = self
        return _made(Term, (name, value * count, part, text, units * count, added, children, *rest))

    def walk(self, path: Path = (), depth: int = 0) -> Iterator[tuple[Path, int, Term]]:
        """Every term of the tree with its path (the names from the root down, as a tuple) and depth."""
        here = (*path, self.name)
        yield here, depth, self
        for child in self.children:
            yield from child.walk(here, depth + 1)

    def leaves(self) -> Iterator[tuple[Path, Term]]:
        for path, _, term in self.walk():
            if term.is_leaf:
                yield path, term


_made = tuple.__new__


def group(name: str, children: tuple[Term, ...] | list[Term], formula: str = "") -> Term:
    """A term that sums its children; it counts as added when every child is."""
    kids = tuple(children)
    value, added = 0, bool(kids)
    for child in kids:
        value += child.value
        added = added and child.added
    return _made(Term, (name, value, "", formula, 1, added, kids, "", _NO_VALUES, "", None, None, False))
