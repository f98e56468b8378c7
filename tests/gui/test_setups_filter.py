"""The GPU setups table filtered by GPU (issue 31): 98 rows with about 8 in view, typed down to the
kinds a person is choosing between, together with "Only setups that fit"."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from paramtally.gui.main_window import MainWindow
from paramtally.gui.views.memory_panel import MemoryPanel
from tests.gui.views_support import click_tab, preset_window


def _shown(panel: MemoryPanel) -> list[tuple[str, int, bool]]:
    """(GPU, count, fits) of every row the table shows, read through its model as a person reads it."""
    view = panel.setups.model()
    return [
        (
            view.index(row, 0).data(),
            int(view.index(row, 1).data().removeprefix("× ")),
            view.index(row, 4).data().startswith("✔"),
        )
        for row in range(view.rowCount())
    ]


def _type(qtbot: QtBot, panel: MemoryPanel, text: str) -> None:
    edit = panel.gpu_filter
    qtbot.mouseClick(edit, Qt.MouseButton.LeftButton)
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, text)


@pytest.fixture(params=[(1024, 700), (1440, 900)], ids=["1024x700", "1440x900"])
def window(request: pytest.FixtureRequest, qtbot: QtBot) -> MainWindow:
    window = preset_window(qtbot, "llama-3-8b", request.param)
    click_tab(qtbot, window, "Memory and GPU fit")
    return window


def test_typing_a_gpu_keeps_its_rows_and_fits_only_narrows_them(qtbot: QtBot, window: MainWindow) -> None:
    panel = window.memory
    every = [(fit.gpu_name, fit.count, fit.fits) for fit in panel.setups.setups_model.setups]
    assert _shown(panel) == every and len(every) == 98
    # In view without scrolling sideways: the memory tab has no horizontal scroll bar for it.
    assert not window.memory_scroll.horizontalScrollBar().isVisible()
    window.memory_scroll.ensureWidgetVisible(panel.gpu_filter)
    edit_box = panel.gpu_filter.geometry().translated(panel.gpu_filter.parentWidget().mapTo(panel, QPoint()))
    assert panel.rect().contains(edit_box) and panel.gpu_filter.width() >= 150

    _type(qtbot, panel, "a100")  # any letter case, anywhere in the name
    a100 = [row for row in every if "A100" in row[0]]
    assert _shown(panel) == a100
    assert {name for name, _, _ in a100} == {"NVIDIA A100 40GB", "NVIDIA A100 80GB"}
    assert panel.gpu_filter_count.text() == f"{len(a100)} of 98"

    _type(qtbot, panel, "RTX 4090, a100 40")  # commas: either; words: all of them
    chosen = [row for row in every if row[0] in ("NVIDIA RTX 4090", "NVIDIA A100 40GB")]
    assert len({name for name, _, _ in chosen}) == 2 and _shown(panel) == chosen

    qtbot.mouseClick(panel.fits_only, Qt.MouseButton.LeftButton, pos=QPoint(4, panel.fits_only.height() // 2))
    assert _shown(panel) == [row for row in chosen if row[2]]
    assert panel.gpu_filter_count.text() == f"{len(_shown(panel))} of 98"

    _type(qtbot, panel, "tpu")  # nothing by that name: an empty table, and it says so
    assert _shown(panel) == []
    assert panel.gpu_filter_count.text() == "no GPU matches “tpu”"

    qtbot.keyClick(panel.gpu_filter, Qt.Key.Key_Escape)  # Escape empties the filter
    assert panel.gpu_filter.text() == "" and _shown(panel) == [row for row in every if row[2]]
    assert panel.gpu_filter_count.text() == ""


def test_the_filter_follows_an_edit(qtbot: QtBot, window: MainWindow) -> None:
    """The rows kept are those of the figures after the edit: a longer context typed in."""
    panel = window.memory
    _type(qtbot, panel, "4090")
    assert [fits for _, _, fits in _shown(panel)][:1] == [True]
    context = panel.controls.editors["context"]
    context.lineEdit().selectAll()
    qtbot.keyClicks(context.lineEdit(), "131072")
    qtbot.keyClick(context.lineEdit(), Qt.Key.Key_Return)
    assert window.document.scenario.context == 131_072
    setups = panel.setups.setups_model.setups
    expected = [(fit.gpu_name, fit.count, fit.fits) for fit in setups if "4090" in fit.gpu_name]
    qtbot.waitUntil(lambda: _shown(panel) == expected)
    assert not expected[0][2]  # one 4090 no longer holds it
