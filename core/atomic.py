"""Atomic file writes: a temporary file in the same folder, flushed, then ``os.replace``.

A crash mid-write leaves either the old file or the new one, never half of one.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from paramtally.core.errors import ParamTallyError

__all__ = ["write_bytes_atomic", "write_text_atomic"]


def write_bytes_atomic(path: Path, data: bytes) -> None:
    if path.is_dir():
        raise ParamTallyError(f"cannot write {path}: it is a folder; give a file name")
    folder = path.parent if str(path.parent) else Path(".")
    try:
        handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise ParamTallyError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        os.chmod(temp_name, path.stat().st_mode & 0o777 if path.exists() else 0o644)
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp_name, path)
    except OSError as exc:
        Path(temp_name).unlink(missing_ok=True)
        raise ParamTallyError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise


def write_text_atomic(path: Path, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))
