"""The one formula engine: exact integers and fractions, numbers filled in, nothing but arithmetic."""

from __future__ import annotations

from fractions import Fraction

import pytest

from paramtally.core.formula import evaluate, exact, render


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
