"""Keys between the panes (issue 31): reaching the layer tree from the Name field took 52 Tab
presses; F6 / Shift+F6 go round the form, the tree, the charts and the memory tab, Ctrl+1…4 go to
one, each pane giving the focus back where it was, and the View menu shows the keys."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from paramtally.gui.main_window import MainWindow
from tests.gui.modals import give_focus
from tests.gui.views_support import click_tab, preset_window


def _press(qtbot: QtBot, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """A key pressed where the focus is, as the keyboard delivers it."""
    focus = QApplication.focusWidget()
    assert focus is not None
    qtbot.keyClick(focus, key, modifier)


def _inside(widget: QWidget, root: QWidget) -> bool:
    return widget is root or root.isAncestorOf(widget)


def _focus() -> QWidget:
    focus = QApplication.focusWidget()
    assert focus is not None
    return focus


def _name_field(qtbot: QtBot, window: MainWindow) -> QWidget:
    name = window.form.editor(("name",))
    give_focus(qtbot, name)
    qtbot.waitUntil(name.hasFocus)
    return name


def test_tab_from_the_name_field_is_a_long_way_to_the_tree_and_ctrl_2_one_key(qtbot: QtBot) -> None:
    window = preset_window(qtbot, "llama-3-8b", (1024, 700))
    name = _name_field(qtbot, window)
    presses = 0
    while not _inside(_focus(), window.tree) and presses < 200:
        _press(qtbot, Qt.Key.Key_Tab)
        presses += 1
    assert presses > 20  # the way the issue measured it (52 from GPT-3's Name field)
    name.setFocus()
    qtbot.waitUntil(name.hasFocus)
    _press(qtbot, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert _focus() is window.tree and window.tree.currentIndex().isValid()


def test_f6_goes_round_the_panes_and_each_gives_the_focus_back(qtbot: QtBot) -> None:
    window = preset_window(qtbot, "gpt3-175b", (1440, 900))
    hidden = window.form.editor(("hidden_size",))
    give_focus(qtbot, hidden)
    qtbot.waitUntil(hidden.hasFocus)
    _press(qtbot, Qt.Key.Key_F6)
    assert _focus() is window.tree
    _press(qtbot, Qt.Key.Key_F6)
    assert window.tabs.currentWidget() is window.right_split and _focus() is window.charts.mode_box
    _press(qtbot, Qt.Key.Key_F6)
    assert window.tabs.currentWidget() is window.memory_scroll
    assert _inside(_focus(), window.memory) and _focus().isVisible()
    context = window.memory.controls.editors["context"]
    context.setFocus()  # a field of the memory tab, to come back to
    qtbot.waitUntil(lambda: _inside(_focus(), context))
    _press(qtbot, Qt.Key.Key_F6)
    assert _inside(_focus(), hidden)  # the form's field the person was in, not its first one
    _press(qtbot, Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier)
    assert window.tabs.currentWidget() is window.memory_scroll and _inside(_focus(), context)
    _press(qtbot, Qt.Key.Key_F6, Qt.KeyboardModifier.ShiftModifier)
    assert window.tabs.currentWidget() is window.right_split and _focus() is window.charts.mode_box


def test_ctrl_digits_bring_a_tab_forward_and_the_presets_join_the_round(qtbot: QtBot) -> None:
    window = preset_window(qtbot, "gpt3-175b", (1024, 700))
    click_tab(qtbot, window, "Compare")
    _name_field(qtbot, window)
    _press(qtbot, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is window.memory_scroll and _inside(_focus(), window.memory)
    _press(qtbot, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is window.right_split and _focus() is window.charts.mode_box
    _press(qtbot, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert _focus() is window.form.editor(("name",))

    _press(qtbot, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)  # Browse Presets
    qtbot.waitUntil(window.presets_dock.isVisible)
    window.form.editor(("name",)).setFocus()
    for _ in range(4):  # form → tree → charts → memory → presets
        _press(qtbot, Qt.Key.Key_F6)
    assert _focus() is window.presets_browser.presets.filter
    _press(qtbot, Qt.Key.Key_F6)
    assert _focus() is window.form.editor(("name",))


def test_the_view_menu_shows_the_pane_keys(qtbot: QtBot) -> None:
    window = preset_window(qtbot, "gpt3-175b", (1024, 700))
    keys = {
        action.text().replace("&", ""): action.shortcut().toString()
        for action in window.view_menu.actions()
        if not action.isSeparator() and action.menu() is None
    }
    assert keys == {
        "Go to Form": "Ctrl+1",
        "Go to Layer Tree": "Ctrl+2",
        "Go to Charts": "Ctrl+3",
        "Go to Memory Tab": "Ctrl+4",
        "Next Pane": "F6",
        "Previous Pane": "Shift+F6",
    }
