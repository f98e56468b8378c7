"""The frame around a field's editor that turns red with a refusal or amber with advice.

The architecture form and the memory tab's scenario controls mark their fields alike: the frame,
not the native editor inside it, is styled (a style sheet on a spin box replaces Qt's arrows), by
objectName and a ``state`` property, so one style sheet on a parent serves every field and a change
restyles that frame alone.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QHBoxLayout, QWidget

__all__ = ["AMBER", "FIELD_STYLE", "RED", "framed", "mark", "marked"]

RED, AMBER = "#d9534f", "#d08a00"
_NAME = "fieldFrame"
FIELD_STYLE = (
    f'QFrame#{_NAME}[state="error"] {{ border: 2px solid {RED}; border-radius: 4px; }}'
    f'QFrame#{_NAME}[state="hint"] {{ border: 2px solid {AMBER}; border-radius: 4px; }}'
)


def framed(editor: QWidget, parent: QWidget) -> QFrame:
    """A frame holding ``editor`` (a button may be added beside it to the frame's layout)."""
    frame = QFrame(parent)
    frame.setObjectName(_NAME)
    inner = QHBoxLayout(frame)
    inner.setContentsMargins(2, 2, 2, 2)
    inner.setSpacing(2)
    inner.addWidget(editor, 1)
    return frame


def mark(frame: QFrame, state: str) -> None:
    """'error' (red), 'hint' (amber) or '' (plain); restyled only when it changes."""
    if frame.property("state") != state:
        frame.setProperty("state", state)
        frame.style().unpolish(frame)
        frame.style().polish(frame)


def marked(editor: QWidget) -> str:
    """How the field of ``editor`` is marked ('' when it has no frame)."""
    frame = editor.parentWidget()
    if frame is None or frame.objectName() != _NAME:
        return ""
    return str(frame.property("state") or "")
