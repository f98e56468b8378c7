"""The mark that the figures shown are the last valid ones, not the model as typed.

A typed value that does not fit stays in its field, red, and the figures stay those of the last
model that validated (core's drafts). The headline, the charts and the memory tab say so in the
same words, naming what is not applied, until the value applies or is taken back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import QLabel, QWidget

from paramtally.gui.form.field_frame import RED
from paramtally.gui.i18n import title_text, translate

if TYPE_CHECKING:
    from paramtally.gui.document import Document

__all__ = ["StaleNote", "stale_text"]

_NAMED = 2  # values named before "and N more"


def stale_text(document: Document) -> str:
    """'⚠ Last valid figures, not the model as typed: Hidden size 8,192 is not applied'; '' when
    every value typed is in the figures."""
    drafts = document.drafts
    if not drafts:
        return ""
    named = [
        f"{title_text(document.title_of(path))} {_value(value)}"
        for path, value in list(drafts.items())[:_NAMED]
    ]
    more = len(drafts) - len(named)
    if more:
        named.append(translate("Stale", "{count} more").format(count=more))
    listed = (
        named[0]
        if len(named) == 1
        else translate("Stale", "{some} and {last}").format(some=", ".join(named[:-1]), last=named[-1])
    )
    if len(drafts) == 1:
        said = translate("Stale", "⚠ Last valid figures, not the model as typed: {listed} is not applied")
    else:
        said = translate("Stale", "⚠ Last valid figures, not the model as typed: {listed} are not applied")
    return said.format(listed=listed)


def _value(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


class StaleNote(QLabel):
    """A short mark in red by a view's figures, shown while they are the last valid ones; what is
    not applied is in its tooltip (the headline over the tabs says it whole: the mark stays one
    line beside the charts' controls at 1024 pixels)."""

    SHORT = QT_TRANSLATE_NOOP("Stale", "⚠ Last valid figures")

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(translate("Stale", self.SHORT), parent)
        self.setObjectName(name)
        self.setStyleSheet(f"color: {RED}; font-weight: 600;")
        self.hide()

    def follow(self, document: Document) -> None:
        text = stale_text(document)
        if text != self.toolTip():
            self.setToolTip(text)
        self.setVisible(bool(text))
