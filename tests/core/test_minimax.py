"""MiniMax-01: lightning-attention layers (``lightning_attention``) and softmax layers as
``layer_types`` says, experts in every layer, against the tensors the real transformers 5.24
MiniMaxForCausalLM holds (``tests/data/param_names_v3.json``), from
``python tools/measure_golden.py --v3``. Whole-model totals and actives are in test_families
(published) and test_hf_import (random)."""

from __future__ import annotations

import json
from math import prod
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.blocks import Attention, Context, LightningAttention
from paramtally.core.count.parameters import block_node, count_parameters
from paramtally.core.editing import patterns
from paramtally.core.errors import ParamTallyError
from paramtally.core.io.importers.checkpoint import Checkpoint, compare
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.importers.safetensors_header import TensorInfo
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema import Architecture

ROOT = Path(__file__).resolve().parents[2]
V3 = ROOT / "tests" / "data" / "hf_configs_v3"
NAMES = json.loads((ROOT / "tests" / "data" / "param_names_v3.json").read_text(encoding="utf-8"))
GOLDEN = json.loads((ROOT / "tests" / "golden" / "families_v3.json").read_text(encoding="utf-8"))
# Per-layer training bytes, measured (python tools/measure_lightning_activations.py).
LIGHTNING = json.loads((ROOT / "tests" / "golden" / "lightning_activations.json").read_text(encoding="utf-8"))
STEM = "minimax-text-01-hf"


