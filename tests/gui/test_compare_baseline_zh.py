"""The Compare tab's baseline box under zh_CN shows the open model's name whole: it cut
'mixtral-8x7b（当前）' to 'mixtr…b（当前）', its width counted in characters while Chinese
parentheses and words are about twice as wide as a Latin letter (QA pass, round 3)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QStyle, QStyleOptionComboBox
from pytestqt.qtbot import QtBot

from paramtally.gui.i18n import install_language
from tests.gui.views_support import click_tab, preset_window


@pytest.fixture
def chinese() -> Iterator[None]:
    assert install_language("zh_CN")
    yield
    install_language("en")


@pytest.mark.parametrize("preset", ["mixtral-8x7b", "qwen3-30b-a3b"])
def test_the_open_models_name_is_whole_and_fits_in_the_box(qtbot: QtBot, chinese: None, preset: str) -> None:
    window = preset_window(qtbot, preset, (1440, 900))
    click_tab(qtbot, window, "对比")
    view = window.explore.compare_view
    qtbot.waitUntil(lambda: view.comparison is not None and view.baseline_box.count() > 0)
    box = view.baseline_box
    name = view.pins.names()[0]
    assert "（" in name and name.startswith(preset), name
    assert box.currentText() == name
    # The text's room in the box as drawn: the edit field of the combo box, by the style.
    option = QStyleOptionComboBox()
    box.initStyleOption(option)
    field = box.style().subControlRect(
        QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, box
    )
    assert box.fontMetrics().horizontalAdvance(name) <= field.width(), (name, field.width())
