"""A user file that is partly skipped is said in the status bar, once, and nothing else stops."""

from __future__ import annotations

import warnings
from pathlib import Path

from pytestqt.qtbot import QtBot

from paramtally.gui.main_window import MainWindow
from paramtally.gui.notices import route_warnings_to


def test_a_corrupt_gpu_catalog_is_named_in_the_status_bar(
    qtbot: QtBot, window: MainWindow, config_dir: Path
) -> None:
    config_dir.mkdir(parents=True, exist_ok=True)
    broken = config_dir / "gpus.json"
    broken.write_text('{"gpus": [{"id": "x"', encoding="utf-8")
    before = broken.read_bytes()
    with warnings.catch_warnings():
        route_warnings_to(window)
        window.tabs.setCurrentIndex(1)
        window.document.set_scenario_field("context", 8192)  # the GPU table reads the catalog again
        assert window.document.setups  # the built-in GPUs still answer
        message = window.statusBar().currentMessage()
        assert "gpus.json" in message and "built-in GPUs" in message
        window.statusBar().clearMessage()
        window.document.set_scenario_field("context", 4096)  # read again: not said again
        assert window.document.setups
        assert window.statusBar().currentMessage() == ""
    assert broken.read_bytes() == before  # never rewritten
