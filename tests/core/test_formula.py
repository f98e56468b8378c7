from __future__ import annotations

import pytest

from paramtally.core.formula import evaluate, render


def test_render_fills_in_numbers_and_evaluates_exactly() -> None:
    assert render("4·h²", h=12288) == (603_979_776, "4·h² = 4·12288² = 603,979,776")
    assert render("h", h=7) == (7, "h = 7")
    assert render("(n_pos + offset)·h", n_pos=2048, offset=2, h=768)[0] == 2050 * 768


def test_big_integers_stay_exact() -> None:
    assert (
        evaluate("V·e·L·L", {"V": 10**9 + 7, "e": 10**6 + 3, "L": 10**5})
        == (10**9 + 7) * (10**6 + 3) * 10**10
    )


def test_unknown_constructs_are_refused() -> None:
    with pytest.raises(ValueError):
        evaluate("h / 2", {"h": 4})