def _config(**changed: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((V3 / f"{STEM}.json").read_text(encoding="utf-8"))
    return {**data, **changed}


def _imported(**changed: Any) -> Architecture:
    return import_hf_config(_config(**changed), f"{STEM}.json")


def _indexes(ranges: str) -> list[int]:
    out: list[int] = []
    for span in ranges.split(","):
        first, _, last = span.partition("-")
        out += range(int(first), int(last or first) + 1)
    return out


def _mixers(arch: Architecture) -> dict[int, Any]:
    return {
        start + i: run.block.mixer for run in arch.runs for start in run.starts() for i in range(run.count)
    }


def test_layers_are_softmax_where_layer_types_say_and_lightning_elsewhere() -> None:
    """MiniMax-Text-01: a softmax layer every eighth (attn_type_list's 1s, as layer_types)."""
    arch = _imported()
    mixers = _mixers(arch)
    full = [i for i in sorted(mixers) if isinstance(mixers[i], Attention)]
    assert full == [i for i, kind in enumerate(_config()["layer_types"]) if kind == "full_attention"]
    assert full == list(range(7, 80, 8))
    assert all(isinstance(mixers[i], LightningAttention) for i in sorted(mixers) if i not in full)


def test_each_layer_kind_counts_as_measured() -> None:
    """A lightning layer: qkv_proj 3·a·d·h, output_gate and out_proj a·d·h each, its norm a·d (a 64,
    d 128: a·d 8192 ≠ h 6144); a softmax layer: GQA q/k/v/o; both with 32 experts and the router."""
    arch = _imported()
    mixers = _mixers(arch)
    for item in NAMES[STEM]["layer_structures"]:
        measured = sum(prod(shape) for shape in item["params"].values())
        layers = _indexes(item["layers"])
        lightning = "self_attn.qkv_proj.weight" in item["params"]
        assert all(isinstance(mixers[i], LightningAttention) == lightning for i in layers)
        (run,) = [
            run for run in arch.runs if layers[0] in {s + i for s in run.starts() for i in range(run.count)}
        ]
        assert block_node(run.block, arch.hidden_size).value == measured
    one = LightningAttention(num_heads=64, head_dim=128)
    assert sum(t.value for t in one.terms(Context(6144, "rmsnorm"))) == 5 * 8192 * 6144 + 8192


def test_active_without_embeddings_is_the_published_45_9b() -> None:
    """456B total, 45.9B active (MiniMax-01's report: the active count leaves out the V·h token
    table and the untied head)."""
    report = count_parameters(_imported())
    assert (report.total, report.active) == (GOLDEN[STEM]["total"], GOLDEN[STEM]["active"])
    assert report.active - 2 * 200064 * 6144 == 45_944_920_064


def test_a_lightning_layer_keeps_a_d_by_d_state_per_head_and_no_kv() -> None:
    arch = _imported()
    lightning = _mixers(arch)[0]
    assert isinstance(lightning, LightningAttention)
    ctx = Context(arch.hidden_size, "rmsnorm")
    assert lightning.cache(ctx, 1).per_sequence == 64 * 128 * 128
    assert lightning.cache(ctx, 8).per_sequence == 64 * 128 * 128 // 8
    assert lightning.context_width(ctx) == 0
    assert lightning.tp_problem(ctx, 3) is not None and lightning.tp_problem(ctx, 8) is None


def test_without_layer_types_the_layers_alternate_from_a_softmax_one() -> None:
    """MiniMaxConfig.__post_init__: full_attention where (i + 1) % 2, else linear_attention."""
    data = _config(num_hidden_layers=4)
    del data["layer_types"]
    mixers = _mixers(import_hf_config(data, "config.json"))
    assert [isinstance(mixers[i], Attention) for i in range(4)] == [True, False, True, False]


def test_the_older_attn_type_list_is_refused_in_one_line() -> None:
    """5.24's MiniMaxConfig has no attn_type_list: it would build the alternation, not the checkpoint."""
    data = _config(attn_type_list=[0] * 7 + [1])
    del data["layer_types"]
    with pytest.raises(ParamTallyError) as refused:
        import_hf_config({**data, "num_hidden_layers": 8}, "config.json")
    assert str(refused.value) == (
        "config.json: attn_type_list is not read by transformers 5.24 (MiniMaxConfig), which then "
        "alternates lightning and softmax layers; write the layers as layer_types"
    )


def saved(stem: str) -> list[TensorInfo]:
    """The tensors a checkpoint of ``stem`` saves, as the built module names them (persistent
    buffers too: MiniMax's decay tables)."""
    entry = NAMES[stem]
    tensors: list[TensorInfo] = []

    def add(name: str, value: Any) -> None:
        if isinstance(value, dict):
            if value["buffer"] != "persistent":
                return
            value = value["shape"]
        size = prod(value)
        tensors.append(TensorInfo(name, tuple(value), "F32", 4 * size, "x", size))

    for name, value in entry["outside_layers"].items():
        add(name, value)
    for structure in entry["layer_structures"]:
        for index in _indexes(structure["layers"]):
            for name, value in {**structure["params"], **structure.get("buffers", {})}.items():
                add(f"{structure['prefix']}{index}.{name}", value)
    return tensors


def test_verify_finds_every_tensor_in_its_predicted_part() -> None:
    """The lightning layers' tensors are named as attention's (self_attn.qkv_proj, out_proj), and
    their output norm as well as their decay tables are told apart (attention, buffers)."""
    result = compare(Checkpoint(Path(STEM), "safetensors", ("x",), tuple(saved(STEM))), _imported())
    assert result.matches and not result.unexplained
    assert not [row.part for row in result.parts if row.difference]


def test_the_pattern_language_names_lightning_layers() -> None:
    """MiniMax-Text-01's layout typed as a pattern: seven lightning layers, then softmax, ten times."""
    pattern = patterns.parse("[lightning ×7, attention] × 10")
    assert [spec.mixer for spec in pattern.period] == ["lightning_attention"] * 7 + ["attention"]
    assert pattern.layers(0) == 80


@pytest.mark.parametrize("case", LIGHTNING["cases"], ids=[case["name"] for case in LIGHTNING["cases"]])
def test_per_layer_training_bytes_within_1_percent_of_the_measurement(case: dict[str, Any]) -> None:
    """hf-eager, bf16, s 256, b 2 (tools/measure_lightning_activations.py): lightning layers of two
    block sizes and of a·d ≠ h, and the softmax layer beside them, each with MiniMax's MoE."""
    config = case["config"]
    scenario = Scenario(mode="training", context=case["seq"], batch=case["batch"], activations="hf-eager")
    one, two = (
        estimate_memory(
            import_hf_config(
                {**config, "num_hidden_layers": n, "layer_types": config["layer_types"][:n]}, "c"
            ),
            scenario,
        ).activations_bytes
        for n in (1, 2)
    )
    assert abs((two - one) - case["per_layer"]) <= 0.01 * case["per_layer"]
