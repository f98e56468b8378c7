"""The Compare tab's GPU fit under zh_CN says a count of GPUs in Chinese, as the memory tab does
('8 个 GPU'): it wrote '✔ 8 GPUs · 每卡 …', its plural made in English beside the translated rest."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from paramtally.gui.i18n import install_language
from tests.gui.views_support import click_tab, preset_window


@pytest.fixture
def chinese() -> Iterator[None]:
    assert install_language("zh_CN")
    yield
    install_language("en")


def test_the_fewest_gpus_read_in_chinese(qtbot: QtBot, chinese: None) -> None:
    window = preset_window(qtbot, "llama-3-70b", (1440, 900))
    click_tab(qtbot, window, "对比")
    view = window.explore.compare_view
    qtbot.waitUntil(lambda: view.comparison is not None and view.fits.rowCount() > 0)
    rows = {view.fits.verticalHeaderItem(row).text(): row for row in range(view.fits.rowCount())}
    texts = {name: view.fits.item(row, 0).text() for name, row in rows.items()}
    assert texts["NVIDIA RTX 3090"].startswith("✔ 8 个 GPU · "), texts["NVIDIA RTX 3090"]
    assert texts["NVIDIA B200"].startswith("✔ 1 个 GPU · "), texts["NVIDIA B200"]
    assert not [text for text in texts.values() if "GPUs" in text], texts
