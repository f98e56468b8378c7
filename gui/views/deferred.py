"""Refresh a view on each document change only while a person can see it.

A view on a hidden tab of a shown window skips the work (the memory panel's GPU table costs a few
milliseconds per edit) and catches up once, when it is shown again. A view whose window is not
shown at all (a standalone widget, a test) refreshes at once, as before.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QWidget

__all__ = ["DeferredRefresh"]


class DeferredRefresh:
    """``request()`` on each change; the view calls ``shown()`` from its ``showEvent``."""

    def __init__(self, view: QWidget, refresh: Callable[[], None]) -> None:
        self._view = view
        self._refresh = refresh
        self.stale = False

    def request(self) -> None:
        if self._view.isVisible() or not self._view.window().isVisible():
            self.stale = False
            self._refresh()
        else:
            self.stale = True

    def shown(self) -> None:
        if self.stale:
            self.stale = False
            self._refresh()
