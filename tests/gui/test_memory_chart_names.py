"""The memory chart names each part as core does: a model whose layers all keep a recurrent state
(Mamba-2) has no KV cache to speak of (issue 31, bug 11: 'KV cache 0.1 GiB' beside 'recurrent
state 61.4 MiB')."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt
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


def _struck(window: MainWindow) -> list[str]:
    """The part names the capacity's dashed line runs through, as the chart draws them."""
    chart = window.memory.chart
    view = chart.getPlotItem().getViewBox()
    view.prepareForPaint()
    to_device = chart.viewportTransform()
    line = view.mapViewToDevice(QPointF(0.0, chart.capacity_line.value())).y()
    struck = []
    for label in chart.labels.values():
        if label.isVisible():
            rect = label.deviceTransform(to_device).mapRect(label.boundingRect())
            if rect.top() - 1 <= line <= rect.bottom() + 1:
                struck.append(label.text())
    return struck


@pytest.mark.parametrize("size", [(1024, 700), (1440, 900)])
def test_no_part_name_sits_on_the_capacity_line(qtbot: QtBot, size: tuple[int, int]) -> None:
    """QA: Llama-3-70B on one H100 (the default scenario): 'Weights 131.4 GiB · 141.1 GB' was struck
    through by the dashed line of the 67.1 GiB usable, its segment's middle being at 65.7 GiB."""
    window = preset_window(qtbot, "llama-3-70b", size)
    window.resize(*size)  # shown first, then sized, as a window the person resizes
    qtbot.waitUntil(lambda: window.width() == size[0])
    click_tab(qtbot, window, "Memory and GPU fit")
    chart = window.memory.chart
    qtbot.waitUntil(lambda: chart.labels["weights"].text().startswith("Weights  131.4 GiB"))
    assert chart.capacity_line.isVisible()
    assert _struck(window) == []
    # Moved up or down only: each name still within the plot's height.
    view = chart.getPlotItem().getViewBox()
    area = chart.viewportTransform().mapRect(view.sceneBoundingRect())
    for label in chart.labels.values():
        if label.isVisible():
            rect = label.deviceTransform(chart.viewportTransform()).mapRect(label.boundingRect())
            assert area.top() <= rect.top() and rect.bottom() <= area.bottom(), label.text()
