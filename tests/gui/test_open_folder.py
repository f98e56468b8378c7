"""File → Open Folder…: a Hugging Face model folder (config.json beside its weights), chosen in
Qt's own folder dialog with the path typed and Choose clicked, as the command line takes one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QTableWidget, QWidget
from pytestqt.qtbot import QtBot

from paramtally.core.count.parameters import count_parameters
from paramtally.gui.main_window import MainWindow
from tests.core.test_checkpoint import hf_shapes, write_folder
from tests.core.test_stored_count import UNKNOWN
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


# --- weights of a type ParamTally does not import: their stored count, the model kept ---------------


def _read_stored_count(modals: Modals, seen: dict[str, object], close_with: str = "Close") -> None:
    """The next dialog is read as a person would read it (its labels and table), then closed."""

    def read(dialog: QWidget) -> None:
        seen["kind"] = dialog.objectName()
        seen["title"] = dialog.windowTitle()
        for name in ("storedHeadline", "storedNotice", "storedNotes", "storedOnDisk"):
            label = dialog.findChild(QLabel, name)
            assert label is not None and label.isVisible(), name
            seen[name] = label.text()
        table = dialog.findChild(QTableWidget, "storedParts")
        assert table is not None and table.isVisible()
        seen["rows"] = [
            [table.item(row, column).text() for column in range(table.columnCount())]
            for row in range(table.rowCount())
        ]
        if close_with == "Escape":
            modals.qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        else:
            modals.click_button(dialog, close_with)

    modals.expect(read, "read the stored count")


@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing the keyboard")
@pytest.mark.parametrize("close_with", ["Close", "Escape"])
def test_weights_of_an_unknown_type_show_their_stored_count_and_keep_the_model(
    qtbot: QtBot, modals: Modals, window: MainWindow, tmp_path: Path, close_with: str
) -> None:
    folder = write_folder(tmp_path / "private-7b", UNKNOWN, hf_shapes(UNKNOWN))
    before, headline_before = window.document.architecture, window.headline.text()
    seen: dict[str, object] = {}
    action = window.findChild(QAction, "actionOpenFolder")
    modals.choose_file(str(folder), "Choose")
    _read_stored_count(modals, seen, close_with)
    action.trigger()
    modals.wait_done()
    assert modals.kinds == ["QFileDialog", "StoredCountDialog"]
    assert seen["kind"] == "storedCountDialog" and seen["title"] == "Stored Count — private-7b"
    assert seen["storedHeadline"] == "private-7b: 107,968 parameters stored (107.97K)"
    assert seen["storedNotice"] == (
        f"⚠ Not editable: its model_type '{UNKNOWN['model_type']}' is not a type ParamTally imports; "
        "these are the checkpoint's stored tensors, counted from their headers"
    )
    assert seen["rows"] == [
        ["Embeddings", "7,680", "7.68K", "7.11%"],
        ["Attention", "36,864", "36.86K", "34.14%"],
        ["FFN", "55,296", "55.30K", "51.22%"],
        ["Norms", "448", "448", "0.41%"],
        ["LM head", "7,680", "7.68K", "7.11%"],
    ]
    assert str(seen["storedNotes"]).startswith("Stored total: the elements of every tensor in the headers")
    assert seen["storedOnDisk"] == "Weights on disk: 216.83KB (F16 215.04KB, F32 1.79KB)"  # 2·107,520 + 4·448
    # The window's model and figures are what they were; the status bar says what was shown.
    assert window.document.architecture is before
    assert window.headline.text() == headline_before
    assert window.statusBar().currentMessage() == (
        "private-7b: 107,968 parameters stored (107.97K), not editable — GPT-3 175B stays open"
    )


@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing the keyboard")
def test_a_corrupt_shard_beside_an_unknown_config_says_so_in_one_line(
    qtbot: QtBot, modals: Modals, window: MainWindow, tmp_path: Path
) -> None:
    folder = write_folder(tmp_path / "m", UNKNOWN, hf_shapes(UNKNOWN))
    (folder / "model.safetensors").write_bytes(b"\xff" * 7)
    before = window.document.architecture
    _open_folder(modals, window, folder, then_ok=True)
    modals.wait_done()
    assert modals.kinds == ["QFileDialog", "QMessageBox"]
    assert modals.said == [
        "model.safetensors: not a valid safetensors file: 7 bytes is too short for a safetensors header"
    ]
    assert window.document.architecture is before
