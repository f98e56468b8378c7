"""Issue 11's scenarios, end to end in the main window: typed keys, clicks, real menus and dialogs.

Each test drives the window as a person does and checks what the window then shows; the
figures it expects come from the core on the same edits. Dialogs and menus are the real ones,
answered with key and mouse events (tests/gui/modals.py).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from paramtally.core.edit import with_values
from paramtally.core.params import count_parameters
from paramtally.core.sources import load_source
from paramtally.gui.main_window import MainWindow
from tests.gui.conftest import TypeInto

RED = "#d9534f"


def _headline(window: MainWindow) -> str:
    return window.findChild(QLabel, "totalParams").text()


def _red(window: MainWindow, path: str) -> bool:
    return RED in window.form._rows[path].frame.styleSheet()


def test_c_invalid_values_stay_while_another_field_is_edited(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto
) -> None:
    """GPT-3 → hidden 8192 (red, kept) → heads 64: both apply together; undo steps back."""
    doc, form = window.document, window.form
    gpt3 = load_source("gpt3-175b")
    type_into(form.editor("hidden_size"), "8192")
    assert form.editor("hidden_size").lineEdit().text() == "8,192" and _red(window, "hidden_size")
    assert "not a multiple of the 96 heads" in form.error_text("hidden_size")
    assert f"{count_parameters(gpt3).total:,}" in _headline(window)  # the last valid figures stay
    status = window.problem_status.text()
    assert status.startswith("⚠ Hidden size: the hidden size (8,192)")
    type_into(form.editor("attention.num_heads"), "64")
    expected = count_parameters(with_values(gpt3, {"hidden_size": 8192, "attention.num_heads": 64}))
    assert (doc.architecture.hidden_size, doc.architecture.attention.num_heads) == (8192, 64)
    assert doc.report.total == expected.total and f"{expected.total:,}" in _headline(window)
    assert not _red(window, "hidden_size") and not _red(window, "attention.num_heads")
    assert form.error_text("hidden_size") == "" and window.problem_status.text() == ""
    assert doc.drafts == {}
    # One undo step for the combination; the step before it is the typed 8192, kept red.
    assert window.undo_action.text() == "&Undo Set attention.num_heads, hidden_size"
    window.undo_action.trigger()
    assert doc.architecture == gpt3 and doc.drafts == {"hidden_size": 8192}
    assert form.editor("hidden_size").lineEdit().text() == "8,192" and _red(window, "hidden_size")
    assert form.editor("attention.num_heads").value() == 96
    window.undo_action.trigger()
    assert doc.architecture == gpt3 and doc.drafts == {} and not _red(window, "hidden_size")
    assert form.editor("hidden_size").lineEdit().text() == "12,288"


def test_c_kv_heads_stay_red_while_the_vocabulary_changes(window: MainWindow, type_into: TypeInto) -> None:
    doc, form = window.document, window.form
    type_into(form.editor("attention.num_kv_heads"), "5")
    assert _red(window, "attention.num_kv_heads")
    type_into(form.editor("embeddings.vocab_size"), "50,304")
    expected = count_parameters(with_values(load_source("gpt3-175b"), {"embeddings.vocab_size": 50304}))
    assert doc.architecture.embeddings.vocab_size == 50304
    assert f"{expected.total:,}" in _headline(window)
    assert form.editor("attention.num_kv_heads").lineEdit().text() == "5"  # not back to "auto"
    assert _red(window, "attention.num_kv_heads")
    assert form.error_text("attention.num_kv_heads") == "KV heads (5) must divide the query heads (96)"
    assert (
        window.problem_status.text()
        == "⚠ Attention › KV heads: KV heads (5) must divide the query heads (96)"
    )
    # 8 divides 96: the field turns valid, the status line goes, the model follows.
    type_into(form.editor("attention.num_kv_heads"), "8")
    assert doc.architecture.attention.num_kv_heads == 8 and doc.drafts == {}
    assert not _red(window, "attention.num_kv_heads") and window.problem_status.text() == ""


def test_e_ctrl_z_right_after_enter_undoes_that_edit(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto
) -> None:
    doc, form = window.document, window.form
    gpt3 = load_source("gpt3-175b")
    window.activateWindow()
    heads = form.editor("attention.num_heads")
    type_into(heads, "64")  # Enter; the focus stays in the field
    assert doc.architecture.attention.num_heads == 64 and heads.hasFocus()
    qtbot.keyClick(heads.lineEdit(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.architecture == gpt3 and heads.lineEdit().text() == "96"
    assert f"{count_parameters(gpt3).total:,}" in _headline(window)
    redo = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(heads.lineEdit(), Qt.Key.Key_Z, redo)
    assert doc.architecture.attention.num_heads == 64 and heads.lineEdit().text() == "64"
    ctrl_z = Qt.KeyboardModifier.ControlModifier
    # A refused value, then Ctrl+Z: the typed value is what goes.
    type_into(heads, "100")
    assert _red(window, "attention.num_heads") and doc.drafts == {"attention.num_heads": 100}
    qtbot.keyClick(heads.lineEdit(), Qt.Key.Key_Z, ctrl_z)
    assert doc.drafts == {} and not _red(window, "attention.num_heads")
    assert heads.lineEdit().text() == "64" and doc.architecture.attention.num_heads == 64
    # Typing without Enter, then Ctrl+Z: the typing is undone, the model keeps its last edit.
    heads.lineEdit().selectAll()
    qtbot.keyClicks(heads.lineEdit(), "128")
    qtbot.keyClick(heads.lineEdit(), Qt.Key.Key_Z, ctrl_z)
    assert heads.lineEdit().text() == "64" and doc.architecture.attention.num_heads == 64
    # The same in a text field: the model's name.
    name = form.editor("name")
    type_into(name, "My GPT")
    assert doc.architecture.name == "My GPT"
    qtbot.keyClick(name, Qt.Key.Key_Z, ctrl_z)
    assert doc.architecture.name == "GPT-3 175B" and name.text() == "GPT-3 175B"
