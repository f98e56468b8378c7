"""The Help menu (issue 31), opened with Alt+H and its keys as a person would: the keyboard shortcuts
read from the window's own actions, the README as the user's guide (offline, and what happens with
no browser) and About with the version, the licence and the places platformdirs gives."""

from __future__ import annotations

from importlib.metadata import version

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot

from paramtally.core.io.error_log import error_log_path
from paramtally.core.io.recent import recent_path
from paramtally.core.io.user_presets import presets_dir
from paramtally.core.memory.gpus import user_catalog_path
from paramtally.gui.about_dialog import AboutDialog
from paramtally.gui.guide_dialog import GuideDialog
from paramtally.gui.main_window import MainWindow
from paramtally.gui.settings import settings_path
from paramtally.gui.shortcuts_dialog import ShortcutsDialog
from tests.gui.modals import Modals, give_focus
from tests.gui.views_support import preset_window


def _help(qtbot: QtBot, modals: Modals, window: MainWindow, entry: str, answer) -> None:  # type: ignore[no-untyped-def]
    """Alt+H, click ``entry``; ``answer(dialog)`` drives the dialog it opens."""
    modals.choose(entry)
    modals.expect(answer, entry)
    give_focus(qtbot, window.form.editor(("name",)))
    qtbot.keyClick(window, Qt.Key.Key_H, Qt.KeyboardModifier.AltModifier)
    modals.wait_done(timeout=30_000)  # a condition, not a delay: room for a machine with every core busy


def _rows(dialog: ShortcutsDialog, shown_only: bool = True) -> list[tuple[str, str, str]]:
    table = dialog.table
    return [
        tuple(table.item(row, column).text() for column in range(3))  # type: ignore[misc]
        for row in range(table.rowCount())
        if not (shown_only and table.isRowHidden(row))
    ]


@pytest.fixture
def window(qtbot: QtBot) -> MainWindow:
    return preset_window(qtbot, "gpt3-175b", (1024, 700))


def test_the_shortcuts_list_is_read_from_the_windows_actions(
    qtbot: QtBot, modals: Modals, window: MainWindow
) -> None:
    # A key given to an action shows in the list as it is: nothing is kept by hand.
    design = window.findChild(type(window.help.about_action), "actionDesignSpace")
    design.setShortcut(QKeySequence("Ctrl+Shift+E"))
    seen: dict[str, list[tuple[str, str, str]]] = {}

    def answer(dialog: QWidget) -> None:
        assert isinstance(dialog, ShortcutsDialog)
        seen["all"] = _rows(dialog)
        dialog.filter.setFocus()
        qtbot.keyClicks(dialog.filter, "tree")
        seen["tree"] = _rows(dialog)
        seen["count"] = [(dialog.count.text(), "", "")]
        modals.click_button(dialog, "Close")

    _help(qtbot, modals, window, "Keyboard Shortcuts", answer)
    rows = seen["all"]
    for row in [
        ("Ctrl+O", "Open…", "File"),
        ("Ctrl+G", "Goal Seek…", "Explore"),
        ("Ctrl+Shift+E", "Design Space", "Explore"),
        ("Ctrl+2", "Go to Layer Tree", "View"),
        ("F6", "Next Pane", "View"),
        ("F1", "User Guide", "Help"),
        ("Ctrl+/", "Keyboard Shortcuts", "Help"),
        ("Ctrl+Alt+4", "Change the mixer to Mamba-2", "Layer tree"),
        ("Menu or Shift+F10", "Open the context menu", "Layer tree"),
        ("Ctrl+C", "Copy selected rows", "Table of terms"),
    ]:
        assert row in rows, row
    # The window's own keys never clash: one action per key wherever the window has the focus.
    window_wide = [
        keys
        for keys, _, where in rows
        if where.split(" › ")[0] in ("File", "Edit", "View", "Explore", "Help")
    ]
    assert len(window_wide) == len(set(window_wide)), sorted(window_wide)
    tree = seen["tree"]
    assert ("Ctrl+2", "Go to Layer Tree", "View") in tree
    assert {where for _, _, where in tree} == {"View", "Layer tree"} and len(tree) < len(rows)
    assert seen["count"][0][0] == f"{len(tree)} of {len(rows)} shortcuts"


