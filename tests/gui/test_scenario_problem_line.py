"""The memory tab's "Not applied" line appears without moving the scenario's fields (QA: shown
above them, it pushed the field being typed in, and every one below it, down by its height)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from paramtally.gui.views.memory_panel import MemoryPanel
from tests.gui.conftest import TypeInto
from tests.gui.views_support import click_tab, preset_window


def _places(panel: MemoryPanel) -> dict[str, QRect]:
    """Where each scenario field is in the window, once the layouts have settled."""
    QApplication.sendPostedEvents()
    QApplication.processEvents()
    window = panel.window()
    return {
        name: QRect(editor.mapTo(window, QPoint(0, 0)), editor.size())
        for name, editor in panel.controls.editors.items()
        if editor.isVisible()
    }


@pytest.mark.parametrize("size", [(1024, 700), (1440, 900)])
def test_the_not_applied_line_leaves_the_fields_in_place(
    qtbot: QtBot, type_into: TypeInto, size: tuple[int, int]
) -> None:
    window = preset_window(qtbot, "gpt3-175b", size)
    click_tab(qtbot, window, "Memory and GPU fit")
    panel = window.memory
    type_into(panel.controls.editors["gpus"], "8")
    type_into(panel.controls.editors["tp"], "8")
    assert panel.problem.isHidden()
    before = _places(panel)

    type_into(panel.controls.editors["tp"], "3")  # 8 GPUs cannot be split into 3 groups
    qtbot.waitUntil(lambda: panel.problem.isVisible())
    assert panel.problem.text().startswith("Not applied: Tensor parallel 3")
    assert _places(panel) == before and len(before) > 10
