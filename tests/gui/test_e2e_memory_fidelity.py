"""The memory tab shows issue 14's new terms as it shows the others: typed as a person would,
the chart's tooltip lists each term with its formula and source, notes say what is not modelled,
and the compute summary shows decode and hardware FLOPs."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from paramtally.core.editing.edits import with_value
from paramtally.core.io.model_sources import load_source
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.terms.term import Term
from paramtally.gui.main_window import MainWindow
from paramtally.gui.views.memory_panel import MemoryPanel
from tests.gui.conftest import TypeInto
from tests.gui.views_support import click_tab

# GPT-3's stack with 94 of its layers as 64-expert MoE blocks.
MOE = [
    {"count": 2},
    {"count": 94, "override": {"ffn": {"kind": "moe", "num_experts": 64, "top_k": 4, "expert_width": 4096}}},
]


@pytest.fixture
def panel(qtbot: QtBot, window: MainWindow) -> MemoryPanel:
    click_tab(qtbot, window, "Memory and GPU fit")
    return window.memory


def _pick(qtbot: QtBot, combo, text: str) -> None:  # type: ignore[no-untyped-def]
    """Choose ``text`` in a combo box with the keyboard, as a person would."""
    combo.setFocus()
    index = combo.findText(text)
    assert index >= 0, text
    while combo.currentIndex() != index:
        qtbot.keyClick(combo, Qt.Key.Key_Down if combo.currentIndex() < index else Qt.Key.Key_Up)
    combo.activated.emit(index)


def _tensor_parallel(type_into: TypeInto, panel: MemoryPanel, size: int) -> None:
    """One copy of the model over ``size`` GPUs, all tensor parallel, as a person types it."""
    editors = panel.controls.editors
    type_into(editors["gpus"], str(size))
    type_into(editors["pp"], "1")
    type_into(editors["tp"], str(size))


def _term_in_tooltip(window: MainWindow, panel: MemoryPanel, name: str) -> Term:
    """The scenario's memory term ``name``, after checking the chart's tooltip shows its line."""
    document = window.document
    memory = estimate_memory(document.architecture, document.scenario)
    term = next(term for term in memory.terms if term.name == name)
    assert f"{name}: {term.value:,} B = {term.formula}" in panel.chart.toolTip()
    return term


def test_expert_parallel_terms_and_the_all_to_all_omission(
    qtbot: QtBot, window: MainWindow, panel: MemoryPanel, type_into: TypeInto
) -> None:
    document = window.document
    document.set_architecture(with_value(document.architecture, ("decoder", "layers"), MOE), "MoE")
    editors = panel.controls.editors
    _pick(qtbot, editors["mode"], "training")
    type_into(editors["gpus"], "8")
    type_into(editors["tp"], "1")
    type_into(editors["pp"], "1")
    assert document.scenario.dp == 8
    assert panel.omission_note.isHidden()
    type_into(editors["ep"], "8")
    assert document.scenario.ep == 8
    _term_in_tooltip(window, panel, "routed expert weights (bf16)")
    assert "Megatron-LM expert parallelism" in panel.chart.toolTip()
    assert panel.omission_note.isVisible() and "all-to-all" in panel.omission_note.text()
    assert "Hardware per training token" in panel.flops.text()

    type_into(editors["ep"], "3")  # does not divide the 64 experts nor the 8 data-parallel GPUs
    assert document.scenario.ep == 8 and panel.controls.field_state("ep") == "error"
    assert "expert parallel size 3 must divide the 8 data-parallel GPUs" in panel.problem.text()


def test_gguf_types_and_replicated_kv_heads_in_the_tooltip(
    qtbot: QtBot, window: MainWindow, panel: MemoryPanel, type_into: TypeInto
) -> None:
    document = window.document
    document.set_architecture(load_source("llama-2-70b"), "Llama-2-70B")
    editors = panel.controls.editors
    _pick(qtbot, editors["quant"], "q4_k_m")
    tooltip = panel.chart.toolTip()
    assert "weights (GGUF Q4_K_M): " in tooltip and "N_Q4_K·144/256" in tooltip
    assert "llama_tensor_get_type" in tooltip
    assert "Decode step at the context" in panel.flops.text()

    _pick(qtbot, editors["quant"], "none")
    _tensor_parallel(type_into, panel, 16)
    assert (document.scenario.tp, document.scenario.gpus) == (16, 16)
    share = _term_in_tooltip(window, panel, "replicated K/V weights (bf16)")
    assert share.value == 167_772_160


def test_a_one_group_mamba2_model_takes_tensor_parallel_with_its_group_replicated(
    qtbot: QtBot, window: MainWindow, panel: MemoryPanel, type_into: TypeInto
) -> None:
    document = window.document
    document.set_architecture(load_source("bamba-9b"), "Bamba-9B")
    _tensor_parallel(type_into, panel, 8)
    assert (document.scenario.tp, document.scenario.gpus) == (8, 8)
    assert not panel.controls.field_state("tp") and panel.problem.isHidden()
    _term_in_tooltip(window, panel, "replicated Mamba-2 B/C weights (bf16)")
    assert "MambaMixer2" in panel.chart.toolTip()
    rows = panel.setups.model()
    layouts = {rows.index(row, 2).data() for row in range(rows.rowCount())}
    assert "TP=8" in layouts  # the fit table lays it out with TP too


def test_a_new_gpu_count_keeps_expert_parallel_within_the_copies(
    qtbot: QtBot, window: MainWindow, panel: MemoryPanel, type_into: TypeInto
) -> None:
    document = window.document
    document.set_architecture(with_value(document.architecture, ("decoder", "layers"), MOE), "MoE")
    editors = panel.controls.editors
    type_into(editors["gpus"], "8")
    type_into(editors["tp"], "1")  # serving: 8 copies of the model, experts spread over them
    type_into(editors["ep"], "8")
    assert (document.scenario.dp, document.scenario.ep) == (8, 8)
    type_into(editors["gpus"], "16")  # TP 1 and EP 8 were typed: kept, on 16 copies
    assert (document.scenario.tp, document.scenario.pp, document.scenario.ep) == (1, 1, 8)
    type_into(editors["gpus"], "4")  # EP 8 does not divide 4 copies: as many as there are
    assert (document.scenario.tp, document.scenario.dp, document.scenario.ep) == (1, 4, 4)
    assert not panel.controls.field_state("ep") and panel.problem.isHidden()
    assert "EP 8 does not divide the 4 data-parallel GPUs: EP 4" in panel.layout_note.text()
