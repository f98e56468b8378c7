"""Memory terms: a named byte count with its formula (numbers filled in) and its source.

Integer formulas go through ``core.formula.render`` like the parameter counts. Memory formulas
also divide (by TP size, by 8 bits) and take ``min(s, window)``, with fractional bits per
weight (Q4_K_M's 4.89): those are evaluated here with exact fractions and rounded up once, at
the end, so a byte count never loses a byte to float rounding.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import CodeType

from paramtally.core.formula import render

__all__ = ["MemoryTerm", "Number", "Piece", "Spec", "fmt_number", "term", "term_value"]

Number = int | Fraction
# A part of a total that grows with the context s: ceil(p·min(mult·s, cap)/q) bytes, cap None = ∞.
Piece = tuple[int, int, int, int | None]

_SYMBOL = re.compile(r"[^\W\d]\w*")
_FUNCTIONS: dict[str, Callable[..., Fraction]] = {"min": min, "max": max}
_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)


@dataclass(frozen=True, slots=True)
class MemoryTerm:
    """Bytes of one part of the per-GPU total; ``part`` is the report field it adds to."""

    name: str
    bytes: int
    formula: str
    source: str
    part: str = ""


def _div(a: Number, b: Number) -> Number:
    # Stay in fast integers when the division is exact; fall back to exact fractions.
    if isinstance(a, int) and isinstance(b, int):
        return a // b if a % b == 0 else Fraction(a, b)
    return Fraction(a) / b


_ALLOWED = (ast.Expression, ast.BinOp, ast.Name, ast.Load, ast.Call, *_OPERATORS)


class _Exact(ast.NodeTransformer):
    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, ast.Div):
            return ast.Call(ast.Name("_div", ast.Load()), [node.left, node.right], [])
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.expr:
        if not isinstance(node.value, int):
            raise ValueError(f"unsupported constant in formula: {node.value!r}")
        return node


@lru_cache(maxsize=1024)
def _compile(expr: str) -> CodeType:
    """``expr`` as Python code with exact division; only arithmetic, min and max are allowed."""
    python = expr.replace("·", "*").replace("×", "*").replace("²", "**2").replace("−", "-")
    tree = ast.parse(python, mode="eval")
    for node in ast.walk(tree):
        known = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS
        if isinstance(node, ast.Call) and not known:
            raise ValueError(f"unsupported function in formula: {expr}")
        if not isinstance(node, (*_ALLOWED, ast.Constant)):
            raise ValueError(f"unsupported formula element: {ast.dump(node)}")
    tree = ast.fix_missing_locations(_Exact().visit(tree))
    return compile(tree, "<formula>", "eval")


_GLOBALS: dict[str, object] = {"__builtins__": {}, "_div": _div, **_FUNCTIONS}


def fmt_number(value: Number) -> str:
    """Integers as digits; fractions as a short decimal (4.89, 8.5) or p/q when not finite."""
    if isinstance(value, int) or value.denominator == 1:
        return str(int(value))
    text = f"{float(value):.6f}".rstrip("0")
    return text if Fraction(text) == value else f"{value.numerator}/{value.denominator}"


def term_value(expr: str, values: Mapping[str, Number]) -> int:
    """``expr`` evaluated exactly and rounded up to whole bytes."""
    result: Number = eval(_compile(expr), _GLOBALS, dict(values))  # the AST was checked in _compile
    return result if isinstance(result, int) else math.ceil(result)


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
