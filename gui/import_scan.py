"""PySide6's look at every module imported after it, asked in one read of the file.

Once PySide6 is loaded, its ``__feature__`` support (``from __feature__ import snake_case``) asks of
each module imported afterwards whether its source mentions "PySide6", to know whether the module
may switch features. It asks through ``inspect.getsource``: the line cache, ``tokenize`` and an
encoding check for every module. The window imports some 370 modules after PySide6 (its own, numpy,
pyqtgraph), and that reading was about 8% of ``paramtally --screenshot`` (45 ms of 550, measured by
bench/startup.py's kind of start). The same question, asked of the file's bytes, gives the same
answer at a fraction of the cost; modules without a ``.py`` file are asked as PySide6 asks them.

The function replaced is PySide6's own, ``shibokensupport.feature._mod_uses_pyside`` (PYSIDE-2029 in
Qt's tracker; read on 6.11): a private name, so where a release lacks it nothing is changed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType

__all__ = ["read_module_files_directly"]

_READ_DIRECTLY = "_paramtally_reads_files"


def read_module_files_directly() -> bool:
    """Make PySide6's scan read each module's file once; False where PySide6 has no such scan.
    Call it once PySide6 is imported (its support module exists from then on)."""
    feature = sys.modules.get("shibokensupport.feature")
    upstream = getattr(feature, "_mod_uses_pyside", None)
    if feature is None or not callable(upstream):
        return False
    if getattr(upstream, _READ_DIRECTLY, False):
        return True
    vars(feature)["_mod_uses_pyside"] = _reading_files(upstream)  # the name its caller looks up
    return True


def _reading_files(upstream: Callable[[ModuleType], bool]) -> Callable[[ModuleType], bool]:
    def mentions_pyside(module: ModuleType) -> bool:
        path = getattr(module, "__file__", None)
        if not isinstance(path, str) or not path.endswith(".py"):
            return upstream(module)  # built in, compiled or without a file: PySide6's own answer
        try:
            with open(path, "rb") as source:
                return b"PySide6" in source.read()
        except OSError:
            return upstream(module)

    setattr(mentions_pyside, _READ_DIRECTLY, True)
    return mentions_pyside
