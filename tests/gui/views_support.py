"""Helpers shared by the views' tests: a real Document on a preset, architecture variants, and
clicking one of the window's tabs."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from paramtally.core.editing.edits import with_value
from paramtally.core.io.model_sources import load_source
from paramtally.core.schema import Architecture
from paramtally.gui.document import Document
from paramtally.gui.main_window import MainWindow

__all__ = ["MOE_LAYERS", "click_tab", "make_document", "moe_variant"]

# GPT-3's stack with its last 94 layers turned into MoE blocks carrying LoRA: total ≠ active, added > 0.
MOE_LAYERS = [
    {"count": 2},
    {
        "count": 94,
        "override": {
            "ffn": {"kind": "moe", "num_experts": 64, "top_k": 4, "expert_width": 4096, "shared_experts": 1},
            "lora": {"rank": 16},
        },
    },
]


def make_document(source: str = "gpt3-175b") -> Document:
    return Document(load_source(source), source)


def moe_variant(arch: Architecture) -> Architecture:
    return with_value(arch, ("decoder", "layers"), MOE_LAYERS)


def click_tab(qtbot: QtBot, window: MainWindow, title: str) -> None:
    """Click the window's tab titled ``title`` ("Memory and GPU fit", "Compare"), as a person would."""
    bar = window.tabs.tabBar()
    index = [bar.tabText(i) for i in range(bar.count())].index(title)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    assert window.tabs.currentIndex() == index


def preset_window(qtbot: QtBot, preset_id: str, size: tuple[int, int] = (1440, 900)) -> MainWindow:
    """A shown window of ``size`` on the built-in ``preset_id``, opened as File → Open does."""
    window = MainWindow(Document(load_source(preset_id), preset_id, preset_id=preset_id))
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    return window
