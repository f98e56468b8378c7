"""The window's record of a bug: the traceback of an exception no code caught, appended to
``errors.log`` in the user's log dir, for the person to attach to a bug report.

The log stays small: past ``MAX_BYTES`` it keeps only its newer half. Writing never raises: a log
that cannot be written must not turn one bug into two.
"""

from __future__ import annotations

import traceback
from datetime import datetime
from pathlib import Path
from types import TracebackType

import platformdirs

from paramtally.core.errors import ParamTallyError
from paramtally.core.io.atomic import write_bytes_atomic

__all__ = ["MAX_BYTES", "error_log_path", "log_exception"]

MAX_BYTES = 256 * 1024


def error_log_path() -> Path:
    return Path(platformdirs.user_log_dir("paramtally", appauthor=False)) / "errors.log"


def log_exception(
    kind: type[BaseException], error: BaseException, trace: TracebackType | None, version: str
) -> Path | None:
    """Append the exception with the time and ParamTally's ``version``; the log's path, or None
    when it could not be written."""
    path = error_log_path()
    stamp = datetime.now().isoformat(timespec="seconds")
    entry = f"--- {stamp} ParamTally {version}\n" + "".join(traceback.format_exception(kind, error, trace))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_file() and path.stat().st_size > MAX_BYTES:  # the newer half, from an entry's start
            kept = path.read_bytes()[-MAX_BYTES // 2 :]
            start = kept.find(b"\n--- ")
            write_bytes_atomic(path, kept[start + 1 :] if start >= 0 else b"")
        with path.open("a", encoding="utf-8") as log:
            log.write(entry)
    except (OSError, ParamTallyError):
        return None
    return path
