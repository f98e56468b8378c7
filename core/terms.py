"""Memory terms: a named byte count with its formula (numbers filled in) and its source.

Integer formulas go through ``core.formula.render`` like the parameter counts. Memory formulas
also divide (by TP size, by 8 bits) and take ``min(s, window)``, with fractional bits per
weight (Q4_K_M's 4.89): those are evaluated here with exact fractions and rounded up once, at
the end, so a byte count never loses a byte to float rounding.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from core.formula import render

__all__ = ["MemoryTerm", "Number", "Spec", "fmt_number", "term", "term_value"]

Number = int | Fraction

_SYMBOL = re.compile(r"[^\W\d]\w*")
_FUNCTIONS: dict[str, Callable[..., Fraction]] = {"min": min, "max": max}
_OPERATORS: dict[type[ast.operator], Callable[[Fraction, Fraction], Fraction]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}


@dataclass(frozen=True, slots=True)
class MemoryTerm:
    """Bytes of one part of the per-GPU total; ``part`` is the report field it adds to."""

    name: str
    bytes: int
    formula: str
    source: str
    part: str = ""


@lru_cache(maxsize=1024)
def _parse(expr: str) -> ast.expr:
    python = expr.replace("·", "*").replace("×", "*").replace("²", "**2").replace("−", "-")
    return ast.parse(python, mode="eval").body


def _eval(node: ast.expr, values: Mapping[str, Number]) -> Fraction:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return Fraction(str(node.value))
    if isinstance(node, ast.Name):
        return Fraction(values[node.id])
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_eval(node.left, values), _eval(node.right, values))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS:
        return _FUNCTIONS[node.func.id](*(_eval(arg, values) for arg in node.args))
    raise ValueError(f"unsupported formula element: {ast.dump(node)}")


def fmt_number(value: Number) -> str:
    """Integers as digits; fractions as a short decimal (4.89, 8.5) or p/q when not finite."""
    if isinstance(value, int) or value.denominator == 1:
        return str(int(value))
    text = f"{float(value):.6f}".rstrip("0")
    return text if Fraction(text) == value else f"{value.numerator}/{value.denominator}"


def term_value(expr: str, values: Mapping[str, Number]) -> int:
    """``expr`` evaluated exactly and rounded up to whole bytes."""
    return math.ceil(_eval(_parse(expr), values))


def _needs_exact(expr: str, values: Mapping[str, Number]) -> bool:
    # render() takes integers, + − · and powers of ASCII symbols; anything else is evaluated here.
    return (
        "/" in expr
        or "min(" in expr
        or "max(" in expr
        or not all(name.isascii() for name in values)
        or not all(isinstance(v, int) for v in values.values())
    )


def term(name: str, part: str, expr: str, source: str, **values: Number) -> MemoryTerm:
    """One term; its formula reads ``expr = numbers filled in = bytes``."""
    if not _needs_exact(expr, values):
        value, formula = render(expr, **{k: int(v) for k, v in values.items()})
        return MemoryTerm(name, value, formula, source, part)
    value = term_value(expr, values)
    filled = _SYMBOL.sub(
        lambda m: m.group(0) if m.group(0) in _FUNCTIONS else fmt_number(values[m.group(0)]), expr
    )
    parts = [expr]
    if filled != expr:
        parts.append(filled)
    if filled != str(value):
        parts.append(f"{value:,}")
    return MemoryTerm(name, value, " = ".join(parts), source, part)


@dataclass(frozen=True, slots=True)
class Spec:
    """A term not yet rendered: its value is cheap; its text is made only for the figure shown."""

    name: str
    part: str
    expr: str
    source: str
    values: Mapping[str, Number]
    value: int

    @classmethod
    def of(cls, name: str, part: str, expr: str, source: str, **values: Number) -> Spec:
        return cls(name, part, expr, source, values, term_value(expr, values))

    def render(self) -> MemoryTerm:
        return term(self.name, self.part, self.expr, self.source, **self.values)
