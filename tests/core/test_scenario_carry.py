"""The scenario another model takes over (issue 31, bug 3): with nothing typed it is exactly the one
the new model opens with, as a fresh window or ``paramtally memory MODEL`` have it; what was typed
goes on top of that, and only what the new model cannot take goes back."""

from __future__ import annotations

import pytest

from paramtally.core.editing.scenario_carry import carry_scenario
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.scenario import Scenario, opening_scenario

PAIRS = [
    ("gpt3-175b", "llama-3-8b"),
    ("llama-3-8b", "whisper-small"),
    ("whisper-small", "gpt2"),
    ("gpt2", "t5-base"),
]


@pytest.mark.parametrize(("old", "new"), PAIRS)
def test_nothing_typed_opens_as_the_new_model_does(old: str, new: str) -> None:
    before, after = load_builtin(old), load_builtin(new)
    carried = carry_scenario(opening_scenario(before), opening_scenario(before), after)
    assert carried.scenario == opening_scenario(after)
    assert carried.note == f"scenario: Context {opening_scenario(after).context:,} from the model"


@pytest.mark.parametrize(("old", "new"), PAIRS)
def test_what_was_typed_goes_on_top_of_the_new_models_opening(old: str, new: str) -> None:
    before, after = load_builtin(old), load_builtin(new)
    typed = {"mode": "training", "batch": 3, "dtype": "fp16", "gpus": 4, "optimizer": "sgd"}
    current = opening_scenario(before).model_copy(update=typed)
    carried = carry_scenario(current, opening_scenario(before), after)
    assert carried.scenario == opening_scenario(after).model_copy(update=typed)
    assert carried.note.startswith(
        "scenario: kept Mode training, Weight dtype fp16, Batch 3, Optimizer sgd, GPUs 4; Context"
    )


def test_a_typed_context_is_kept_and_a_pp_the_model_cannot_take_goes_back() -> None:
    current = Scenario(mode="training", context=8192, gpus=64, pp=64)
    carried = carry_scenario(current, opening_scenario(load_builtin("llama-3-8b")), load_builtin("gpt2"))
    assert carried.scenario == Scenario(mode="training", context=8192, gpus=64)
    assert carried.note == (
        "scenario: kept Mode training, Context 8,192, GPUs 64; "
        "Pipeline parallel 64 → 1 (GPT-2 cannot take it)"
    )
