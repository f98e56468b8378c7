"""Scenario f: the memory tab with GPUs, tensor and pipeline parallel, typed as a person would.

Bug 4 of issue 11: GPUs 8, TP 8, then TP 3 + Enter snapped the field back to 8 while the banner
kept "tp·pp = 3"; typing 8 again did not clear it. Now a refused value stays in its field, red,
with its reason; the figures are the scenario in force's; a valid value clears it. Also: more
GPUs while serving take core's layout (as the setups table does), the notes say what a layout
means, the setups table filters to what fits, explains its columns and copies rows.
"""

from __future__ import annotations

import warnings

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from paramtally.core.io.export import BREAKDOWN_COLUMNS, GPU_COLUMNS, breakdown_rows, gpu_rows, to_tsv
from paramtally.core.io.model_sources import load_source
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.fit import chosen_layout, column_description, fit_setups, smallest_fit
from paramtally.gui.main_window import MainWindow
from paramtally.gui.notices import route_warnings_to
from paramtally.gui.views.memory_panel import MemoryPanel
from paramtally.gui.views.setups_table import COLUMN_FIELDS, COLUMNS, FITS, RAW_ROLE
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals
from tests.gui.views_support import click_tab, moe_variant, preset_window


@pytest.fixture
def panel(qtbot: QtBot, window: MainWindow) -> MemoryPanel:
    """The memory tab, opened by clicking its tab."""
    click_tab(qtbot, window, "Memory and GPU fit")
    panel = window.memory
    assert isinstance(panel, MemoryPanel) and panel.isVisible()
    return panel


def _editor(panel: MemoryPanel, name: str):  # type: ignore[no-untyped-def]
    return panel.controls.editors[name]


def _red(panel: MemoryPanel, name: str) -> bool:
    return panel.controls.field_state(name) == "error"


def _memory_tab_of(qtbot: QtBot, preset_id: str) -> MainWindow:
    """A 1440×900 window on the built-in ``preset_id`` with its memory tab clicked open."""
    window = preset_window(qtbot, preset_id)
    click_tab(qtbot, window, "Memory and GPU fit")
    return window


def _memory_shown(panel: MemoryPanel) -> int:
    return round(sum(bars.opts["height"][0] for bars in panel.chart.bars.values() if bars.isVisible()))


def test_more_gpus_take_the_tables_layout_and_undo_in_one_step(
    qtbot: QtBot, window: MainWindow, panel: MemoryPanel, type_into: TypeInto
) -> None:
    document = window.document
    alone = estimate_memory(document.architecture, document.scenario).total_bytes
    type_into(_editor(panel, "gpus"), "8")
    scenario = document.scenario
    expected = chosen_layout(document.architecture, scenario, 8)
    assert (scenario.gpus, scenario.tp, scenario.pp) == (8, expected.tp, expected.pp) == (8, 8, 1)
    assert _editor(panel, "tp").value() == 8  # the field shows the layout chosen
    per_gpu = estimate_memory(document.architecture, scenario).total_bytes
    assert _memory_shown(panel) == per_gpu < alone / 4  # the weights are spread over the eight GPUs
    assert "8 GPUs hold one copy of the model (TP=8)" in panel.layout_note.text()
    assert document.undo_stack.undoText() == "Set GPUs, Tensor parallel"
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert (document.scenario.gpus, document.scenario.tp) == (1, 1)
    assert _memory_shown(panel) == alone and panel.layout_note.isHidden()

    # Copies of the whole model do not lower the memory per GPU: the note says what would.
    qtbot.keyClick(window, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)  # redo
    type_into(_editor(panel, "tp"), "1")
    assert (document.scenario.gpus, document.scenario.tp, document.scenario.dp) == (8, 1, 8)
    assert _memory_shown(panel) == alone
    note = panel.layout_note.text()
    assert "8 copies of the model" in note and "does not shrink" in note and "TP=8" in note


