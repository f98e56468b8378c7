"""The one formula engine: exact integers and fractions, numbers filled in, nothing but arithmetic."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paramtally.core.terms.formula import compiled, evaluate, exact, render
from tests.hypothesis_budget import examples


def test_render_fills_in_numbers_and_evaluates_exactly() -> None:
    assert render("4·h²", {"h": 12288}) == "4·h² = 4·12288² = 603,979,776"
    assert render("h", {"h": 7}) == "h = 7"
    assert evaluate("(n_pos + offset)·h", {"n_pos": 2048, "offset": 2, "h": 768}) == 2050 * 768


def test_big_integers_stay_exact() -> None:
    assert (
        evaluate("V·e·L·L", {"V": 10**9 + 7, "e": 10**6 + 3, "L": 10**5})
        == (10**9 + 7) * (10**6 + 3) * 10**10
    )


def test_division_is_exact_and_rounds_up_once() -> None:
    assert exact("P·bits/8", {"P": 7, "bits": Fraction(9, 2)}) == Fraction(63, 16)
    assert evaluate("P·bits/8", {"P": 7, "bits": Fraction(9, 2)}) == 4
    assert render("2·L·max(g/t, 1)·d_h", {"L": 2, "g": 8, "t": 16, "d_h": 128}) == (
        "2·L·max(g/t, 1)·d_h = 2·2·max(8/16, 1)·128 = 512"
    )


@pytest.mark.parametrize("expr", ["h ** 0.5", "abs(h)", "h.real", "__import__('os')", "[h]"])
def test_unknown_constructs_are_refused(expr: str) -> None:
    with pytest.raises(ValueError):
        evaluate(expr, {"h": 4})


_SYMBOLS = ("a", "b", "c", "d")
_VALUES = st.one_of(
    st.integers(-(10**9), 10**9),
    st.fractions(-(10**6), 10**6, max_denominator=1000).filter(lambda f: f.denominator > 1),
)


def _formulas() -> st.SearchStrategy[str]:
    names = st.sampled_from([*_SYMBOLS, "0", "1", "8", "128"])
    leaves = st.one_of(names, names.map(lambda name: f"{name}²"))  # squares of leaves: numbers stay small

    def combine(parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binary = st.tuples(parts, st.sampled_from(["+", "−", "·", "/"]), parts).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"
        )
        calls = st.tuples(st.sampled_from(["min", "max"]), st.lists(parts, min_size=2, max_size=3)).map(
            lambda t: f"{t[0]}({', '.join(t[1])})"
        )
        return st.one_of(binary, calls)

    return st.recursive(leaves, combine, max_leaves=8)


def _fraction_division(a: Fraction | int, b: Fraction | int) -> Fraction:
    return Fraction(a) / b


@settings(max_examples=examples(200), deadline=None)
@given(_formulas(), st.fixed_dictionaries(dict.fromkeys(_SYMBOLS, _VALUES)))
def test_integer_evaluation_equals_fractions_at_every_step(expr: str, values: dict[str, Fraction]) -> None:
    """A dividing formula is evaluated in integers (numerator, denominator): the same value, and the
    same refusal to divide by zero, as exact fractions at every step."""
    namespace = {"__builtins__": {}, "_div": _fraction_division, "min": min, "max": max}
    try:
        expected = eval(compiled(expr), namespace, dict(values))
    except ZeroDivisionError:
        with pytest.raises(ZeroDivisionError):
            exact(expr, values)
        return
    found = exact(expr, values)
    assert found == expected
