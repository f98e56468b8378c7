"""Issue 31, bug 7: the preset browser kept a selection its filter hid. Filtered to nothing, the list
was empty while the line under it named GPT-3 and Open was enabled, and Open then did nothing
visible (it opened GPT-3, already open). The selection follows the filter; the line says it is
the model open in the window."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from paramtally.gui.main_window import MainWindow
from tests.gui.modals import give_focus


def _filter(qtbot: QtBot, window: MainWindow, text: str) -> None:
    line = window.presets_browser.presets.filter
    line.setFocus()
    line.selectAll()
    qtbot.keyClick(line, Qt.Key.Key_Delete)
    qtbot.keyClicks(line, text)


def test_a_filter_that_hides_the_selected_preset_moves_or_clears_the_selection(
    qtbot: QtBot, window: MainWindow
) -> None:
    give_focus(qtbot, window.form.editor(("hidden_size",)))
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    browser = window.presets_browser
    qtbot.waitUntil(browser.isVisible)
    presets = browser.presets
    assert presets.selected() == ("gpt3-175b", "builtin")  # the open model's row
    assert browser.marker.text() == "Open in the window: gpt3-175b"

    _filter(qtbot, window, "hybrid")  # no preset's row says it
    assert presets.visible_ids() == []
    assert presets.selected() is None and not browser.buttons["Open"].isEnabled()
    assert not browser.buttons["Export…"].isEnabled() and not browser.buttons["Duplicate…"].isEnabled()
    assert browser.marker.text() == "Open in the window: gpt3-175b"  # what it is about, said

    _filter(qtbot, window, "mamba")
    assert presets.visible_ids() == ["falcon-mamba-7b", "mamba-130m", "mamba-2.8b", "mamba2-7b"]
    assert presets.selected() == ("falcon-mamba-7b", "builtin")  # the first row shown
    _filter(qtbot, window, "mamba-")  # falcon-mamba-7b still shown: the selection stays
    assert presets.selected() == ("falcon-mamba-7b", "builtin")
    _filter(qtbot, window, "mamba-1")  # it is hidden now: the first row shown
    assert presets.visible_ids() == ["mamba-130m"]
    assert presets.selected() == ("mamba-130m", "builtin")
    selected = presets.list.selectedItems()
    assert len(selected) == 1 and not selected[0].isHidden()
    qtbot.mouseClick(browser.buttons["Open"], Qt.MouseButton.LeftButton)
    assert window.document.preset_id == "mamba-130m"
    assert browser.marker.text() == "Open in the window: mamba-130m"

    _filter(qtbot, window, "")  # every row again: the selection stays where it was
    assert presets.selected() == ("mamba-130m", "builtin")
