"""Formulas written once as text, evaluated exactly, and shown with their numbers filled in.

``render("4·h²", h=12288)`` gives ``"4·h² = 4·12288² = 603,979,776"``. Writing the formula once
and deriving both the number and its explanation keeps the two from drifting apart.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from functools import lru_cache
from types import CodeType
from typing import Any

__all__ = ["evaluate", "formula_text", "render"]

_SYMBOL = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_NO_BUILTINS: dict[str, Any] = {"__builtins__": {}}
_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Pow)


@lru_cache(maxsize=512)
def _compile(expr: str) -> tuple[CodeType, str]:
    """The formula as checked Python code and as a ``str.format`` template, built once per text."""
    python = expr.replace("·", "*").replace("²", "**2").replace("−", "-")
    _check(ast.parse(python, mode="eval").body)
    template = _SYMBOL.sub(
        lambda match: "{" + match.group(0) + "}", expr.replace("{", "{{").replace("}", "}}")
    )
    return compile(python, f"<formula {expr}>", "eval"), template


def _check(node: ast.expr) -> None:
    # Only integers, names and + - * ** are allowed, so evaluation stays exact and harmless.
    if isinstance(node, ast.BinOp) and isinstance(node.op, _OPERATORS):
        _check(node.left)
        _check(node.right)
    elif not (isinstance(node, ast.Name) or (isinstance(node, ast.Constant) and type(node.value) is int)):
        raise ValueError(f"unsupported formula element: {ast.dump(node)}")


def evaluate(expr: str, values: Mapping[str, int]) -> int:
    code, _ = _compile(expr)
    return int(eval(code, _NO_BUILTINS, values))


@lru_cache(maxsize=4096)
def formula_text(expr: str, values: tuple[tuple[str, int], ...]) -> str:
    """The text ``render`` gives, for a formula stored as expression and values."""
    return render(expr, **dict(values))[1]


def render(expr: str, /, **values: int) -> tuple[int, str]:
    """The exact value of ``expr`` and its readable form with the numbers filled in."""
    code, template = _compile(expr)
    value = int(eval(code, _NO_BUILTINS, values))
    filled = template.format_map(values)
    parts = [expr]
    if filled != expr:
        parts.append(filled)
    if filled != str(value):
        parts.append(f"{value:,}")
    return value, " = ".join(parts)
