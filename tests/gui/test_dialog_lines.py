"""The small dialogs as a person reads and answers them: a refusal that wraps to a second line shows
whole (QA: the layer tree's number dialogs, in a 1024×700 window, cut it in half), and the
"Save changes?" buttons each answer their own Alt key (GNOME's "Close without Saving" took
Cancel's Alt+C)."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QDialog, QLabel, QLineEdit, QMessageBox, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from paramtally.gui.dialogs import add_mnemonics
from paramtally.gui.main_window import MainWindow
from tests.gui.modals import Handler, Modals, give_focus, plain
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


def _quit_answered_with(
    qtbot: QtBot, window: MainWindow, modals: Modals, key: Qt.Key, then: Handler | None = None
) -> list[str]:
    """File → Quit on an edited model; the "Save changes?" question answered with Alt+``key`` (and
    the dialog that opens after it with ``then``). The question's buttons' texts, as shown."""
    texts: list[str] = []

    def answer(box: QWidget) -> None:
        assert isinstance(box, QMessageBox) and box.windowTitle() == "Save changes?"
        texts.extend(button.text() for button in box.buttons())
        qtbot.keyClick(box, key, Qt.KeyboardModifier.AltModifier)
        qtbot.waitUntil(lambda: not box.isVisible())  # a mnemonic clicks its button animated

    modals.expect(answer, f"Alt+{key.name}")
    if then is not None:
        modals.expect(then)
    window.quit_action.trigger()  # File → Quit (Ctrl+Q where the desktop binds it)
    modals.wait_done()
    return texts


def test_save_changes_buttons_answer_alt_s_d_and_c(qtbot: QtBot, modals: Modals) -> None:
    window = _small_window(qtbot)
    tree = window.tree
    modals.type_and_click("48", "OK")
    give_focus(qtbot, tree)
    tree.setCurrentIndex(tree.tree_model.group_index(0))
    qtbot.keyClick(tree, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)  # an edit to save
    assert window.document.dirty

    texts = _quit_answered_with(qtbot, window, modals, Qt.Key.Key_C)
    assert sorted(texts) == ["&Cancel", "&Don't Save", "&Save"]
    assert window.isVisible() and window.document.dirty  # Cancel: nothing happened

    def cancel_the_save(dialog: QWidget) -> None:
        assert isinstance(dialog, QDialog) and dialog.windowTitle() == "Save preset as"
        qtbot.keyClick(dialog.findChild(QLineEdit, "presetName"), Qt.Key.Key_Escape)

    _quit_answered_with(qtbot, window, modals, Qt.Key.Key_S, then=cancel_the_save)
    assert window.isVisible() and window.document.dirty  # the save cancelled: the window stays

    _quit_answered_with(qtbot, window, modals, Qt.Key.Key_D)
    assert not window.isVisible()
    assert [plain(seen) for seen in modals.seen] == [
        "Split layer group",
        "Save changes?",
        "Save changes?",
        "Save preset as",
        "Save changes?",
    ]


def test_mnemonics_never_share_a_letter(qtbot: QtBot) -> None:
    """GNOME's text for Discard, 'Close without Saving', once took Alt+C from Cancel."""
    buttons = [QPushButton(text) for text in ("&Save", "Cancel", "Close without Saving", "Fish && Chips")]
    for button in buttons:
        qtbot.addWidget(button)
    add_mnemonics(buttons)
    assert [button.text() for button in buttons] == [
        "&Save",
        "&Cancel",
        "C&lose without Saving",
        "&Fish && Chips",
    ]
