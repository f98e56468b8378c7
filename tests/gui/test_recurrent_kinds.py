"""The window takes the mixer kinds the recurrent families brought (issue 32 item 7, issue 33): a
person types them into the pattern helper by their pattern-language names, and the layer tree
names them in its groups. Typed as a person types, in the real dialog."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from pytestqt.qtbot import QtBot

from paramtally.core.count.parameters import count_parameters
from paramtally.core.schema.group_addresses import group_block
from paramtally.gui.main_window import MainWindow
from tests.gui.modals import Modals, give_focus
from tests.gui.views_support import preset_window


def _click_row(qtbot: QtBot, window: MainWindow, index: QModelIndex) -> None:
    window.tree.scrollTo(index)
    qtbot.mouseClick(
        window.tree.viewport(), Qt.MouseButton.LeftButton, pos=window.tree.visualRect(index).center()
    )


def _pattern(qtbot: QtBot, modals: Modals, window: MainWindow, line: str) -> None:
    modals.type_and_click(line, "OK", "patternText")
    _click_row(qtbot, window, window.tree.tree_model.find(("decoder",)))
    give_focus(qtbot, window.tree)
    qtbot.keyClick(window.tree, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()


def _pattern_kinds(window: MainWindow) -> list[tuple[str, int]]:
    """(mixer kind, layers) of each run in the decoder's one repeating group."""
    arch = window.document.architecture
    (group,) = arch.decoder.layers
    return [
        (group_block(arch, ("decoder", "layers", 0, "pattern", i)).mixer.kind, run.count)
        for i, run in enumerate(group.pattern)
    ]


def test_a_pattern_of_short_convs_and_attention_is_typed_by_the_kinds_names(
    qtbot: QtBot, modals: Modals
) -> None:
    window = preset_window(qtbot, "llama-3-8b")
    _pattern(qtbot, modals, window, "[conv ×2, attention] × 8")
    assert _pattern_kinds(window) == [("short_conv", 2), ("attention", 1)]
    arch = window.document.architecture
    assert arch.decoder.num_layers == 24
    group = window.tree.tree_model.group_index(0)
    rows = [window.tree.tree_model.data(window.tree.tree_model.index(r, 0, group)) for r in range(3)]
    assert any("short conv" in str(row) for row in rows), rows
    # The headline shows what core counts for the edited model.
    total = f"{count_parameters(arch).total:,}"
    qtbot.waitUntil(lambda: total in window.headline.text())


def test_a_griffin_pattern_of_rg_lru_blocks_and_attention_is_typed_by_the_kinds_names(
    qtbot: QtBot, modals: Modals
) -> None:
    window = preset_window(qtbot, "llama-3-8b")
    _pattern(qtbot, modals, window, "[rglru ×2, attention] × 6")
    assert _pattern_kinds(window) == [("rg_lru", 2), ("attention", 1)]
    arch = window.document.architecture
    assert arch.decoder.num_layers == 18
    group = window.tree.tree_model.group_index(0)
    rows = [window.tree.tree_model.data(window.tree.tree_model.index(r, 0, group)) for r in range(2)]
    assert any("RG-LRU" in str(row) for row in rows), rows
    total = f"{count_parameters(arch).total:,}"
    qtbot.waitUntil(lambda: total in window.headline.text())


def test_a_pattern_names_the_shared_transformer_too(qtbot: QtBot, modals: Modals) -> None:
    window = preset_window(qtbot, "mamba-130m")
    _pattern(qtbot, modals, window, "[mamba ×5, shared] × 4")
    assert _pattern_kinds(window) == [("mamba", 5), ("shared_transformer", 1)]
    arch = window.document.architecture
    total = f"{count_parameters(arch).total:,}"
    qtbot.waitUntil(lambda: total in window.headline.text())
