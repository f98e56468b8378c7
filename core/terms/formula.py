"""Formulas written once as text, evaluated exactly, and shown with their numbers filled in.

``render("4·h²", {"h": 12288})`` gives ``"4·h² = 4·12288² = 603,979,776"``. Writing a formula once
and deriving both the number and its explanation keeps the two from drifting apart. Every figure
ParamTally shows goes through here: parameter counts (integers, + − · and powers), and memory and
FLOPs terms, which also divide (by a TP size, by 8 bits) and take ``min``/``max``. Division is
exact (``fractions.Fraction``); a term is rounded up to a whole number once, at the end, so a byte
count never loses a byte to float rounding.

A formula that divides is evaluated as a numerator and a denominator in plain integers, reduced
once at the end: the same exact value as with ``Fraction`` at every step, several times faster
(the fit table evaluates such formulas for every pipeline stage of every layout it tries).
"""

from __future__ import annotations

import ast
import itertools
import math
import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache
from types import CodeType
from typing import Any

__all__ = [
    "Number",
    "compiled",
    "evaluate",
    "exact",
    "fmt_number",
    "fmt_quantity",
    "formula_text",
    "quantity_text",
    "render",
]

Number = int | Fraction

_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FUNCTIONS: dict[str, Callable[..., Number]] = {"min": min, "max": max}
_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)
_ALLOWED = (ast.Expression, ast.BinOp, ast.Name, ast.Load, ast.Call, *_OPERATORS)


def _div(a: Number, b: Number) -> Number:
    # Stay in fast integers when the division is exact; fall back to exact fractions.
    if isinstance(a, int) and isinstance(b, int):
        return a // b if a % b == 0 else Fraction(a, b)
    if isinstance(a, Fraction):  # already exact: no copy (a term with 1/g − 1/t divides a Fraction)
        return a / b
    return Fraction(a) / b


class _Exact(ast.NodeTransformer):
    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, ast.Div):
            return ast.Call(ast.Name("_div", ast.Load()), [node.left, node.right], [])
        return node


@lru_cache(maxsize=2048)
def _compile(expr: str) -> tuple[CodeType, str]:
    """The formula as checked Python code (exact division) and as a fill-in template."""
    tree = _checked(expr)
    template = _SYMBOL.sub(
        lambda m: m.group(0) if m.group(0) in _FUNCTIONS else "{" + m.group(0) + "}",
        expr.replace("{", "{{").replace("}", "}}"),
    )
    return compile(ast.fix_missing_locations(_Exact().visit(tree)), f"<formula {expr}>", "eval"), template


def _checked(expr: str) -> ast.Expression:
    """The formula parsed as Python, refused unless it is names, whole numbers and arithmetic."""
    python = expr.replace("·", "*").replace("×", "*").replace("²", "**2").replace("−", "-")
    tree = ast.parse(python, mode="eval")
    for node in ast.walk(tree):
        known = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS
        if isinstance(node, ast.Call) and not known:
            raise ValueError(f"unsupported function in formula: {expr}")
        if isinstance(node, ast.Constant) and type(node.value) is not int:
            raise ValueError(f"unsupported constant in formula: {node.value!r}")
        if not isinstance(node, (*_ALLOWED, ast.Constant)):
            raise ValueError(f"unsupported formula element: {ast.dump(node)}")
    return tree


_GLOBALS: dict[str, object] = {"__builtins__": {}, "_div": _div, **_FUNCTIONS}


@lru_cache(maxsize=2048)
def _rational(expr: str) -> Callable[[Mapping[str, Number]], Number | None] | None:
    """The formula as a function of its values computing a numerator and a positive denominator
    in integers, or None when it does not divide (plain integer code is quicker) or raises to a
    power that is not a whole constant. The function gives None for a value that is neither an int
    nor a Fraction (the caller then evaluates the formula as before)."""
    tree = _checked(expr)
    if not any(isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) for node in ast.walk(tree)):
        return None
    code = _PairCode()
    try:
        n, d = code.pair(tree.body)
    except _NotRational:
        return None
    namespace: dict[str, Any] = {"Fraction": Fraction, "_reduced": _reduced}
    exec(compile(code.function(n, d), f"<formula {expr}>", "exec"), namespace)
    function: Callable[[Mapping[str, Number]], Number | None] = namespace["rational"]
    return function