def test_a_refused_tp_stays_red_until_a_valid_value(
    qtbot: QtBot, window: MainWindow, panel: MemoryPanel, type_into: TypeInto
) -> None:
    """Bug 4 replayed: GPUs 8, TP 8 → TP 3 stays visible and red; typing 8 clears it."""
    document = window.document
    type_into(_editor(panel, "gpus"), "8")
    type_into(_editor(panel, "tp"), "8")
    in_force = document.scenario
    rows = panel.setups.setups_model.rowCount()
    shown = _memory_shown(panel)

    type_into(_editor(panel, "tp"), "3")
    tp = _editor(panel, "tp")
    assert tp.lineEdit().text() == "3" and _red(panel, "tp")
    assert "8 GPUs cannot be split into tp·pp = 3 groups" in tp.toolTip()
    assert document.scenario == in_force  # nothing applied
    banner = panel.problem.text()
    assert banner.startswith("Not applied: Tensor parallel 3 — 8 GPUs cannot be split into tp·pp = 3 groups")
    assert "Tensor parallel stays 8" in banner and panel.problem.isVisible()
    # The figures are those of the scenario in force, the table whole.
    assert _memory_shown(panel) == shown == estimate_memory(document.architecture, in_force).total_bytes
    assert panel.setups.setups_model.rowCount() == rows == len(document.setups)
    assert panel.setups.height() >= 6 * panel.setups.verticalHeader().defaultSectionSize()

    type_into(tp, "8")
    assert not _red(panel, "tp") and not _red(panel, "gpus")
    assert panel.problem.isHidden() and "cannot" not in tp.toolTip()
    assert document.scenario == in_force


def test_a_refused_value_is_applied_when_another_field_makes_it_valid(
    qtbot: QtBot, window: MainWindow, panel: MemoryPanel, type_into: TypeInto
) -> None:
    """TP 3 on 8 GPUs is refused and kept; GPUs 6 then makes it valid: both apply, as one step."""
    document = window.document
    type_into(_editor(panel, "gpus"), "8")
    type_into(_editor(panel, "tp"), "3")
    assert _red(panel, "tp") and document.scenario.tp == 8
    type_into(_editor(panel, "gpus"), "6")
    scenario = document.scenario
    assert (scenario.gpus, scenario.tp, scenario.pp) == (6, 3, 1)  # the typed TP kept, not the table's
    assert not _red(panel, "tp") and not _red(panel, "gpus") and panel.problem.isHidden()
    assert document.undo_stack.undoText() == "Set Tensor parallel, GPUs"
    type_into(_editor(panel, "pp"), "2")
    assert (document.scenario.tp, document.scenario.pp, document.scenario.dp) == (3, 2, 1)
    assert _memory_shown(panel) == estimate_memory(document.architecture, document.scenario).total_bytes
    # A pipeline longer than the model is refused at its field, the rest stays.
    type_into(_editor(panel, "pp"), "200")
    assert _red(panel, "pp") and "6 GPUs cannot be split into tp·pp = 600 groups" in panel.problem.text()
    assert document.scenario.pp == 2


def test_a_context_beyond_the_positions_is_amber_at_its_field_and_changes_nothing(
    window: MainWindow, panel: MemoryPanel, type_into: TypeInto
) -> None:
    """GPT-3 has 2,048 learned positions: it opens at that context, without advice (QA: Whisper and
    GPT-3 opened at 4,096 with the advice against it). A context of 4,096 typed is framed amber with
    the advice, which the scenario box says too; the figures are for 4,096. A context within the
    positions clears it; fewer positions typed in the form bring it back; a refused context is red
    over the amber."""
    document, controls, context = window.document, panel.controls, _editor(panel, "context")
    assert document.scenario.context == 2048 and not controls.field_state("context") and panel.hint.isHidden()
    type_into(context, "4096")
    advice = "The context (4,096 tokens) exceeds the model's 2,048 learned positions"
    assert controls.field_state("context") == "hint" and advice in context.toolTip()
    assert panel.hint.isVisible() and panel.hint.text().startswith(advice)
    assert document.scenario.context == 4096 and panel.problem.isHidden()
    assert document.memory == estimate_memory(document.architecture, document.scenario)

    type_into(context, "2048")
    assert document.scenario.context == 2048
    assert not controls.field_state("context") and panel.hint.isHidden() and advice not in context.toolTip()

    type_into(window.form.editor(("decoder", "max_positions")), "1024")
    assert controls.field_state("context") == "hint"
    assert "The context (2,048 tokens) exceeds the model's 1,024 learned positions" in panel.hint.text()

    type_into(context, "0")
    assert controls.field_state("context") == "error" and panel.problem.isVisible()
    type_into(context, "1024")
    assert document.scenario.context == 1024 and not controls.field_state("context")
    assert panel.hint.isHidden() and panel.problem.isHidden()


