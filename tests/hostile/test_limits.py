"""Absurd values: strict types, bounded sizes, finite totals, and costs that follow the groups.

Every size in the schema is at most ``MAX_SIZE`` (2⁵³ − 1) and the stack at most
``MAX_LAYER_GROUPS`` groups; the worst architecture and scenario those bounds allow must still
give finite figures that every formatter prints. Paths that do not print per-layer rows must
cost the same for 10⁹ layers as for 10.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paramtally.core.breakdown import LayerGroupRow, human
from paramtally.core.cli import main
from paramtally.core.fit import fit_setups
from paramtally.core.flops import estimate_flops
from paramtally.core.importers.checkpoint import PartRow, _differing_layers
from paramtally.core.importers.hf_llama import moe_groups, sparse_runs
from paramtally.core.importers.hf_reader import HFConfig
from paramtally.core.memory import estimate_memory
from paramtally.core.params import count_parameters
from paramtally.core.presets import dump_preset, load_builtin
from paramtally.core.scenario import Scenario
from paramtally.core.schema import MAX_LAYER_GROUPS, MAX_SIZE, Architecture
from paramtally.core.stages import window_layers
from paramtally.gui.views.format import scientific, share_text
from tests.hostile.support import probe

GPT2 = json.loads(dump_preset(load_builtin("gpt2")))


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
        ("attention.num_kv_heads", True, "attention.num_kv_heads: Input should be a valid integer"),
        ("hidden_size", "4096", "hidden_size: Input should be a valid integer"),
        ("hidden_size", 768.0, "hidden_size: Input should be a valid integer"),
        ("attention.qk_norm", "no", "attention.qk_norm: Input should be a valid boolean"),
        ("head.tied", 1, "head.tied: Input should be a valid boolean"),
        ("embeddings.vocab_size", 10**20, "embeddings.vocab_size: Input should be less than or equal to"),
        ("layers.0.count", MAX_SIZE + 1, "layers.0.count: Input should be less than or equal to"),
        (
            "layers",
            [{"count": 1}] * (MAX_LAYER_GROUPS + 1),
            f"layers: Tuple should have at most {MAX_LAYER_GROUPS}",
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
        ({**LLAMA, "vocab_size": 2**60}, "embeddings.vocab_size: Input should be less than or equal to"),
        (
            {"model_type": "qwen2_moe", "num_hidden_layers": 10**9, "decoder_sparse_step": 2},
            "decoder_sparse_step (2) over 1,000,000,000 layers makes 1,000,000,001 layer groups",
        ),
    ],
)
def test_hugging_face_oddities_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], config: dict[str, Any], message: str
) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    line = _one_line_refusal(capsys, "count", str(path))
    assert line.startswith("paramtally count: config.json: ") and message in line


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


def _worst(kind: str, groups: int) -> Architecture:
    moe = {
        "num_experts": M, "top_k": M, "expert_width": M, "shared_experts": M, "shared_expert_width": M,
        "shared_expert_gate": True, "router_bias": True, "expert_bias": True,
    }  # fmt: skip
    group = {
        "count": M, "moe": moe, "adapter": {"width": M},
        "lora": {"rank": M, "targets": ["q", "k", "v", "o", "gate", "up", "down"]},
    }  # fmt: skip
    attention: dict[str, Any] = {
        "num_heads": M, "num_kv_heads": M, "head_dim": M, "q_bias": True, "k_bias": True, "v_bias": True,
        "o_bias": True, "qk_norm": True, "sliding_window": M, "global_every": 2,
    }  # fmt: skip
    if kind == "mla":
        attention = {
            "kind": "mla", "num_heads": M, "q_lora_rank": M, "kv_lora_rank": M, "qk_rope_head_dim": M,
            "qk_nope_head_dim": M, "v_head_dim": M, "q_bias": True, "k_bias": True, "o_bias": True,
        }  # fmt: skip
    return Architecture.model_validate(
        {
            "hidden_size": M,
            "embeddings": {
                "vocab_size": M,
                "embed_dim": M - 1,
                "position": "learned",
                "max_positions": M,
                "position_offset": M,
                "token_types": M,
                "norm": True,
            },
            "attention": attention,
            "ffn": {"width": M, "bias": True},
            "norms": {"kind": "layernorm", "per_block": M},
            "head": {"bias": True, "decoder_bias": True, "transform": True, "pooler": True},
            "added_vocab": M,
            "layers": [group] * groups,
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


@pytest.mark.parametrize("kind", ["standard", "mla"])
@pytest.mark.parametrize("groups", [1, MAX_LAYER_GROUPS])
def test_worst_case_figures_stay_finite(kind: str, groups: int) -> None:
    arch = _worst(kind, groups)
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
                assert setup.decode_tokens_per_s is None or math.isfinite(setup.decode_tokens_per_s)
    assert share_text(report.by_part["embeddings"], report.total)


def test_human_is_exact_for_any_int_and_unchanged_below_two_to_the_53() -> None:
    assert human(175_221_817_344) == "175.22B"
    assert human(10**305) == "1" + "0" * 293 + ".00T"  # 10³⁰⁵ / 10¹² = 10²⁹³, exactly
    assert human(-(10**400) - 5 * 10**9) == "-1" + "0" * 388 + ".01T"  # 0.005 rounds up
    assert scientific(10**400) == "1.00 × 10⁴⁰⁰"
    for value in (999, 1_000, 2**53 - 1, 123_456_789_012_345):
        assert human(value) == human(float(value))


# --- O(groups): the same answers as layer by layer, without walking the layers ------------------------


@settings(max_examples=300, deadline=None)
@given(
    first=st.integers(0, 200),
    count=st.integers(0, 200),
    every=st.integers(0, 9),
    window=st.sampled_from([None, 4096]),
)
def test_window_layers_counts_like_the_layer_by_layer_rule(
    first: int, count: int, every: int, window: int | None
) -> None:
    arch = load_builtin("gemma-2-9b")
    arch = arch.model_copy(
        update={
            "attention": arch.attention.model_copy(update={"sliding_window": window, "global_every": every})
        }
    )
    expected = sum(
        1 for i in range(first, first + count) if window is not None and not (every and (i + 1) % every == 0)
    )
    assert window_layers(arch, first, count) == expected


@settings(max_examples=300, deadline=None)
@given(
    layers=st.integers(1, 120),
    step=st.integers(1, 7),
    dense_only=st.sets(st.integers(-3, 130), max_size=10),
)
def test_sparse_runs_match_the_layer_by_layer_rule(layers: int, step: int, dense_only: set[int]) -> None:
    cfg = HFConfig({}, "qwen2_moe", "config.json")
    sparse = [i not in dense_only and (i + 1) % step == 0 for i in range(layers)]
    groups = moe_groups(sparse_runs(cfg, layers, step, dense_only), {"moe": 1})
    expanded = [("moe" in group) for group in groups for _ in range(group["count"])]
    assert expanded == sparse
    assert all(("moe" in a) != ("moe" in b) for a, b in itertools.pairwise(groups))


@settings(max_examples=300, deadline=None)
@given(
    counts=st.lists(st.integers(1, 12), min_size=1, max_size=5),
    stored=st.dictionaries(st.integers(0, 70), st.integers(0, 3), max_size=30),
)
def test_differing_layers_match_the_layer_by_layer_rows(counts: list[int], stored: dict[int, int]) -> None:
    groups, start = [], 0
    for index, count in enumerate(counts):
        groups.append(LayerGroupRow(start, count, "dense", index + 1, index + 1, {}))
        start += count
    by_layer = Counter({i: n for i, n in stored.items() if i < start})
    rows = _differing_layers(tuple(groups), by_layer)
    per_layer = {g.start + i: g.params for g in groups for i in range(g.count)}
    expected = {i: (p, by_layer.get(i, 0)) for i, p in per_layer.items() if by_layer.get(i, 0) != p}
    expanded: dict[int, tuple[int, int]] = {}
    for row in rows:
        assert isinstance(row, PartRow)
        first, _, last = row.part.removeprefix("layers ").removeprefix("layer ").partition("–")
        span = range(int(first), int(last or first) + 1)
        for i in span:
            expanded[i] = (row.predicted // len(span), row.actual // len(span))
    assert expanded == expected


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
    ],
    ids=["llama", "mistral-window", "deepseek", "qwen2-moe"],
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
    assert outcome.seconds < 5, outcome.seconds  # measured: < 0.3 s
    outcome.assert_bounded(tmp_path)


@pytest.mark.parametrize("output", [["--layers"], ["--format", "json"], ["--layers", "--format", "csv"]])
def test_per_layer_tables_of_a_billion_layers_are_refused_in_one_line(
    tmp_path: Path, output: list[str]
) -> None:
    outcome = probe("count", _config(tmp_path, **{**LLAMA, "num_hidden_layers": 10**9}), *output)
    outcome.assert_refused(tmp_path, words="per-layer table would have 1,000,000,000 rows (at most 10,000)")
