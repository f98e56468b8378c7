"""A tooltip written when someone asks for it, not on every edit.

The memory panel's tooltips list every term with its formula and source: rendering those
formulas took about a millisecond per edit, for a text read only on hover. A widget with
``LazyToolTip`` is given a function that writes the text; the text is made on the first
``toolTip()`` (a hover's ``QEvent.ToolTip`` asks for it) and kept until the next function.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QToolTip, QWidget

__all__ = ["LazyToolTip"]


class LazyToolTip:
    """Mix in before the Qt widget class: ``class View(LazyToolTip, QLabel)``."""

    _make_tip: Callable[[], str] | None = None
    _tip: str | None = None

    def set_tool_tip_source(self, make: Callable[[], str]) -> None:
        """``make()`` writes the tooltip; called at most once, when the tooltip is first wanted."""
        self._make_tip, self._tip = make, None

    def toolTip(self) -> str:  # Qt's name: what tests and a hover read
        if self._tip is None:
            self._tip = self._make_tip() if self._make_tip is not None else ""
        return self._tip

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and self._make_tip is not None:
            assert isinstance(self, QWidget) and isinstance(event, QHelpEvent)
            text = self.toolTip()
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)  # type: ignore[misc, no-any-return]
