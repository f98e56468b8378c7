"""A layout that lays its widgets in a row and wraps them onto further rows when the row is narrow.

Its minimum width is its widest item's, so a toolbar of it never makes the window wider than the
screen (the Compare tab's row of buttons asked 1046 px of a 1024-px screen); its height follows
the width (``heightForWidth``). After Qt's Flow Layout example, without the spacing from style.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget

__all__ = ["FlowLayout"]


class FlowLayout(QLayout):
    """Items left to right, wrapped; each row as tall as its tallest item, items centred in it."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self.setContentsMargins(0, 0, 0, 0)

    # --- QLayout's items -----------------------------------------------------------------------

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    # --- sizes -------------------------------------------------------------------------------------

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), move=False)

    def sizeHint(self) -> QSize:
        """All in one row."""
        shown = self._shown()
        width = sum(item.sizeHint().width() for item in shown) + self._spacing * max(len(shown) - 1, 0)
        height = max((item.sizeHint().height() for item in shown), default=0)
        return QSize(width, height) + self._margins()

    def minimumSize(self) -> QSize:
        """As wide as the widest item: narrower, the row wraps."""
        size = QSize()
        for item in self._shown():
            size = size.expandedTo(item.minimumSize())
        return size + self._margins()

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    # --- placing -----------------------------------------------------------------------------------

    def _shown(self) -> list[QLayoutItem]:
        return [item for item in self._items if not item.isEmpty()]

    def _margins(self) -> QSize:
        margins = self.contentsMargins()
        return QSize(margins.left() + margins.right(), margins.top() + margins.bottom())

    def _rows(self, width: int) -> list[list[QLayoutItem]]:
        rows: list[list[QLayoutItem]] = [[]]
        used = 0
        for item in self._shown():
            wide = item.sizeHint().width()
            if rows[-1] and used + self._spacing + wide > width:
                rows.append([])
                used = 0
            used += (self._spacing if rows[-1] else 0) + wide
            rows[-1].append(item)
        return [row for row in rows if row]

    def _arrange(self, rect: QRect, move: bool) -> int:
        """Place the items in ``rect`` (when ``move``); the height they take."""
        margins = self.contentsMargins()
        inner = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        y = inner.y()
        for row in self._rows(inner.width()):
            height = max(item.sizeHint().height() for item in row)
            x = inner.x()
            for item in row:
                hint = item.sizeHint()
                wide = min(hint.width(), inner.width())  # an item wider than the row is squeezed to it
                if move:
                    item.setGeometry(
                        QRect(QPoint(x, y + (height - hint.height()) // 2), QSize(wide, hint.height()))
                    )
                x += wide + self._spacing
            y += height + self._spacing
        return y - self._spacing - inner.y() + margins.top() + margins.bottom() if y > inner.y() else 0
