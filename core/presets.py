"""Built-in presets: one JSON file per architecture in the package's ``presets/`` folder.

A preset file is an ``Architecture`` as JSON; its file name (without ``.json``) is its id.
Files pass through ``core.migrations`` first, so older schema versions keep loading. Reading
never writes: a broken file is reported (file name and field), never repaired behind one's back.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from paramtally.core.errors import ParamTallyError, one_line
from paramtally.core.input_files import load_json_file, parse_json
from paramtally.core.migrations import migrate
from paramtally.core.package_data import data_dir
from paramtally.core.schema import Architecture

__all__ = [
    "BUILTIN_DIR",
    "MAX_PRESET_BYTES",
    "builtin_ids",
    "check_preset_id",
    "dump_preset",
    "load_builtin",
    "load_preset_file",
    "parse_preset",
    "preset_from_data",
]

BUILTIN_DIR = data_dir("presets")
# A preset or a config.json is a few kilobytes; anything far larger is not one (and is not read).
MAX_PRESET_BYTES = 4 * 1024 * 1024
_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,99}")


def builtin_ids() -> list[str]:
    return sorted(path.stem for path in BUILTIN_DIR.glob("*.json"))


def check_preset_id(preset_id: str) -> str:
    """A preset id is its file name: letters, digits and ``. _ + -``, no path separators."""
    if not _ID_PATTERN.fullmatch(preset_id) or preset_id.endswith(".json"):
        raise ParamTallyError(
            f"'{preset_id}' is not a usable preset id (letters, digits, '.', '_', '+', '-'; "
            "at most 100; no '/' or '.json')"
        )
    return preset_id


def parse_preset(text: str | bytes, origin: str) -> Architecture:
    """Decode (guarded, ``core.input_files``), migrate and validate one preset; errors name ``origin``."""
    return preset_from_data(parse_json(text, origin), origin)


def preset_from_data(data: Any, origin: str) -> Architecture:
    """Migrate and validate a decoded preset; every failure names ``origin`` and the field."""
    if not isinstance(data, dict):
        raise ParamTallyError(f"{origin}: a preset must be a JSON object")
    try:
        return Architecture.model_validate(migrate(data, origin))
    except ValidationError as exc:
        raise ParamTallyError(f"{origin}: {one_line(exc)}") from None


def dump_preset(arch: Architecture) -> str:
    """The file text of a preset: every field written out, so it reads the same under new defaults."""
    return json.dumps(arch.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"


def load_preset_file(path: Path) -> Architecture:
    return preset_from_data(load_json_file(path, MAX_PRESET_BYTES), path.name)


@lru_cache(maxsize=128)
def load_builtin(preset_id: str) -> Architecture:
    path = BUILTIN_DIR / f"{preset_id}.json"
    if not _ID_PATTERN.fullmatch(preset_id) or not path.is_file():
        raise ParamTallyError(f"unknown preset '{preset_id}' (try `paramtally presets list`)")
    return load_preset_file(path)
