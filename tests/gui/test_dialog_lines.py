"""The small dialogs as a person reads them: a refusal that wraps to a second line shows whole
(QA: the layer tree's number dialogs, in a 1024×700 window, cut it in half)."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QLabel, QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from paramtally.gui.main_window import MainWindow
from tests.gui.modals import Modals, give_focus
from tests.gui.views_support import preset_window


def _shown_whole(dialog: QWidget) -> tuple[str, bool]:
    """The dialog's red line, and whether every wrapped line of it lies inside the dialog."""
    error = dialog.findChild(QLabel, "error")
    assert error is not None and error.isVisible()
    text = error.text()
    flags = int(Qt.TextFlag.TextWordWrap)
    lines = error.fontMetrics().boundingRect(QRect(0, 0, error.width(), 10_000), flags, text)
    bottom = error.mapTo(dialog, error.rect().bottomLeft()).y()
    return text, lines.height() <= error.height() and bottom < dialog.height()


def _small_window(qtbot: QtBot) -> MainWindow:
    return preset_window(qtbot, "gpt3-175b", (1024, 700))


def test_a_split_refusal_on_two_lines_shows_both(qtbot: QtBot, modals: Modals) -> None:
    window = _small_window(qtbot)
    tree = window.tree
    seen: list[tuple[str, bool, int]] = []

    def answer(dialog: QWidget) -> None:
        edit = dialog.findChild(QLineEdit, "number")
        one_line = dialog.fontMetrics().height()
        modals.type_text(dialog, "twelve thousand")
        modals.click_button(dialog, "OK")  # refused: the dialog stays, saying why
        text, whole = _shown_whole(dialog)
        error = dialog.findChild(QLabel, "error")
        seen.append((text, whole, error.height() // one_line))
        qtbot.keyClick(edit, Qt.Key.Key_Escape)

    modals.expect(answer, "split at 'twelve thousand'")
    give_focus(qtbot, tree)
    tree.setCurrentIndex(tree.tree_model.group_index(0))
    qtbot.keyClick(tree, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    assert seen == [("“twelve thousand” is not a whole number: type a whole number from 1 to 95.", True, 2)]
    assert len(window.document.architecture.decoder.layers) == 1  # nothing split


def test_a_refused_preset_id_shows_whole(qtbot: QtBot, modals: Modals) -> None:
    window = _small_window(qtbot)
    seen: list[tuple[str, bool]] = []

    def answer(dialog: QWidget) -> None:
        modals.type_text(dialog, "my id with spaces and a long tail of words", "presetId")
        modals.click_button(dialog, "Save")
        seen.append(_shown_whole(dialog))
        qtbot.keyClick(dialog.findChild(QLineEdit, "presetId"), Qt.Key.Key_Escape)

    modals.expect(answer, "Save As with a bad id")
    give_focus(qtbot, window.tree)
    qtbot.keyClick(
        window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    modals.wait_done()
    assert [whole for _, whole in seen] == [True]
    assert seen[0][0].startswith("'my id with spaces and a long tail of words' is not a usable preset id")
