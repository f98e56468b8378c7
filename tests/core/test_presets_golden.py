"""Every built-in preset counts exactly as its real transformers model (tests/golden/presets.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paramtally.core.edit import without_biases
from paramtally.core.count import count_parameters
from paramtally.core.presets import builtin_ids, load_builtin

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "tests" / "golden" / "presets.json").read_text(encoding="utf-8"))

PRESET_IDS = (
    "gpt2 gpt2-medium gpt2-large gpt2-xl gpt3-175b opt-125m opt-350m opt-1.3b llama-2-7b llama-2-13b "
    "llama-2-70b llama-3-8b llama-3-70b llama-3.1-405b llama-3.2-1b mistral-7b-v0.1 mixtral-8x7b "
    "qwen2-0.5b qwen2-7b qwen2.5-7b qwen3-8b qwen1.5-moe-a2.7b qwen3-30b-a3b deepseek-v2-lite deepseek-v3 "
    "gemma-2b gemma-7b gemma-2-9b phi-2 phi-3-mini-4k falcon-7b bloom-560m gpt-neox-20b pythia-1b"
).split()


def test_every_listed_preset_is_built_in() -> None:
    assert set(PRESET_IDS) <= set(builtin_ids())


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_preset_counts_as_the_real_model(preset_id: str) -> None:
    report = count_parameters(load_builtin(preset_id))
    assert (report.total, report.active) == (GOLDEN[preset_id]["total"], GOLDEN[preset_id]["active"])


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_preset_has_a_display_name_and_source(preset_id: str) -> None:
    arch = load_builtin(preset_id)
    assert arch.name not in ("Untitled", preset_id)
    assert "config.json of" in arch.description or "Brown et al. 2020" in arch.description


def test_gpt3_worked_example() -> None:
    # REFERENCE.md: 175,221,817,344; without biases 175,211,200,512; one block without biases 1,811,988,480.
    arch = load_builtin("gpt3-175b")
    assert count_parameters(arch).total == 175_221_817_344
    bare = count_parameters(without_biases(arch))
    assert bare.total == 175_211_200_512
    (layers,) = [node for node in bare.tree.children if node.count == 96]
    assert layers.unit_params == 1_811_988_480
