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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from paramtally.core.cli import main
from paramtally.core.io import user_presets
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.scenario import Scenario
from paramtally.gui.document import Document
from paramtally.gui.form.editors import ComboBox
from paramtally.gui.main_window import MainWindow
from paramtally.gui.views.memory_panel import MemoryPanel
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals, give_focus
from tests.gui.views_support import click_tab, preset_window
from tests.hypothesis_budget import examples

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


# --- the rule: the layout after any edits is `memory MODEL --gpus N` with the flags typed by hand


def _pick(qtbot: QtBot, combo: ComboBox, data: str) -> None:
    """Choose the entry for ``data`` with the arrow keys, as a person would."""
    give_focus(qtbot, combo)
    index = combo.findData(data)
    while combo.currentIndex() != index:
        qtbot.keyClick(combo, Qt.Key.Key_Down if combo.currentIndex() < index else Qt.Key.Key_Up)


def _sizes(window: MainWindow) -> tuple[int, int, int, int]:
    s = window.document.scenario
    return s.gpus, s.tp, s.pp, s.ep


def test_a_count_keeps_a_typed_ep_over_a_tp_an_earlier_count_chose(
    qtbot: QtBot, type_into: TypeInto, capsys: pytest.CaptureFixture[str]
) -> None:
    """QA: DeepSeek-V3, GPUs 32 → EP 8 → GPUs 64 → PP 2 → GPUs 16 gave TP 8 × PP 2 with EP 1 (the
    typed EP dropped for the TP 64 GPUs had chosen); ``--gpus 16 --ep 8 --pp 2`` gives TP 1 × PP 2 × EP 8."""
    window, panel = _memory_tab(qtbot, "deepseek-v3")
    for field, text in (("gpus", "32"), ("ep", "8"), ("gpus", "64"), ("pp", "2")):
        _type(panel, type_into, field, text)
    assert _sizes(window) == (64, 4, 2, 8)  # PP 2 as typed: TP fills a node over each copy's 8 GPUs
    _type(panel, type_into, "gpus", "16")
    assert _sizes(window) == (16, 1, 2, 8)
    _agrees(window, panel, _command_line(capsys, "deepseek-v3", "--gpus", "16", "--ep", "8", "--pp", "2"))
    assert panel.layout_note.text().startswith("16 GPUs with PP 2 as set: TP 1 × PP 2 × EP 8")
    assert window.document.undo_stack.undoText() == "Set GPUs, Tensor parallel"


def test_a_count_chooses_the_untyped_sizes_afresh_whatever_an_earlier_count_chose(
    qtbot: QtBot, type_into: TypeInto, capsys: pytest.CaptureFixture[str]
) -> None:
    """QA: Llama-3-8B, GPUs 16 → TP 4 → GPUs 8 gave TP 4 × PP 2 (the PP 2 of 16 GPUs kept), typed
    afresh TP 4 × DP 2, as ``--tp 4 --gpus 8``."""
    window, panel = _memory_tab(qtbot, "llama-3-8b")
    _type(panel, type_into, "gpus", "16")
    assert _sizes(window) == (16, 8, 2, 1)
    _type(panel, type_into, "tp", "4")  # typed: the PP the count chose goes, as `--gpus 16 --tp 4`
    _agrees(window, panel, _command_line(capsys, "llama-3-8b", "--gpus", "16", "--tp", "4"))
    assert panel.layout_note.text().startswith("16 GPUs with TP 4 as set: TP 4 × DP 4.")
    _type(panel, type_into, "gpus", "8")
    assert (window.document.scenario.tp, window.document.scenario.pp, window.document.scenario.dp) == (
        4,
        1,
        2,
    )
    _agrees(window, panel, _command_line(capsys, "llama-3-8b", "--tp", "4", "--gpus", "8"))


def test_the_count_shown_typed_again_lays_the_model_out_again(
    qtbot: QtBot, type_into: TypeInto, capsys: pytest.CaptureFixture[str]
) -> None:
    """QA: Mixtral on 8 GPUs with a TP 4 no one typed (here saved with a user preset), 8 typed into
    GPUs again stayed TP 4; ``--gpus 8`` gives TP 8."""
    saved = Scenario(gpus=8, tp=4).model_dump(mode="json")
    user_presets.save("mx-tp4", load_builtin("mixtral-8x7b"), scenario=saved)
    preset = user_presets.load_preset("mx-tp4")
    window = MainWindow(Document(preset.architecture, "mx-tp4", preset_id="mx-tp4", scenario=preset.scenario))
    qtbot.addWidget(window)
    window.resize(1440, 900)
    window.show()
    qtbot.waitExposed(window)
    click_tab(qtbot, window, "Memory and GPU fit")
    panel = window.memory
    assert _sizes(window) == (8, 4, 1, 1)
    _type(panel, type_into, "gpus", "")  # emptied: refused and put back, nothing typed
    assert _sizes(window) == (8, 4, 1, 1) and not window.document.undo_stack.canUndo()
    _type(panel, type_into, "gpus", "8")
    assert _sizes(window) == (8, 8, 1, 1)
    _agrees(window, panel, _command_line(capsys, "mx-tp4", "--gpus", "8"))
    assert panel.layout_note.text().startswith("8 GPUs: laid out as TP 8, as the GPU table does")
    assert window.document.undo_stack.undoText() == "Set Tensor parallel"


