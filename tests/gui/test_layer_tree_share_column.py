"""The layer tree's Share column holds its longest share: it was sized for '100.0 %', so a small
part's share ('0.0000064 %', DeepSeek-V3's norms of layers 0–2) was cut to '0.00000…'."""

from __future__ import annotations

from collections.abc import Iterator

from PySide6.QtCore import QAbstractItemModel, QModelIndex
from pytestqt.qtbot import QtBot

from paramtally.gui.main_window import MainWindow
from tests.gui.settle import settle
from tests.gui.views_support import preset_window

SHARE = 2


def _share_texts(model: QAbstractItemModel, parent: QModelIndex | None = None) -> Iterator[str]:
    parent = parent or QModelIndex()
    for row in range(model.rowCount(parent)):
        yield str(model.data(model.index(row, SHARE, parent)))
        yield from _share_texts(model, model.index(row, 0, parent))


def _cut_shares(window: MainWindow) -> list[str]:
    tree = window.tree
    metrics = tree.fontMetrics()
    room = tree.header().sectionSize(SHARE) - 8  # the cell's margins, as Qt's item delegate keeps
    return [text for text in _share_texts(tree.tree_model) if metrics.horizontalAdvance(text) > room]


def test_every_share_of_deepseek_v3_fits_its_column(qtbot: QtBot) -> None:
    window = preset_window(qtbot, "deepseek-v3", (1440, 900))
    assert "0.0000064 %" in set(_share_texts(window.tree.tree_model))
    assert _cut_shares(window) == []


def test_the_share_column_widens_when_an_edit_makes_a_part_smaller(qtbot: QtBot) -> None:
    """An FFN 70 times wider: the same rows with new figures (no reset), the norms' share 0.000066 %."""
    window = preset_window(qtbot, "llama-3-8b", (1440, 900))
    before = window.tree.header().sectionSize(SHARE)
    width = window.form.editor(("blocks", "default", "ffn", "width"))
    width.setFocus()
    width.lineEdit().selectAll()
    qtbot.keyClicks(width.lineEdit(), "1000000")
    qtbot.keyClick(width.lineEdit(), "\r")
    qtbot.waitUntil(lambda: window.document.architecture.blocks["default"].ffn.width == 1_000_000)
    settle()
    assert any(text.startswith("0.0000") for text in _share_texts(window.tree.tree_model))
    assert _cut_shares(window) == []
    assert window.tree.header().sectionSize(SHARE) > before
