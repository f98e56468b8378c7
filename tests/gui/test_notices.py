"""A user file that is partly skipped is said in the status bar, once, and nothing else stops; a
bug is said in a dialog and logged, and the window goes on."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from pytestqt.qtbot import QtBot

from paramtally.core.io.error_log import error_log_path
from paramtally.gui.main_window import MainWindow
from paramtally.gui.notices import route_uncaught_to, route_warnings_to
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals


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


@pytest.mark.qt_no_exception_capture  # the window's own hook is what this test is about
def test_a_bug_in_a_slot_is_said_in_a_dialog_and_logged_and_the_window_goes_on(
    qtbot: QtBot, window: MainWindow, modals: Modals, monkeypatch: pytest.MonkeyPatch, type_into: TypeInto
) -> None:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # restored after the test
    route_uncaught_to(window)
    headline = window.document.report.total

    def broken_slot() -> None:
        raise KeyError("no such part")

    for _ in range(2):  # the second is logged and said again once the first dialog is closed
        modals.click("OK")
        QTimer.singleShot(0, broken_slot)
        modals.wait_done()
    assert modals.seen == ["ParamTally hit a bug"] * 2
    assert modals.said[0].startswith("KeyError: 'no such part'") and str(error_log_path()) in modals.said[0]
    log = error_log_path().read_text(encoding="utf-8")
    assert log.count("KeyError: 'no such part'") == 2 and "in broken_slot" in log
    type_into(window.form.editor(("decoder", "num_layers")), "48")  # the window still edits and counts
    assert window.document.report.total < headline
