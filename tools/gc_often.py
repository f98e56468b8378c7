"""A pytest plugin that runs Python's collector after almost every allocation (thresholds 1, 1, 1),
so garbage in reference cycles is freed at arbitrary moments, as on a loaded CI machine, only far
more often: it reproduced the rare worker segfault in GraphicsView.paintEvent in one run of
tests/gui (830 s on two busy cores). ``tools/gc_in_paint.py`` aims at that one moment instead.

    .venv/bin/python -m pytest -n 2 -p tools.gc_often tests/gui
"""

from __future__ import annotations

import gc
from typing import Any


def pytest_runtest_setup(item: Any) -> None:
    # Before each test: a test that starts the app in-process (test_screenshot.py) leaves the
    # app's own threshold of 10,000 behind (gui.app.settle_start_up_objects).
    gc.set_threshold(1, 1, 1)
