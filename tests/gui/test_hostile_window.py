"""The window survives any value a person can type or open: refused at the field or in a dialog,
the last valid figures stay on screen. Driven as a person would: keys into the form and the tree,
File → Open through Qt's own file dialog, the real message box answered with OK.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from paramtally.core.blocks.base import MAX_SIZE
from paramtally.gui.main_window import MainWindow
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals

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


VOCAB = ("embeddings", "vocab_size")


def test_a_305_digit_vocabulary_is_refused_at_its_field(window: MainWindow, type_into: TypeInto) -> None:
    total = window.document.report.total
    editor = window.form.editor(VOCAB)
    assert editor.maximum == MAX_SIZE  # the editor's bound comes from the schema
    type_into(editor, "9" * 305)
    assert f"at most {MAX_SIZE:,}" in window.form.error_text(VOCAB)
    _still_alive(window, total)
    vocab = window.document.architecture.embeddings.vocab_size
    type_into(editor, "9" * 5000)  # past Python's own 4,300-digit limit: not taken as a number at all
    assert editor.value() != int("9" * 4000) and window.document.architecture.embeddings.vocab_size == vocab
    _still_alive(window, total)


# --- File → Open through the real dialog ---------------------------------------------------------------


def _open_through_the_dialog(qtbot: QtBot, window: MainWindow, modals: Modals, path: Path) -> str:
    """Ctrl+O; Qt's own file dialog gets the path typed and Open clicked; the message box it
    leads to is read and answered with OK (tests/gui/modals.py drives both)."""
    modals.choose_file(str(path), "Open")
    modals.click("OK")
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done(15_000)
    assert len(modals.said) == 1, modals.said
    return modals.said[0]


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
    qtbot: QtBot, window: MainWindow, modals: Modals, tmp_path: Path, case: str
) -> None:
    text, words = HOSTILE_CONFIGS[case]
    path = tmp_path / "config.json"
    path.write_text(text, encoding="utf-8")
    total, title = window.document.report.total, window.windowTitle()
    message = _open_through_the_dialog(qtbot, window, modals, path)
    assert message.startswith(f"{path}: ") and words in message, message  # the file as chosen
    assert "\n" not in message
    assert window.windowTitle() == title
    _still_alive(window, total)


# --- a huge layer count in the tree ------------------------------------------------------------------


def test_ten_million_layers_typed_into_the_tree_never_expand_per_layer(
    qtbot: QtBot, window: MainWindow, modals: Modals
) -> None:
    tree, doc = window.tree, window.document
    index = tree.tree_model.group_index(0)
    modals.type_and_click("10000000", "OK", "number")  # the count's dialog, opened by a double click
    qtbot.mouseDClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center())
    modals.wait_done()
    layers = doc.architecture.main_stack.layers
    qtbot.waitUntil(lambda: doc.architecture.main_stack.layers[0].count == 10_000_000)
    report = doc.report
    assert tree.tree_model.data(tree.tree_model.group_index(0)).startswith("layers 0–9,999,999")
    window.load_views()
    window.charts.set_mode("layer")  # the per-layer chart: one bar per group past 2,048 layers
    bars = window.charts.bar.layer_bars["attention"]
    assert len(bars.opts["x"]) == len(report.groups) == len(layers)
    _still_alive(window, report.total)
    assert "layers" not in vars(report), "a view expanded 10⁷ per-layer rows"
