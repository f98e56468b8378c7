"""A plain event: callbacks connected to it run, in order, each time it is emitted.

Core objects (the document) announce changes with these instead of Qt signals, so they work in a
script, a test or the CLI; the window forwards each to a Qt signal of the same name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["Event"]


class Event:
    """``connect(callback)``, ``disconnect(callback)``, ``emit(*args)``."""

    __slots__ = ("_callbacks",)

    def __init__(self) -> None:
        self._callbacks: list[Callable[..., Any]] = []

    def connect(self, callback: Callable[..., Any]) -> None:
        self._callbacks.append(callback)

    def disconnect(self, callback: Callable[..., Any]) -> None:
        self._callbacks.remove(callback)

    def emit(self, *args: Any) -> None:
        for callback in list(self._callbacks):
            callback(*args)
