"""A block of figures in rich text (a small table) that wraps to the width it is given.

The memory panel's FLOPs and serving summaries are such blocks. Each edit gives new text, and
Qt's layout then asks the label for its height at a width about five times per edit (the panel,
its scroll area, the row beside the chart), each a fresh layout of the rich text (~0.8 ms).
The height at a width is kept until the text or the font changes, so each width is laid out
once per edit.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QLabel, QWidget

from paramtally.gui.views.lazy_tooltip import LazyToolTip

__all__ = ["FiguresLabel"]


class FiguresLabel(LazyToolTip, QLabel):
    """Rich text, selectable, top-left, wrapped; its tooltip written when asked for."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._heights: dict[int, int] = {}  # width → height for the text shown
        self.setObjectName(name)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.setWordWrap(True)

    def setText(self, text: str) -> None:  # Qt's name, as QLabel's
        if text != self.text():
            self._heights.clear()
            super().setText(text)

    def heightForWidth(self, width: int) -> int:  # Qt's name: the layout asks
        if width not in self._heights:
            self._heights[width] = super().heightForWidth(width)
        return self._heights[width]

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._heights.clear()
        super().changeEvent(event)
