"""Formulas written once as text, evaluated exactly, and shown with their numbers filled in.

``render("4·h²", h=12288)`` gives ``"4·h² = 4·12288² = 603,979,776"``. Writing the formula once
and deriving both the number and its explanation keeps the two from drifting apart.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Mapping
from functools import lru_cache

__all__ = ["evaluate", "render"]

_SYMBOL = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_OPERATORS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Pow: operator.pow,
}


@lru_cache(maxsize=512)
def _parse(expr: str) -> ast.expr:
    python = expr.replace("·", "*").replace("²", "**2").replace("−", "-")
    return ast.parse(python, mode="eval").body


def evaluate(expr: str, values: Mapping[str, int]) -> int:
    return _eval(_parse(expr), values)


def _eval(node: ast.expr, values: Mapping[str, int]) -> int:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.Name):
        return int(values[node.id])
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return int(_OPERATORS[type(node.op)](_eval(node.left, values), _eval(node.right, values)))
    raise ValueError(f"unsupported formula element: {ast.dump(node)}")


def render(expr: str, /, **values: int) -> tuple[int, str]:
    """The exact value of ``expr`` and its readable form with the numbers filled in."""
    value = evaluate(expr, values)
    filled = _SYMBOL.sub(lambda match: str(values[match.group(0)]), expr)
    parts = [expr]
    if filled != expr:
        parts.append(filled)
    if filled != str(value):
        parts.append(f"{value:,}")
    return value, " = ".join(parts)
