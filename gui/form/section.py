"""A collapsible form section: a header button with an arrow over a content widget.

Why not superqt's QCollapsible: importing ``superqt`` star-imports all of QtCore, QtGui and
QtWidgets through qtpy, about 0.2 s of a 0.5 s start (measured by bench/gui_latency.py), and its
animated maximum height clips rows whose height changes later (a wrapped error message). This
keeps the part of its interface the form uses: ``addWidget``, ``expand``, ``collapse``,
``isExpanded``, ``toggled``.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QToolButton, QVBoxLayout, QWidget

from paramtally.gui.i18n import title_text

__all__ = ["Section"]


class _Header(QToolButton):
    """The section's title, cut short with … when the form is narrower (the whole title in its
    tooltip). A layer group's title ('Layer group: layers 0, 8, 16, 24 (Mamba, dense) · Mixer')
    asked for its full width and pushed the left pane wider at each edit, the charts narrower."""

    SHORTEST = 160  # pixels it asks for, whatever the title

    def __init__(self, title: str, parent: QWidget) -> None:
        super().__init__(parent)
        self.title = title  # as core names it: the form finds its sections by it
        self.shown_title = title_text(title)  # as the person reads it, in the window's language
        self.setToolTip(self.shown_title)
        self.setText(_literal(self.shown_title))

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(min(hint.width(), self.SHORTEST), hint.height())

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        room = self.width() - self.iconSize().width() - 16  # the arrow and the margins
        elided = self.fontMetrics().elidedText(self.shown_title, Qt.TextElideMode.ElideRight, max(room, 0))
        self.setText(_literal(elided))


def _literal(text: str) -> str:
    """``text`` as a button shows it: an '&' (in a block's name) as itself, not a mnemonic."""
    return text.replace("&", "&&")


class Section(QWidget):
    toggled = Signal(bool)

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.button = _Header(title, self)
        self.button.setObjectName(f"section:{title}")
        self.button.setCheckable(True)
        self.button.setChecked(True)
        self.button.setAutoRaise(True)
        self.button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.button.setArrowType(Qt.ArrowType.DownArrow)
        self.button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        font = self.button.font()
        font.setBold(True)
        self.button.setFont(font)
        self.button.toggled.connect(self._set_expanded)
        self._content = QWidget(self)
        self._content_layout = QVBoxLayout(self._content)
        self._content_layout.setContentsMargins(0, 0, 0, 0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.button)
        layout.addWidget(self._content)

    def text(self) -> str:
        return self.button.title

    def content(self) -> QWidget:
        return self._content

    def addWidget(self, widget: QWidget) -> None:
        self._content_layout.addWidget(widget)

    def isExpanded(self) -> bool:
        return self.button.isChecked()

    def expand(self, animate: bool = False) -> None:
        self.button.setChecked(True)

    def collapse(self, animate: bool = False) -> None:
        self.button.setChecked(False)

    def _set_expanded(self, expanded: bool) -> None:
        self.button.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        self._content.setVisible(expanded)
        self.toggled.emit(expanded)
