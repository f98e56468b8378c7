"""File → Export through the menu's actions and the real save dialog, typed into with keys.

No dialog is replaced: ``Modals`` (tests/gui/modals.py) answers Qt's own QFileDialog and
QMessageBox from inside their modal loops. The files written are read back as a spreadsheet or a script would.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtGui import QAction

from paramtally.core.io.export import BREAKDOWN_COLUMNS, GPU_COLUMNS, MEMORY_COLUMNS
from paramtally.core.memory.scenario import Scenario
from paramtally.gui.main_window import MainWindow
from tests.csv_text import read_csv
from tests.gui.modals import Modals

GPT3_TOTAL = 175_221_817_344


def _trigger(window: MainWindow, name: str) -> None:
    action = window.findChild(QAction, name)
    assert action is not None, name
    assert action in window.findChild(object, "menuExport").actions()  # reachable from File → Export
    action.trigger()


def _export(modals: Modals, window: MainWindow, action: str, path: Path) -> None:
    modals.save_as(str(path))
    _trigger(window, action)
    modals.wait_done()
    assert modals.kinds[-1] == "QFileDialog"  # Qt's own dialog, typed into


def test_breakdown_csv_records_the_model_and_opens_in_excel(
    modals: Modals, window: MainWindow, tmp_path: Path
) -> None:
    target = tmp_path / "gpt3.csv"
    _export(modals, window, "actionExport_breakdown", target)
    bom, about, rows = read_csv(target)
    assert bom  # "CSV for Excel" is on by default
    assert about["model"] == "GPT-3 175B" and about["source"] == "gpt3-175b"
    assert json.loads(about["architecture json"])["hidden_size"] == 12288
    assert "scenario" not in about  # a parameter count does not depend on the memory scenario
    assert tuple(rows[0]) == BREAKDOWN_COLUMNS
    assert sum(int(row["params"]) for row in rows if row["is_leaf"] == "true") == GPT3_TOTAL
    assert any("·" in row["formula"] for row in rows)  # UTF-8 survives
    assert window.statusBar().currentMessage() == f"Exported {target}"


def test_plain_utf8_when_excel_is_switched_off(modals: Modals, window: MainWindow, tmp_path: Path) -> None:
    excel = window.findChild(QAction, "actionExport_excel")
    assert excel.isCheckable() and excel.isChecked()
    excel.trigger()  # off, and remembered
    _export(modals, window, "actionExport_memory", tmp_path / "memory.csv")
    bom, about, rows = read_csv(tmp_path / "memory.csv")
    assert not bom
    assert json.loads(about["scenario json"]) == Scenario(context=2048).model_dump(mode="json")  # GPT-3's
    assert "context 2,048" in about["scenario"] and "batch 1" in about["scenario"]
    assert tuple(rows[0]) == MEMORY_COLUMNS
    assert sum(int(row["bytes"]) for row in rows) == window.document.memory.total_bytes
    from paramtally.gui.main_window import settings

    assert settings().value("export/excel_csv", type=bool) is False


def test_gpu_csv_takes_the_suffix_and_json_records_architecture_and_scenario(
    modals: Modals, window: MainWindow, tmp_path: Path
) -> None:
    document = window.document
    document.set_scenario_field("context", 8192)
    _export(modals, window, "actionExport_gpus", tmp_path / "gpus")  # typed without a suffix
    _, about, rows = read_csv(tmp_path / "gpus.csv")
    assert json.loads(about["scenario json"])["context"] == 8192
    assert tuple(rows[0]) == GPU_COLUMNS and len(rows) == len(document.setups)
    _export(modals, window, "actionExport_json", tmp_path / "all.json")
    data = json.loads((tmp_path / "all.json").read_text(encoding="utf-8"))
    assert data["total"] == GPT3_TOTAL
    assert data["architecture"] == document.architecture.model_dump(mode="json")
    assert data["scenario"]["context"] == 8192 and data["scenario"]["gpus"] == 1
    assert data["memory"]["total_bytes"] == document.memory.total_bytes
    assert [row["fits"] for row in data["gpus"]] == [fit.fits for fit in document.setups]
    serving = document.serving
    assert serving is not None and data["memory"]["max_batch"] == serving.max_batch
    assert data["memory"]["decode_tokens_per_second"] == serving.decode_tokens_per_second


@pytest.mark.parametrize(("chart", "suffix"), [("bar", ".png"), ("pie", ".svg"), ("memory", ".png")])
def test_charts(modals: Modals, window: MainWindow, tmp_path: Path, chart: str, suffix: str) -> None:
    target = tmp_path / f"chart{suffix}"
    _export(modals, window, f"actionExport_{chart}_chart", target)
    data = target.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"</svg>" in data
    assert [path.name for path in tmp_path.iterdir()] == [target.name]  # no temporary file left


def test_unwritable_place_is_one_message(modals: Modals, window: MainWindow, tmp_path: Path) -> None:
    target = tmp_path / "missing" / "layers.csv"
    modals.save_as(str(target))
    modals.click("OK")
    _trigger(window, "actionExport_layers")
    modals.wait_done()
    assert modals.kinds == ["QFileDialog", "QMessageBox"] and modals.seen[1] == "Export failed"
    assert modals.said == [f"cannot write {target}: No such file or directory"]
    assert list(tmp_path.iterdir()) == []


def test_cancelled_dialog_writes_nothing(modals: Modals, window: MainWindow, tmp_path: Path) -> None:
    modals.cancel()
    _trigger(window, "actionExport_memory")
    modals.wait_done()
    assert modals.kinds == ["QFileDialog"]
    assert list(tmp_path.iterdir()) == []
    assert not window.statusBar().currentMessage().startswith("Exported")
