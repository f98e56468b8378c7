"""The models opened last (preset ids and file paths), newest first: File → Open Recent, and the
model the window reopens on start.

Kept in ``recent.json`` in the config dir, apart from the window's Qt settings, so that the
start path can read it before Qt loads. Reading never fails: a missing or damaged file means
no history (it is rewritten whole, atomically, on the next open).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import platformdirs

from paramtally.core.errors import ParamTallyError
from paramtally.core.files.input_files import load_json_file, typed_path
from paramtally.core.io.atomic import write_text_atomic

__all__ = ["MAX_RECENT", "forget_source", "recent_path", "recent_sources", "remember_source"]

MAX_RECENT = 10
_MAX_BYTES = 64 * 1024  # ten paths; anything larger is not ours


def recent_path() -> Path:
    return Path(platformdirs.user_config_dir("paramtally")) / "recent.json"


def recent_sources() -> list[str]:
    path = recent_path()
    if not path.exists():
        return []
    try:
        data = load_json_file(path, _MAX_BYTES)  # guarded: a FIFO or a huge file is no history
    except ParamTallyError:
        return []
    if not isinstance(data, list):
        return []
    return [item for item in data if isinstance(item, str) and item][:MAX_RECENT]


def remember_source(source: str) -> None:
    """Put ``source`` first (a file by its absolute path); a config dir we cannot write is no error."""
    if os.path.exists(typed_path(source)):
        source = os.path.realpath(typed_path(source))
    try:
        source.encode("utf-8")
    except UnicodeEncodeError:  # a path of bytes no encoding reads: JSON cannot keep it as text
        return
    _write([source, *(item for item in recent_sources() if item != source)][:MAX_RECENT])


def forget_source(source: str) -> None:
    """Drop ``source`` (a preset renamed or deleted) from the history."""
    sources = recent_sources()
    if source in sources:
        _write([item for item in sources if item != source])


def _write(sources: list[str]) -> None:
    path = recent_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, json.dumps(sources, indent=1, ensure_ascii=False) + "\n")
    except (OSError, ParamTallyError):
        pass  # the history is a convenience; opening the model has worked
