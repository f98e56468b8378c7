"""Absurd values: strict types, bounded sizes, finite totals, and costs that follow the groups.

Every size in the schema is at most ``MAX_SIZE`` (2²⁴), a group at most ``MAX_LAYERS`` (2³⁰)
layers and a stack at most ``MAX_LAYER_GROUPS`` groups; the worst architecture and scenario those
bounds allow must still
give finite figures that every formatter prints. Paths that do not print per-layer rows must
cost the same for 10⁹ layers as for 10.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paramtally.core.blocks.base import MAX_SIZE
from paramtally.core.cli import main
from paramtally.core.count.breakdown import LayerGroupRow, human
from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing.document import Document
from paramtally.core.errors import ParamTallyWarning
from paramtally.core.io.importers.differing_layers import differing_layers
from paramtally.core.io.presets import dump_preset, load_builtin
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.fit import fit_setups
from paramtally.core.memory.flops import estimate_flops
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema import Architecture
from paramtally.core.schema.stack import MAX_LAYER_GROUPS, MAX_LAYERS
from paramtally.gui.views.format import scientific, share_text
from tests.hostile.support import probe
from tests.hypothesis_budget import examples

GPT2 = json.loads(dump_preset(load_builtin("gpt2")))
MIXER = "blocks.default.mixer"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_line_refusal(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, _, err = _run(capsys, *argv)
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err.strip()


def _with(data: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    copy = json.loads(json.dumps(data))
    *parents, last = path.split(".")
    node = copy
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    node[int(last) if last.isdigit() else last] = value
    return copy


# --- strict types: no bool or string taken for a size -------------------------------------------------


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (f"{MIXER}.num_kv_heads", True, "mixer.num_kv_heads: must be a whole number"),
        ("hidden_size", "4096", "hidden_size: must be a whole number"),
        ("hidden_size", 768.0, "hidden_size: must be a whole number"),
        (f"{MIXER}.qk_norm", "no", "mixer.qk_norm: must be true or false"),
        ("head.tied", 1, "head.tied: must be true or false"),
        ("embeddings.vocab_size", 10**20, "embeddings.vocab_size: must be at most 16,777,216"),
        ("decoder.layers.0.count", MAX_LAYERS + 1, "decoder.layers.0.count: must be at most 1,073,741,824"),
        ("decoder.layers.0.count", "12", "decoder.layers.0.count: must be a whole number"),
        (
            "decoder.layers",
            [{"count": 1}] * (MAX_LAYER_GROUPS + 1),
            f"decoder.layers: takes at most {MAX_LAYER_GROUPS} entries",
        ),
        (
            "decoder.layers",
            [{"count": 1, "override": {"mixer": {"num_heads": True}}}],
            "decoder.layers.0.override.mixer.num_heads: must be a whole number",
        ),
    ],
)
def test_preset_values_are_taken_strictly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], path: str, value: Any, message: str
) -> None:
    preset = tmp_path / "odd.json"
    preset.write_text(json.dumps(_with(GPT2, path, value)), encoding="utf-8")
    assert message in _one_line_refusal(capsys, "count", str(preset))


def test_a_305_digit_vocabulary_is_refused_at_the_json_level(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    preset = tmp_path / "odd.json"
    preset.write_text(json.dumps(GPT2).replace('"vocab_size": 50257', '"vocab_size": ' + "9" * 305))
    assert "vocab_size: an integer of 305 digits (at most 30)" in _one_line_refusal(
        capsys, "count", str(preset)
    )


LLAMA = {"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4, "num_hidden_layers": 2}


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({**LLAMA, "hidden_size": 1e30}, "hidden_size is 1e+30, too large for a float to hold exactly"),
        ({**LLAMA, "hidden_size": 1e300}, "hidden_size is 1e+300"),
        ({**LLAMA, "model_type": ["llama"]}, "model_type ['llama'] is not supported"),
        ({**LLAMA, "model_type": {"a": 1}}, "model_type {'a': 1} is not supported"),
        ({"model_type": "bert", "architectures": [{"a": 1}]}, "architectures names [{'a': 1}]"),
        ({"model_type": "phi3", "partial_rotary_factor": "0.4"}, "partial_rotary_factor must be a number"),
        ({"model_type": "phi3", "partial_rotary_factor": [0.4]}, "partial_rotary_factor must be a number"),
        ({"model_type": "gpt_neox", "rotary_pct": "x"}, "rotary_pct must be a number"),
        ({**LLAMA, "vocab_size": 2**60}, "vocab_size: must be at most 16,777,216"),  # the file's key
        (
            {"model_type": "qwen2_moe", "num_hidden_layers": 10**9, "decoder_sparse_step": 10**9},
            "a layer rule repeating every 1,000,000,000 layers would be written out for 1,000,000,000",
        ),
        (
            {"model_type": "qwen2_moe", "num_hidden_layers": 10**9, "mlp_only_layers": [*range(0, 4000, 2)]},
            "decoder.layers: takes at most 1000 entries",
        ),
        (
            {"model_type": "gemma3_text", "num_hidden_layers": 10**6, "layer_types": ["x"]},
            "layer_types[0] is 'x', not a layer type transformers knows",
        ),
        (
            {"model_type": "gemma3_text", "num_hidden_layers": 10**6, "layer_types": ["full_attention"]},
            "layer_types lists 1 layers, num_hidden_layers says 1,000,000",
        ),
    ],
)
def test_hugging_face_oddities_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], config: dict[str, Any], message: str
) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    line = _one_line_refusal(capsys, "count", str(path))
    assert line.startswith(f"paramtally count: {path}: ") and message in line


def test_a_float_that_is_exactly_whole_is_still_read(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    totals = []
    for width in (64.0, 64):
        path = tmp_path / "config.json"
        path.write_text(json.dumps({**LLAMA, "hidden_size": width}), encoding="utf-8")
        code, out, err = _run(capsys, "count", str(path), "--format", "json")
        assert code == 0, err
        totals.append(json.loads(out)["total"])
    assert totals[0] == totals[1]


# --- the worst the bounds allow: every figure finite, every formatter exact ---------------------------

M = MAX_SIZE


def _worst(groups: int) -> Architecture:
    """Every size at its bound, every bias and norm on, in each kind of block (MoE FFNs)."""
    moe = {
        "kind": "moe", "num_experts": M, "top_k": M, "expert_width": M, "shared_experts": M,
        "shared_expert_width": M, "shared_expert_gate": True, "router_bias": True, "expert_bias": True,
    }  # fmt: skip
    extras = {
        "norms": {"kind": "layernorm", "count": M},
        "adapter": {"width": M},
        "lora": {"rank": M, "targets": ["q", "k", "v", "o", "gate", "up", "down"]},
    }
    mixers: dict[str, dict[str, Any]] = {
        "attention": {
            "kind": "attention", "num_heads": M, "num_kv_heads": M, "head_dim": M, "q_bias": True,
            "k_bias": True, "v_bias": True, "o_bias": True, "qk_norm": True, "sliding_window": M,
            "sinks": True, "output_gate": True, "relative_buckets": M, "global_projections": True,
        },
        "mla": {
            "kind": "mla", "num_heads": M, "q_lora_rank": M, "kv_lora_rank": M, "qk_rope_head_dim": M,
            "qk_nope_head_dim": M, "v_head_dim": M, "q_bias": True, "kv_bias": True, "o_bias": True,
        },
        "mamba2": {
            "kind": "mamba2", "inner": M, "num_heads": M, "groups": M, "state": M, "conv_kernel": M,
            "in_proj_bias": True, "out_proj_bias": True,
        },
    }  # fmt: skip
    blocks = {name: {"mixer": mixer, "ffn": moe, **extras} for name, mixer in mixers.items()}
    names = list(blocks)
    return Architecture.model_validate(
        {
            "hidden_size": M,
            "embeddings": {"vocab_size": M, "embed_dim": M - 1, "token_types": M, "patch_inputs": M},
            "blocks": {"default": blocks["attention"], **blocks},
            "decoder": {
                "layers": [{"count": MAX_LAYERS, "block": names[i % len(names)]} for i in range(groups)],
                "positions": "learned",
                "max_positions": M,
                "position_offset": M,
                "embedding_norm": True,
            },
            "head": {"bias": True, "decoder_bias": True, "transform": True, "pooler": True},
            "added_vocab": M,
        }
    )


WORST_SCENARIOS = (
    Scenario(context=10**8, batch=10**6, kv_dtype="fp32", dtype="fp32"),
    Scenario(
        mode="training",
        context=10**8,
        batch=10**6,
        tokens=10**18,
        gpus=1024,
        pp=1024,
        dtype="fp32",
        grad_dtype="fp32",
        lora_rank=65536,
        flash_attention=False,
    ),
    Scenario(mode="training", context=10**8, batch=10**6, dtype="fp32", flash_attention=False),
)


def _assert_printable(value: int | float) -> None:
    assert math.isfinite(float(value))
    assert human(value) and scientific(value)


@pytest.mark.parametrize("groups", [1, MAX_LAYER_GROUPS])
def test_worst_case_figures_stay_finite(groups: int) -> None:
    arch = _worst(groups)
    report = count_parameters(arch)
    for value in (report.total, report.active, report.added, *report.by_part.values()):
        _assert_printable(value)
    for scenario in WORST_SCENARIOS:
        memory = estimate_memory(arch, scenario)
        flops = estimate_flops(arch, scenario)
        for value in (*memory.by_part().values(), memory.total_bytes, flops.run_flops, flops.seconds):
            _assert_printable(value)
        for term in (*memory.terms, *flops.terms):
            assert term.formula
        if groups == 1:  # fit tries ~100 layouts: once is enough to show it stays finite
            for setup in fit_setups(arch, scenario):
                _assert_printable(setup.per_gpu_bytes)
                for speed in (setup.prefill_seconds, setup.decode_tokens_per_second):
                    assert speed is None or math.isfinite(speed)
    assert share_text(report.by_part["embeddings"], report.total)


def test_human_is_exact_for_any_int_and_unchanged_below_two_to_the_53() -> None:
    assert human(175_221_817_344) == "175.22B"
    assert human(10**305) == f"{10**293:,}.00T"  # 10³⁰⁵ / 10¹² = 10²⁹³, exactly, in digit groups
    assert human(-(10**400) - 5 * 10**9) == f"-{10**388:,}.01T"  # 0.005 rounds up
    assert human(215_314_020_000_000_000) == "215,314.02T"
    assert scientific(10**400) == "1.00 × 10⁴⁰⁰"
    for value in (999, 1_000, 2**53 - 1, 123_456_789_012_345):
        assert human(value) == human(float(value))


# --- O(groups): the same answers as layer by layer, without walking the layers ------------------------


def _run_rows(plan: list[tuple[int, list[int]]]) -> tuple[LayerGroupRow, ...]:
    """Runs of a stack: each entry is (repeats, counts of one repetition's runs); params = run number."""
    rows: list[LayerGroupRow] = []
    start = 0
    for group, (repeats, counts) in enumerate(plan):
        period, offset = sum(counts), 0
        for count in counts:
            number = len(rows) + 1
            rows.append(LayerGroupRow("decoder", group, start + offset, count, repeats, period, "attention",
                                      "dense", number, number, {}))  # fmt: skip
            offset += count
        start += repeats * period
    return tuple(rows)


@settings(max_examples=examples(300), deadline=None)
@given(
    plan=st.lists(
        st.tuples(st.integers(1, 5), st.lists(st.integers(1, 4), min_size=1, max_size=3)),
        min_size=1,
        max_size=4,
    ),
    stored=st.dictionaries(st.integers(0, 90), st.integers(0, 8), max_size=40),
)
def test_differing_layers_match_the_layer_by_layer_rows(
    plan: list[tuple[int, list[int]]], stored: dict[int, int]
) -> None:
    runs = _run_rows(plan)
    per_layer = {i: run.params for run in runs for i in run.layer_indices()}
    by_layer = {("decoder", i): n for i, n in stored.items() if i in per_layer}
    rows = differing_layers(runs, by_layer, lambda stack, label: label)
    expected = {
        i: (p, stored.get(i, 0)) for i, p in per_layer.items() if by_layer.get(("decoder", i), 0) != p
    }
    expanded: dict[int, tuple[int, int]] = {}
    firsts = []
    for label, predicted, actual in rows:
        covered = _layers_of(label, per_layer, by_layer)
        assert covered and not set(covered) & set(expanded)
        firsts.append(covered[0])
        for i in covered:
            expanded[i] = (predicted // len(covered), actual // len(covered))
    assert expanded == expected
    assert firsts == sorted(firsts)


def _layers_of(label: str, per_layer: dict[int, int], by_layer: dict[tuple[str, int], int]) -> list[int]:
    """The layers a row's label names: one, a span, or a run's absent layers between two."""
    words = label.replace(",", "").split()
    if words[0] == "layer":
        return [int(words[1])]
    if words[0] == "layers":
        first, last = map(int, words[1].split("–"))
        return list(range(first, last + 1))
    count, first, last = int(words[0]), int(words[3]), int(words[5])
    run = per_layer[first]
    covered = [i for i in range(first, last + 1) if per_layer[i] == run and ("decoder", i) not in by_layer]
    assert len(covered) == count
    return covered


def test_absent_layers_of_a_billion_layer_pattern_are_one_row_per_run() -> None:
    runs = _run_rows([(10**9 // 3, [1, 2])])
    rows = differing_layers(runs, {("decoder", 0): 1, ("decoder", 1): 2, ("decoder", 2): 2}, lambda s, t: t)
    assert rows == [
        ("333,333,332 layers from 3 to 999999996", 333_333_332 * 1, 0),
        ("666,666,664 layers from 4 to 999999998", 666_666_664 * 2, 0),
    ]


# --- bounded time and memory for 10⁹ layers (the issue: 41 s and 1.2 GB, or MemoryError) ---------------


def _config(tmp_path: Path, **keys: Any) -> str:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(keys), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    "config",
    [
        {**LLAMA, "num_hidden_layers": 10**9},
        {**LLAMA, "num_hidden_layers": 10**9, "num_key_value_heads": 2, "model_type": "mistral"},
        {"model_type": "deepseek_v3", "num_hidden_layers": 10**9},
        {"model_type": "qwen2_moe", "num_hidden_layers": 10**9, "mlp_only_layers": [0, 5, 999_999_999]},
        {"model_type": "jamba", "num_hidden_layers": 10**9},
        {"model_type": "gemma3_text", "num_hidden_layers": 10**9},
    ],
    ids=["llama", "mistral-window", "deepseek", "qwen2-moe", "jamba-pattern", "gemma3-pattern"],
)
@pytest.mark.parametrize(
    "command",
    [
        ["memory", "--format", "json"],
        ["memory", "--mode", "training", "--gpus", "1024", "--pp", "1024", "--format", "json"],
        ["count"],
    ],
    ids=["memory", "training-pp1024", "count"],
)
def test_a_billion_layers_cost_what_ten_do(
    tmp_path: Path, config: dict[str, Any], command: list[str]
) -> None:
    outcome = probe(command[0], _config(tmp_path, **config), *command[1:])
    assert outcome.code == 0, outcome.stderr
    assert not outcome.escaped
    outcome.assert_cheap()
    outcome.assert_bounded(tmp_path)


@pytest.mark.parametrize(
    "output", [["--layers"], ["--format", "json", "--layers"], ["--layers", "--format", "csv"]]
)
def test_per_layer_tables_of_a_billion_layers_are_refused_in_one_line_naming_the_file(
    tmp_path: Path, output: list[str]
) -> None:
    source = _config(tmp_path, **{**LLAMA, "num_hidden_layers": 10**9})
    outcome = probe("count", source, *output)
    outcome.assert_refused(
        tmp_path, words=f"{source}: the per-layer table would have 1,000,000,000 rows (at most 10,000)"
    )


def test_counts_json_of_a_billion_layers_holds_its_run_not_a_row_per_layer(tmp_path: Path) -> None:
    """Issue 30: 'count --format json' refused, naming a per-layer table nobody asked for."""
    outcome = probe("count", _config(tmp_path, **{**LLAMA, "num_hidden_layers": 10**9}), "--format", "json")
    assert outcome.code == 0, outcome.stderr
    data = json.loads(outcome.stdout)
    assert "layers" not in data
    assert [(row["start"], row["count"], row["layers"]) for row in data["groups"]] == [(0, 10**9, 10**9)]
    in_layers = sum(row["params"] * row["layers"] for row in data["groups"])
    assert data["total"] - in_layers == 2 * 32_000 * 64 + 64  # embedding, untied head, final norm


@pytest.mark.parametrize(
    ("field", "value"), [("batch", True), ("tp", "8"), ("mfu", "0.4"), ("context", 4096.0)]
)
def test_a_saved_scenario_is_taken_strictly_too(field: str, value: Any) -> None:
    document = Document(load_builtin("gpt2"), "odd.json", scenario={field: value})
    with pytest.warns(
        ParamTallyWarning, match=rf"the saved scenario was skipped \(scenario\.{field}: must be"
    ):
        assert document.scenario == Scenario(context=1024)  # the one GPT-2 opens with


@pytest.mark.parametrize("quant", ["q4_k_m", "q4_0", "iq4_xs"])
def test_gguf_formats_of_a_billion_layers_are_refused_in_one_line(tmp_path: Path, quant: str) -> None:
    """llama.cpp types some tensors by their layer's index: that sum is bounded, not run 10⁹ times."""
    outcome = probe("memory", _config(tmp_path, **{**LLAMA, "num_hidden_layers": 10**9}), "--quant", quant)
    outcome.assert_refused(tmp_path, words="at most 65,536 layers, this model has 1,000,000,000")
