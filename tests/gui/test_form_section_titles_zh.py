"""Under zh_CN a form section for one entry of a list (a projector's step, a deepstack branch) is
titled in Chinese: it read '投影器 · Step 1', the singular the form makes of 'Steps' having no
translation of its own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from paramtally.gui.i18n import install_language
from tests.gui.views_support import preset_window


@pytest.fixture
def chinese() -> Iterator[None]:
    assert install_language("zh_CN")
    yield
    install_language("en")


@pytest.mark.parametrize(
    ("preset", "english", "chinese_words"),
    [("gemma-3-4b", "Step", "步骤"), ("qwen3-vl-30b-a3b", "Branch", "分支")],
)
def test_a_list_entry_s_section_is_titled_in_chinese(
    qtbot: QtBot, chinese: None, preset: str, english: str, chinese_words: str
) -> None:
    window = preset_window(qtbot, preset, (1024, 700))
    entries = {
        title: section.button.shown_title
        for title, section in window.form.sections.items()
        if f" · {english} " in title
    }
    assert entries, list(window.form.sections)
    for title, shown in entries.items():
        assert f"{chinese_words} " in shown and english not in shown, (title, shown)
