"""JetMoE's attention experts in a decode step: a token runs the q and o of k of E attention experts
(``JetMoeMoA.map``/``reduce``), so a step of b tokens reads them as it reads the MLP's routed
experts, 1 − (1 − k/E)^b of them, not all E (tools/measure_jetmoe_decode_reads.py counted the
experts a real step runs: tests/golden/jetmoe_decode_reads.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.count.parameters import count_parameters
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.decode_weight_reads import stage_reads
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.scenario import Scenario
from paramtally.core.memory.serving import estimate_serving

ROOT = Path(__file__).resolve().parents[2]
MEASURED = json.loads((ROOT / "tests" / "golden" / "jetmoe_decode_reads.json").read_text(encoding="utf-8"))


def test_a_step_runs_k_attention_experts_a_token_as_measured() -> None:
    """One token runs exactly k of the E attention experts in every layer; a batch runs them as it
    runs the MLP's experts, near E·(1 − (1 − k/E)^b) (uniform routing) and all E at b = 64."""
    E, k = MEASURED["config"]["num_local_experts"], MEASURED["config"]["num_experts_per_tok"]
    one = MEASURED["batches"]["1"]
    assert one["attention"] == {"min": k, "max": k, "mean": k} == one["mlp"]
    assert MEASURED["batches"]["64"]["attention"]["min"] == E
    for batch, entry in MEASURED["batches"].items():
        assert entry["uniform_bound"] == pytest.approx(E * (1 - (1 - k / E) ** int(batch)))
        assert entry["attention"]["max"] < E or int(batch) >= 4  # not every expert is read at small b
        assert entry["attention"]["mean"] == pytest.approx(entry["uniform_bound"], rel=0.05)


def _measured_model() -> Any:
    return import_hf_config(dict(MEASURED["config"]), "jetmoe-tiny.json")


@pytest.mark.parametrize("batch", [1, 4, 64])
def test_the_measured_tiny_models_step_reads_its_picked_attention_experts(batch: int) -> None:
    arch = _measured_model()
    c = MEASURED["config"]
    h, L, E, k = c["hidden_size"], c["num_hidden_layers"], c["num_local_experts"], c["num_experts_per_tok"]
    g, d_h, f, V = c["num_key_value_heads"], c["kv_channels"], c["intermediate_size"], c["vocab_size"]
    (read,) = stage_reads(arch, 1, batch)
    unread = (1 - k / E) ** batch  # an expert no token of the batch picks
    # Outside the MLP's experts: the tied embedding (read as the head), per layer the two routers,
    # kv_proj, the E attention experts' q and o, the two output biases' attention one, two RMSNorms;
    # the final norm.
    held = V * h + L * (h * E + 2 * h * g * d_h + E * 2 * h * g * d_h + h + h * E + 2 * h) + h
    assert read.held == held
    assert read.streamed == round(held - L * E * 2 * h * g * d_h * unread)
    assert read.experts == L * (E * 3 * h * f + h)  # the MLP's experts and their output bias
    assert read.experts_read == round(L * (E * 3 * h * f + h) - L * E * 3 * h * f * unread)
    if batch == 1:  # one token reads the active parameters
        assert read.streamed + read.experts_read == count_parameters(arch).active


@pytest.mark.parametrize("batch", [1, 64])
def test_jetmoe_8bs_decode_reads_from_its_config(batch: int) -> None:
    """JetMoE-8B (h 2048, 24 layers, 8 experts of each kind, 2 a token, 16 KV heads of 128, MLP
    experts of 5632, vocabulary 32000, tied): at b = 1 a step streams 2,331,445,248 parameters, its
    active ones, not 3,539,367,936 (every attention expert read, as it was counted before)."""
    jetmoe = load_builtin("jetmoe-8b")
    (read,) = stage_reads(jetmoe, 1, batch)
    unread = (1 - 2 / 8) ** batch
    attention_experts = 24 * 8 * (2 * 2048 * 16 * 128)  # E·(q h·g·d_h + o g·d_h·h) a layer
    mlp_experts = 24 * 8 * (3 * 2048 * 5632)  # E·(input_linear h·2f + output_linear f·h)
    held = 32000 * 2048 + 24 * (2048 * 8 + 2 * 2048 * 16 * 128 + 2048 + 2048 * 8 + 2 * 2048) + 2048
    held += attention_experts
    assert (read.held, read.experts) == (held, mlp_experts + 24 * 2048)
    assert read.streamed == round(held - attention_experts * unread)
    assert read.experts_read == round(mlp_experts + 24 * 2048 - mlp_experts * unread)
    if batch == 1:
        assert read.streamed + read.experts_read == 2_331_445_248 == count_parameters(jetmoe).active
    else:  # 64 tokens leave (3/4)^64 of the experts unread, a ten-millionth
        assert held - read.streamed == round(attention_experts * (1 - 2 / 8) ** 64)


def test_jetmoe_8bs_step_streams_its_active_weights_at_batch_one() -> None:
    """The serving figure W·(S + Y)/(P + X): at b = 1, the share of the weights that are active."""
    jetmoe = load_builtin("jetmoe-8b")
    s = Scenario(context=4096, batch=1)
    report = estimate_serving(jetmoe, s)
    assert report is not None
    streamed = next(term for term in report.terms if term.name.startswith("weights streamed"))
    weights = estimate_memory(jetmoe, s).weights_bytes
    assert streamed.expr == "W·(S + Y)/(P + X)"
    assert streamed.value == pytest.approx(weights * 2_331_445_248 / 8_522_237_952, rel=1e-12)
