"""The table of terms keeps its figures in view: at 1024×700 a vision-language model's long term
names under zh_CN ('池化 4×4 (16 patch → 1 token, 平均)') widened the Term column until the
Parameters column ran past the view's right edge, its numbers cut ('4,300,079,47', '678,52')."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from paramtally.gui.i18n import install_language
from paramtally.gui.main_window import MainWindow
from paramtally.gui.views.breakdown_table import COLUMNS, BreakdownTable
from tests.gui.settle import settle
from tests.gui.views_support import preset_window

PARAMETERS, SHARE = COLUMNS.index("Parameters"), COLUMNS.index("Share")


@pytest.fixture
def chinese() -> Iterator[None]:
    assert install_language("zh_CN")
    yield
    install_language("en")


def _table(window: MainWindow, size: tuple[int, int]) -> BreakdownTable:
    window.resize(*size)
    settle()
    table = window.table
    assert table.horizontalScrollBar().value() == 0
    return table


def _right_edge(table: BreakdownTable, column: int) -> int:
    header = table.header()
    return header.sectionViewportPosition(column) + header.sectionSize(column)


def test_the_parameters_and_share_columns_stay_in_view_at_1024_by_700(qtbot: QtBot, chinese: None) -> None:
    window = preset_window(qtbot, "gemma-3-4b", (1024, 700))
    table = _table(window, (1024, 700))
    assert _right_edge(table, SHARE) <= table.viewport().width()
    assert table.columnWidth(0) < table.sizeHintForColumn(0)  # the names give way, elided
    wider = _table(window, (1440, 900))  # room again: the names whole
    assert wider.columnWidth(0) == wider.sizeHintForColumn(0)
    assert _right_edge(wider, SHARE) <= wider.viewport().width()


def test_a_term_column_a_person_sized_keeps_its_width_when_the_window_is_resized(qtbot: QtBot) -> None:
    window = preset_window(qtbot, "gemma-3-4b", (1024, 700))
    table = _table(window, (1024, 700))
    table.header().resizeSection(0, 400)  # what dragging the column's edge ends in
    _table(window, (1200, 800))
    assert table.columnWidth(0) == 400
    assert table.columnWidth(PARAMETERS) >= table.sizeHintForColumn(PARAMETERS)


def test_the_figures_stay_in_view_after_view_language_chinese(qtbot: QtBot) -> None:
    """View → Language builds the views anew: the new table gives way too, once laid out."""
    window = preset_window(qtbot, "gemma-3-4b", (1024, 700))
    window.load_shown_views()
    try:
        window.language_actions["zh_CN"].trigger()
        table = _table(window, (1024, 700))
        qtbot.waitUntil(lambda: _right_edge(table, SHARE) <= table.viewport().width())
        assert table.model().headerData(0, Qt.Orientation.Horizontal) == "项"
    finally:
        window.language_actions["en"].trigger()
