"""No code outside core/blocks asks which kind a part is: it asks the part (``core.blocks.protocols``).

Adding a mixer or an FFN is one module in core/blocks and its registry line; a consumer that tests
``isinstance(part, MoE)`` or ``part.kind == "mla"`` is one more file such a change has to find. The
source is read as Python (``ast``), so a comment or a docstring that names a kind is no dispatch.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from paramtally.core.blocks import FFN_KINDS, INSERTION_KINDS, KIND_TAGS, MIXER_KINDS

ROOT = Path(__file__).resolve().parents[1]
BLOCKS = ROOT / "core" / "blocks"
# Where a family's config names its kinds, and where schema 1's names are read: a kind's name is
# data there (issue 32 item 2 gives each family its own importer module).
NAMING_ALLOWED = (
    ROOT / "core" / "io" / "importers",
    ROOT / "core" / "families",
    ROOT / "core" / "io" / "migrations.py",
)
KIND_CLASSES = frozenset(kind.__name__ for kind in (*MIXER_KINDS, *FFN_KINDS, *INSERTION_KINDS))
# Kinds that a file may name only in its own module and one more place (issue 32's count).
RATIONED = ("mla", "mamba", "mamba2", "gated_deltanet")
MOST_FILES = 2


def _sources() -> Iterator[Path]:
    """The application's Python files: core/, gui/ and main.py."""
    yield ROOT / "main.py"
    for folder in ("core", "gui"):
        yield from sorted((ROOT / folder).rglob("*.py"))


def _outside(path: Path, *places: Path) -> bool:
    return not any(path == place or place in path.parents for place in places)


def _names(node: ast.expr) -> Iterator[str]:
    """The class names an ``isinstance`` second argument (or a pattern) refers to."""
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, ast.Attribute):
        yield node.attr
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        for item in node.elts:
            yield from _names(item)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):  # Attention | MLA
        yield from _names(node.left)
        yield from _names(node.right)


def _is_kind(node: ast.expr) -> bool:
    """``x.kind``, ``x["kind"]``, ``x.get("kind")`` or ``getattr(x, "kind", …)``."""
    if isinstance(node, ast.Attribute):
        return node.attr == "kind"
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "kind"
    if isinstance(node, ast.Call) and node.args:
        named = node.args[0] if isinstance(node.func, ast.Attribute) and node.func.attr == "get" else None
        if isinstance(node.func, ast.Name) and node.func.id == "getattr" and len(node.args) > 1:
            named = node.args[1]
        return isinstance(named, ast.Constant) and named.value == "kind"
    return False


def _tags(node: ast.expr) -> set[str]:
    """The kind tags a literal holds: "moe", or ("attention", "mla")."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value} & KIND_TAGS
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return set().union(*(_tags(item) for item in node.elts)) if node.elts else set()
    return set()


def dispatches(source: str) -> list[tuple[int, str]]:
    """(line, what) of every test of a part's kind in ``source``: ``isinstance`` of a kind's class
    (or a ``match`` on one, or ``type(x) is`` one), and a kind compared with a kind's name."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 2:
            if node.func.id in ("isinstance", "issubclass"):
                classes = set(_names(node.args[1])) & KIND_CLASSES
                found += [(node.lineno, f"{node.func.id}(…, {name})") for name in sorted(classes)]
        elif isinstance(node, ast.MatchClass):
            classes = set(_names(node.cls)) & KIND_CLASSES
            found += [(node.lineno, f"case {name}()") for name in sorted(classes)]
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for left, right in itertools.pairwise(sides):
                found += [(node.lineno, what) for what in (*_compared(left, right), *_compared(right, left))]
    return found


def _compared(one: ast.expr, other: ast.expr) -> Iterator[str]:
    """What comparing ``one`` with ``other`` asks of a kind, if anything."""
    if _is_kind(one) and (tags := _tags(other)):
        yield f"kind compared with {', '.join(sorted(tags))}"
    if isinstance(one, ast.Call) and isinstance(one.func, ast.Name) and one.func.id == "type":
        if classes := set(_names(other)) & KIND_CLASSES:
            yield f"type(…) is {', '.join(sorted(classes))}"


def test_no_code_outside_core_blocks_dispatches_on_a_kind() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in _sources()
        if _outside(path, BLOCKS)
        for line, what in dispatches(path.read_text(encoding="utf-8"))
    ]
    assert not found, "ask the part's protocol (core.blocks.protocols) instead:\n" + "\n".join(found)


@pytest.mark.parametrize("tag", RATIONED)
def test_a_kind_is_named_in_at_most_two_files_outside_the_importers(tag: str) -> None:
    """Its own module and at most one more; quoted, in code, comments or docstrings alike."""
    quoted = re.compile(rf"""["']{re.escape(tag)}["']""")
    naming = [
        str(path.relative_to(ROOT))
        for path in _sources()
        if _outside(path, *NAMING_ALLOWED) and quoted.search(path.read_text(encoding="utf-8"))
    ]
    assert len(naming) <= MOST_FILES, f"'{tag}' is named in {len(naming)} files: {naming}"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("isinstance(ffn, MoE)", ["isinstance(…, MoE)"]),
        ("isinstance(m, Attention | MLA)", ["isinstance(…, Attention)", "isinstance(…, MLA)"]),
        ("isinstance(m, (blocks.Mamba2, int))", ["isinstance(…, Mamba2)"]),
        ("block.mixer.kind == 'mla'", ["kind compared with mla"]),
        ("'moe' != ffn.kind", ["kind compared with moe"]),
        ("mixer.kind in ('attention', 'mla')", ["kind compared with attention, mla"]),
        ("part['kind'] == 'dense'", ["kind compared with dense"]),
        ("getattr(p, 'kind', '') == 'moe'", ["kind compared with moe"]),
        ("part.get('kind') not in ('mamba',)", ["kind compared with mamba"]),
        ("type(m) is Mamba", ["type(…) is Mamba"]),
        ("match m:\n    case GatedDeltaNet():\n        pass", ["case GatedDeltaNet()"]),
        # Not a kind test: a variable tag, another kind of kind, a class that is no block kind.
        ("block.mixer.kind == kind", []),
        ("norms.kind == 'layernorm'", []),
        ("isinstance(node, LayerGroup)", []),
        ("spec.kind in ('int', 'float')", []),
    ],
)
def test_the_check_finds_each_way_of_asking_for_a_kind(source: str, expected: list[str]) -> None:
    """The static check itself: what it reports and what it leaves alone."""
    assert [what for _, what in dispatches(source)] == expected
