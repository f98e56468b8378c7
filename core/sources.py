"""Resolve what a person names on the command line or in Open: a preset id or a file/folder.

A preset id is looked up among the user's presets first (they may shadow a built-in one), then
the built-in ones. A path may be a preset JSON file, a Hugging Face ``config.json`` or a folder
holding one.
"""

from __future__ import annotations

import json
from pathlib import Path

from paramtally.core import presets
from paramtally.core.errors import ParamTallyError
from paramtally.core.schema import Architecture

__all__ = ["load_source"]


def load_source(source: str) -> Architecture:
    path = Path(source).expanduser()
    if path.is_dir():
        config = path / "config.json"
        if not config.is_file():
            raise ParamTallyError(f"{path}: folder holds no config.json")
        return _load_json_file(config)
    if path.suffix == ".json" or path.is_file():
        if not path.is_file():
            raise ParamTallyError(f"{path}: no such file")
        return _load_json_file(path)
    return _load_preset_id(source)


def _load_preset_id(preset_id: str) -> Architecture:
    from paramtally.core import user_presets  # late: it reads platformdirs only when an id is named

    return user_presets.load(preset_id)


def _load_json_file(path: Path) -> Architecture:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ParamTallyError(f"{path}: cannot read ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParamTallyError(f"{path.name}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    if isinstance(data, dict) and "model_type" in data and "schema_version" not in data:
        from paramtally.core.importers.hf_config import import_hf_config

        return import_hf_config(data, origin=path.name)
    return presets.parse_preset(text, path.name)
