"""Resolve what a person names on the command line or in Open: a preset id or a file/folder.

A preset id is looked up among the user's presets first (they may shadow a built-in one), then
the built-in ones. A path may be a preset JSON file, a Hugging Face ``config.json``, a folder
holding one, or a report ParamTally wrote with the architecture in it (Everything as JSON).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from paramtally.core.errors import ParamTallyError
from paramtally.core.files.input_files import load_json_file, typed_path
from paramtally.core.io import presets
from paramtally.core.io.presets import Preset
from paramtally.core.schema import Architecture
from paramtally.core.text import say

__all__ = ["WEIGHT_SUFFIXES", "is_path", "load_json_source", "load_source", "read_source", "source_identity"]


def is_path(source: str) -> bool:
    """True when ``source`` names a file or folder rather than a preset id."""
    path = typed_path(source)
    return os.path.lexists(path) or path.suffix == ".json" or len(source) > _LONGEST_ID


def load_source(source: str) -> Architecture:
    return read_source(source).architecture


# A checkpoint's weights files: counted from their headers (``importers.stored_count``), never
# read as an architecture.
WEIGHT_SUFFIXES = (".safetensors", ".gguf")


def read_source(source: str) -> Preset:
    """The architecture ``source`` names, with the scenario saved in its preset file if any.

    A file's problems name it as given (``a/config.json``, not ``config.json``: a comparison of two
    folders says which one is wrong)."""
    path = typed_path(source)
    if os.path.isdir(path):
        from paramtally.core.io.importers.model_folder import ModelFolder

        folder = ModelFolder(path)
        if not folder.has("config.json"):
            raise ParamTallyError(say("{path}: folder holds no config.json", path=path))
        member = folder.member("config.json")
        return load_json_source(member, nofollow=True, origin=str(path / "config.json"), folder=str(path))
    if is_path(source):
        if not os.path.lexists(path):
            raise ParamTallyError(say("{path}: no such file", path=path))
        if path.suffix in WEIGHT_SUFFIXES:  # read as JSON it was 'not UTF-8 text (byte 0)'
            raise ParamTallyError(
                say(
                    "{path}: a weights file, not an architecture (a preset JSON or config.json): "
                    "`paramtally count` counts its stored parameters, as File → Open Folder… does "
                    "for its folder",
                    path=path,
                )
            )
        return load_json_source(path, origin=str(path))
    return _load_preset_id(source)


def source_identity(source: str) -> tuple[str, str | None]:
    """(what a title calls it, the preset id or None for a file) of a source that has loaded."""
    if is_path(source):
        return typed_path(source).name or source, None
    from paramtally.core.io import user_presets

    preset_id = user_presets.resolve_id(source)
    return preset_id, preset_id


def _load_preset_id(preset_id: str) -> Preset:
    from paramtally.core.io import user_presets  # late: it reads platformdirs only when an id is named

    return user_presets.load_preset(preset_id)


def load_json_source(
    path: Path, *, nofollow: bool = False, origin: str | None = None, folder: str | None = None
) -> Preset:
    """A preset JSON or a Hugging Face config.json, read through the guarded loader; messages name
    it ``origin`` (default: its file name). ``folder``: the checkpoint folder the person gave, when
    the file is its config.json."""
    name = origin or path.name
    data = load_json_file(path, presets.MAX_PRESET_BYTES, name, nofollow=nofollow)
    if isinstance(data, dict) and "model_type" in data and "schema_version" not in data:
        from paramtally.core.io.importers.hf_config import import_hf_config_keyed

        arch, keys = import_hf_config_keyed(data, origin=name, folder=folder)
        return Preset(arch, file_keys=keys)
    if isinstance(data, dict) and "schema_version" not in data and _HF_KEYS & data.keys():
        raise ParamTallyError(
            say(
                "{name}: reads as a Hugging Face config.json without its model_type; add it "
                '(e.g. "model_type": "llama") so the importer knows the model family',
                name=name,
            )
        )
    if isinstance(data, dict) and "schema_version" not in data and isinstance(data.get("architecture"), dict):
        return _report_preset(data, name)
    return presets.preset_from_data(data, name)


def _report_preset(data: dict[str, Any], name: str) -> Preset:
    """The model a ParamTally report is about — the window's File → Export → Everything as JSON,
    ``memory --format json`` — with the scenario its figures were for: opened again, it is the model
    and the memory tab the figures came from."""
    preset = dict(data["architecture"])
    if data.get(presets.SCENARIO_KEY) is not None:
        preset[presets.SCENARIO_KEY] = data[presets.SCENARIO_KEY]
    return presets.preset_from_data(preset, f"{name} (its architecture)")


_LONGEST_ID = 100  # a preset id's length (core.io.presets.check_preset_id): a longer one is a path


# Keys of a Hugging Face config.json that no preset has (a preset has schema_version and blocks).
_HF_KEYS = frozenset({"architectures", "num_hidden_layers", "num_attention_heads", "transformers_version"})
