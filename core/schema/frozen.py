"""Immutable, hashable JSON-like values, so an Architecture holding mappings can be cached by value.

Pydantic validates ``dict`` fields into these (``Frozen``): a ``FrozenDict`` is a ``dict`` (JSON
serialisation and ``isinstance`` checks see a plain mapping) that refuses changes and hashes by
content; lists inside become tuples.
"""

from __future__ import annotations

from typing import Annotated, Any, NoReturn

from pydantic import AfterValidator

__all__ = ["Frozen", "FrozenDict", "freeze", "thaw"]


class FrozenDict(dict[Any, Any]):
    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a FrozenDict cannot be changed; build a new one")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse


def freeze(value: Any) -> Any:
    """``value`` with every dict made a FrozenDict and every list a tuple, recursively."""
    if isinstance(value, dict):
        return FrozenDict((key, freeze(item)) for key, item in value.items())
    if isinstance(value, list | tuple):
        return tuple(freeze(item) for item in value)
    return value


def thaw(value: Any) -> Any:
    """The mutable copy of a frozen value (dicts and lists), for building an edited one."""
    if isinstance(value, dict):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [thaw(item) for item in value]
    return value


def _frozen_mapping(value: Any) -> Any:
    """A mapping frozen (a layer group's or the MTP module's override); anything else is refused at
    the field, not met later as a crash where the override is merged into its base block."""
    if not isinstance(value, dict):
        raise ValueError(f"expected a mapping of the block's fields, not {type(value).__name__}")
    return freeze(value)


# Typed Any for the type checker: the value is a FrozenDict (hashable), which a dict annotation
# would hide from the cached functions that take it.
Frozen = Annotated[Any, AfterValidator(_frozen_mapping)]
