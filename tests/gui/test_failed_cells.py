"""A cell an item model cannot answer is logged and says so, instead of staying blank (issue 32).

A bug is planted in what the layer tree and the table of terms format (their figures' text), then
a person edits the model: the cells the bug reaches read "⚠ error" with the error in their
tooltip, the trace is in the error log once however often Qt paints them, the other cells and the
rest of the window go on.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from paramtally.core.io.error_log import error_log_path
from paramtally.gui import failed_cells
from paramtally.gui.failed_cells import FAILED_TEXT
from paramtally.gui.layer_tree import model as tree_model
from paramtally.gui.main_window import MainWindow
from paramtally.gui.views import breakdown_table
from tests.gui.conftest import TypeInto


def _broken(*_: object) -> str:
    raise KeyError("no such figure")


def _log() -> str:
    path = error_log_path()
    return path.read_text(encoding="utf-8") if path.exists() else ""


def _first_group(window: MainWindow, column: int) -> QModelIndex:
    tree = window.tree
    return tree.tree_model.group_index(0).siblingAtColumn(column)


def test_a_tree_cell_that_fails_is_logged_once_and_says_so(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "no such figure" not in _log()
    monkeypatch.setattr(tree_model, "share_text", _broken)
    type_into(window.form.editor(("hidden_size",)), "9216")  # the rows take new figures
    for _ in range(3):  # Qt asks at every paint: the log takes the error once
        window.tree.viewport().grab()
    share = _first_group(window, 2)
    assert share.data() == FAILED_TEXT
    tip = share.data(Qt.ItemDataRole.ToolTipRole)
    assert "KeyError: 'no such figure'" in tip and str(error_log_path()) in tip
    log = _log()
    assert log.count("KeyError: 'no such figure'") == 1 and "in _broken" in log
    # The other cells and the window go on.
    assert _first_group(window, 0).data().startswith("layers 0–95")
    assert _first_group(window, 1).data() not in ("", FAILED_TEXT, None)
    assert window.document.architecture.hidden_size == 9216


def test_a_table_cell_that_fails_is_logged_and_says_so(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(breakdown_table, "share_text", _broken)
    type_into(window.form.editor(("blocks", "default", "ffn", "width")), "32768")
    table = window.table
    table.viewport().grab()
    model = table.model()
    share = model.index(0, breakdown_table.COLUMNS.index("Share"))
    assert share.data() == FAILED_TEXT
    assert "KeyError: 'no such figure'" in share.data(Qt.ItemDataRole.ToolTipRole)
    assert "KeyError: 'no such figure'" in _log()
    # The other views go on: the headline says the new total.
    total = window.document.report.total
    assert f"{total:,}" in window.findChild(QLabel, "totalParams").text()
    monkeypatch.undo()  # the bug fixed: the next figures read again
    type_into(window.form.editor(("blocks", "default", "ffn", "width")), "49152")
    table.viewport().grab()
    assert share.data() not in (FAILED_TEXT, None) and "could not" not in share.data(
        Qt.ItemDataRole.ToolTipRole
    )


def test_a_log_that_cannot_be_written_still_leaves_the_cell_saying_so(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(failed_cells, "log_exception", lambda *_: None)
    monkeypatch.setattr(tree_model, "share_text", _broken)
    type_into(window.form.editor(("hidden_size",)), "9216")
    window.tree.viewport().grab()
    share = _first_group(window, 2)
    assert share.data() == FAILED_TEXT
    tip = share.data(Qt.ItemDataRole.ToolTipRole)
    assert "KeyError: 'no such figure'" in tip and "details" not in tip
