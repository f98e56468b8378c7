"""Exact rational arithmetic over whole grids, and exact polynomial interpolation onto them.

A ``Grid`` holds one rational number per cell as numerator and denominator arrays. They are
numpy int64 while every result provably stays below 2⁶² (each operation checks the operands'
largest magnitudes first) and Python integers (object arrays) otherwise, so nothing ever
overflows or rounds. A formula of ``core.terms.formula`` runs over grids unchanged: ``namespace()``
gives it exact division, ``min`` and ``max`` that work cell by cell.

``interpolate`` makes the grid of a polynomial in (x, y) from its values on a small tensor of
nodes (Lagrange's formula in integers, divided once by the common denominator).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, Union

import numpy as np
from numpy.typing import NDArray

__all__ = ["Grid", "Value", "ceil", "interpolate", "namespace", "narrow", "to_int_array"]

Array = NDArray[Any]
Scalar = int | Fraction
Value = Union["Grid", int, Fraction]
_LIMIT = 1 << 62


def _max_abs(array: Array) -> int:
    if array.size == 0:
        return 0
    if array.dtype == object:
        return max(abs(int(v)) for v in array.flat)
    return int(np.abs(array).max())


def _objects(array: Array) -> Array:
    return array if array.dtype == object else array.astype(object)


def _mul(a: Array, b: Array | int) -> Array:
    bound = _max_abs(a) * (abs(b) if isinstance(b, int) else _max_abs(b))
    if bound < _LIMIT and a.dtype != object and (isinstance(b, int) or b.dtype != object):
        return a * b
    result: Array = _objects(a) * (b if isinstance(b, int) else _objects(b))
    return result


def _add(a: Array, b: Array, sign: int = 1) -> Array:
    if _max_abs(a) + _max_abs(b) < _LIMIT and a.dtype != object and b.dtype != object:
        return a + b if sign > 0 else a - b
    result: Array = _objects(a) + _objects(b) if sign > 0 else _objects(a) - _objects(b)
    return result


class Grid:
    """One exact rational per cell: ``num / den`` with ``den > 0`` (both arrays of one shape)."""

    __slots__ = ("den", "num")

    def __init__(self, num: Array, den: Array | None = None) -> None:
        self.num = num
        self.den = den if den is not None else np.ones_like(num)

    @classmethod
    def of(cls, value: Scalar, shape: tuple[int, ...]) -> Grid:
        q = Fraction(value)
        num, den = _int_array(q.numerator, shape), _int_array(q.denominator, shape)
        return cls(num, den)

    def _pair(self, other: Value) -> Grid:
        return other if isinstance(other, Grid) else Grid.of(other, self.num.shape)

    def __add__(self, other: Value) -> Grid:
        o = self._pair(other)
        return Grid(_add(_mul(self.num, o.den), _mul(o.num, self.den)), _mul(self.den, o.den))

    __radd__ = __add__

    def __sub__(self, other: Value) -> Grid:
        o = self._pair(other)
        return Grid(_add(_mul(self.num, o.den), _mul(o.num, self.den), -1), _mul(self.den, o.den))

    def __rsub__(self, other: Value) -> Grid:
        return self._pair(other) - self

    def __mul__(self, other: Value) -> Grid:
        if isinstance(other, int):
            return Grid(_mul(self.num, other), self.den)
        o = self._pair(other)
        return Grid(_mul(self.num, o.num), _mul(self.den, o.den))

    __rmul__ = __mul__

    def __pow__(self, exponent: int) -> Grid:
        if not isinstance(exponent, int) or exponent < 0:
            raise ValueError("only whole powers of a grid")
        result = Grid.of(1, self.num.shape)
        for _ in range(exponent):
            result = result * self
        return result

    def divided_by(self, other: Value) -> Grid:
        o = self._pair(other)
        num, den = _mul(self.num, o.den), _mul(self.den, o.num)
        negative = den < 0
        if negative.any():  # keep the denominator positive
            num, den = np.where(negative, -num, num), np.where(negative, -den, den)
        return Grid(num, den)

    def less_than(self, other: Grid) -> Array:
        result: Array = _mul(self.num, other.den) < _mul(other.num, self.den)
        return result

    def equals(self, index: tuple[int, int], value: Scalar) -> bool:
        q = Fraction(value)
        return bool(int(self.num[index]) * q.denominator == q.numerator * int(self.den[index]))


def _int_array(value: int, shape: tuple[int, ...]) -> Array:
    if abs(value) < _LIMIT:
        return np.full(shape, value, dtype=np.int64)
    array = np.empty(shape, dtype=object)
    array.fill(value)
    return array


def _div(a: Value, b: Value) -> Value:
    if isinstance(a, Grid):
        return a.divided_by(b)
    if isinstance(b, Grid):
        return Grid.of(a, b.num.shape).divided_by(b)
    return Fraction(a) / b


def _pick(a: Value, b: Value, smaller: bool) -> Value:
    if not isinstance(a, Grid) and not isinstance(b, Grid):
        return min(a, b) if smaller else max(a, b)
    shape = a.num.shape if isinstance(a, Grid) else b.num.shape  # type: ignore[union-attr]
    ga = a if isinstance(a, Grid) else Grid.of(a, shape)
    gb = b if isinstance(b, Grid) else Grid.of(b, shape)
    take_a = ga.less_than(gb) if smaller else gb.less_than(ga)
    arrays = (ga.num, ga.den, gb.num, gb.den)
    if all(array.dtype != object for array in arrays):  # int64 both: the pick stays int64
        return Grid(np.where(take_a, ga.num, gb.num), np.where(take_a, ga.den, gb.den))
    num = np.where(take_a, _objects(ga.num), _objects(gb.num))
    den = np.where(take_a, _objects(ga.den), _objects(gb.den))
    return Grid(narrow(num), narrow(den))


def narrow(array: Array) -> Array:
    """Back to int64 when every value fits (np.where over mixed arrays gives objects)."""
    return array.astype(np.int64) if _max_abs(array) < _LIMIT else array


def _min(*values: Value) -> Value:
    result = values[0]
    for value in values[1:]:
        result = _pick(result, value, True)
    return result


def _max(*values: Value) -> Value:
    result = values[0]
    for value in values[1:]:
        result = _pick(result, value, False)
    return result


def namespace() -> dict[str, object]:
    """What a compiled formula reads besides its symbols, for grids (``core.terms.formula.compiled``)."""
    return {"__builtins__": {}, "_div": _div, "min": _min, "max": _max}


def ceil(value: Value, shape: tuple[int, ...]) -> Array:
    """Each cell rounded up to a whole number, as ``core.terms.formula.evaluate`` does."""
    if not isinstance(value, Grid):
        return _int_array(math.ceil(value), shape)
    num, den = value.num, value.den
    if _max_abs(num) < _LIMIT and num.dtype != object and den.dtype != object:
        result: Array = -((-num) // den)
        return result
    return narrow(-((-_objects(num)) // _objects(den)))


def to_int_array(values: Sequence[int], shape: tuple[int, ...] | None = None) -> Array:
    array = np.array(values, dtype=np.int64 if max(map(abs, values), default=0) < _LIMIT else object)
    return array.reshape(shape) if shape is not None else array


def interpolate(
    samples: Sequence[Sequence[Scalar]],
    x_nodes: Sequence[int],
    x_coords: Sequence[int],
    y_nodes: Sequence[int],
    y_coords: Sequence[int],
) -> Grid:
    """The polynomial of degree < len(nodes) in x and in y through ``samples[a][b]`` (the value at
    x_nodes[a], y_nodes[b]), evaluated at every (x_coords[i], y_coords[j]): a (y, x) grid.

    Its monomial coefficients are solved exactly; over a common denominator they are small
    integers (an integer-valued polynomial of degree 2 needs at most 2 in each variable), so
    the grid is one integer matrix product, T · C · Uᵀ with T and U the powers of the coordinates.
    """
    x_inverse, x_den = _inverse_vandermonde(tuple(x_nodes))
    y_inverse, y_den = _inverse_vandermonde(tuple(y_nodes))
    sample_den = math.lcm(*(Fraction(v).denominator for row in samples for v in row))
    whole = [[int(Fraction(v) * sample_den) for v in row] for row in samples]
    # Coefficients C = X⁻¹ · S · Y⁻ᵀ, in integers over one denominator, reduced.
    left = [
        [sum(x_inverse[p][a] * whole[a][b] for a in range(len(x_nodes))) for b in range(len(y_nodes))]
        for p in range(len(x_nodes))
    ]
    numerators = [
        [sum(row[b] * y_inverse[q][b] for b in range(len(y_nodes))) for q in range(len(y_nodes))]
        for row in left
    ]
    denominator = x_den * y_den * sample_den
    divisor = math.gcd(denominator, *(v for row in numerators for v in row))
    scaled = [[v // divisor for v in row] for row in numerators]
    common = denominator // divisor
    t_max, u_max = max(map(abs, x_coords)), max(map(abs, y_coords))
    bound = sum(
        abs(scaled[a][b]) * t_max**a * u_max**b for a in range(len(x_nodes)) for b in range(len(y_nodes))
    )
    small = bound < _LIMIT and t_max ** len(x_nodes) < _LIMIT and u_max ** len(y_nodes) < _LIMIT
    ts = _powers(tuple(x_coords), len(x_nodes), small)
    us = _powers(tuple(y_coords), len(y_nodes), small)
    if small:
        product: Array = (ts @ np.array(scaled, dtype=np.int64) @ us.T).T
    else:  # Python integers: slower, never wrong
        product = ts.dot(np.array(scaled, dtype=object)).dot(us.T).T
    return Grid(np.ascontiguousarray(product), _int_array(common, product.shape))


@lru_cache(maxsize=256)
def _powers(coords: tuple[int, ...], n: int, small: bool) -> Array:
    """``coords[i]^p`` for p < n, in int64 when ``small`` (else Python integers); cached, since
    every symbol interpolated over a region asks for the same axes' powers (read only)."""
    powers = np.array([[c**p for p in range(n)] for c in coords], dtype=np.int64 if small else object)
    powers.flags.writeable = False
    return powers


@lru_cache(maxsize=256)
def _inverse_vandermonde(nodes: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The inverse of V[i][p] = nodes[i]^p as integers over one denominator (Gauss–Jordan in
    fractions, once per set of nodes)."""
    n = len(nodes)
    rows = [
        [Fraction(t) ** p for p in range(n)] + [Fraction(int(i == r)) for i in range(n)]
        for r, t in enumerate(nodes)
    ]
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [v - factor * w for v, w in zip(rows[r], rows[col], strict=True)]
    inverse = [row[n:] for row in rows]
    den = math.lcm(*(v.denominator for row in inverse for v in row))
    return tuple(tuple(int(v * den) for v in row) for row in inverse), den
