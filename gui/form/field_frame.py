"""The frame around a field's editor that turns red with a refusal or amber with advice.

The architecture form and the memory tab's scenario controls mark their fields alike: the frame,
not the native editor inside it, is marked (a style sheet on a spin box replaces Qt's arrows), by
a ``state`` property that the frame paints as a 2-pixel rounded border in its margin. It paints
the border itself rather than through a style sheet: a sheet on the form's body put every widget
of the form under Qt's style-sheet style, which doubled the time to build the form (30 ms instead
of 15 for GPT-3's 45 fields, ``bench/startup.py``) and repolished a frame at each change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFrame, QHBoxLayout, QWidget

if TYPE_CHECKING:
    from PySide6.QtGui import QPaintEvent

__all__ = ["AMBER", "RED", "FieldFrame", "framed", "mark", "marked"]

RED, AMBER = "#d9534f", "#d08a00"
_COLOURS = {"error": RED, "hint": AMBER}
_NAME = "fieldFrame"
BORDER = 2  # pixels: the frame's layout keeps this margin around the editor, where the border goes


class FieldFrame(QFrame):
    """A frameless box round an editor whose margin turns red ('error') or amber ('hint')."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName(_NAME)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        colour = _COLOURS.get(str(self.property("state") or ""))
        if colour is None:
            return
        # Imported here: a plain frame, as every one at start-up, needs no painter (its enums cost ~1 ms).
        from PySide6.QtCore import QRectF
        from PySide6.QtGui import QColor, QPainter, QPen

        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor(colour), BORDER))
        half = BORDER / 2  # the pen straddles its path: inset by half its width to stay inside
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(half, half, -half, -half), 3, 3)


def framed(editor: QWidget, parent: QWidget) -> QFrame:
    """A frame holding ``editor`` (a button may be added beside it to the frame's layout)."""
    frame = FieldFrame(parent)
    inner = QHBoxLayout(frame)
    inner.setContentsMargins(BORDER, BORDER, BORDER, BORDER)
    inner.setSpacing(2)
    inner.addWidget(editor, 1)
    return frame


def mark(frame: QFrame, state: str) -> None:
    """'error' (red), 'hint' (amber) or '' (plain); repainted only when it changes."""
    if frame.property("state") != state:
        frame.setProperty("state", state)
        frame.update()


def marked(editor: QWidget) -> str:
    """How the field of ``editor`` is marked ('' when it has no frame)."""
    frame = editor.parentWidget()
    if frame is None or frame.objectName() != _NAME:
        return ""
    return str(frame.property("state") or "")
