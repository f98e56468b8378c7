"""Help → Keyboard Shortcuts: every key of the window, read from its own actions.

Nothing here is a list kept by hand: the rows are the actions of the window's menus (with the
menu they are in) and the actions widgets carry for themselves (the layer tree's, a table's
Ctrl+C), each with the keys Qt dispatches, so a key added to an action shows here as it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from paramtally.gui.dialogs import add_mnemonics
from paramtally.gui.i18n import translate

__all__ = ["Shortcut", "ShortcutsDialog", "shortcuts"]

MENU_SEPARATOR = " › "


@dataclass(frozen=True, slots=True)
class Shortcut:
    keys: str  # as the platform writes them: "Ctrl+Shift+P", "F2 or Shift+F10"
    action: str
    where: str  # the menu path ("Explore") or the widget that takes the key ("Layer tree")


def plain(text: str) -> str:
    """An action's text as read: without its mnemonic marks and any tab-separated key ('&Open…' → 'Open…')."""
    return text.split("\t")[0].replace("&&", "\0").replace("&", "").replace("\0", "&")


def _said(action: QAction) -> str:
    """What a widget's action does: its status tip where it says more than the text (the layer
    tree's 'Attention' is 'Change the mixer to Attention'), else its text."""
    return action.statusTip() or plain(action.text())


def _keys(action: QAction) -> str:
    return translate("Shortcuts", " or ").join(
        key.toString(QKeySequence.SequenceFormat.NativeText) for key in action.shortcuts()
    )


def _menu_actions(menu: QMenu, path: tuple[str, ...]) -> Iterator[tuple[QAction, tuple[str, ...]]]:
    for action in menu.actions():
        submenu = action.menu()
        if isinstance(submenu, QMenu):
            yield from _menu_actions(submenu, (*path, plain(action.text())))
        elif not action.isSeparator():
            yield action, path


def shortcuts(window: QMainWindow) -> list[Shortcut]:
    """Every action of ``window`` that has a key: its menus' in menu order, then those widgets carry
    for themselves, named by the widget (its accessible name, as a screen reader says it)."""
    found: list[Shortcut] = []
    seen: set[int] = set()
    for top in window.menuBar().actions():
        menu = top.menu()
        if not isinstance(menu, QMenu):
            continue
        for action, path in _menu_actions(menu, (plain(top.text()),)):
            seen.add(id(action))
            if action.shortcuts():
                found.append(Shortcut(_keys(action), plain(action.text()), MENU_SEPARATOR.join(path)))
    widgets = [window, *window.findChildren(QWidget)]
    for widget in widgets:
        for action in widget.actions():
            if id(action) in seen or not action.shortcuts() or not plain(action.text()):
                continue
            seen.add(id(action))
            where = widget.accessibleName() or widget.windowTitle() or widget.objectName()
            found.append(Shortcut(_keys(action), _said(action), where))
    return found


class ShortcutsDialog(QDialog):
    """objectName ``shortcutsDialog``; children ``shortcutsFilter`` and ``shortcutsTable``."""

    COLUMNS = (
        QT_TRANSLATE_NOOP("Shortcuts", "Keys"),
        QT_TRANSLATE_NOOP("Shortcuts", "Action"),
        QT_TRANSLATE_NOOP("Shortcuts", "Where"),
    )

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle(translate("Shortcuts", "Keyboard Shortcuts — ParamTally"))
        self.rows = shortcuts(window)
        self.filter = QLineEdit()
        self.filter.setObjectName("shortcutsFilter")
        self.filter.setPlaceholderText(
            translate("Shortcuts", "Search keys, actions or places (e.g. “tree”, “Ctrl+Z”)")
        )
        self.filter.setClearButtonEnabled(True)
        label = QLabel(translate("Shortcuts", "&Search:"))
        label.setBuddy(self.filter)
        self.table = QTableWidget(len(self.rows), len(self.COLUMNS))
        self.table.setObjectName("shortcutsTable")
        self.table.setHorizontalHeaderLabels([translate("Shortcuts", text) for text in self.COLUMNS])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setTabKeyNavigation(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)  # 44 rows: compact
        self.table.setAlternatingRowColors(True)
        for row, shortcut in enumerate(self.rows):
            for column, text in enumerate((shortcut.keys, shortcut.action, shortcut.where)):
                item = QTableWidgetItem(text)
                if column == 0:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.table.setItem(row, column, item)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.count = QLabel()
        self.count.setObjectName("shortcutsCount")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        add_mnemonics(buttons)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(self.filter)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.count)
        layout.addWidget(buttons)
        self.filter.textChanged.connect(self._filter)
        self._filter("")
        self._fit(window)
        self.filter.setFocus()  # typing searches at once

    def _filter(self, text: str) -> None:
        """Only the rows holding every word typed, in any letter case."""
        words = text.lower().split()
        shown = 0
        for row, shortcut in enumerate(self.rows):
            haystack = f"{shortcut.keys} {shortcut.action} {shortcut.where}".lower()
            hide = not all(word in haystack for word in words)
            self.table.setRowHidden(row, hide)
            shown += not hide
        every = len(self.rows)
        if shown == every:
            self.count.setText(translate("Shortcuts", "{every} shortcuts").format(every=every))
        else:
            self.count.setText(
                translate("Shortcuts", "{shown} of {every} shortcuts").format(shown=shown, every=every)
            )

    def _fit(self, window: QWidget) -> None:
        """Wide enough for its three columns, within the window's screen."""
        wanted = sum(self.table.sizeHintForColumn(c) for c in range(len(self.COLUMNS))) + 80
        width, height = max(wanted, 560), 560
        screen = window.screen()
        if screen is not None:
            room = screen.availableGeometry()
            width, height = min(width, room.width() - 40), min(height, room.height() - 80)
        self.resize(width, height)
