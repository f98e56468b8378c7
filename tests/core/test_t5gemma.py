"""T5Gemma: each stack's layer, the two token tables and the tied head, the windows and what is
refused, against the tensors the real transformers 5.24 T5GemmaForConditionalGeneration holds
(``tests/data/param_names_v3.json``) and the randomized configs it measured
(``tests/golden/random_configs_v3.json``), both from ``python tools/measure_golden.py --v3``.
Whole-model totals are in test_families (published) and test_hf_import (random)."""

from __future__ import annotations

import json
from math import prod
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.blocks import Attention
from paramtally.core.count.parameters import block_node, count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.io.importers.checkpoint import Checkpoint, compare
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.memory.activations_hf import sdpa_refusal
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema import Architecture
from tests.core.test_minimax import saved

ROOT = Path(__file__).resolve().parents[2]
V3 = ROOT / "tests" / "data" / "hf_configs_v3"
NAMES = json.loads((ROOT / "tests" / "data" / "param_names_v3.json").read_text(encoding="utf-8"))
RANDOM = json.loads((ROOT / "tests" / "golden" / "random_configs_v3.json").read_text(encoding="utf-8"))
# Per-layer training bytes, measured (python tools/measure_t5gemma_activations.py).
ACTIVATIONS = json.loads((ROOT / "tests" / "golden" / "t5gemma_activations.json").read_text(encoding="utf-8"))
STEMS = ["t5gemma-s-s-prefixlm", "t5gemma-b-b-ul2", "t5gemma-2b-2b-prefixlm-it"]


