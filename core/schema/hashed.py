"""Frozen models whose deep hash is computed once.

Architectures, blocks, layer groups, stacks and scenarios key cached figures (a block's count, a
stack's resolved runs, a layout's memory terms), and an edit hands most of them on unchanged:
hashing them again, field by field down to the leaves, would cost more than the lookups save.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from pydantic import BaseModel, PrivateAttr

from paramtally.core.blocks.base import Spec

__all__ = ["HashedOnce", "HashedSpec"]


class HashedOnce(BaseModel):
    _hash: int | None = PrivateAttr(None)

    def __eq__(self, other: object) -> bool:
        # The fields decide; the cached hash follows from them.
        return other is self or (type(other) is type(self) and self.__dict__ == other.__dict__)

    def __hash__(self) -> int:
        # Read from pydantic's private dict directly: its __getattr__ costs microseconds.
        private = self.__pydantic_private__
        assert private is not None
        if private["_hash"] is None:
            private["_hash"] = hash((type(self), tuple(self.__dict__.values())))
        return int(private["_hash"])

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy; with ``update``, its hash made again from the new fields."""
        copy = super().model_copy(update=update, deep=deep)
        if update:
            private = copy.__pydantic_private__
            assert private is not None
            private["_hash"] = None
        return copy


class HashedSpec(HashedOnce, Spec):
    """A schema part (strict, frozen, no extra keys) whose hash is computed once."""
