"""Which files this process opens, from the interpreter's own ``open`` audit events.

``open()``, ``io.open`` and ``os.open`` all raise the ``open`` audit event, so a recorder sees
every file the code under test opens, whatever the route. An audit hook cannot be removed, so
one is installed on first import and records only inside ``recording()``.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_RECORDS: list[list[str]] = []
ROOT = Path(__file__).resolve().parents[2]
# The interpreter's and the project's own files (lazy imports open them): not input. The base
# prefix too: a venv's interpreter reads its standard library (and pyenv's python311.zip) there.
CODE_DIRS = tuple(
    os.path.realpath(p)
    for p in {
        *(sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")),
        sys.prefix,
        sys.exec_prefix,
        sys.base_prefix,
        sys.base_exec_prefix,
        str(ROOT),
    }
)


def _hook(event: str, args: tuple[object, ...]) -> None:
    if _RECORDS and event == "open" and isinstance(args[0], str | bytes | os.PathLike):
        _RECORDS[-1].append(os.fsdecode(args[0]))


sys.addaudithook(_hook)


@contextmanager
def recording() -> Iterator[list[str]]:
    record: list[str] = []
    _RECORDS.append(record)
    try:
        yield record
    finally:
        _RECORDS.remove(record)


def outside(opened: list[str], *folders: Path) -> list[str]:
    """Opened files neither inside ``folders`` nor the interpreter's or project's code."""
    inside = tuple(os.path.realpath(folder) for folder in folders)
    return [name for name in opened if not os.path.realpath(name).startswith((*inside, *CODE_DIRS))]
