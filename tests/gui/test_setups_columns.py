"""The GPU setups table at a context past the model's positions (issue 31, bug 10): 'Max context'
agrees with 'Fits' on every row, and 'Free / missing' reads whole in every row, not only the rows
in view when the table was sized."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStyle
from pytestqt.qtbot import QtBot

from paramtally.gui.views.setups_table import FITS, FITS_TEXT, FREE, MAX_CONTEXT, SetupsTable
from tests.gui.conftest import TypeInto
from tests.gui.views_support import click_tab, preset_window


def _cut_cells(table: SetupsTable, column: int) -> list[str]:
    """The texts of ``column`` that its width cuts (every row, scrolled into view or not)."""
    metrics = table.fontMetrics()
    # What a cell has for text: its width less the grid line and the style's margins either side.
    margin = table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1
    room = table.horizontalHeader().sectionSize(column) - 1 - 2 * margin
    texts = _texts(table, column)
    return [text for text in texts if metrics.elidedText(text, Qt.TextElideMode.ElideRight, room) != text]


def _texts(table: SetupsTable, column: int) -> list[str]:
    view = table.model()
    return [str(view.index(row, column).data()) for row in range(view.rowCount())]


def test_at_a_context_past_the_positions_fitting_rows_reach_it_and_free_reads_whole(
    qtbot: QtBot, type_into: TypeInto
) -> None:
    window = preset_window(qtbot, "llama-3-8b", (1440, 900))
    click_tab(qtbot, window, "Memory and GPU fit")
    table = window.memory.setups
    type_into(window.memory.controls.editors["context"], "32768")
    assert window.document.scenario.context == 32_768
    view = table.model()
    qtbot.waitUntil(lambda: view.index(0, MAX_CONTEXT).data() != "8,192")
    rows = [
        (view.index(row, FITS).data(), int(view.index(row, MAX_CONTEXT).data().replace(",", "")))
        for row in range(view.rowCount())
    ]
    assert len(rows) == 98
    for fits, longest in rows:  # ✔ fits ⇔ the longest context that fits reaches the one asked for
        assert (longest >= 32_768) == (fits == FITS_TEXT), (fits, longest)
    assert any(fits == FITS_TEXT for fits, _ in rows) and any(fits != FITS_TEXT for fits, _ in rows)
    assert _cut_cells(table, FREE) == []


def test_free_or_missing_reads_whole_after_edits_that_lengthen_it(qtbot: QtBot, type_into: TypeInto) -> None:
    """The table is sized when it is filled; an edit keeps its rows, so a text that grows after it
    ('7,808.5 GiB · 8,384.4 GB missing' at batch 64) was cut to '7,808.5 GiB · 8,384.4 GB mi…'."""
    window = preset_window(qtbot, "llama-3-8b", (1440, 900))
    click_tab(qtbot, window, "Memory and GPU fit")
    table = window.memory.setups
    assert _cut_cells(table, FREE) == []
    type_into(window.memory.controls.editors["batch"], "64")
    assert window.document.scenario.batch == 64
    assert any("missing" in text for text in _texts(table, FREE))
    assert _cut_cells(table, FREE) == []
    type_into(window.memory.controls.editors["context"], "32768")
    assert _cut_cells(table, FREE) == [] and _cut_cells(table, MAX_CONTEXT) == []
    window.document.undo_stack.undo()
    window.document.undo_stack.undo()
    assert window.document.scenario.batch == 1
    assert _cut_cells(table, FREE) == []
