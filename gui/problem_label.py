"""The red line under a dialog's fields that says why OK waits (the number, block and Save As
dialogs each show one)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from paramtally.gui.form.field_frame import RED

__all__ = ["ProblemLabel"]


class ProblemLabel(QLabel):
    """objectName ``error``; hidden while there is nothing to say.

    It wraps, and ``say`` grows the dialog to show every line: Qt gives a window whose layout
    holds wrapped text no minimum height, so a reason that wrapped to a second line after the
    dialog was laid out showed half of it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("error")
        self.setStyleSheet(f"color: {RED};")
        self.setWordWrap(True)
        self.hide()

    def say(self, problem: str) -> None:
        """Show ``problem``, or hide the line when it is empty."""
        self.setText(problem)
        self.setVisible(bool(problem))
        window = self.window()
        layout = window.layout()
        if not problem or window is self or layout is None:
            return
        layout.activate()
        needed = layout.totalHeightForWidth(window.width())
        if needed > window.height():
            window.resize(window.width(), needed)
