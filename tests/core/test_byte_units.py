"""The byte units are defined once (``core.typed_numbers``: GiB = 2³⁰, GB = 10⁹) and every module
that shows or reads bytes in them uses that one definition (issue 32: they were defined six times)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from paramtally.core.typed_numbers import GB, GIB, parse_quantity

ROOT = Path(__file__).resolve().parents[2]
_UNIT_NAME = re.compile(r"_?(GIB|GB|GiB|Gib)")
_UNIT_VALUES = {2**30, 10**9}


def _sources() -> list[Path]:
    return sorted(path for folder in ("core", "gui") for path in (ROOT / folder).rglob("*.py"))


def _value(node: ast.expr) -> object:
    try:
        return ast.literal_eval(node)
    except ValueError:  # not a literal: 1 << 30 and 1024**3 are operations ast evaluates below
        pass
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow | ast.LShift):
        left, right = _value(node.left), _value(node.right)
        if isinstance(left, int) and isinstance(right, int):
            return left**right if isinstance(node.op, ast.Pow) else left << right
    return None


def test_the_units_mean_what_a_typed_suffix_means() -> None:
    assert GIB == 1_073_741_824 == parse_quantity("1 GiB", "bytes", "a test")
    assert GB == 1_000_000_000 == parse_quantity("1GB", "bytes", "a test")


def test_no_module_defines_a_byte_unit_of_its_own() -> None:
    defined = []
    for path in _sources():
        if path == ROOT / "core" / "typed_numbers.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else []
            for target in targets:
                names = target.elts if isinstance(target, ast.Tuple) else [target]
                named = [n.id for n in names if isinstance(n, ast.Name) and _UNIT_NAME.fullmatch(n.id)]
                defined += [f"{path.relative_to(ROOT)}:{node.lineno} {name}" for name in named]
            # A unit spelled as arithmetic in a division (x / 1024**3) is a unit defined again.
            if (
                isinstance(node, ast.BinOp)
                and isinstance(node.op, ast.Div)
                and _value(node.right) in _UNIT_VALUES
            ):
                defined.append(f"{path.relative_to(ROOT)}:{node.lineno} / {ast.unparse(node.right)}")
    assert defined == []
