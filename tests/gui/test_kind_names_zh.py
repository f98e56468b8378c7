"""Under zh_CN a kind is named alike wherever the window shows it: the layer tree's rows, which
core composes of titles ('Mixer: Gated DeltaNet — Key heads 16') and the window puts in Chinese word
by word, say the kind as the form's Kind box does, even when its translation keeps it in English."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QAbstractItemModel, QModelIndex
from pytestqt.qtbot import QtBot

from paramtally.gui.i18n import install_language
from tests.gui.views_support import preset_window


@pytest.fixture
def chinese() -> Iterator[None]:
    assert install_language("zh_CN")
    yield
    install_language("en")


def _row_texts(model: QAbstractItemModel, parent: QModelIndex | None = None) -> Iterator[str]:
    parent = parent or QModelIndex()
    for row in range(model.rowCount(parent)):
        index = model.index(row, 0, parent)
        yield str(model.data(index))
        yield from _row_texts(model, index)


def test_a_gated_deltanet_mixer_row_names_its_kind_as_the_kind_box_does(qtbot: QtBot, chinese: None) -> None:
    window = preset_window(qtbot, "qwen3-next-80b-a3b", (1024, 700))
    kind_box = window.form.editor(("blocks", "default", "mixer", "kind"))
    shown_kind = kind_box.currentText()
    assert shown_kind == "Gated DeltaNet"  # the translation keeps the method's name
    mixer_rows = [text for text in _row_texts(window.tree.tree_model) if "DeltaNet —" in text]
    assert mixer_rows, list(_row_texts(window.tree.tree_model))
    for text in mixer_rows:
        assert text.startswith(f"混合器: {shown_kind} — "), text
