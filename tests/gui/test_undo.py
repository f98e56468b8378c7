"""Undo and redo through the window's Edit menu, opening files, and what the window remembers."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QKeySequence
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from paramtally.core.count.parameters import count_parameters
from paramtally.core.io.model_sources import load_source
from paramtally.core.schema import MoE
from paramtally.gui.document import Document
from paramtally.gui.main_window import MainWindow, settings
from tests.gui.conftest import TypeInto
from tests.gui.views_support import click_tab

ROOT = Path(__file__).resolve().parents[2]
LLAMA = ROOT / "tests" / "data" / "hf_configs" / "llama-2-7b.json"
GOLDEN = json.loads((ROOT / "tests" / "golden" / "presets.json").read_text())


def _headline(window: MainWindow) -> str:
    return window.findChild(QLabel, "totalParams").text()


def test_undo_redo_of_a_typed_edit(window: MainWindow, type_into: TypeInto) -> None:
    doc = window.document
    before = doc.report.total
    assert window.undo_action.shortcut() == QKeySequence(QKeySequence.StandardKey.Undo)
    assert window.redo_action.shortcut() == QKeySequence(QKeySequence.StandardKey.Redo)
    assert not window.undo_action.isEnabled()
    type_into(window.form.editor(("blocks", "default", "ffn", "width")), "16384")
    after = doc.report.total
    assert after < before and doc.dirty and window.isWindowModified()
    assert window.undo_action.text() == "&Undo Set Blocks › default › FFN width"
    window.undo_action.trigger()
    assert doc.report.total == before and f"{before:,}" in _headline(window)
    assert window.form.editor(("blocks", "default", "ffn", "width")).value() == 49152 and not doc.dirty
    assert not window.isWindowModified()  # the title's marker goes with the last change undone
    window.redo_action.trigger()
    assert doc.report.total == after and f"{after:,}" in _headline(window) and window.isWindowModified()


def test_undo_of_tree_edits(window: MainWindow) -> None:
    doc = window.document
    original = doc.architecture
    window.tree.split_group(0, 50)
    window.tree.set_block(1, "moe", MoE(num_experts=8, top_k=2, expert_width=8192))
    moe_total = doc.report.total
    assert doc.report.is_moe
    window.undo_action.trigger()
    assert not doc.report.is_moe and len(doc.architecture.decoder.layers) == 2
    window.undo_action.trigger()
    assert doc.architecture == original
    window.redo_action.trigger()
    window.redo_action.trigger()
    assert doc.report.total == moe_total


def test_scenario_edits_are_undoable(window: MainWindow) -> None:
    doc = window.document
    if doc.scenario is None:  # the memory engine is optional for the window
        return
    context = doc.scenario.context
    assert doc.set_scenario_field("context", context * 2)
    assert doc.scenario.context == context * 2
    doc.undo_stack.undo()
    assert doc.scenario.context == context
    assert not doc.set_scenario_field("context", 0)  # refused by the core, nothing pushed
    assert doc.undo_stack.count() == 1


def test_open_a_config_json(window: MainWindow) -> None:
    doc = window.document
    window.tree.split_group(0, 10)
    assert window.open_source(str(LLAMA))
    assert (
        doc.report.total == GOLDEN["llama-2-7b"]["total"] == count_parameters(load_source(str(LLAMA))).total
    )
    assert f"{doc.report.total:,}" in _headline(window)
    assert doc.undo_stack.count() == 0 and not doc.dirty
    assert "llama-2-7b.json" in window.windowTitle()
    assert window.form.editor(("hidden_size",)).value() == 4096
    assert window.tree.tree_model.rowCount() == 1


def test_open_a_bad_file_names_it_and_keeps_the_model(window: MainWindow, tmp_path: Path) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text("{ not json")
    total = window.document.report.total
    assert not window.open_source(str(bad))
    assert "broken.json" in window.last_error and "not valid JSON" in window.last_error
    assert window.document.report.total == total
    assert not window.open_source("no-such-preset")
    assert "no-such-preset" in window.last_error


def test_window_remembers_its_geometry(qtbot: QtBot, config_dir: Path) -> None:
    first = MainWindow(Document(load_source("gpt3-175b")))
    qtbot.addWidget(first)
    first.show()
    # The offscreen screen is 800×800 and restoreGeometry fits a window into its screen; the
    # window's least width (the form beside the bar and the pie, ~840 px) is wider than that
    # screen, so the height is what shows the geometry was remembered.
    first.resize(first.width(), 640)
    qtbot.waitUntil(lambda: first.height() == 640)
    first.close()
    assert (config_dir / "window.ini").is_file()
    second = MainWindow(Document(load_source("gpt3-175b")))
    qtbot.addWidget(second)
    assert second.height() == 640


def test_view_menu_switches_the_theme(window: MainWindow, qtbot: QtBot) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    window.theme_actions["dark"].trigger()
    assert app.palette().window().color().lightness() < 100
    assert settings().value("view/theme") == "dark"
    # The charts follow: their backgrounds turn dark with the rest of the window.
    bar = window.findChild(QWidget, "breakdownBar")
    qtbot.waitUntil(lambda: bar.backgroundBrush().color().lightness() < 100)  # palettes arrive posted
    window.theme_actions["light"].trigger()
    assert app.palette().window().color().lightness() > 150
    qtbot.waitUntil(lambda: bar.backgroundBrush().color().lightness() > 150)
    window.theme_actions["system"].trigger()
    assert settings().value("view/theme") == "system"
    assert window.theme_actions["system"].isChecked()


def test_what_was_built_in_one_theme_follows_a_switch_to_the_other(window: MainWindow, qtbot: QtBot) -> None:
    """QA: a layer group's form and a comparison pin made in the dark stayed dark (the pin's legend
    white on white) after View → Theme → Light."""
    window.theme_actions["dark"].trigger()
    click_tab(qtbot, window, "Compare")
    tree = window.tree
    index = tree.tree_model.find(("decoder", "layers", 0))
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center())
    pin = window.findChild(QPushButton, "comparePin")
    qtbot.waitUntil(pin.isVisible)
    qtbot.mouseClick(pin, Qt.MouseButton.LeftButton)
    field = window.form.editor(("decoder", "layers", 0, "override", "ffn", "width"))
    legend = window.findChild(QWidget, "compareChart").legend  # type: ignore[union-attr]
    assert len(legend.items) == 2
    qtbot.waitUntil(lambda: field.palette().base().color().lightness() < 100)
    window.theme_actions["light"].trigger()
    qtbot.waitUntil(lambda: field.palette().base().color().lightness() > 150)
    # Dark text on the light chart (palettes arrive posted).
    qtbot.waitUntil(lambda: all(QColor(label.opts["color"]).lightness() < 100 for _, label in legend.items))
