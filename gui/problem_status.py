"""The status bar's line about refused values: it stays while a field is red.

Qt's temporary status messages vanish after a timeout whatever the field shows; this label
follows the document's problems instead: the newest refusal, until its field is valid again,
then the next one still open, then nothing.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QStatusBar, QWidget

from paramtally.core.errors import FieldPath, format_loc
from paramtally.gui.document import Document
from paramtally.gui.i18n import said_text, title_text
from paramtally.gui.shown_text import MESSAGE_CHARS, shown

__all__ = ["ProblemStatus"]


class ProblemStatus(QLabel):
    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("problemStatus")
        self.document = document
        self.path: FieldPath | None = None
        document.invalid.connect(self._show)
        document.validity.connect(self._cleared)

    def say_again(self, path: FieldPath | None) -> None:
        """Say the document's refusal at ``path`` (what the line it replaces said), if it stands."""
        problems = self.document.problems
        if path is not None and path in problems:
            self._show(path, problems[path])

    def _show(self, path: FieldPath, reason: str) -> None:
        bar = self.parentWidget()
        if isinstance(bar, QStatusBar):
            bar.clearMessage()  # a passing message ('Opened …') would hide this line
        self.path = path
        where = title_text(self.document.title_of(path))
        # One line of bounded length: the reason and the path may quote a file's text (a block's name).
        reason = said_text(reason)
        self.setText(shown(f"⚠ {where}: {reason}" if where else f"⚠ {reason}", MESSAGE_CHARS))
        self.setToolTip(shown(format_loc(path), MESSAGE_CHARS))

    def _cleared(self, path: FieldPath, reason: str) -> None:
        if reason or path != self.path:
            return
        remaining = self.document.problems
        if remaining:
            self._show(*next(reversed(remaining.items())))
        else:
            self.path = None
            self.clear()
            self.setToolTip("")
