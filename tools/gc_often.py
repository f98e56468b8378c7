"""A pytest plugin that runs Python's collector after almost every allocation (thresholds 1, 1, 1),
so garbage in reference cycles is freed at arbitrary moments, as on a loaded CI machine, only far
more often: it reproduced the rare worker segfault in GraphicsView.paintEvent in one run of
tests/gui (830 s on two busy cores). ``tools/gc_in_paint.py`` aims at that one moment instead.

    .venv/bin/python -m pytest -n 2 -p tools.gc_often tests/gui
"""

from __future__ import annotations

import gc
from typing import Any


def pytest_configure(config: Any) -> None:
    gc.set_threshold(1, 1, 1)