def _config(stem: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((V3 / f"{stem}.json").read_text(encoding="utf-8"))
    return data


def _imported(stem: str) -> Architecture:
    return import_hf_config(_config(stem), f"{stem}.json")


def _measured_layer(stem: str, role: str) -> dict[str, list[int]]:
    """The one layer structure the module measured in a stack (its window shapes no tensor)."""
    (params,) = [
        item["params"]
        for item in NAMES[stem]["layer_structures"]
        if item["prefix"] == f"model.{role}.layers."
    ]
    return dict(params)


def _mixers(arch: Architecture, role: str) -> list[Attention]:
    """A stack's self-attention, layer by layer (a run may repeat a pattern of groups)."""
    by_layer = {
        start + i: run.block.mixer
        for run in arch.runs
        if run.stack == role
        for start in run.starts()
        for i in range(run.count)
    }
    return [by_layer[i] for i in sorted(by_layer)]  # type: ignore[misc]


@pytest.mark.parametrize("stem", STEMS)
@pytest.mark.parametrize("role", ["encoder", "decoder"])
def test_each_stack_s_layer_counts_as_measured(stem: str, role: str) -> None:
    """Four norms in an encoder layer, six with the decoder's cross-attention and its two."""
    arch = _imported(stem)
    params = _measured_layer(stem, role)
    norms = [name for name in params if name.endswith("layernorm.weight")]
    assert len(norms) == (4 if role == "encoder" else 6)
    for run in arch.runs:
        if run.stack == role:
            assert block_node(run.block, arch.hidden_size).value == sum(prod(s) for s in params.values())


@pytest.mark.parametrize("stem", STEMS)
def test_each_stack_keeps_its_own_token_table_and_the_head_is_the_decoder_s(stem: str) -> None:
    names = NAMES[stem]
    outside = names["outside_layers"]
    arch = _imported(stem)
    assert outside["model.encoder.embed_tokens.weight"] == [arch.embeddings.vocab_size, arch.hidden_size]
    assert outside["model.decoder.embed_tokens.weight"] == [
        arch.embeddings.decoder_vocab_size,
        arch.hidden_size,
    ]
    assert names["tied_aliases"] == {"lm_head.out_proj.weight": "model.decoder.embed_tokens.weight"}
    assert arch.head.tied


def test_untied_random_configs_keep_a_head_of_the_decoder_s_vocabulary() -> None:
    """tie_word_embeddings false at the top level: lm_head.out_proj is a table of its own (V_d·h),
    while the encoder's vocabulary may differ (drawn apart)."""
    entries = [e for e in RANDOM if e.get("model_type") == "t5gemma"]
    untied = [e for e in entries if e["config"].get("tie_word_embeddings") is False]
    assert untied and all(not e["tied"] for e in untied)
    assert any(e["config"]["encoder"]["vocab_size"] != e["config"]["decoder"]["vocab_size"] for e in untied)
    for entry in untied:
        arch = import_hf_config(entry["config"], entry["name"])
        assert not arch.head.tied and count_parameters(arch).total == entry["total"]


def test_layers_slide_as_layer_types_say_the_encoder_s_both_ways() -> None:
    """T5GemmaSelfAttention slides where layer_types says so: the decoder on the last w tokens, the
    encoder on w either side (sliding_window_bidirectional_overlay: |q − k| ≤ w); the cross-attention
    always sees the whole input."""
    data = _config("t5gemma-s-s-prefixlm")
    arch = _imported("t5gemma-s-s-prefixlm")
    w = data["decoder"]["sliding_window"]
    for role, window in (("encoder", 2 * data["encoder"]["sliding_window"] + 1), ("decoder", w)):
        said = [m.sliding_window for m in _mixers(arch, role)]
        types = data[role]["layer_types"]
        assert said == [window if kind == "sliding_attention" else None for kind in types]
    crosses = [run.block.cross_attention for run in arch.runs if run.stack == "decoder"]
    assert all(isinstance(cross, Attention) and cross.sliding_window is None for cross in crosses)


def test_without_layer_types_every_second_layer_is_global() -> None:
    """T5GemmaModuleConfig.__post_init__: sliding where (i + 1) % 2, else full."""
    data = _config("t5gemma-b-b-ul2")
    del data["encoder"]["layer_types"]
    arch = import_hf_config(data, "config.json")
    said = [m.sliding_window is None for m in _mixers(arch, "encoder")]
    assert said == [i % 2 == 1 for i in range(12)]
    assert count_parameters(arch).total == count_parameters(_imported("t5gemma-b-b-ul2")).total


def test_the_cross_attention_has_the_decoder_s_heads() -> None:
    """T5GemmaCrossAttention: the decoder's heads and KV heads; its keys and values read the
    encoder's width (cross_attention_hidden_size), here the same."""
    arch = _imported("t5gemma-2b-2b-prefixlm-it")
    params = _measured_layer("t5gemma-2b-2b-prefixlm-it", "decoder")
    cross = next(run.block.cross_attention for run in arch.runs if run.stack == "decoder")
    assert isinstance(cross, Attention)
    assert (cross.num_heads, cross.num_kv_heads) == (8, 4)
    assert params["cross_attn.k_proj.weight"] == [4 * 256, 2304]
    assert params["cross_attn.q_proj.weight"] == [8 * 256, 2304]


def test_an_encoder_and_a_decoder_of_two_widths_are_refused_in_one_line() -> None:
    """T5Gemma 9B-2B: an encoder of 3584 and a decoder of 2304 (two hidden sizes)."""
    data = _config("t5gemma-2b-2b-prefixlm-it")
    data["encoder"] = {**data["encoder"], "hidden_size": 3584}
    with pytest.raises(ParamTallyError) as refused:
        import_hf_config(data, "config.json")
    assert str(refused.value) == (
        "config.json: decoder.hidden_size (2304) differs from encoder.hidden_size (3584): an encoder "
        "and a decoder of two widths (T5Gemma 9B-2B) are not supported"
    )


def test_sdpa_is_refused_as_the_class_refuses_it() -> None:
    """T5GemmaPreTrainedModel: _supports_sdpa = False (SDPA has no logit soft-capping)."""
    said = sdpa_refusal(_imported("t5gemma-b-b-ul2"))
    assert said is not None and "T5GemmaForConditionalGeneration refuses SDPA" in said


def _grown(config: dict[str, Any], stack: str, layers: int) -> dict[str, Any]:
    """The measured config with ``layers`` layers in ``stack`` and one in the other."""
    out = {**config}
    for side in ("encoder", "decoder"):
        n = layers if side == stack else 1
        out[side] = {**config[side], "num_hidden_layers": n, "layer_types": config[side]["layer_types"][:n]}
    return out


@pytest.mark.parametrize("case", ACTIVATIONS["cases"], ids=[case["name"] for case in ACTIVATIONS["cases"]])
def test_per_layer_training_bytes_within_1_percent_of_the_measurement(case: dict[str, Any]) -> None:
    """hf-eager, bf16, s 256 on both sides, b 2: Gemma-2's quirks (fp32 (1 + w) norms, soft-capped
    scores) in an encoder layer and in a decoder layer with its cross-attention; a window inside s
    changes nothing eager keeps (it scores every key, then masks)."""
    scenario = Scenario(
        mode="training",
        context=case["seq"],
        encoder_tokens=case["seq"],
        batch=case["batch"],
        activations="hf-eager",
    )
    one, two = (
        estimate_memory(
            import_hf_config(_grown(case["config"], case["stack"], n), "c"), scenario
        ).activations_bytes
        for n in (1, 2)
    )
    assert abs((two - one) - case["per_layer"]) <= 0.01 * case["per_layer"]


@pytest.mark.parametrize("stem", STEMS)
def test_verify_finds_every_tensor_in_its_predicted_part(stem: str) -> None:
    """Both token tables under embeddings, the cross-attention apart, the head's tie not a tensor."""
    result = compare(Checkpoint(Path(stem), "safetensors", ("x",), tuple(saved(stem))), _imported(stem))
    assert result.matches and not result.unexplained
    assert not [row.part for row in result.parts if row.difference]
    assert {row.part for row in result.parts} >= {
        "embeddings",
        "attention",
        "cross_attention",
        "ffn",
        "norms",
    }
