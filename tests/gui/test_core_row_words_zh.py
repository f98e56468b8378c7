"""Under zh_CN the words core composes into term names read in Chinese where the window shows them:
DeepSeek-V3's MTP module ('embedding copy', 'head copy' stayed English in the table of terms) and
a sliding-window model's KV cache per layer kind ('KV 缓存 (sliding-window 层)' in the memory tab)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QAbstractItemModel, QModelIndex
from pytestqt.qtbot import QtBot

from paramtally.gui.i18n import install_language
from tests.gui.views_support import click_tab, preset_window


@pytest.fixture
def chinese() -> Iterator[None]:
    assert install_language("zh_CN")
    yield
    install_language("en")


def _names(model: QAbstractItemModel, parent: QModelIndex | None = None) -> Iterator[str]:
    parent = parent or QModelIndex()
    for row in range(model.rowCount(parent)):
        index = model.index(row, 0, parent)
        yield str(model.data(index))
        yield from _names(model, index)


def test_deepseek_v3_s_mtp_terms_read_in_chinese(qtbot: QtBot, chinese: None) -> None:
    window = preset_window(qtbot, "deepseek-v3")
    window.load_shown_views()
    names = set(_names(window.table.breakdown))
    assert {"嵌入副本", "输出头副本", "enorm 与 hnorm (RMSNorm)"} <= names
    assert not [name for name in names if "copy" in name]


def test_a_sliding_window_model_s_kv_cache_note_reads_in_chinese(qtbot: QtBot, chinese: None) -> None:
    window = preset_window(qtbot, "gemma-3-4b")
    click_tab(qtbot, window, "显存与 GPU 适配")
    note = window.memory.cache_note
    qtbot.waitUntil(lambda: "KV 缓存" in note.text())
    assert "KV 缓存 (滑动窗口层)" in note.text() and "KV 缓存 (全局层)" in note.text(), note.text()
    assert "sliding" not in note.text() and "global" not in note.text()
