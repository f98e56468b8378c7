"""Built-in presets: one JSON file per architecture in the top-level ``presets/`` folder.

A preset file is an ``Architecture`` as JSON; its file name (without ``.json``) is its id.
Files pass through ``core.migrations`` first, so older schema versions keep loading.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from pydantic import ValidationError

from core.errors import ParamTallyError, one_line
from core.migrations import migrate
from core.schema import Architecture

__all__ = ["BUILTIN_DIR", "builtin_ids", "load_builtin", "load_preset_file", "parse_preset"]

BUILTIN_DIR = Path(__file__).resolve().parent.parent / "presets"


def builtin_ids() -> list[str]:
    return sorted(path.stem for path in BUILTIN_DIR.glob("*.json"))


def parse_preset(text: str, origin: str) -> Architecture:
    """Decode, migrate and validate one preset; every failure names ``origin`` and the field."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParamTallyError(f"{origin}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise ParamTallyError(f"{origin}: a preset must be a JSON object")
    try:
        return Architecture.model_validate(migrate(data, origin))
    except ValidationError as exc:
        raise ParamTallyError(f"{origin}: {one_line(exc)}") from None


def load_preset_file(path: Path) -> Architecture:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ParamTallyError(f"{path}: cannot read ({exc})") from None
    return parse_preset(text, path.name)


@lru_cache(maxsize=128)
def load_builtin(preset_id: str) -> Architecture:
    path = BUILTIN_DIR / f"{preset_id}.json"
    if not path.is_file():
        raise ParamTallyError(f"unknown preset '{preset_id}' (try `paramtally presets list`)")
    return load_preset_file(path)
