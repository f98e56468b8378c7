"""Schema migrations: each step turns a preset of version n into version n + 1.

Register a step with ``@step(n)`` when the schema changes; a file from a newer version than this
program knows is refused (and left untouched), never guessed at.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.errors import ParamTallyError
from core.schema import SCHEMA_VERSION

__all__ = ["MIGRATIONS", "migrate", "step"]

Data = dict[str, Any]
MIGRATIONS: dict[int, Callable[[Data], Data]] = {}


def step(from_version: int) -> Callable[[Callable[[Data], Data]], Callable[[Data], Data]]:
    def register(function: Callable[[Data], Data]) -> Callable[[Data], Data]:
        MIGRATIONS[from_version] = function
        return function

    return register


def migrate(data: Data, origin: str) -> Data:
    version = data.get("schema_version", SCHEMA_VERSION)
    if not isinstance(version, int) or version < 0:
        raise ParamTallyError(f"{origin}: schema_version must be a whole number, not {version!r}")
    if version > SCHEMA_VERSION:
        raise ParamTallyError(
            f"{origin}: written by a newer ParamTally (schema {version}; this one reads up to "
            f"{SCHEMA_VERSION}); the file was left as it is"
        )
    while version < SCHEMA_VERSION:
        if version not in MIGRATIONS:
            raise ParamTallyError(f"{origin}: no migration from schema version {version}")
        data = MIGRATIONS[version](dict(data))
        version += 1
        data["schema_version"] = version
    return data
