"""Under zh_CN the words core composes into term names read in Chinese where the window shows them:
DeepSeek-V3's MTP module ('embedding copy', 'head copy' stayed English in the table of terms) and
a sliding-window model's KV cache per layer kind ('KV 缓存 (sliding-window 层)' in the memory tab)."""

from __future__ import annotations

import re
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


# The weight names a term keeps as transformers writes them (kv_a, conv_1d, w_in), activations' names.
_IDENTIFIERS = {"conv", "enorm", "hnorm", "kv", "xIELU", "MoA", "α_p", "α_n"}


@pytest.mark.parametrize(
    "preset",
    [
        "deepseek-v3",
        "deepseek-v3.2-exp",
        "bert-base-uncased",
        "electra-base-discriminator",
        "deberta-v3-base",
        "bitnet-b1.58-2b",
        "jetmoe-8b",
        "recurrentgemma-2b",
        "lfm2-1.2b",
        "lfm2-8b-a1b",
        "zamba-7b",
        "zamba2-2.7b",
        "ernie-4.5-21b-a3b",
    ],
)
def test_every_term_of_the_table_reads_in_chinese(qtbot: QtBot, chinese: None, preset: str) -> None:
    """Every term name in the table of terms, each a family's own parts ('shared q (reads w_in)',
    'input and recurrence gates (block-diagonal)', 'layers 0–1 (short conv, dense)'), holds no
    English word but the weight names transformers gives them."""
    from tests.gui.test_translations import KEPT, english_words

    window = preset_window(qtbot, preset, (1024, 700))
    window.load_shown_views()
    arch_words = set(re.findall(r"[A-Za-z0-9_.]+", window.document.architecture.name))
    allowed = KEPT | _IDENTIFIERS | arch_words
    english = {
        name: words for name in _names(window.table.breakdown) if (words := english_words(name, allowed))
    }
    assert english == {}


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        (
            "gemma-3-4b",
            "图像：1 张 896² 像素的图像：上下文中 256 个 token（每张图像在视觉塔中 4,096 个 patch）。",
        ),
        (
            "llama-3.2-11b-vision",
            "图像：1 张 560² 像素的图像：交叉注意力读取 6,404 个 token"
            "（每张图像在视觉塔中 6,404 个 patch）。",
        ),
    ],
)
def test_the_images_note_reads_in_chinese(qtbot: QtBot, chinese: None, preset: str, expected: str) -> None:
    """It read '图像：1 image of 896² pixels: 256 tokens in the context (…)': core composed it in English."""
    window = preset_window(qtbot, preset)
    click_tab(qtbot, window, "显存与 GPU 适配")
    note = window.memory.images_note
    qtbot.waitUntil(lambda: bool(note.text()))
    assert note.text() == expected
