"""RWKV-4 and the two kinds it brought (the ``rwkv`` time mix and the ``rwkv_channel_mix`` FFN): each
part equal to the tensors the real transformers 5.24 ``RwkvForCausalLM`` holds for a published
config.json (``tests/data/param_names_v3.json``, from ``python tools/measure_golden.py --v3``), and
the state a layer keeps per sequence, and one layer's activations for backward as PyTorch measured
them (``tests/golden/activations_rwkv.json``). Whole-model totals of the published and randomized configs
(widths set, null or left out, tied or not) are checked in test_families and test_hf_import."""

from __future__ import annotations

import json
from math import prod
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.blocks import Context, RWKVChannelMix, RWKVTimeMix
from paramtally.core.count.parameters import count_parameters
from paramtally.core.io.importers.checkpoint import Checkpoint, compare
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.importers.safetensors_header import TensorInfo
from paramtally.core.memory.activations_hf import sdpa_refusal
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema import Architecture
from tests.core.test_tensor_parts_v3 import GOLDEN, NAMES, saved_tensors

ROOT = Path(__file__).resolve().parents[2]
V3 = ROOT / "tests" / "data" / "hf_configs_v3"
STEMS = ["rwkv-4-169m-pile", "rwkv-4-430m-pile"]
# One layer's bytes kept for backward at three widths (python tools/measure_rwkv_activations.py).
ACTIVATIONS = json.loads((ROOT / "tests" / "golden" / "activations_rwkv.json").read_text(encoding="utf-8"))


def _config(stem: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((V3 / f"{stem}.json").read_text(encoding="utf-8"))
    return data


def _published(stem: str) -> Architecture:
    return import_hf_config(_config(stem), f"{stem}.json")


def _layer(stem: str, layers: str) -> dict[str, int]:
    """One measured layer's tensors (of the structure covering ``layers``) → their sizes."""
    (structure,) = [s for s in NAMES[stem]["layer_structures"] if s["layers"] == layers]
    return {name: prod(shape) for name, shape in structure["params"].items()}


def _sum(params: dict[str, int], prefix: str) -> int:
    return sum(n for name, n in params.items() if name.startswith(prefix))


@pytest.mark.parametrize("stem", STEMS)
def test_the_time_mix_and_the_channel_mix_are_what_the_module_holds(stem: str) -> None:
    arch = _published(stem)
    block = arch.blocks["default"]
    assert isinstance(block.mixer, RWKVTimeMix) and isinstance(block.ffn, RWKVChannelMix)
    ctx = Context(arch.hidden_size, "layernorm")
    params = _layer(stem, "1-11" if stem == "rwkv-4-169m-pile" else "1-23")
    assert sum(t.value for t in block.mixer.terms(ctx)) == _sum(params, "attention.")
    assert sum(t.value for t in block.ffn.terms(ctx)) == _sum(params, "feed_forward.")
    assert count_parameters(arch).total == GOLDEN[stem]["total"]


def test_layer_0_normalizes_the_embeddings_with_a_third_norm_of_its_own() -> None:
    """RwkvBlock builds pre_ln in layer 0 only: the first layer holds 2·h more than the others."""
    first, rest = _layer("rwkv-4-169m-pile", "0"), _layer("rwkv-4-169m-pile", "1-11")
    assert sum(first.values()) - sum(rest.values()) == _sum(first, "pre_ln.") == 2 * 768
    arch = _published("rwkv-4-169m-pile")
    norms = [run.block.norms.count for run in arch.runs for _ in range(run.count)]
    assert norms == [3] + [2] * 11
    assert not arch.decoder.embedding_norm and arch.decoder.final_norm and arch.decoder.positions == "none"
    assert not arch.head.tied
    one = import_hf_config({**_config("rwkv-4-169m-pile"), "num_hidden_layers": 1}, "c.json")
    assert [run.block.norms.count for run in one.runs] == [3]


def test_null_widths_are_the_hidden_size_and_four_times_it_as_the_config_derives() -> None:
    data = {**_config("rwkv-4-169m-pile"), "attention_hidden_size": None, "intermediate_size": None}
    block = import_hf_config(data, "c.json").blocks["default"]
    assert block.mixer.dims(Context(768)) == {"h": 768, "A": 768} and block.ffn.width == 4 * 768
    narrow = import_hf_config({**data, "attention_hidden_size": 512}, "c.json").blocks["default"].mixer
    # key, value and receptance 768 → 512, output 512 → 768, a decay and a bonus per channel of 512
    assert sum(t.value for t in narrow.terms(Context(768))) == 4 * 768 * 512 + 2 * 512 + 3 * 768


def test_a_layer_keeps_two_shifted_tokens_and_the_wkv_numerator_denominator_and_maximum() -> None:
    """RwkvModel's state: five vectors per layer (two token shifts, three WKV accumulators)."""
    mixer = RWKVTimeMix()
    assert mixer.cache(Context(768), 1).per_sequence == 5 * 768
    assert mixer.cache(Context(768), 2).per_sequence == 5 * 768 // 2
    assert mixer.cache(Context(768), 1).per_token == 0
    assert RWKVTimeMix(width=512).cache(Context(768), 1).per_sequence == 2 * 768 + 3 * 512
    assert mixer.tp_problem(Context(768), 5) is not None and mixer.tp_problem(Context(768), 4) is None


def test_rwkv_generates_with_a_state_per_sequence_and_no_kv_cache() -> None:
    arch = _published("rwkv-4-169m-pile")
    short = estimate_memory(arch, Scenario(context=1024, batch=1))
    long = estimate_memory(arch, Scenario(context=8192, batch=1))
    states = [term for term in short.terms if term.name.startswith("recurrent state")]
    assert states and states[0].value == 12 * 5 * 768 * 2  # 12 layers of 5·h numbers, bf16
    assert [t.value for t in long.terms if t.name.startswith("recurrent state")] == [states[0].value]
    assert not [term for term in short.terms if term.name.startswith("KV cache")]


def test_the_checkpoints_tensors_verify_against_the_prediction() -> None:
    tensors = tuple(
        TensorInfo(name, (n,), "F16", 2 * n, "model.safetensors", n)
        for name, n, _ in saved_tensors(NAMES["rwkv-4-169m-pile"])
    )
    checkpoint = Checkpoint(Path("rwkv"), "safetensors", ("model.safetensors",), tensors)
    result = compare(checkpoint, _published("rwkv-4-169m-pile"))
    assert result.matches and not result.unexplained
    assert all(row.difference == 0 for row in result.parts)


@pytest.mark.parametrize("case", ACTIVATIONS["cases"], ids=lambda case: case["name"])
def test_one_layers_hf_eager_activations_are_what_pytorch_keeps(case: dict[str, Any]) -> None:
    """Within 0.1 %: the measured layer keeps its LayerNorms' per-row statistics in bf16, a few bytes
    a token the norms' rule counts otherwise."""
    scenario = Scenario(mode="training", context=case["seq"], batch=case["batch"], activations="hf-eager")
    fewer, more = (
        estimate_memory(import_hf_config({**case["config"], "num_hidden_layers": n}, "c.json"), scenario)
        for n in case["layers"]
    )
    predicted = more.activations_bytes - fewer.activations_bytes
    assert predicted == pytest.approx(case["per_layer"], rel=1e-3)


def test_sdpa_is_refused_as_the_class_has_no_attention_for_it() -> None:
    said = sdpa_refusal(_published("rwkv-4-169m-pile"))
    assert "RwkvForCausalLM refuses SDPA" in (said or "")
