"""Refresh a view on each document change only while a person can see it.

A view on a hidden tab of a shown window skips the work (the memory panel's GPU table costs a few
milliseconds per edit) and catches up once, when it is shown again. A view whose window is not
shown at all (a standalone widget, a test) refreshes at once, as before.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

__all__ = ["DeferredRefresh"]


class DeferredRefresh(QObject):
    """``request()`` on each change; the view calls ``shown()`` from its ``showEvent``.

    A child of the view, so a connection to ``request`` ends with the view: a document that
    outlives its window no longer calls into a deleted widget.
    """

    def __init__(self, view: QWidget, refresh: Callable[[], None]) -> None:
        super().__init__(view)
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
