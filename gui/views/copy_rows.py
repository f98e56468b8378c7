"""Copy (Ctrl+C) of a table's selected rows as tab-separated text, the way spreadsheets paste it.

The text comes from ``core.io.export`` (the rows and columns the CSV export writes, numbers in
full), with a header line naming the columns.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QAbstractItemView

from paramtally.gui.i18n import translate

__all__ = ["add_copy_action"]


def add_copy_action(view: QAbstractItemView, selected_text: Callable[[], str]) -> QAction:
    """Ctrl+C (the platform's Copy) on ``view`` and a "Copy rows" entry in its context menu."""
    action = QAction(translate("CopyRows", "&Copy selected rows"), view)
    action.setObjectName("actionCopyRows")
    action.setShortcut(QKeySequence.StandardKey.Copy)
    action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    action.setToolTip(
        translate("CopyRows", "Copy the selected rows as tab-separated text, with a header line")
    )

    def copy() -> None:
        text = selected_text()
        if text:
            QGuiApplication.clipboard().setText(text)

    action.triggered.connect(copy)
    view.addAction(action)
    view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
    return action
