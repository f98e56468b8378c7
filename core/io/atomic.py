"""Atomic file writes: a temporary file in the same folder, flushed, then ``os.replace``.

A crash mid-write leaves either the old file or the new one, never half of one; what it may
leave is the temporary file, ``.<name>.<8 random characters>.tmp`` (``TEMP_PATTERN``), which
``core.io.user_presets`` sweeps from its folder once it is an hour old, and the next write of the
same file sweeps from its own (an export's folder is any folder: only its own leftovers are ours).

A symbolic link is written through: its target gets the new file, the link stays. What is not a
file at all (``/dev/stdout``, ``/dev/null``, a FIFO) is written to as it is: replacing it would
put a plain file where a device or a pipe was.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
import time
from pathlib import Path

from paramtally.core.errors import ParamTallyError
from paramtally.core.text import say

__all__ = ["STALE_TEMP_SECONDS", "TEMP_PATTERN", "AlreadyExists", "write_bytes_atomic", "write_text_atomic"]

# The temporary files ``write_bytes_atomic`` makes (tempfile.mkstemp: 8 of [a-z0-9_]).
TEMP_PATTERN = re.compile(r"\.(?P<target>.+)\.[a-z0-9_]{8}\.tmp")
STALE_TEMP_SECONDS = 3600  # a save takes milliseconds: an hour-old temporary file is a killed one


class AlreadyExists(ParamTallyError):
    """An exclusive write found the name taken."""


def write_bytes_atomic(path: Path, data: bytes, *, exclusive: bool = False) -> None:
    """Write ``data`` to ``path`` whole or not at all; ``exclusive`` refuses an existing ``path``.

    Exclusive creation links the finished temporary file to ``path`` (``os.link`` fails if the
    name exists, atomically), so of two writers racing for a new name exactly one wins.
    """
    if os.path.isdir(path):
        raise ParamTallyError(say("cannot write {path}: it is a folder; give a file name", path=path))
    if os.path.islink(path):
        try:
            path = path.resolve()
        except (OSError, RuntimeError) as exc:  # a loop of links
            raise ParamTallyError(say("cannot write {path}: {why}", path=path, why=exc)) from None
    if os.path.exists(path) and not os.path.isfile(path):
        _write_in_place(path, data, exclusive)
        return
    folder = path.parent if str(path.parent) else Path(".")
    _sweep_leftovers(folder, path.name)
    try:
        handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise ParamTallyError(say("cannot write {path}: {why}", path=path, why=exc.strerror or exc)) from None
    try:
        os.chmod(temp_name, path.stat().st_mode & 0o777 if path.exists() else 0o644)
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if exclusive:
            _link_new(temp_name, path)
        else:
            os.replace(temp_name, path)
    except FileExistsError:
        raise AlreadyExists(f"{path} already exists") from None
    except OSError as exc:
        raise ParamTallyError(say("cannot write {path}: {why}", path=path, why=exc.strerror or exc)) from None
    finally:
        Path(temp_name).unlink(missing_ok=True)


def _sweep_leftovers(folder: Path, name: str) -> None:
    """Remove the temporary files an earlier write of ``name`` left when it was killed: named for
    it, regular files, an hour old. Never raises: a write must not fail over a leftover."""
    now = time.time()
    try:
        entries = [entry for entry in os.scandir(folder) if entry.name.startswith(f".{name}.")]
    except (OSError, ValueError):
        return
    for entry in entries:
        found = TEMP_PATTERN.fullmatch(entry.name)
        if found is None or found["target"] != name:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_TEMP_SECONDS:
                os.unlink(entry.path)
        except OSError:
            continue  # gone already, or not ours to remove


def _write_in_place(path: Path, data: bytes, exclusive: bool) -> None:
    """A device or a FIFO: no temporary file can stand in for it."""
    if exclusive:
        raise AlreadyExists(f"{path} already exists")
    try:
        with open(path, "wb") as stream:
            stream.write(data)
    except OSError as exc:
        raise ParamTallyError(say("cannot write {path}: {why}", path=path, why=exc.strerror or exc)) from None


def _link_new(temp_name: str, path: Path) -> None:
    try:
        os.link(temp_name, path)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: claim the name first, then fill it
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        os.replace(temp_name, path)


def write_text_atomic(path: Path, text: str, *, exclusive: bool = False) -> None:
    write_bytes_atomic(path, text.encode("utf-8"), exclusive=exclusive)
