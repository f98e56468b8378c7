"""The window takes JetMoE's mixture of attention heads (the ``moa`` mixer, issue 33): a person
types it into the pattern helper by its pattern-language name, the layer tree names it in its
groups, and the headline shows the active parameters its idle attention experts leave out. Typed as
a person types, in the real dialog."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from paramtally.core.count.parameters import count_parameters
from tests.gui.modals import Modals
from tests.gui.test_recurrent_kinds import _pattern, _pattern_kinds
from tests.gui.views_support import preset_window


def test_a_pattern_of_moa_and_attention_layers_is_typed_by_the_kinds_name(
    qtbot: QtBot, modals: Modals
) -> None:
    window = preset_window(qtbot, "llama-3-8b")
    _pattern(qtbot, modals, window, "[moa, attention] × 4")
    assert _pattern_kinds(window) == [("moa", 1), ("attention", 1)]
    arch = window.document.architecture
    assert arch.decoder.num_layers == 8
    group = window.tree.tree_model.group_index(0)
    rows = [window.tree.tree_model.data(window.tree.tree_model.index(r, 0, group)) for r in range(2)]
    assert any("MoA" in str(row) for row in rows), rows
    # A dense FFN under it: only the attention experts are idle, and the headline says so.
    report = count_parameters(arch)
    assert report.active < report.total
    qtbot.waitUntil(lambda: f"{report.total:,}" in window.headline.text())
    qtbot.waitUntil(lambda: f"<b>{report.active:,}</b> active" in window.headline.text())
