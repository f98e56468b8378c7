"""What a GPU count means for the memory per GPU, said by core alike in the window and by
``paramtally memory`` (issue 32: the advice was written in the memory panel, the CLI never gave it)."""

from __future__ import annotations

import json

import pytest

from paramtally.core.cli import main
from paramtally.core.io.model_sources import load_source
from paramtally.core.memory.layout_advice import WINDOW_SIZES, layout_advice, layout_note
from paramtally.core.memory.scenario import Scenario

COPIES = (
    "8 GPUs as 8 copies of the model (DP=8): each GPU holds a whole copy, so the memory per GPU does not "
    "shrink. One copy over all of them: TP=8 (set --tp/--pp)."
)


def _out(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    assert main(["memory", *args]) == 0
    return capsys.readouterr().out


def test_the_command_line_advises_one_copy_over_gpus_that_hold_copies(
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = _out(capsys, "llama-3-8b", "--tp", "1", "--gpus", "8")
    assert table.split("\n\n")[0].endswith(f"\n  {COPIES}")  # under the scenario's line
    data = json.loads(_out(capsys, "llama-3-8b", "--tp", "1", "--gpus", "8", "--format", "json"))
    assert data["layout_advice"] == COPIES
    csv = _out(capsys, "llama-3-8b", "--tp", "1", "--gpus", "8", "--format", "csv")
    assert COPIES in csv
    # One copy over the GPUs (the table's layout) needs no advice; nor does one GPU.
    for flags in (("--gpus", "8"), ()):
        assert "copies" not in _out(capsys, "llama-3-8b", *flags)
        assert "layout_advice" not in json.loads(_out(capsys, "llama-3-8b", *flags, "--format", "json"))


def test_training_without_sharding_is_advised_zero(capsys: pytest.CaptureFixture[str]) -> None:
    table = _out(capsys, "llama-3-8b", "--mode", "training", "--gpus", "8", "--zero", "0")
    assert "8 data-parallel GPUs each hold the whole model and its training states (ZeRO-0)" in table
    assert "ZeRO-0" not in _out(capsys, "llama-3-8b", "--mode", "training", "--gpus", "8", "--zero", "3")


@pytest.mark.parametrize(
    "scenario",
    [
        Scenario(gpus=8, tp=1),
        Scenario(gpus=8, tp=2),
        Scenario(gpus=8, tp=8),
        Scenario(gpus=1),
        Scenario(mode="training", gpus=8, zero=0),
        Scenario(mode="training", gpus=8, zero=1),
    ],
)
def test_the_memory_tab_s_note_holds_the_command_line_s_advice(scenario: Scenario) -> None:
    arch = load_source("llama-3-8b")
    advice = layout_advice(arch, scenario, WINDOW_SIZES)
    note = layout_note(arch, scenario)
    assert advice in note and (note == advice or scenario.dp == 1)
    said = "8 GPUs: laid out as TP 8, as the GPU table does"
    assert layout_note(arch, scenario, said).startswith(said if scenario.gpus > 1 else "")
