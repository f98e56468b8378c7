"""Built-in presets: one JSON file per architecture in the package's ``presets/`` folder.

A preset file is an ``Architecture`` as JSON; its file name (without ``.json``) is its id.
Files pass through ``core.io.migrations`` first, so older schema versions keep loading. Reading
never writes: a broken file is reported (file name and field), never repaired behind one's back.

A preset may also carry the memory scenario it was saved with: an optional ``"scenario"``
object next to the architecture's fields. It is kept apart from the ``Architecture`` (which
does not change) and judged where it is used (``core.memory.scenario.scenario_from``); a file without
one loads as before.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from paramtally.core.errors import ParamTallyError, one_line
from paramtally.core.files.input_files import load_json_file, parse_json
from paramtally.core.files.package_data import data_dir
from paramtally.core.io.migrations import migrate
from paramtally.core.schema import Architecture
from paramtally.core.text import say

__all__ = [
    "BUILTIN_DIR",
    "MAX_PRESET_BYTES",
    "SCENARIO_KEY",
    "Preset",
    "builtin_ids",
    "check_preset_id",
    "dump_preset",
    "load_builtin",
    "load_preset_file",
    "parse_preset",
    "preset_from_data",
    "read_preset",
    "read_preset_file",
]

BUILTIN_DIR = data_dir("presets")
# A preset or a config.json is a few kilobytes; anything far larger is not one (and is not read).
MAX_PRESET_BYTES = 4 * 1024 * 1024
_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,99}")
SCENARIO_KEY = "scenario"


@dataclass(frozen=True, slots=True)
class Preset:
    """What a preset file holds: the architecture, and the scenario saved with it (as data) if any.
    A Hugging Face config.json also says which of its keys each field came from (``file_keys``,
    field path → key), so that advice about a field names the file's key (``d_model``)."""

    architecture: Architecture
    scenario: dict[str, Any] | None = None
    file_keys: Mapping[tuple[str | int, ...], str] | None = None


def builtin_ids() -> list[str]:
    return sorted(path.stem for path in BUILTIN_DIR.glob("*.json"))


@lru_cache(maxsize=1)
def builtin_names() -> dict[str, str]:
    """Each built-in preset's display name, by id, read without validating its architecture.

    The package's own files, each validated by the tests (tests/core/test_presets_golden.py): the
    window lists them all at start-up, where validating 55 files cost ~15 ms before its first paint.
    """
    names = {}
    for preset_id in builtin_ids():
        data = load_json_file(BUILTIN_DIR / f"{preset_id}.json", MAX_PRESET_BYTES)
        names[preset_id] = str(data.get("name", preset_id)) if isinstance(data, dict) else preset_id
    return names


def check_preset_id(preset_id: str) -> str:
    """A preset id is its file name: letters, digits and ``. _ + -``, no path separators."""
    if not _ID_PATTERN.fullmatch(preset_id) or preset_id.endswith(".json"):
        raise ParamTallyError(
            say(
                "'{preset_id}' is not a usable preset id (letters, digits, '.', '_', '+', '-'; "
                "at most 100; no '/' or '.json')",
                preset_id=preset_id,
            )
        )
    return preset_id


def parse_preset(text: str | bytes, origin: str) -> Architecture:
    """Decode (guarded, ``core.files.input_files``), migrate and validate one preset; errors name
    ``origin``."""
    return read_preset(text, origin).architecture


def read_preset(text: str | bytes, origin: str) -> Preset:
    """``parse_preset`` with the scenario saved next to the architecture, if the file has one."""
    return preset_from_data(parse_json(text, origin), origin)


def preset_from_data(data: Any, origin: str) -> Preset:
    """Migrate and validate a decoded preset; every failure names ``origin`` and the field."""
    if not isinstance(data, dict):
        raise ParamTallyError(say("{origin}: a preset must be a JSON object", origin=origin))
    scenario = data.pop(SCENARIO_KEY, None)
    if scenario is not None and not isinstance(scenario, dict):
        raise ParamTallyError(
            say(
                "{path}: {reason}",
                path=f"{origin}: {SCENARIO_KEY}",
                reason=say("must be a group of settings (a JSON object)"),
            )
        )
    try:
        return Preset(Architecture.model_validate(migrate(data, origin)), scenario)
    except ValidationError as exc:
        raise ParamTallyError(say("{path}: {reason}", path=origin, reason=one_line(exc))) from None


def dump_preset(arch: Architecture, scenario: dict[str, Any] | None = None) -> str:
    """The file text of a preset: every field written out, so it reads the same under new defaults."""
    data = arch.model_dump(mode="json")
    if scenario is not None:
        data[SCENARIO_KEY] = scenario
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def load_preset_file(path: Path) -> Architecture:
    return read_preset_file(path).architecture


def read_preset_file(path: Path) -> Preset:
    """A preset file, read through the guarded loader (a regular file of at most 4 MB)."""
    return preset_from_data(load_json_file(path, MAX_PRESET_BYTES), path.name)


@lru_cache(maxsize=128)
def load_builtin(preset_id: str) -> Architecture:
    path = BUILTIN_DIR / f"{preset_id}.json"
    if not _ID_PATTERN.fullmatch(preset_id) or not path.is_file():
        raise ParamTallyError(
            say("unknown preset '{preset_id}' (try `paramtally presets list`)", preset_id=preset_id)
        )
    return load_preset_file(path)
