"""File → Open Folder…: a Hugging Face model folder (config.json beside its weights), chosen in
Qt's own folder dialog with the path typed and Choose clicked, as the command line takes one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtGui import QAction
from pytestqt.qtbot import QtBot

from paramtally.core.count.parameters import count_parameters
from paramtally.gui.main_window import MainWindow
from tests.gui.modals import Modals

MIXTRAL = Path(__file__).parents[1] / "data" / "hf_configs" / "mixtral-8x7b.json"
MIXTRAL_TOTAL = 46_702_792_704  # as `paramtally count` gives for the same folder


def _open_folder(modals: Modals, window: MainWindow, folder: Path, then_ok: bool = False) -> None:
    """File → Open Folder…, the folder typed and Choose clicked (and OK on the message after)."""
    action = window.findChild(QAction, "actionOpenFolder")
    assert action is not None and action in window.file_menu.actions()
    modals.choose_file(str(folder), "Choose")
    if then_ok:
        modals.click("OK")
    action.trigger()  # the dialogs run their own loops inside: the answers are queued before


@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing the keyboard")
def test_a_model_folder_opens_with_its_config(
    qtbot: QtBot, modals: Modals, window: MainWindow, tmp_path: Path
) -> None:
    folder = tmp_path / "Mixtral-8x7B-v0.1"
    folder.mkdir()
    shutil.copy(MIXTRAL, folder / "config.json")
    _open_folder(modals, window, folder)
    modals.wait_done()
    assert modals.kinds == ["QFileDialog"]
    assert count_parameters(window.document.architecture).total == MIXTRAL_TOTAL
    assert f"{MIXTRAL_TOTAL:,}" in window.headline.text()


@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing the keyboard")
def test_a_folder_without_a_config_says_so_and_keeps_the_model(
    qtbot: QtBot, modals: Modals, window: MainWindow, tmp_path: Path
) -> None:
    before = window.document.architecture
    _open_folder(modals, window, tmp_path, then_ok=True)
    modals.wait_done()
    assert modals.kinds == ["QFileDialog", "QMessageBox"]
    assert modals.said == [f"{tmp_path}: folder holds no config.json"]
    assert window.document.architecture is before