def test_switching_to_serving_lays_the_gpus_out_as_the_command_line_does(
    qtbot: QtBot, type_into: TypeInto, capsys: pytest.CaptureFixture[str]
) -> None:
    window, panel = _memory_tab(qtbot, "llama-3-8b")
    _pick(qtbot, panel.controls.editors["mode"], "training")
    _type(panel, type_into, "gpus", "8")
    assert _sizes(window) == (8, 1, 1, 1)  # training: eight data-parallel GPUs
    _pick(qtbot, panel.controls.editors["mode"], "inference")
    assert _sizes(window) == (8, 8, 1, 1)  # serving: one copy over the eight
    _agrees(window, panel, _command_line(capsys, "llama-3-8b", "--gpus", "8"))


_EDITS = st.one_of(
    st.tuples(st.just("gpus"), st.sampled_from([1, 2, 4, 8, 16, 32, 64])),
    st.tuples(st.just("tp"), st.sampled_from([1, 2, 4, 8])),
    st.tuples(st.just("pp"), st.sampled_from([1, 2, 4])),
    st.tuples(st.just("ep"), st.sampled_from([1, 2, 4, 8])),
)


@settings(
    max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(model=st.sampled_from(["mixtral-8x7b", "llama-3-8b"]), edits=st.lists(_EDITS, min_size=1, max_size=6))
def test_any_sequence_of_typed_sizes_ends_where_the_command_line_with_those_flags_does(
    qtbot: QtBot,
    type_into: TypeInto,
    capsys: pytest.CaptureFixture[str],
    model: str,
    edits: list[tuple[str, int]],
) -> None:
    """After each edit the fields not red (none waiting) hold what ``memory MODEL --gpus N`` gives
    with a flag for each of TP, PP and EP the person typed and the layout kept: a typed size stays
    the person's until it is typed over or a count gives it up."""
    window, panel = _memory_tab(qtbot, model)
    typed: dict[str, int] = {}
    for field, value in edits:
        _type(panel, type_into, field, str(value))
        if field != "gpus":
            typed[field] = value
        s, waiting = window.document.scenario, window.document.scenario_drafts
        # An EP a count lowers stays typed at what the copies take.
        if "ep" in typed and "ep" not in waiting:
            typed["ep"] = s.ep
        # A typed TP or PP that did not hold is given up. A count is laid out with every size
        # typed before it, as the command line with their flags (TP 8 and PP 4 typed, then 16
        # GPUs: TP 8 × PP 2 in both); a size typed wins over one typed before (TP 4 on 4 GPUs,
        # then PP 2: TP 2 × PP 2, as '--pp 2'), so that one is given up first.
        held = {name: size for name, size in typed.items() if name in waiting or size == getattr(s, name)}
        if not waiting:  # a refused size waits in its field for a count that takes it
            flags = [
                f"--{name}={size}" for name, size in sorted((typed if field == "gpus" else held).items())
            ]
            _agrees(window, panel, _command_line(capsys, model, "--gpus", str(s.gpus), *flags))
        typed = held
    window.close()


def test_one_gpu_is_said_in_the_singular(qtbot: QtBot, type_into: TypeInto) -> None:
    """QA: 'EP 2 … must divide the 1 data-parallel GPUs', '1 GPUs cannot be split …'."""
    window, panel = _memory_tab(qtbot, "mixtral-8x7b")
    _type(panel, type_into, "ep", "2")
    assert "expert parallel size 2 must divide the 1 data-parallel GPU (" in panel.problem.text()
    _type(panel, type_into, "ep", "1")
    _type(panel, type_into, "tp", "2")
    assert "1 GPU cannot be split into tp·pp = 2 groups" in panel.problem.text()
    window.close()


def test_the_memory_tab_advises_as_the_command_line_does(
    qtbot: QtBot, type_into: TypeInto, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 32: the layout advice is core's, so the window and ``paramtally memory`` say it alike."""
    window, panel = _memory_tab(qtbot, "llama-3-8b")
    _type(panel, type_into, "tp", "1")
    _type(panel, type_into, "gpus", "8")
    table = _table_of(capsys, "llama-3-8b", "--tp", "1", "--gpus", "8")
    advice = next(line.strip() for line in table.splitlines() if "copies of the model" in line)
    assert advice.endswith("One copy over all of them: TP=8 (set --tp/--pp).")
    shown = advice.replace("--tp/--pp", "Tensor/Pipeline parallel")
    assert panel.layout_note.text().endswith(shown) and panel.layout_note.isVisible()
    window.close()
