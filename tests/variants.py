"""Architecture variants made the plain way, without the code under test: the fields set in the
model's dict, validated once (the explore tools' sweeps and goal seeks are checked against them)."""

from __future__ import annotations

from typing import Any

from paramtally.core.schema import Architecture, thaw

__all__ = ["built"]


def built(arch: Architecture, *changes: tuple[tuple[str | int, ...], int]) -> Architecture:
    """``arch`` with fields set by path, validated once."""
    data: dict[str, Any] = thaw(arch.model_dump())
    for path, value in changes:
        node: Any = data
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value
    return Architecture.model_validate(data)
