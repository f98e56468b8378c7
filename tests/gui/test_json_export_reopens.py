"""Issue 31, bug 9: the window's File → Export → Everything as JSON could not be opened again: Ctrl+O
and ``paramtally count FILE`` said "hidden_size: is required (and 681 more)". The reader now takes
the architecture (and the scenario the figures were for) out of such a report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QWidget
from pytestqt.qtbot import QtBot

from paramtally.core.count.parameters import count_parameters
from paramtally.core.io.model_sources import read_source
from paramtally.gui.main_window import MainWindow
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals, give_focus
from tests.gui.views_support import click_tab

ROOT = Path(__file__).resolve().parents[2]


def test_everything_as_json_opens_again_in_the_window_and_the_command_line(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto, modals: Modals, tmp_path: Path
) -> None:
    type_into(window.form.editor(("decoder", "num_layers")), "40")
    click_tab(qtbot, window, "Memory and GPU fit")
    type_into(window.memory.controls.editors["context"], "8192")
    shown_arch, shown_total = window.document.architecture, window.document.report.total
    target = tmp_path / "everything.json"

    # File → Export → Everything as JSON…, saved through Qt's own file dialog.
    modals.press(Qt.Key.Key_E)  # &Export
    modals.choose("Everything as JSON…")
    modals.save_as(str(target))
    give_focus(qtbot, window.form.editor(("hidden_size",)))
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)
    modals.wait_done()
    assert json.loads(target.read_text(encoding="utf-8"))["total"] == shown_total

    result = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "count", str(target), "--format", "json"],
        capture_output=True, text=True, cwd=ROOT, env=os.environ.copy(), check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["total"] == shown_total == count_parameters(shown_arch).total

    # Another model, then Ctrl+O on the export: the model and its scenario come back.
    window.open_source("llama-3-8b")  # nothing unsaved after it: no question
    assert window.document.architecture.name == "Llama-3-8B"

    def open_export(dialog: QWidget) -> None:
        assert isinstance(dialog, QFileDialog)
        modals.type_text(dialog, str(target), "fileNameEdit")
        modals.click_button(dialog, "Open")

    modals.expect(open_export)
    give_focus(qtbot, window.form.editor(("hidden_size",)))
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    assert window.document.architecture == shown_arch
    assert f"{shown_total:,}" in window.headline.text()
    assert window.document.scenario.context == 8192
    assert (
        window.statusBar().currentMessage()
        == "Opened everything.json: GPT-3 175B — scenario as saved with it"
    )
    assert read_source(str(target)).scenario == json.loads(target.read_text(encoding="utf-8"))["scenario"]