def test_every_key_in_the_list_does_what_it_says(qtbot: QtBot, modals: Modals, window: MainWindow) -> None:
    """F1 and Ctrl+/ open what the list says; Ctrl+2 (from the list too) reaches the tree."""
    opened: list[str] = []

    def close(dialog: QWidget) -> None:
        opened.append(type(dialog).__name__)
        modals.click_button(dialog, "Close")

    for key, modifier in (
        (Qt.Key.Key_F1, Qt.KeyboardModifier.NoModifier),
        (Qt.Key.Key_Slash, Qt.KeyboardModifier.ControlModifier),
    ):
        modals.expect(close)
        give_focus(qtbot, window.form.editor(("name",)))
        qtbot.keyClick(window.form.editor(("name",)), key, modifier)
        modals.wait_done()
    assert opened == ["GuideDialog", "ShortcutsDialog"]


@pytest.mark.qt_log_ignore("does not support QPlatformServices")
def test_the_guide_is_the_readme_with_its_sections_and_no_browser_is_said(
    qtbot: QtBot, modals: Modals, window: MainWindow
) -> None:
    seen: dict[str, str] = {}

    def answer(dialog: QWidget) -> None:
        assert isinstance(dialog, GuideDialog)
        sections = [dialog.sections.item(row).text() for row in range(dialog.sections.count())]
        seen["sections"] = "|".join(sections)
        seen["from"] = dialog.note.text()
        item = dialog.sections.item(sections.index("Command line"))
        qtbot.mouseClick(
            dialog.sections.viewport(),
            Qt.MouseButton.LeftButton,
            pos=dialog.sections.visualItemRect(item).center(),
        )
        top = dialog.text.cursorForPosition(dialog.text.viewport().rect().topLeft())
        seen["top"] = top.block().text()
        # Offscreen there is no desktop to hand the file to: the dialog says so and stays.
        modals.click_button(dialog, "Open in Browser")
        seen["no browser"] = dialog.note.text()
        assert dialog.isVisible() and "paramtally count" in dialog.text.toPlainText()
        # The README's screenshots read as their words, not as broken-image marks.
        seen["pictures"] = str(dialog.text.toHtml().count("<img"))
        seen["picture words"] = str("The parameters tab in English" in dialog.text.toPlainText())
        modals.click_button(dialog, "Close")

    _help(qtbot, modals, window, "User Guide", answer)
    assert (
        seen["sections"].startswith("ParamTally|Set-up") and "|The window|Command line|" in seen["sections"]
    )
    assert seen["from"].endswith("README.md")
    assert seen["top"] == "Command line"
    assert seen["no browser"].startswith("No browser or viewer opens files on this machine")
    assert seen["no browser"].endswith("README.md")
    assert (seen["pictures"], seen["picture words"]) == ("0", "True")


def test_about_says_the_version_the_licence_and_where_files_live(
    qtbot: QtBot, modals: Modals, window: MainWindow
) -> None:
    seen: dict[str, str] = {}

    def answer(dialog: QWidget) -> None:
        assert isinstance(dialog, AboutDialog)
        seen["head"] = dialog.findChild(QLabel, "aboutHead").text()
        for label in dialog.findChildren(QLabel):
            if label.objectName().startswith("about:"):
                seen[label.objectName().removeprefix("about:")] = label.text()
        modals.click_button(dialog, "Copy Details")
        modals.click_button(dialog, "Close")

    _help(qtbot, modals, window, "About ParamTally", answer)
    assert f"ParamTally {version('paramtally')}" in seen["head"] and "Licence: MIT" in seen["head"]
    # The places the code that writes them asks platformdirs for (the test's private folders).
    expected = {
        "Your presets": presets_dir(),
        "Your GPU catalog": user_catalog_path(),
        "Recent models": recent_path(),
        "Window settings": settings_path(),
        "Error log": error_log_path(),
    }
    for title, path in expected.items():
        assert seen[title].split("  (")[0] == str(path), title
    assert seen["Error log"].endswith("(not created yet)")
    assert seen["User guide"].endswith("README.md")
    copied = QApplication.clipboard().text()
    assert f"ParamTally {version('paramtally')}" in copied and f"Window settings: {settings_path()}" in copied
