"""The memory chart names each part as core does: a model whose layers all keep a recurrent state
(Mamba-2) has no KV cache to speak of (issue 31, bug 11: 'KV cache 0.1 GiB' beside 'recurrent
state 61.4 MiB')."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from paramtally.core.memory.estimate import estimate_memory
from paramtally.gui.main_window import MainWindow
from paramtally.gui.views.format import bytes_both
from tests.gui.views_support import click_tab, preset_window


def _mixer_kind(qtbot: QtBot, window: MainWindow, kind: str) -> None:
    """Arrow the default block's mixer combo down to ``kind``, as a person choosing it would."""
    combo = window.form.editor(("blocks", "default", "mixer", "kind"))
    combo.setFocus()
    for _ in range(combo.findData(kind) - combo.currentIndex()):
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert window.document.architecture.blocks["default"].mixer.kind == kind


def _chart_label(window: MainWindow) -> str:
    return window.memory.chart.labels["kv_cache"].text()


def test_every_mixer_mamba2_names_the_recurrent_state_on_the_chart(qtbot: QtBot) -> None:
    window = preset_window(qtbot, "gpt3-175b", (1440, 900))
    _mixer_kind(qtbot, window, "mamba2")
    click_tab(qtbot, window, "Memory and GPU fit")
    document = window.document
    memory = estimate_memory(document.architecture, document.scenario)
    state = [term for term in memory.terms if term.part == "kv_cache"]
    assert [term.name for term in state] == ["recurrent state"]
    qtbot.waitUntil(lambda: _chart_label(window).startswith("Recurrent state"))
    assert _chart_label(window) == f"Recurrent state  {bytes_both(memory.kv_cache_bytes)}"
    assert "KV cache" not in _chart_label(window)
    # The line under the scenario says the same thing in the same words.
    assert "recurrent state" in window.memory.cache_note.text()


def test_a_hybrid_names_both_and_attention_alone_its_kv_cache(qtbot: QtBot) -> None:
    window = preset_window(qtbot, "jamba-v0.1", (1440, 900))
    click_tab(qtbot, window, "Memory and GPU fit")
    qtbot.waitUntil(lambda: bool(_chart_label(window)))
    assert _chart_label(window).startswith("KV cache + recurrent state  ")
    window.open_builtin("llama-3-8b")
    qtbot.waitUntil(lambda: _chart_label(window).startswith("KV cache  "))
