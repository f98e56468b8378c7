"""Parameters transformers builds frozen (``requires_grad`` false): counted in the total and the
weights, but with no gradients or optimizer states in training memory. Which ones each published
config has is tests/golden/frozen_params.json (measured by tools/measure_frozen_params.py):
Marian's and Pegasus's sinusoidal position tables (``nn.Embedding(..., _freeze=True)``), Whisper's
encoder positions (``embed_positions.requires_grad_(False)``), ERNIE-4.5's router correction bias
(``Ernie4_5_MoeStatics``: ``nn.Parameter(zeros(1, E), requires_grad=False)``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.count.parameters import count_parameters
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.memory.estimate import estimate_memory, stage_terms
from paramtally.core.memory.scenario import Scenario
from paramtally.core.memory.stages import model_layout
from paramtally.core.schema import Architecture

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "tests" / "golden" / "frozen_params.json").read_text(encoding="utf-8"))
MEASURED = sorted(name for name in GOLDEN if not name.startswith("_"))
ERNIE = "hf_configs_v3/ernie-4.5-21b-a3b-pt"


def _imported(name: str) -> Architecture:
    data: dict[str, Any] = json.loads((ROOT / "tests" / "data" / f"{name}.json").read_text(encoding="utf-8"))
    return import_hf_config({**data, "architectures": [GOLDEN[name]["model_class"]]}, f"{name}.json")


@pytest.mark.parametrize("name", MEASURED)
def test_the_frozen_parameters_are_those_transformers_builds(name: str) -> None:
    report = count_parameters(_imported(name))
    golden = GOLDEN[name]
    assert (report.total, report.frozen) == (golden["total"], golden["frozen"])


def test_every_frozen_tensor_measured_is_a_frozen_term_of_its_stack_or_layer() -> None:
    """A position table is one term of its stack; a correction bias one term of each MoE layer."""
    for name in MEASURED:
        tensors = GOLDEN[name]["tensors"]
        tree = count_parameters(_imported(name)).tree
        frozen = [leaf for _, leaf in tree.leaves() if leaf.frozen]
        if name == ERNIE:
            assert all(tensor.endswith("moe_statics.e_score_correction_bias") for tensor in tensors)
            (bias,) = frozen  # one term, repeated over the MoE layers
            assert bias.name == "router correction bias (frozen)"
            assert (bias.value, bias.count, bias.unit_value) == (len(tensors) * 64, len(tensors), 64)
            continue
        assert all(tensor.endswith("embed_positions.weight") for tensor in tensors), name
        assert {leaf.name for leaf in frozen} == {"positions (frozen)"}
        measured = sorted(rows * width for rows, width in tensors.values())
        assert sorted(leaf.value for leaf in frozen) == measured


@pytest.mark.parametrize(("zero", "gpus", "pp"), [(0, 1, 1), (2, 4, 1), (1, 8, 4)])
def test_a_frozen_router_bias_trains_nothing_and_sits_with_its_layers(zero: int, gpus: int, pp: int) -> None:
    """ERNIE-4.5-21B-A3B: 27 MoE layers (1..27) of 64 biases, 1,728 in all (measured)."""
    arch = _imported(ERNIE)
    report = count_parameters(arch)
    assert report.frozen == GOLDEN[ERNIE]["frozen"] == 1_728
    s = Scenario(mode="training", zero=zero, gpus=gpus, pp=pp, context=512)
    memory = estimate_memory(arch, s)
    assert memory.trainable_params == report.total - 1_728
    stages = model_layout(arch, pp).stages
    # Layer 0 is dense: each stage holds 64 per MoE layer it has.
    assert [stage.frozen for stage in stages] == [64 * (stage.count - (stage.first == 0)) for stage in stages]
    if pp == 1:
        assert memory.gradients_bytes == 2 * (report.total - 1_728) // (gpus if zero >= 2 else 1)
        assert memory.weights_bytes == 2 * report.total
    trained = Architecture.model_validate(_without_correction_bias_freezing(arch))
    assert count_parameters(trained).frozen == 0
    assert count_parameters(trained).total == report.total  # the same numbers, now trained


def _without_correction_bias_freezing(arch: Architecture) -> dict[str, Any]:
    """The same model with its correction bias read as a trained router bias (in a block or a layer
    group's override, wherever the MoE is)."""

    def unfrozen(node: Any) -> Any:
        if isinstance(node, list):
            return [unfrozen(item) for item in node]
        if not isinstance(node, dict):
            return node
        changed = {key: unfrozen(value) for key, value in node.items()}
        if changed.get("correction_bias"):
            changed["correction_bias"], changed["router_bias"] = False, True
        return changed

    result: dict[str, Any] = unfrozen(arch.model_dump(mode="json"))
    return result


@pytest.mark.parametrize("name", ["hf_configs_v3/opus-mt-en-de", "hf_configs_v3/pegasus-large"])
@pytest.mark.parametrize(("zero", "gpus", "pp"), [(0, 1, 1), (3, 4, 1), (1, 4, 2)])
def test_training_keeps_no_gradient_or_state_for_a_frozen_table(
    name: str, zero: int, gpus: int, pp: int
) -> None:
    arch = _imported(name)
    report = count_parameters(arch)
    total, frozen = report.total, report.frozen
    s = Scenario(mode="training", zero=zero, gpus=gpus, pp=pp, context=512)
    memory = estimate_memory(arch, s)
    assert memory.trainable_params == total - frozen
    if pp == 1:  # one stage holds it all: the weights whole, the rest without the tables
        dp = gpus
        weights_share = dp if zero == 3 else 1
        assert memory.weights_bytes == 2 * total // weights_share
        assert memory.gradients_bytes == 2 * (total - frozen) // (dp if zero >= 2 else 1)
        assert memory.optimizer_bytes == 12 * (total - frozen) // (dp if zero >= 1 else 1)
    else:  # an encoder-decoder's tables sit with the stack inputs, on the last stage
        first, last = stage_terms(arch, s)
        held = [term for term in last if term.name.startswith("frozen parameters")]
        assert [term.values["F"] for term in held] == [frozen]
        assert not [term for term in first if term.name.startswith("frozen parameters")]
    inference = estimate_memory(arch, Scenario(context=512))
    assert inference.weights_bytes == 2 * total  # serving holds them as any weight


def test_without_frozen_positions_the_table_trains() -> None:
    arch = _imported("hf_configs_v3/opus-mt-en-de")
    data = arch.model_dump(mode="json")
    for role in ("encoder", "decoder"):
        data[role]["frozen_positions"] = False
    trained = Architecture.model_validate(data)
    s = Scenario(mode="training", context=512)
    frozen = count_parameters(arch).frozen
    assert frozen == 2 * 512 * 512 and count_parameters(trained).frozen == 0
    assert count_parameters(trained).total == count_parameters(arch).total
    difference = estimate_memory(trained, s).total_bytes - estimate_memory(arch, s).total_bytes
    assert difference == (2 + 12) * frozen  # bf16 gradients and AdamW's 12 bytes per parameter
