"""The valid values of a design variable, in ascending order: an arithmetic progression or a list.

A domain is indexable like a sequence, so that a search or a sweep can walk it by index and
every value it meets is one the schema accepts (heads dividing the hidden size, whole pattern
repetitions, a multiple asked for).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from paramtally.core.errors import ParamTallyError
from paramtally.core.text import say

__all__ = ["Domain", "divisors", "progression"]

# Scanning for the first value of a progression with two moduli costs at most this many steps.
_MAX_SCAN = 10_000_000


@dataclass(frozen=True, slots=True)
class Domain:
    """``first, first + step, …`` up to ``last`` (inclusive), or the explicit ascending ``values``."""

    first: int = 0
    step: int = 1
    last: int = -1
    values: tuple[int, ...] | None = None

    @classmethod
    def of(cls, values: Iterable[int]) -> Domain:
        return cls(values=tuple(sorted(set(values))))

    def __len__(self) -> int:
        if self.values is not None:
            return len(self.values)
        return max((self.last - self.first) // self.step + 1, 0)

    def __getitem__(self, index: int) -> int:
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self.values[index] if self.values is not None else self.first + index * self.step

    def __iter__(self) -> Iterator[int]:
        return (self[index] for index in range(len(self)))

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, int) or not len(self):
            return False
        if self.values is not None:
            at = bisect.bisect_left(self.values, value)
            return at < len(self.values) and self.values[at] == value
        return self.first <= value <= self.last and (value - self.first) % self.step == 0

    def members(self, values: Iterable[int]) -> list[bool]:
        """``value in self`` for each of ``values`` (a sweep asks it of whole axes)."""
        if self.values is not None:
            allowed = set(self.values)
            return [value in allowed for value in values]
        first, step, last = self.first, self.step, self.last
        return [first <= value <= last and (value - first) % step == 0 for value in values]

    def nearest_index(self, value: int) -> int:
        """The index of the value closest to ``value`` (the lower one on a tie)."""
        if not len(self):
            raise ParamTallyError(say("no value is allowed"))
        if self.values is not None:
            at = bisect.bisect_left(self.values, value)
        else:
            at = -(-(value - self.first) // self.step)  # first index whose value is ≥ value
        at = min(max(at, 0), len(self) - 1)
        if at > 0 and abs(self[at - 1] - value) <= abs(self[at] - value):
            return at - 1
        return at

    def describe(self) -> str:
        """``8, 16, …, 4096`` or ``1, 2, 4, 8``: how a message names the allowed values."""
        if len(self) <= 6:
            return ", ".join(f"{value:,}" for value in self)
        return f"{self[0]:,}, {self[1]:,}, …, {self[len(self) - 1]:,}"


def progression(minimum: int, maximum: int, multiple_of: int = 1, offset: int = 0, period: int = 1) -> Domain:
    """Values v in [minimum, maximum] with ``multiple_of | v`` and ``v ≡ offset (mod period)``."""
    step = math.lcm(multiple_of, period)
    if step > _MAX_SCAN:
        raise ParamTallyError(say("steps of {step:,} are too coarse to search", step=step))
    first = next(
        (v for v in range(minimum, minimum + step) if v % multiple_of == 0 and (v - offset) % period == 0),
        None,
    )
    if first is None or first > maximum:
        return Domain(values=())
    return Domain(first, step, first + (maximum - first) // step * step)


def divisors(n: int) -> list[int]:
    """The divisors of ``n`` in ascending order (trial division up to √n)."""
    small, large = [], []
    for d in range(1, math.isqrt(n) + 1):
        if n % d == 0:
            small.append(d)
            if d != n // d:
                large.append(n // d)
    return small + large[::-1]
