"""A block of figures: a bold title over rows of a name and its value, the values wrapping to the
width they are given.

The memory panel's FLOPs and serving summaries are such blocks. They were one rich-text label
holding an HTML table: Qt lays a table out slowly, and each edit's new text was laid out at every
width Qt asked the label's height for (about two widths and a size hint, ~1.2 ms each, and again
to paint), ~8 ms per summary per edit. A grid of labels, the names plain, the values short rich
text, is laid out and painted in ~2.5 ms.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

from paramtally.gui.views.lazy_tooltip import LazyToolTip

__all__ = ["FiguresGrid", "Row"]

Row = tuple[str, str]  # a figure's name (plain text) and its value (rich text: <b> for emphasis)


def _label(rich: bool, wrap: bool) -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setWordWrap(wrap)
    return label


class FiguresGrid(LazyToolTip, QWidget):
    """A title and rows of figures; its tooltip written when asked for (``LazyToolTip``): hovering
    any row asks the block, as a row has no tooltip of its own."""

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.title = _label(rich=True, wrap=True)
        self._grid = QGridLayout(self)
        # A little room on the right: the values end short of a scroll bar beside the block.
        self._grid.setContentsMargins(0, 0, 6, 0)
        self._grid.setHorizontalSpacing(8)
        self._grid.setVerticalSpacing(1)
        self._grid.setColumnStretch(1, 1)
        self._grid.addWidget(self.title, 0, 0, 1, 2)
        self._rows: list[tuple[QLabel, QLabel]] = []

    def set_figures(self, title: str, rows: Sequence[Row]) -> None:
        """Show ``title`` over ``rows``; labels whose text is unchanged are left alone."""
        _set(self.title, title)
        while len(self._rows) < len(rows):
            name, value = _label(rich=False, wrap=False), _label(rich=True, wrap=True)
            at = len(self._rows) + 1
            self._grid.addWidget(name, at, 0, Qt.AlignmentFlag.AlignTop)
            self._grid.addWidget(value, at, 1, Qt.AlignmentFlag.AlignTop)
            self._rows.append((name, value))
        for index, (name, value) in enumerate(self._rows):
            shown = index < len(rows)
            if shown:
                _set(name, rows[index][0])
                _set(value, rows[index][1])
            name.setVisible(shown)
            value.setVisible(shown)

    def comfortable_width(self) -> int:
        """How wide the block reads well: every name on one line, the values about 40 characters
        a line (a layout's sizeHint gives the narrowest, a wrapped row of few words)."""
        metrics = QFontMetrics(self.font())
        names = max((metrics.horizontalAdvance(name.text()) for name, _ in self._rows), default=0)
        return names + self._grid.horizontalSpacing() + 40 * metrics.averageCharWidth()

    def text(self) -> str:
        """The figures as shown, the title then a row a line (``name: value``, values as rich text)."""
        rows = [f"{name.text()}: {value.text()}" for name, value in self._rows if name.isVisibleTo(self)]
        return "\n".join([self.title.text(), *rows])


def _set(label: QLabel, text: str) -> None:
    if label.text() != text:  # an unchanged label keeps its layout and is not repainted
        label.setText(text)
