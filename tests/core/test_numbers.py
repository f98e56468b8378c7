"""The one number syntax (core.typed_numbers) that the window's fields, its dialogs and the command
line's flags read: separators, exponents and suffixes, exact, with a reason for what does not read."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paramtally.core.typed_numbers import NumberError, parse_number, parse_quantity, parse_whole

SCALES = {"k": 10**3, "M": 10**6, "B": 10**9, "G": 10**9, "T": 10**12, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30}
BYTES = {"KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30}


@given(st.integers(min_value=0, max_value=10**30))
def test_digits_with_or_without_separators(n: int) -> None:
    for text in (str(n), f"{n:,}", f"{n:_}", f"{n:,}".replace(",", " "), f"{n:,}".replace(",", "\u202f")):
        assert parse_whole(text) == n, text


@given(st.integers(min_value=0, max_value=10**6), st.sampled_from(sorted(SCALES)), st.booleans())
def test_a_count_suffix_scales_in_any_letter_case(n: int, suffix: str, lower: bool) -> None:
    typed = f"{n}{suffix.lower() if lower else suffix}"
    assert parse_whole(typed) == n * SCALES[suffix]
    assert parse_whole(f"{n:,} {suffix}") == n * SCALES[suffix]


@given(st.integers(min_value=0, max_value=10**6), st.sampled_from(sorted(BYTES)))
def test_a_byte_suffix_scales_bytes(n: int, suffix: str) -> None:
    assert parse_whole(f"{n}{suffix}", "bytes") == n * BYTES[suffix]
    assert parse_whole(f"{n}B", "bytes") == n  # B is a byte here, a billion in a count


@given(st.integers(min_value=1, max_value=10**9), st.integers(min_value=-9, max_value=30))
def test_an_exponent_is_exact(mantissa: int, exponent: int) -> None:
    expected = Fraction(mantissa) * Fraction(10) ** exponent
    assert parse_number(f"{mantissa}e{exponent}") == expected
    assert parse_number(f"{mantissa}E{exponent:+d}") == expected


@pytest.mark.parametrize(
    ("text", "value"),
    [("7.25e9", 7_250_000_000), ("1.5k", 1500), (".5M", 500_000), ("2.5B", 2_500_000_000), ("-3", -3)],
)
def test_decimals_that_make_whole_numbers(text: str, value: int) -> None:
    assert parse_whole(text) == value


@pytest.mark.parametrize(
    ("text", "unit", "reason"),
    [
        ("", "count", "type a number: 32768, 32,768, 3.2e4 or 32k"),
        ("lots", "count", "'lots' is not a number: type 32768, 32,768, 3.2e4 or 32k"),
        ("1.5", "count", "'1.5' is not a whole number (1.5)"),
        ("1e-3", "count", "'1e-3' is not a whole number (0.001)"),
        ("1,5", "count", "'1,5': a comma separates thousands (1,500); a fraction takes a point (1.5)"),
        (
            "12,34,567",
            "count",
            "'12,34,567': a comma separates thousands (1,500); a fraction takes a point (1.5)",
        ),
        ("32x", "count", "'32x': unknown suffix 'x' (it takes k, M, B, T; Ki, Mi, Gi, Ti)"),
        ("80GB", "count", "'80GB': unknown suffix 'GB' (it takes k, M, B, T; Ki, Mi, Gi, Ti)"),
        ("2T", "bytes", "'2T': unknown suffix 'T' (it takes KB, MB, GB, TB, KiB, MiB, GiB, TiB)"),
        ("1e1000000000", "count", "'1e1000000000': an exponent runs from -100 to 100"),
        ("1e", "count", "'1e': unknown suffix 'e' (it takes k, M, B, T; Ki, Mi, Gi, Ti)"),
        ("1 2", "count", "'1 2' is not a number: type 32768, 32,768, 3.2e4 or 32k"),
        ("9" * 1001, "count", f"'{'9' * 39}…' is too long: a number has at most 1,000 digits"),
        ("9" * 5000, "count", f"'{'9' * 39}…' is too long: a number has at most 1,000 digits"),
        ("9" * 400 + ".5", "count", f"'{'9' * 39}…' is not a whole number"),
    ],
)
def test_what_does_not_read_says_why(text: str, unit: str, reason: str) -> None:
    with pytest.raises(NumberError) as refused:
        parse_whole(text, unit)
    assert str(refused.value) == reason


def test_a_targets_quantity_names_its_flag_and_refuses_a_negative() -> None:
    assert parse_quantity("80GiB", "bytes", "--target memory") == 80 * 2**30
    assert parse_quantity("7B", "params", "--target total") == 7 * 10**9
    assert parse_quantity("720h", "days", "--target time") == 30
    with pytest.raises(NumberError, match="--target total: 'seven' is not a number of params"):
        parse_quantity("seven", "params", "--target total")
    with pytest.raises(NumberError, match="'-7B' is negative"):
        parse_quantity("-7B", "params", "--target total")
