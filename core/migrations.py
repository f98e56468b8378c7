"""Schema migrations: each step turns a preset of version n into version n + 1.

Register a step with ``@step(n)`` when the schema changes; a file from a newer version than this
program knows is refused (and left untouched), never guessed at. Steps work on a copy of the
decoded JSON and never touch the file itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paramtally.core.errors import ParamTallyError, shown
from paramtally.core.schema import SCHEMA_VERSION

__all__ = ["LEGACY_KEYS", "MIGRATIONS", "detect_version", "migrate", "step"]

Data = dict[str, Any]
MIGRATIONS: dict[int, Callable[[Data], Data]] = {}

# Version 0, the pre-release layout: flat keys at the top level (and ``layers`` as a plain count).
# Each maps to its place in version 1.
LEGACY_KEYS: dict[str, tuple[str, str]] = {
    "vocab_size": ("embeddings", "vocab_size"),
    "n_heads": ("attention", "num_heads"),
    "n_kv_heads": ("attention", "num_kv_heads"),
    "ffn_width": ("ffn", "width"),
    "tie_embeddings": ("head", "tied"),
}


def step(from_version: int) -> Callable[[Callable[[Data], Data]], Callable[[Data], Data]]:
    def register(function: Callable[[Data], Data]) -> Callable[[Data], Data]:
        MIGRATIONS[from_version] = function
        return function

    return register


def detect_version(data: Data) -> object:
    """The file's schema version; a file without one is version 0 if it has the flat layout."""
    if "schema_version" in data:
        return data["schema_version"]
    if "n_layers" in data or isinstance(data.get("layers"), int) or LEGACY_KEYS.keys() & data.keys():
        return 0
    return SCHEMA_VERSION


def migrate(data: Data, origin: str) -> Data:
    version = detect_version(data)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise ParamTallyError(f"{origin}: schema_version must be a whole number, not {shown(version)}")
    if version > SCHEMA_VERSION:
        raise ParamTallyError(
            f"{origin}: written by a newer ParamTally (schema {version}; this one reads up to "
            f"{SCHEMA_VERSION}); the file was left as it is"
        )
    while version < SCHEMA_VERSION:
        if version not in MIGRATIONS:
            raise ParamTallyError(f"{origin}: no migration from schema version {version}")
        try:
            data = MIGRATIONS[version](dict(data))
        except ParamTallyError as exc:
            raise ParamTallyError(f"{origin}: {exc}") from None
        version += 1
        data["schema_version"] = version
    return data


@step(0)
def _flat_to_nested(data: Data) -> Data:
    """0 → 1: ``n_layers``/``layers: int`` become one layer group; flat keys move into their section.

    Anything malformed is left in place for validation to name (no guessing, no crash).
    """
    data.pop("schema_version", None)
    if "n_layers" in data:
        if "layers" in data:
            raise ParamTallyError("n_layers: give either n_layers or layers, not both")
        data["layers"] = data.pop("n_layers")
    if isinstance(data.get("layers"), int) and not isinstance(data["layers"], bool):
        data["layers"] = [{"count": data["layers"]}]
    for key, (section, field) in LEGACY_KEYS.items():
        if key not in data:
            continue
        target = data.get(section, {})
        if not isinstance(target, dict):
            continue  # validation names the malformed section
        if field in target:
            raise ParamTallyError(f"{key}: also given as {section}.{field}")
        data[section] = {**target, field: data.pop(key)}
    return data
