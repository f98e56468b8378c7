"""File → Export, driven through the menu with the save dialog replaced by a scripted answer."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox
from pytestqt.qtbot import QtBot

from paramtally.core import presets
from paramtally.core.export import BREAKDOWN_COLUMNS, GPU_COLUMNS
from paramtally.gui.document import Document
from paramtally.gui.export_actions import Exporter, add_export_menu
from paramtally.gui.views.breakdown_charts import BreakdownCharts

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


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    scripted: dict[str, list[Any]] = {"files": [], "warnings": []}

    def save_name(*args: Any) -> tuple[str, str]:
        return scripted["files"].pop(0)

    def warning(parent: Any, title: str, text: str, *args: Any) -> QMessageBox.StandardButton:
        scripted["warnings"].append(text)
        return QMessageBox.StandardButton.Ok

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_name)
    monkeypatch.setattr(QMessageBox, "warning", warning)
    return scripted


def _trigger(window: Window, name: str) -> None:
    action = window.findChild(QAction, name)
    assert action is not None, name
    action.trigger()


def test_breakdown_csv_from_the_menu(window: Window, answers: dict[str, list[Any]], tmp_path: Path) -> None:
    answers["files"].append((str(tmp_path / "gpt3.csv"), "CSV (*.csv)"))
    _trigger(window, "actionExport_breakdown")
    with (tmp_path / "gpt3.csv").open(encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert tuple(rows[0]) == BREAKDOWN_COLUMNS
    assert sum(int(row["params"]) for row in rows if row["is_leaf"] == "true") == GPT3_TOTAL
    assert window.statusBar().currentMessage() == f"Exported {tmp_path / 'gpt3.csv'}"


def test_gpu_csv_and_json(window: Window, answers: dict[str, list[Any]], tmp_path: Path) -> None:
    answers["files"] += [(str(tmp_path / "gpus"), "CSV (*.csv)"), (str(tmp_path / "all.json"), "")]
    _trigger(window, "actionExport_gpus")
    _trigger(window, "actionExport_json")
    with (tmp_path / "gpus.csv").open(encoding="utf-8", newline="") as stream:  # suffix added
        rows = list(csv.DictReader(stream))
    assert tuple(rows[0]) == GPU_COLUMNS and len(rows) == len(window.document.setups)
    data = json.loads((tmp_path / "all.json").read_text(encoding="utf-8"))
    assert data["total"] == GPT3_TOTAL
    assert data["memory"]["total_bytes"] == window.document.memory.total_bytes


@pytest.mark.parametrize(("chart", "suffix"), [("bar", ".png"), ("pie", ".svg")])
def test_charts(
    window: Window, answers: dict[str, list[Any]], tmp_path: Path, chart: str, suffix: str
) -> None:
    answers["files"].append((str(tmp_path / f"chart{suffix}"), ""))
    _trigger(window, f"actionExport_{chart}")
    data = (tmp_path / f"chart{suffix}").read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"</svg>" in data


def test_unwritable_place_is_one_message(
    window: Window, answers: dict[str, list[Any]], tmp_path: Path
) -> None:
    target = tmp_path / "missing" / "layers.csv"
    answers["files"].append((str(target), "CSV (*.csv)"))
    _trigger(window, "actionExport_layers")
    assert answers["warnings"] == [f"cannot write {target}: No such file or directory"]
    assert list(tmp_path.iterdir()) == []


def test_cancelled_dialog_writes_nothing(
    window: Window, answers: dict[str, list[Any]], tmp_path: Path
) -> None:
    answers["files"].append(("", ""))
    _trigger(window, "actionExport_memory")
    assert answers["warnings"] == [] and list(tmp_path.iterdir()) == []
