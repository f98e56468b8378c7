"""A GPU count typed in the memory tab while serving: laid out as the GPU table does, but a TP, PP
or EP the person typed is kept while the count takes it, as ``paramtally memory … --gpus`` does.

Found by a QA pass: TP 1 then GPUs 4 on Llama-3-8B jumped to TP 4 (5.29 GB per GPU) while
``paramtally memory llama-3-8b --tp 1 --gpus 4`` kept TP 1 (17.85 GB, four copies); on Mixtral,
EP 2 and GPUs 2 in either order left EP red ("must divide the 1 data-parallel GPUs") although
``--ep 2 --gpus 2`` runs. Each figure here is compared with the command line's, run in-process.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from paramtally.core.cli import main
from paramtally.core.scenario import Scenario
from paramtally.gui.main_window import MainWindow
from paramtally.gui.views.memory_panel import MemoryPanel
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals, give_focus
from tests.gui.views_support import click_tab, preset_window

MISTRAL = Path(__file__).resolve().parents[1] / "data" / "hf_configs" / "mistral-7b-v0.1.json"


def _memory_tab(qtbot: QtBot, preset_id: str) -> tuple[MainWindow, MemoryPanel]:
    window = preset_window(qtbot, preset_id)
    click_tab(qtbot, window, "Memory and GPU fit")
    return window, window.memory


def _type(panel: MemoryPanel, type_into: TypeInto, field: str, text: str) -> None:
    type_into(panel.controls.editors[field], text)


def _undo(qtbot: QtBot, window: MainWindow, steps: int = 1) -> None:
    """Edit → Undo by its shortcut, the window active as a window manager leaves it."""
    give_focus(qtbot, window.memory.controls.editors["batch"])
    for _ in range(steps):
        qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)


def _shown(panel: MemoryPanel) -> int:
    """The memory per GPU the bar shows: its visible segments stacked."""
    return round(sum(bars.opts["height"][0] for bars in panel.chart.bars.values() if bars.isVisible()))


def _command_line(capsys: pytest.CaptureFixture[str], source: str, *flags: str) -> tuple[Scenario, int]:
    """The scenario and memory per GPU of ``paramtally memory SOURCE FLAGS --format json``."""
    capsys.readouterr()
    assert main(["memory", source, *flags, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    return Scenario.model_validate(data["scenario"]), data["total_bytes"]


def _agrees(window: MainWindow, panel: MemoryPanel, expected: tuple[Scenario, int]) -> None:
    scenario, total = expected
    assert window.document.scenario == scenario
    assert _shown(panel) == total == window.document.memory.total_bytes
    for name in ("gpus", "tp", "pp", "ep"):
        assert panel.controls.editors[name].value() == getattr(scenario, name)
        assert panel.controls.field_state(name) != "error"


def test_a_typed_tp_is_kept_when_the_gpu_count_changes(
    qtbot: QtBot, type_into: TypeInto, capsys: pytest.CaptureFixture[str]
) -> None:
    window, panel = _memory_tab(qtbot, "llama-3-8b")
    alone = _shown(panel)
    _type(panel, type_into, "tp", "1")
    _type(panel, type_into, "gpus", "4")
    assert (window.document.scenario.tp, window.document.scenario.dp) == (1, 4)
    _agrees(window, panel, _command_line(capsys, "llama-3-8b", "--tp", "1", "--gpus", "4"))
    assert _shown(panel) == alone  # four whole copies: the memory per GPU does not shrink
    note = panel.layout_note.text()
    assert note.startswith("4 GPUs with TP 1 as set: TP 1 × DP 4.") and "does not shrink" in note


def test_a_gpu_count_alone_lays_the_model_out_and_undo_takes_it_back_in_one_step(
    qtbot: QtBot, type_into: TypeInto, capsys: pytest.CaptureFixture[str]
) -> None:
    window, panel = _memory_tab(qtbot, "llama-3-8b")
    opened, alone = window.document.scenario, _shown(panel)
    _type(panel, type_into, "gpus", "4")
    assert window.document.scenario.tp == 4
    _agrees(window, panel, _command_line(capsys, "llama-3-8b", "--gpus", "4"))
    said = "4 GPUs: laid out as TP 4, as the GPU table does"
    assert panel.layout_note.text().startswith(said + ".") and panel.layout_note.isVisible()
    assert f"  {said}\n" in _table_of(
        capsys, "llama-3-8b", "--gpus", "4"
    )  # the CLI says it in the same words
    assert window.document.undo_stack.undoText() == "Set GPUs, Tensor parallel"
    _undo(qtbot, window)
    assert window.document.scenario == opened and _shown(panel) == alone
    assert panel.layout_note.isHidden() and panel.controls.editors["tp"].value() == 1


def _table_of(capsys: pytest.CaptureFixture[str], source: str, *flags: str) -> str:
    capsys.readouterr()
    assert main(["memory", source, *flags]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("order", [("gpus", "ep"), ("ep", "gpus")], ids=["gpus-then-ep", "ep-then-gpus"])
def test_expert_parallel_and_a_gpu_count_in_either_order_give_the_command_lines_figures(
    qtbot: QtBot, type_into: TypeInto, capsys: pytest.CaptureFixture[str], order: tuple[str, str]
) -> None:
    window, panel = _memory_tab(qtbot, "mixtral-8x7b")
    _type(panel, type_into, order[0], "2")
    if order[0] == "ep":  # EP 2 on one GPU: refused at its field until the GPUs take it
        assert panel.controls.field_state("ep") == "error" and window.document.scenario.ep == 1
    _type(panel, type_into, order[1], "2")
    assert (window.document.scenario.tp, window.document.scenario.ep) == (1, 2)
    _agrees(window, panel, _command_line(capsys, "mixtral-8x7b", "--ep", "2", "--gpus", "2"))
    assert panel.problem.isHidden()
    assert "laid out as TP 1 × EP 2 (EP 2 as set" in panel.layout_note.text()


def test_a_typed_tp_the_new_count_cannot_take_is_laid_out_again_and_undo_brings_it_back(
    qtbot: QtBot, type_into: TypeInto, capsys: pytest.CaptureFixture[str]
) -> None:
    window, panel = _memory_tab(qtbot, "llama-3-8b")
    document = window.document
    _type(panel, type_into, "gpus", "8")
    _type(panel, type_into, "tp", "8")  # the count's TP 8, now typed by hand
    typed = document.scenario
    _type(panel, type_into, "gpus", "4")
    assert (document.scenario.gpus, document.scenario.tp) == (4, 4)
    assert panel.layout_note.text().startswith(
        "TP 8 does not fit 4 GPUs: laid out as TP 4, as the GPU table does"
    )
    _agrees(window, panel, _command_line(capsys, "llama-3-8b", "--tp", "8", "--gpus", "4"))
    _undo(qtbot, window)  # one step back
    assert document.scenario == typed and _shown(panel) == document.memory.total_bytes
    # The undo brought back the TP typed by hand too: 16 GPUs keep it, two copies of TP 8.
    _type(panel, type_into, "gpus", "16")
    assert (document.scenario.tp, document.scenario.pp, document.scenario.dp) == (8, 1, 2)
    _agrees(window, panel, _command_line(capsys, "llama-3-8b", "--tp", "8", "--gpus", "16"))
    # Undone to the model as it opened (TP 8 typed again made no step of its own), nothing is the
    # person's: 16 GPUs take the table's one copy over TP 8 × PP 2.
    _undo(qtbot, window, steps=2)
    assert (document.scenario.gpus, document.scenario.tp) == (1, 1)
    _type(panel, type_into, "gpus", "16")
    assert (document.scenario.tp, document.scenario.pp, document.scenario.dp) == (8, 2, 1)
    _agrees(window, panel, _command_line(capsys, "llama-3-8b", "--gpus", "16"))


def test_another_model_opened_forgets_the_sizes_typed_for_the_last(
    qtbot: QtBot, type_into: TypeInto, modals: Modals, capsys: pytest.CaptureFixture[str]
) -> None:
    window, panel = _memory_tab(qtbot, "llama-3-8b")
    _type(panel, type_into, "tp", "2")
    _type(panel, type_into, "gpus", "2")  # TP 2 typed: kept (one copy)
    modals.click("Don't Save")
    modals.choose_file(str(MISTRAL), "Open")
    give_focus(qtbot, panel.controls.editors["batch"])
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)  # File → Open
    modals.wait_done()
    assert window.document.architecture.name != "Llama-3-8B"
    assert (window.document.scenario.gpus, window.document.scenario.tp) == (2, 2)  # the scenario kept
    # Mistral's TP 2 is no one's choice: 8 GPUs lay it out as the table does, as for a model opened afresh.
    _type(panel, type_into, "gpus", "8")
    assert window.document.scenario.tp == 8
    expected = _command_line(capsys, str(MISTRAL), "--context", "4096", "--gpus", "8")
    _agrees(window, panel, expected)
    assert panel.layout_note.text().startswith("8 GPUs: laid out as TP 8, as the GPU table does")
