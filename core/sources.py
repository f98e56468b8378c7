"""Resolve what a person names on the command line or in Open: a preset id or a file/folder.

A preset id is looked up among the user's presets first (they may shadow a built-in one), then
the built-in ones. A path may be a preset JSON file, a Hugging Face ``config.json`` or a folder
holding one.
"""

from __future__ import annotations

from pathlib import Path

from paramtally.core import presets
from paramtally.core.errors import ParamTallyError
from paramtally.core.input_files import load_json_file
from paramtally.core.schema import Architecture

__all__ = ["load_json_source", "load_source"]


def load_source(source: str) -> Architecture:
    path = Path(source).expanduser()
    if path.is_dir():
        from paramtally.core.importers.model_folder import ModelFolder

        folder = ModelFolder(path)
        if not folder.has("config.json"):
            raise ParamTallyError(f"{path}: folder holds no config.json")
        return load_json_source(folder.member("config.json"), nofollow=True)
    if path.suffix == ".json" or path.exists():
        if not path.exists():
            raise ParamTallyError(f"{path}: no such file")
        return load_json_source(path)
    return _load_preset_id(source)


def _load_preset_id(preset_id: str) -> Architecture:
    from paramtally.core import user_presets  # late: it reads platformdirs only when an id is named

    return user_presets.load(preset_id)


def load_json_source(path: Path, *, nofollow: bool = False) -> Architecture:
    """A preset JSON or a Hugging Face config.json, read through the guarded loader."""
    data = load_json_file(path, presets.MAX_PRESET_BYTES, nofollow=nofollow)
    if isinstance(data, dict) and "model_type" in data and "schema_version" not in data:
        from paramtally.core.importers.hf_config import import_hf_config

        return import_hf_config(data, origin=path.name)
    return presets.preset_from_data(data, path.name)
