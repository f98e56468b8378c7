"""A pytest plugin that makes a widget's lifetime bug show at once: Python's collector runs in
full as every pyqtgraph view starts to paint, so a shown widget kept only by reference cycles is
freed under its own paintEvent every time, not once in hundreds of runs (the rare worker
segfault in GraphicsView.paintEvent that tests/gui/test_widget_lifetime.py is about).

    .venv/bin/python -m pytest -p tools.gc_in_paint tests/gui/test_views_kinds.py
"""

from __future__ import annotations

import gc
from typing import Any

import pyqtgraph as pg

_paint = pg.GraphicsView.paintEvent


def _collecting_paint(self: pg.GraphicsView, event: Any) -> None:
    gc.collect()
    _paint(self, event)


def pytest_configure(config: Any) -> None:
    pg.GraphicsView.paintEvent = _collecting_paint
