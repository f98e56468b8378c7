"""File → Export, driven through the menu; the real save dialog is answered with keys and clicks."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QFileDialog, QMainWindow, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from paramtally.core import presets
from paramtally.core.export import BREAKDOWN_COLUMNS, GPU_COLUMNS
from paramtally.gui.document import Document
from paramtally.gui.export_actions import Exporter, add_export_menu
from paramtally.gui.views.breakdown_charts import BreakdownCharts
from tests.gui.modals import Modals

GPT3_TOTAL = 175_221_817_344


class Window(QMainWindow):
    def __init__(self) -> None:
        super().__init__()
        self.document = Document(presets.load_builtin("gpt3-175b"), "gpt3-175b")
        self.setCentralWidget(BreakdownCharts(self.document))
        self.exporter: Exporter = add_export_menu(self.menuBar().addMenu("&File"), self, self.document)


@pytest.fixture
def window(qtbot: QtBot) -> Window:
    widget = Window()
    qtbot.addWidget(widget)
    widget.resize(900, 600)
    widget.show()
    return widget


class Answers:
    """Answers for the real save dialog and warnings, given with keys and clicks (tests/gui/modals.py).

    ``save(path, filter)`` picks the file type in the dialog, types the name and clicks Save;
    an empty path clicks Cancel. Queue answers before the action that opens the dialog.
    """

    def __init__(self, modals: Modals) -> None:
        self.modals = modals
        self.warnings: list[str] = []

    def save(self, path: str, file_type: str = "") -> None:
        def answer(dialog: QWidget) -> None:
            assert isinstance(dialog, QFileDialog), dialog
            if not path:
                self.modals.click_button(dialog, "Cancel")
                return
            if file_type:
                types = dialog.findChild(QComboBox, "fileTypeCombo")
                types.setCurrentIndex(types.findText(file_type))
            self.modals.type_text(dialog, path, "fileNameEdit")
            self.modals.click_button(dialog, "Save")

        self.modals.expect(answer, f"save {path}")

    def warning(self) -> None:
        def ok(dialog: QWidget) -> None:
            assert isinstance(dialog, QMessageBox), dialog
            self.warnings.append(dialog.text())
            self.modals.click_button(dialog, "OK")

        self.modals.expect(ok, "warning")


@pytest.fixture
def answers(modals: Modals) -> Answers:
    return Answers(modals)


def _trigger(window: Window, name: str) -> None:
    action = window.findChild(QAction, name)
    assert action is not None, name
    action.trigger()


def test_breakdown_csv_from_the_menu(window: Window, answers: Answers, tmp_path: Path) -> None:
    answers.save(str(tmp_path / "gpt3.csv"), "CSV (*.csv)")
    _trigger(window, "actionExport_breakdown")
    with (tmp_path / "gpt3.csv").open(encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert tuple(rows[0]) == BREAKDOWN_COLUMNS
    assert sum(int(row["params"]) for row in rows if row["is_leaf"] == "true") == GPT3_TOTAL
    assert window.statusBar().currentMessage() == f"Exported {tmp_path / 'gpt3.csv'}"


def test_gpu_csv_and_json(window: Window, answers: Answers, tmp_path: Path) -> None:
    answers.save(str(tmp_path / "gpus"), "CSV (*.csv)")
    answers.save(str(tmp_path / "all.json"))
    _trigger(window, "actionExport_gpus")
    _trigger(window, "actionExport_json")
    with (tmp_path / "gpus.csv").open(encoding="utf-8", newline="") as stream:  # suffix added
        rows = list(csv.DictReader(stream))
    assert tuple(rows[0]) == GPU_COLUMNS and len(rows) == len(window.document.setups)
    data = json.loads((tmp_path / "all.json").read_text(encoding="utf-8"))
    assert data["total"] == GPT3_TOTAL
    assert data["memory"]["total_bytes"] == window.document.memory.total_bytes


@pytest.mark.parametrize(("chart", "suffix"), [("bar", ".png"), ("pie", ".svg")])
def test_charts(window: Window, answers: Answers, tmp_path: Path, chart: str, suffix: str) -> None:
    answers.save(str(tmp_path / f"chart{suffix}"))
    _trigger(window, f"actionExport_{chart}")
    data = (tmp_path / f"chart{suffix}").read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"</svg>" in data


def test_unwritable_place_is_one_message(window: Window, answers: Answers, tmp_path: Path) -> None:
    target = tmp_path / "missing" / "layers.csv"
    answers.save(str(target), "CSV (*.csv)")
    answers.warning()
    _trigger(window, "actionExport_layers")
    assert answers.warnings == [f"cannot write {target}: No such file or directory"]
    assert list(tmp_path.iterdir()) == []


def test_cancelled_dialog_writes_nothing(window: Window, answers: Answers, tmp_path: Path) -> None:
    answers.save("")
    _trigger(window, "actionExport_memory")
    assert answers.warnings == [] and list(tmp_path.iterdir()) == []
