"""Issue 31, bug 5: Ctrl+Down (move the group down) left two rows selected, also after Ctrl+Z, so the
F2 that followed edited a row the person could not tell. The selection follows the moved group:
exactly its row, after the move, its undo and its redo."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QLabel, QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from paramtally.gui.main_window import MainWindow
from tests.gui.modals import Modals, give_focus

CTRL = Qt.KeyboardModifier.ControlModifier


def _selected_counts(window: MainWindow) -> list[int]:
    """The layer counts of the groups whose rows are selected, top to bottom."""
    tree = window.tree
    rows = sorted(tree.selectionModel().selectedRows(), key=lambda index: tree.visualRect(index).top())
    layers = window.document.architecture.decoder.layers  # type: ignore[union-attr]
    return [layers[int(tree.tree_model.row_of(index).group[-1])].count for index in rows]  # type: ignore[union-attr]


def _current_count(window: MainWindow) -> int:
    group = window.tree.current_group()
    assert group is not None
    return window.document.architecture.decoder.layers[int(group[-1])].count  # type: ignore[union-attr]


def _click_group(qtbot: QtBot, window: MainWindow, index: int) -> QModelIndex:
    tree = window.tree
    give_focus(qtbot, tree)  # the window active again after a dialog, as a window manager makes it
    row = tree.tree_model.group_index(index)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(row).center())
    return row


def test_the_selection_follows_a_group_moved_down_undone_and_redone(
    qtbot: QtBot, window: MainWindow, modals: Modals
) -> None:
    tree, doc = window.tree, window.document
    _click_group(qtbot, window, 0)
    modals.type_and_click("10", "OK")  # the real split dialog: the second part starts at layer 10
    give_focus(qtbot, tree)
    qtbot.keyClick(tree, Qt.Key.Key_T, CTRL)
    modals.wait_done()
    assert [g.count for g in doc.architecture.decoder.layers] == [10, 86]  # type: ignore[union-attr]
    _click_group(qtbot, window, 0)
    assert _selected_counts(window) == [10]

    qtbot.keyClick(tree, Qt.Key.Key_Down, CTRL)  # move the 10 layers down
    assert [g.count for g in doc.architecture.decoder.layers] == [86, 10]  # type: ignore[union-attr]
    assert _selected_counts(window) == [10] and _current_count(window) == 10

    qtbot.keyClick(window, Qt.Key.Key_Z, CTRL)  # undo: the 10 layers go back up, the selection with them
    assert [g.count for g in doc.architecture.decoder.layers] == [10, 86]  # type: ignore[union-attr]
    assert _selected_counts(window) == [10] and _current_count(window) == 10

    qtbot.keyClick(window, Qt.Key.Key_Y, CTRL)  # redo
    assert [g.count for g in doc.architecture.decoder.layers] == [86, 10]  # type: ignore[union-attr]
    assert _selected_counts(window) == [10] and _current_count(window) == 10

    # F2 edits the row the person sees selected: its dialog names the 10 layers and holds 10.
    asked: list[tuple[str, str]] = []

    def answer(dialog: QWidget) -> None:
        captions = [label.text() for label in dialog.findChildren(QLabel) if label.isVisible()]
        asked.append((captions[0], dialog.findChild(QLineEdit).text()))
        modals.click_button(dialog, "Cancel")

    modals.expect(answer, "read the count dialog, cancel")
    give_focus(qtbot, tree)
    qtbot.keyClick(tree, Qt.Key.Key_F2)
    modals.wait_done()
    assert asked and asked[0][0].startswith("Group: layers 86–95") and asked[0][1] == "10"


def test_ctrl_up_then_down_keeps_one_row_selected(qtbot: QtBot, window: MainWindow, modals: Modals) -> None:
    tree, doc = window.tree, window.document
    _click_group(qtbot, window, 0)
    modals.type_and_click("90", "OK")
    give_focus(qtbot, tree)
    qtbot.keyClick(tree, Qt.Key.Key_T, CTRL)
    modals.wait_done()
    _click_group(qtbot, window, 1)  # the 6 layers
    qtbot.keyClick(tree, Qt.Key.Key_Up, CTRL)
    assert [g.count for g in doc.architecture.decoder.layers] == [6, 90]  # type: ignore[union-attr]
    assert _selected_counts(window) == [6]
    qtbot.keyClick(tree, Qt.Key.Key_Down, CTRL)
    assert [g.count for g in doc.architecture.decoder.layers] == [90, 6]  # type: ignore[union-attr]
    assert _selected_counts(window) == [6]
