"""The Help menu: the user's guide (F1), the keyboard shortcuts (Ctrl+/) and About.

Each entry opens its dialog over the window, modally: ``gui.guide_dialog`` (the README shipped
in the package, offline), ``gui.shortcuts_dialog`` (read from the window's own actions) and
``gui.about_dialog`` (version, licence, where the files live).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QMainWindow, QMenu

__all__ = ["HelpMenu", "add_help_menu"]


class HelpMenu(QObject):
    """The Help menu's actions; each ``show_*`` opens its dialog and returns when it is closed."""

    def __init__(self, window: QMainWindow, menu: QMenu) -> None:
        super().__init__(window)
        self.window = window
        self.menu = menu

        def add(
            text: str, name: str, slot: Callable[[], object], keys: QKeySequence | None = None
        ) -> QAction:
            action = menu.addAction(text, slot)
            action.setObjectName(name)
            if keys is not None:
                action.setShortcut(keys)
            return action

        self.guide_action = add(
            "&User Guide", "actionGuide", self.show_guide, QKeySequence(QKeySequence.StandardKey.HelpContents)
        )
        self.shortcuts_action = add(
            "&Keyboard Shortcuts", "actionShortcuts", self.show_shortcuts, QKeySequence("Ctrl+/")
        )
        menu.addSeparator()
        self.about_action = add("&About ParamTally", "actionAbout", self.show_about)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)

    def show_guide(self) -> None:
        from paramtally.gui.guide_dialog import GuideDialog

        self._show(GuideDialog(self.window))

    def show_shortcuts(self) -> None:
        from paramtally.gui.shortcuts_dialog import ShortcutsDialog

        self._show(ShortcutsDialog(self.window))

    def show_about(self) -> None:
        from paramtally.gui.about_dialog import AboutDialog

        self._show(AboutDialog(self.window))

    @staticmethod
    def _show(dialog: QDialog) -> None:
        dialog.exec()
        dialog.deleteLater()


def add_help_menu(window: QMainWindow, menu: QMenu) -> HelpMenu:
    """The Help menu's entries, in ``menu`` (the window's "&Help", last on its menu bar)."""
    return HelpMenu(window, menu)