class _PairCode:
    """Straight-line Python computing a formula's (numerator, denominator) pairs, node by node."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.names: dict[str, tuple[str, str]] = {}  # symbol: its numerator and denominator variables
        self._step = itertools.count()

    def pair(self, node: ast.expr) -> tuple[str, str]:
        """The variables (or constants) holding ``node``'s numerator and denominator."""
        if isinstance(node, ast.Constant):
            return repr(node.value), "1"
        if isinstance(node, ast.Name):
            return self.names.setdefault(node.id, (f"n_{node.id}", f"d_{node.id}"))
        n, d = f"n{next(self._step)}", f"d{next(self._step)}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):  # min / max (checked)
            first, *rest = [self.pair(arg) for arg in node.args]
            self.lines.append(f"{n}, {d} = {first[0]}, {first[1]}")
            better = "<" if node.func.id == "min" else ">"  # keeps the first of the least / greatest
            for an, ad in rest:
                self.lines.append(f"if {an}*{d} {better} {n}*{ad}: {n}, {d} = {an}, {ad}")
            return n, d
        assert isinstance(node, ast.BinOp)
        if isinstance(node.op, ast.Pow):
            power = node.right.value if isinstance(node.right, ast.Constant) else None
            if not (isinstance(power, int) and power >= 0):  # constants were checked to be ints
                raise _NotRational
            an, ad = self.pair(node.left)
            self.lines.append(f"{n}, {d} = {an}**{power}, {ad}**{power}")
            return n, d
        (an, ad), (bn, bd) = self.pair(node.left), self.pair(node.right)
        if isinstance(node.op, ast.Add):
            self.lines.append(f"{n}, {d} = {an}*{bd} + {bn}*{ad}, {ad}*{bd}")
        elif isinstance(node.op, ast.Sub):
            self.lines.append(f"{n}, {d} = {an}*{bd} - {bn}*{ad}, {ad}*{bd}")
        elif isinstance(node.op, ast.Mult):
            self.lines.append(f"{n}, {d} = {an}*{bn}, {ad}*{bd}")
        else:  # division: the denominator stays positive, for min and max to compare by products
            self.lines.append(f"if {bn} == 0: raise ZeroDivisionError('division by zero')")
            self.lines.append(f"{n}, {d} = ({an}*{bd}, {ad}*{bn}) if {bn} > 0 else (-{an}*{bd}, -{ad}*{bn})")
        return n, d

    def function(self, n: str, d: str) -> str:
        """``def rational(values)``: each symbol read as a pair (None for another number type),
        the lines, and the pair ``n``/``d`` reduced."""
        entry = []
        for name, (vn, vd) in self.names.items():
            entry += [
                f"{vn} = values[{name!r}]",
                f"if {vn}.__class__ is int: {vd} = 1",
                f"elif {vn}.__class__ is Fraction: {vn}, {vd} = {vn}.numerator, {vn}.denominator",
                "else: return None",
            ]
        body = "\n    ".join([*entry, *self.lines, f"return _reduced({n}, {d})"])
        return f"def rational(values):\n    {body}\n"


class _NotRational(Exception):
    """A formula the integer form does not take (a power that is not a whole constant)."""


def _reduced(n: int, d: int) -> Number:
    if d == 1:
        return n
    common = math.gcd(n, d)
    return n // d if common == d else Fraction(n // common, d // common)


def exact(expr: str, values: Mapping[str, Number]) -> Number:
    """``expr`` evaluated exactly (an int, or a Fraction when it divides unevenly)."""
    rational = _rational(expr)
    if rational is not None:
        found = rational(values)
        if found is not None:
            return found
    code, _ = _compile(expr)
    # The AST was checked in _compile: names, arithmetic and calls only, so nothing assigns to (or
    # otherwise changes) the mapping the formula reads its symbols from; no copy is needed.
    result: Number = eval(code, _GLOBALS, values if isinstance(values, dict) else dict(values))
    return result


def compiled(expr: str) -> CodeType:
    """The formula as checked Python code. It reads its symbols, ``_div`` (exact division),
    ``min`` and ``max`` from the namespace it runs in, so a caller may run the same formula over
    other exact number types (the design-space sweep runs it over whole grids)."""
    return _compile(expr)[0]


def evaluate(expr: str, values: Mapping[str, Number]) -> int:
    """``expr`` evaluated exactly and rounded up to a whole number (bytes, FLOPs, parameters)."""
    result = exact(expr, values)
    return result if isinstance(result, int) else math.ceil(result)


def renamed(expr: str, names: Mapping[str, str]) -> str:
    """``expr`` with the symbols in ``names`` renamed (old → new), the others and functions kept."""
    return _SYMBOL.sub(lambda m: names.get(m.group(0), m.group(0)), expr)


def fmt_number(value: Number) -> str:
    """Integers as digits; fractions as a short decimal (4.89, 8.5) or p/q when not finite."""
    if isinstance(value, int) or value.denominator == 1:
        return str(int(value))
    text = f"{float(value):.6f}".rstrip("0")
    return text if Fraction(text) == value else f"{value.numerator}/{value.denominator}"


def render(expr: str, values: Mapping[str, Number]) -> str:
    """``expr = numbers filled in = value``, leaving out steps that add nothing."""
    _, template = _compile(expr)
    value = evaluate(expr, values)
    filled = template.format_map({name: fmt_number(number) for name, number in values.items()})
    parts = [expr]
    if filled != expr:
        parts.append(filled)
    if filled != str(value):
        parts.append(f"{value:,}")
    return " = ".join(parts)


@lru_cache(maxsize=4096)
def formula_text(expr: str, values: tuple[tuple[str, Number], ...]) -> str:
    """``render`` for a formula stored as expression and values (the text is made on demand)."""
    return render(expr, dict(values))


def fmt_quantity(value: Number) -> str:
    """A time, a rate or a price: four significant digits with thousands separators (0.01234, 1,234)."""
    number = float(value)
    if number == 0 or abs(number) >= 1000:
        return f"{number:,.0f}"
    return f"{number:,.{max(3 - math.floor(math.log10(abs(number))), 0)}f}"


@lru_cache(maxsize=1024)
def quantity_text(expr: str, values: tuple[tuple[str, Number], ...]) -> str:
    """``expr = numbers filled in = value`` for a quantity that is not a whole count (seconds,
    tokens per second, dollars): the value exact, shown to four significant digits."""
    _, template = _compile(expr)
    shown = {name: _short(number) for name, number in values}
    return " = ".join([expr, template.format_map(shown), fmt_quantity(exact(expr, dict(values)))])


def _short(value: Number) -> str:
    """A value as a quantity formula shows it: exact when short, else four significant digits."""
    text = fmt_number(value)
    return text if ("/" not in text and len(text) <= 12) or isinstance(value, int) else fmt_quantity(value)
