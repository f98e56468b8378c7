"""Drive the real modal dialogs a command opens, with keys and clicks, as a person would.

Nothing is replaced: the code under test opens its QFileDialog or QMessageBox and blocks in
``exec()``; a timer started before fires inside that modal loop, finds the dialog with
``QApplication.activeModalWidget()`` and types into it. If the expected dialog never shows, or
stays open after the keys, the helper closes it and records why, so the test fails instead of
hanging.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import shiboken6
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QLineEdit, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

__all__ = ["DialogScript"]

_POLL_MS = 20
_PATIENCE = 150  # polls (3 s) for a dialog to show before the script gives up


@dataclass
class DialogScript:
    """Answers to the next modal dialogs, in order. ``seen`` records what each one said."""

    qtbot: QtBot
    seen: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    _steps: list[Callable[[QWidget], None]] = field(default_factory=list)
    _waits: int = 0

    def save_as(self, path: str) -> DialogScript:
        """The next file dialog: type ``path`` into its file name box and press Enter."""
        return self._then(lambda dialog: self._type_file_name(dialog, path))

    def cancel_file(self) -> DialogScript:
        """The next file dialog: press Escape."""
        return self._then(lambda dialog: self._escape(dialog, QFileDialog))

    def press_ok(self) -> DialogScript:
        """The next message box: remember its text and click its OK button with the mouse."""
        return self._then(self._click_ok)

    def start(self) -> DialogScript:
        QTimer.singleShot(0, self._poll)
        return self

    @property
    def done(self) -> bool:
        return not self._steps

    # --- internals ------------------------------------------------------------------------------

    def _then(self, step: Callable[[QWidget], None]) -> DialogScript:
        self._steps.append(step)
        return self

    def _poll(self) -> None:
        if not self._steps:
            return
        dialog = QApplication.activeModalWidget()
        if dialog is None or not dialog.isVisible():
            self._waits += 1
            if self._waits > _PATIENCE:
                self.problems.append(f"no dialog showed for step {len(self.seen) + 1}")
                self._steps.clear()
                return
            QTimer.singleShot(_POLL_MS, self._poll)
            return
        if QApplication.activeWindow() is not dialog and self._waits < _PATIENCE:
            # A person's click would make it the active window; only then do keys reach its buttons.
            dialog.activateWindow()
            self._waits += 1
            QTimer.singleShot(_POLL_MS, self._poll)
            return
        self._waits = 0
        step = self._steps.pop(0)
        self.seen.append(_describe(dialog))
        step(dialog)
        # The keys were sent: if the dialog is still open, it did not take them.
        QTimer.singleShot(300, lambda: self._close_if_open(dialog))
        QTimer.singleShot(_POLL_MS, self._poll)

    def _close_if_open(self, dialog: QWidget) -> None:
        if not shiboken6.isValid(dialog):  # the static helpers delete their dialog on closing
            return
        if isinstance(dialog, QDialog) and dialog.isVisible() and QApplication.activeModalWidget() is dialog:
            self.problems.append(f"{_describe(dialog)} stayed open")
            dialog.reject()

    def _type_file_name(self, dialog: QWidget, path: str) -> None:
        if not isinstance(dialog, QFileDialog):
            self.problems.append(f"expected a file dialog, got {_describe(dialog)}")
            dialog.close()
            return
        name = dialog.findChild(QLineEdit, "fileNameEdit")
        assert name is not None, "Qt's file dialog has a fileNameEdit"
        name.setFocus()
        self.qtbot.keyClick(name, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        self.qtbot.keyClicks(name, path)
        self.qtbot.keyClick(name, Qt.Key.Key_Return)

    def _escape(self, dialog: QWidget, kind: type) -> None:
        if not isinstance(dialog, kind):
            self.problems.append(f"expected a {kind.__name__}, got {_describe(dialog)}")
        self.qtbot.keyClick(dialog, Qt.Key.Key_Escape)

    def _click_ok(self, dialog: QWidget) -> None:
        if not isinstance(dialog, QMessageBox):
            self.problems.append(f"expected a message box, got {_describe(dialog)}")
            dialog.close()
            return
        button = dialog.button(QMessageBox.StandardButton.Ok)
        assert button is not None
        self.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def _describe(dialog: QWidget) -> str:
    if isinstance(dialog, QMessageBox):
        return f"{dialog.windowTitle()}: {dialog.text()}"
    return f"{type(dialog).__name__} {dialog.windowTitle()!r}"
