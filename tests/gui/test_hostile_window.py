"""The window survives any value a person can type or open: refused at the field or in a dialog,
the last valid figures stay on screen. Driven as a person would: keys into the form and the tree,
File → Open through the real file dialog, the real message box answered with Enter.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QLabel, QListView, QMessageBox, QSpinBox
from pytestqt.qtbot import QtBot

from paramtally.core.schema import MAX_SIZE
from paramtally.gui.main_window import MainWindow, settings
from tests.gui.conftest import TypeInto

ROOT = Path(__file__).resolve().parents[2]
LLAMA = json.loads((ROOT / "tests" / "data" / "hf_configs" / "llama-2-7b.json").read_text())


def _headline(window: MainWindow) -> str:
    return window.findChild(QLabel, "totalParams").text()


def _still_alive(window: MainWindow, total: int) -> None:
    """The same figures everywhere, and every view paints (Qt calls each model's data())."""
    assert window.document.report.total == total
    assert f"{total:,}" in _headline(window)
    window.load_views()
    for tab in range(window.tabs.count()):
        window.tabs.setCurrentIndex(tab)
        assert not window.grab().isNull()
    window.tabs.setCurrentIndex(0)


def test_a_305_digit_vocabulary_is_refused_at_its_field(window: MainWindow, type_into: TypeInto) -> None:
    total = window.document.report.total
    editor = window.form.editor("embeddings.vocab_size")
    assert editor.maximum == MAX_SIZE  # the editor's bound comes from the schema
    type_into(editor, "9" * 305)
    assert "less than or equal to 9007199254740991" in window.form.error_text("embeddings.vocab_size")
    _still_alive(window, total)
    vocab = window.document.architecture.embeddings.vocab_size
    type_into(editor, "9" * 5000)  # past Python's own 4,300-digit limit: not taken as a number at all
    assert editor.value() != int("9" * 4000) and window.document.architecture.embeddings.vocab_size == vocab
    _still_alive(window, total)


# --- File → Open through the real dialog ---------------------------------------------------------------


def _when_modal(kind: type[QDialog], act: Callable[[QDialog], None], errors: list[BaseException]) -> None:
    """Once a modal ``kind`` is up, ``act`` on it (polled from the event loop the dialog runs).

    A failing ``act`` closes the dialog (so the test fails instead of hanging) and is re-raised
    by the caller from ``errors``.
    """

    def poll() -> None:
        modal = QApplication.activeModalWidget()
        if not isinstance(modal, kind):
            QTimer.singleShot(20, poll)
            return
        try:
            act(modal)
        except BaseException as exc:
            errors.append(exc)
            modal.reject()

    QTimer.singleShot(20, poll)


def _open_through_the_dialog(qtbot: QtBot, window: MainWindow, path: Path) -> str:
    """Ctrl+O; in the file dialog's list type the file's name and Enter; read the message box, Enter.

    The dialog starts in the folder last opened from (the app's own setting), as it would for
    a person who opened a file there before. Choosing in the list (not typing a path into the
    name field) keeps that field's completer popup, which swallows keys at random, out of the way.
    """
    settings().setValue("open/dir", str(path.parent))
    errors: list[BaseException] = []
    messages: list[str] = []

    def choose(dialog: QDialog) -> None:
        _when_modal(QMessageBox, read_and_close, errors)
        pick(dialog, polls=0)

    def pick(dialog: QDialog, polls: int) -> None:
        view = dialog.findChild(QListView, "listView")  # QFileDialog's own list of files
        assert view is not None and polls < 400, "the file never showed in the dialog"
        model, root = view.model(), view.rootIndex()
        found = [model.index(row, 0, root) for row in range(model.rowCount(root))]
        found = [index for index in found if index.data() == path.name]
        if not found:  # the dialog lists the folder in a thread: look again shortly
            QTimer.singleShot(25, lambda: pick(dialog, polls + 1))
            return
        view.setFocus()
        qtbot.keyClicks(view, path.name)  # the list's keyboard search selects the file
        qtbot.keyClick(view, Qt.Key.Key_Return)

    def read_and_close(box: QDialog) -> None:
        assert isinstance(box, QMessageBox)
        messages.append(box.text())
        qtbot.keyClick(box, Qt.Key.Key_Return)

    _when_modal(QFileDialog, choose, errors)
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: bool(messages or errors), timeout=15_000)
    if errors:
        raise errors[0]
    return messages[0]


HOSTILE_CONFIGS: dict[str, tuple[str, str]] = {
    "hidden_size 1e300": (json.dumps({**LLAMA, "hidden_size": 1e300}), "hidden_size is 1e+300"),
    "vocabulary of 305 digits": (
        json.dumps(LLAMA).replace('"vocab_size": 32000', '"vocab_size": ' + "9" * 305),
        "vocab_size: an integer of 305 digits",
    ),
    "nested 10,000 deep": ("[" * 10_000 + "]" * 10_000, "nested more than 64 levels deep"),
    "a key twice": ('{"model_type": "llama", "model_type": "gpt2"}', "model_type: given twice"),
    "model_type a list": (json.dumps({**LLAMA, "model_type": ["llama"]}), "model_type ['llama']"),
    "hidden_size true": (
        json.dumps({**LLAMA, "hidden_size": True}),
        "hidden_size must be a positive integer",
    ),
}


# Offscreen Qt says it cannot raise a window or grab the keyboard for a modal dialog; harmless here.
@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing the keyboard")
@pytest.mark.parametrize("case", sorted(HOSTILE_CONFIGS))
def test_file_open_of_a_hostile_config_says_why_and_keeps_the_model(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, case: str
) -> None:
    text, words = HOSTILE_CONFIGS[case]
    path = tmp_path / "config.json"
    path.write_text(text, encoding="utf-8")
    total, title = window.document.report.total, window.windowTitle()
    message = _open_through_the_dialog(qtbot, window, path)
    assert message.startswith("config.json: ") and words in message, message
    assert "\n" not in message
    assert window.windowTitle() == title
    _still_alive(window, total)


# --- a huge layer count in the tree ------------------------------------------------------------------


def test_ten_million_layers_typed_into_the_tree_never_expand_per_layer(
    qtbot: QtBot, window: MainWindow
) -> None:
    tree, doc = window.tree, window.document
    index = tree.tree_model.index(0, 0)
    tree.setCurrentIndex(index)
    tree.edit(index)
    editor = tree.viewport().findChild(QSpinBox)
    assert editor is not None
    editor.selectAll()
    qtbot.keyClicks(editor, "10000000")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: doc.architecture.layers[0].count == 10_000_000)
    report = doc.report
    assert tree.tree_model.data(tree.tree_model.index(0, 0)) == "layers 0–9999999 (dense)"
    window.load_views()
    window.charts.set_mode("layer")  # the per-layer chart: one bar per group past 2,048 layers
    bars = window.charts.bar.layer_bars["attention"]
    assert len(bars.opts["x"]) == len(doc.architecture.layers)
    _still_alive(window, report.total)
    assert "layers" not in vars(report), "a view expanded 10⁷ per-layer rows"