def test_an_encoder_read_past_its_positions_is_amber_at_its_field(qtbot: QtBot, type_into: TypeInto) -> None:
    """Whisper's encoder takes 1,500 frames: typing 100,000 encoder tokens is applied (the
    cross-attention cache grows with it) and framed amber with the advice, which a value within
    the positions takes away. Every advice core gives at a scenario field shows this way."""
    window = _memory_tab_of(qtbot, "whisper-large-v3")
    panel, document = window.memory, window.document
    type_into(_editor(panel, "encoder_tokens"), "100000")
    assert document.scenario.encoder_tokens == 100_000
    assert panel.controls.field_state("encoder_tokens") == "hint"
    assert "The encoder reads 100,000 tokens per request, past its 1,500 positions" in panel.hint.text()
    type_into(_editor(panel, "encoder_tokens"), "1500")
    assert not panel.controls.field_state("encoder_tokens")
    assert "encoder reads" not in panel.hint.text()


def test_summary_filter_tooltips_and_copy(qtbot: QtBot, window: MainWindow, panel: MemoryPanel) -> None:
    document = window.document
    setups = fit_setups(document.architecture, document.scenario)
    best = smallest_fit(setups)
    assert best is not None
    summary = panel.summary.text()
    assert summary.startswith(f"Fits on {sum(f.fits for f in setups)} of {len(setups)} setups.")
    assert f"Smallest: {best.count} × {best.gpu_name} ({best.layout})" in summary
    own = smallest_fit(setups, "h100-sxm-80gb")
    assert own is not None and f"On NVIDIA H100 SXM 80GB: {own.count} GPUs ({own.layout})" in summary

    table = panel.setups
    model = table.model()
    for column, title in enumerate(COLUMNS):
        tip = model.headerData(column, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
        assert tip == "\n".join(column_description(name) for name in COLUMN_FIELDS[column]), title
    assert "longest context" in model.headerData(COLUMNS.index("Max context"), Qt.Orientation.Horizontal, 3)

    qtbot.mouseClick(panel.fits_only, Qt.MouseButton.LeftButton, pos=QPoint(4, panel.fits_only.height() // 2))
    assert panel.fits_only.isChecked()
    assert model.rowCount() == sum(fit.fits for fit in setups) > 0
    assert all(model.index(row, FITS).data(RAW_ROLE) for row in range(model.rowCount()))

    # Select two rows with the mouse and copy them: the CSV export's columns, tab-separated.
    first = table.visualRect(model.index(0, 0)).center()
    third = table.visualRect(model.index(2, 0)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=first)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, third)
    qtbot.keyClick(table, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    fitting = [fit for fit in setups if fit.fits]
    expected = to_tsv(gpu_rows([fitting[0], fitting[2]]), GPU_COLUMNS)
    assert QGuiApplication.clipboard().text() == expected
    lines = expected.splitlines()
    assert lines[0].split("\t") == list(GPU_COLUMNS) and len(lines) == 3


def test_breakdown_rows_copy_as_tab_separated_text(qtbot: QtBot, window: MainWindow) -> None:
    table = window.table
    model = table.model()
    root = model.index(0, 0)
    embeddings = model.index(0, 0, root)
    table.setFocus()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(root).center())
    qtbot.mouseClick(
        table.viewport(),
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.ControlModifier,
        table.visualRect(embeddings).center(),
    )
    qtbot.keyClick(table, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    rows = breakdown_rows(window.document.report)
    assert QApplication.clipboard().text() == to_tsv(rows[:2], BREAKDOWN_COLUMNS)
    assert (
        QApplication.clipboard().text().splitlines()[1].split("\t")[BREAKDOWN_COLUMNS.index("params")]
        == "175221817344"
    )


def test_lora_layers_say_training_is_frozen_base_plus_adapters(
    qtbot: QtBot, window: MainWindow, panel: MemoryPanel
) -> None:
    document = window.document
    assert panel.adapter_note.isHidden()
    document.set_architecture(moe_variant(document.architecture), "MoE with LoRA")
    assert "training it means frozen base + adapters" in panel.adapter_note.text()
    mode = _editor(panel, "mode")
    mode.setFocus()
    qtbot.keyClick(mode, Qt.Key.Key_Down)  # inference → training, as a person picks it
    mode.activated.emit(mode.currentIndex())
    assert document.scenario.mode == "training"
    memory = estimate_memory(document.architecture, document.scenario)
    assert memory.trainable_params < memory.params
    note = panel.adapter_note.text()
    assert note.startswith("Training means frozen base + adapters")
    assert f"{memory.trainable_params:,} parameters get gradients" in note


def test_scenario_fields_keep_their_values_through_model_edits_and_follow_undo(
    qtbot: QtBot, window: MainWindow, panel: MemoryPanel, type_into: TypeInto
) -> None:
    """A model edit leaves the scenario's fields as they are (a refused value too, still red);
    undoing back over a scenario edit writes the earlier value into its field."""
    document = window.document
    type_into(_editor(panel, "context"), "8192")
    type_into(_editor(panel, "gpus"), "8")
    type_into(_editor(panel, "tp"), "3")  # refused: 8 GPUs cannot be split in 3
    assert _red(panel, "tp") and document.scenario.tp == 8
    hidden = window.form.editor(("hidden_size",))
    type_into(hidden, "12288")
    assert document.architecture.hidden_size == 12288
    assert _editor(panel, "context").lineEdit().text() == "8,192"
    assert _editor(panel, "tp").lineEdit().text() == "3" and _red(panel, "tp")
    assert _memory_shown(panel) == estimate_memory(document.architecture, document.scenario).total_bytes

    type_into(_editor(panel, "tp"), "8")  # the refused value replaced: nothing waits any more
    assert not _red(panel, "tp") and not document.scenario_drafts
    type_into(hidden, "12384")
    window.findChild(QWidget, "layerTree").setFocus()  # Ctrl+Z from outside the fields
    for _ in range(2):  # the hidden size twice, then the 8 GPUs, then the context
        qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert document.architecture.hidden_size == load_source("gpt3-175b").hidden_size
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert document.scenario.gpus == 1 and _editor(panel, "gpus").lineEdit().text() == "1"
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert document.scenario.context == 2048 and _editor(panel, "context").lineEdit().text() == "2,048"


def test_a_model_opened_under_a_scenario_it_cannot_take_shows_no_other_models_figures(
    qtbot: QtBot, type_into: TypeInto, modals: Modals
) -> None:
    """QA: Mixtral with expert parallel 2, then File → Open Built-in Preset → llama-3-8b: the memory
    chart, the serving figures and the GPU setups stayed Mixtral's under Llama's headline; later, the
    tab had no figures at all until EP was found and reset. The field that does not fit goes back to
    what the model opens with, said in the status bar beside "Opened …"."""
    window = _memory_tab_of(qtbot, "mixtral-8x7b")
    panel, document = window.memory, window.document
    type_into(_editor(panel, "gpus"), "16")  # laid out as TP 8 × PP 2
    type_into(_editor(panel, "pp"), "1")  # two data-parallel copies, for experts over both
    type_into(_editor(panel, "ep"), "2")
    assert (
        (document.scenario.tp, document.scenario.ep) == (8, 2) and panel.chart.isVisible() and not panel.stale
    )
    entry = next(a for a in window.findChildren(QAction) if a.text() == "llama-3-8b")
    modals.click("Don't Save")  # the scenario's edits are unsaved changes
    with warnings.catch_warnings():
        route_warnings_to(window)
        entry.trigger()  # File → Open Built-in Preset → llama-3-8b
    assert document.architecture.name == "Llama-3-8B" and document.scenario.ep == 1  # no experts
    assert (document.scenario.tp, document.scenario.gpus) == (8, 16)  # the rest kept
    assert "Expert parallel 2 → 1" in window.statusBar().currentMessage()
    assert not panel.stale and panel.chart.isVisible() and panel.setups.isVisible()
    assert _memory_shown(panel) == estimate_memory(document.architecture, document.scenario).total_bytes
