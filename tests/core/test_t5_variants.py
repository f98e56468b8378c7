"""UMT5, LongT5 and Switch Transformers: what each builds beyond T5, read from a published
config.json and equal to the tensors the real transformers 5.24 class holds
(``tests/data/param_names_v3.json``) and to the sparse layers it measured in the randomized configs
(``tests/golden/random_configs_v3.json``), both from ``python tools/measure_golden.py --v3``, and
Switch untied (``tests/golden/encoder_cases.json``).
Whole-model totals and actives are in test_families (published) and test_hf_import (random)."""

from __future__ import annotations

import json
import re
from math import prod
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.blocks import Attention
from paramtally.core.count.parameters import block_node, count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.memory.activations_hf import sdpa_refusal
from paramtally.core.schema import Architecture
from paramtally.core.terms.term import Term

ROOT = Path(__file__).resolve().parents[2]
V3 = ROOT / "tests" / "data" / "hf_configs_v3"
NAMES = json.loads((ROOT / "tests" / "data" / "param_names_v3.json").read_text(encoding="utf-8"))
RANDOM = json.loads((ROOT / "tests" / "golden" / "random_configs_v3.json").read_text(encoding="utf-8"))
# Configs no published or randomized one reaches (python tools/measure_encoder_cases.py).
CASES = json.loads((ROOT / "tests" / "golden" / "encoder_cases.json").read_text(encoding="utf-8"))


def _config(stem: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((V3 / f"{stem}.json").read_text(encoding="utf-8"))
    return data


def _structures(stem: str, prefix: str) -> dict[str, dict[str, list[int]]]:
    """The measured layer structures of one stack: their layer ranges ('0', '1-11') → tensors."""
    return {
        item["layers"]: item["params"] for item in NAMES[stem]["layer_structures"] if item["prefix"] == prefix
    }


def _size(params: dict[str, list[int]], pattern: str = "") -> int:
    return sum(prod(shape) for name, shape in params.items() if re.search(pattern, name))


def _layer(arch: Architecture, role: str, index: int) -> int:
    """One layer's count: the block of the run holding layer ``index`` of stack ``role``."""
    (run,) = [run for run in arch.runs if run.stack == role and index in _indexes(run)]
    value: int = block_node(run.block, arch.hidden_size).value
    return value


def _indexes(run: Any) -> set[int]:
    return {start + i for start in run.starts() for i in range(run.count)}


def _leaves(node: Term, name: str) -> list[int]:
    found = [node.value] if node.name == name and not node.children else []
    for child in node.children:
        found += _leaves(child, name)
    return found


def _moe_layers(arch: Architecture, role: str) -> list[int]:
    return sorted(
        i for run in arch.runs if run.stack == role and run.block.ffn.kind == "moe" for i in _indexes(run)
    )


# --- UMT5 ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("stem", ["umt5-small", "umt5-base"])
def test_umt5_keeps_a_bias_table_in_every_self_attention_as_measured(stem: str) -> None:
    arch = import_hf_config(_config(stem), f"{stem}.json")
    assert all(stack.relative_buckets == 0 for _, stack in arch.stacks)  # none per stack
    for role, prefix in (("encoder", "encoder.block."), ("decoder", "decoder.block.")):
        (params,) = _structures(stem, prefix).values()  # every layer alike, the first too
        table = _size(params, r"SelfAttention\.relative_attention_bias")
        assert table == 32 * arch.runs[0].block.mixer.num_heads
        (run,) = [run for run in arch.runs if run.stack == role]
        layer = block_node(run.block, arch.hidden_size)
        assert _leaves(layer, "relative position bias") == [table]  # the cross-attention has none
        assert layer.value == _size(params)


# --- LongT5 -------------------------------------------------------------------------------------------


def test_longt5_transient_global_adds_a_norm_per_layer_and_a_second_table_in_the_first() -> None:
    arch = import_hf_config(_config("long-t5-tglobal-base"), "long-t5-tglobal-base.json")
    measured = _structures("long-t5-tglobal-base", "encoder.block.")
    first, rest = measured["0"], measured["1-11"]
    assert _size(rest, "global_input_layer_norm") == 768
    assert _size(first, "global_relative_attention_bias") == 32 * 12
    # The first layer's local table is the stack's (T5's place for it), its global one the layer's.
    local = _size(first, r"\.relative_attention_bias")
    assert arch.encoder is not None and arch.encoder.relative_buckets * 12 == local
    assert _layer(arch, "encoder", 0) + local == _size(first)
    assert all(_layer(arch, "encoder", i) == _size(rest) for i in (1, 11))


def test_longt5_local_attention_is_t5_within_its_radius() -> None:
    data = _config("long-t5-local-base")
    arch = import_hf_config(data, "long-t5-local-base.json")
    (params,) = [
        p for layers, p in _structures("long-t5-local-base", "encoder.block.").items() if layers != "0"
    ]
    assert _layer(arch, "encoder", 5) == _size(params)
    (run,) = [run for run in arch.runs if run.stack == "encoder"]
    assert isinstance(run.block.mixer, Attention)
    assert run.block.mixer.sliding_window == 2 * data["local_radius"] + 1  # 127 tokens either side
    tglobal = count_parameters(import_hf_config(_config("long-t5-tglobal-base"), "t.json")).total
    assert tglobal - count_parameters(arch).total == 12 * 768 + 32 * 12


def test_longt5_refuses_an_encoder_attention_it_does_not_build_in_one_line() -> None:
    data = {**_config("long-t5-local-base"), "encoder_attention_type": "global"}
    with pytest.raises(ParamTallyError) as refused:
        import_hf_config(data, "config.json")
    said = "config.json: encoder_attention_type is 'global'; LongT5's encoder attention is local or "
    assert str(refused.value) == said + "transient-global"


# --- Switch Transformers ------------------------------------------------------------------------------


def test_switch_base_has_its_experts_in_the_odd_layers_as_measured() -> None:
    arch = import_hf_config(_config("switch-base-8"), "switch-base-8.json")
    for role in ("encoder", "decoder"):
        structures = _structures("switch-base-8", f"{role}.block.")
        (sparse,) = [layers for layers, params in structures.items() if _size(params, r"router")]
        assert _moe_layers(arch, role) == [int(i) for i in sparse.split(",")]
        assert _layer(arch, role, 1) == _size(structures[sparse])
        assert _layer(arch, role, 2) == _size(structures["2,4,6,8,10"])
    router = _size(_structures("switch-base-8", "encoder.block.")["1,3,5,7,9,11"], r"router\.classifier")
    assert router == 768 * 8  # no bias


def test_switch_untied_would_be_four_tables_and_is_refused() -> None:
    """tie_word_embeddings false unties shared, both embed_tokens and the head: 3·V·d more
    (measured: tests/golden/encoder_cases.json), which no published model has."""
    tied, untied = CASES["switch-tied"], CASES["switch-untied"]
    assert untied["total"] - tied["total"] == 3 * 300 * 64
    arch = import_hf_config({**tied["config"], "architectures": [tied["model_class"]]}, "switch.json")
    assert count_parameters(arch).total == tied["total"]
    with pytest.raises(
        ParamTallyError, match=r"tie_word_embeddings is false: transformers 5\.24 then builds "
    ):
        import_hf_config(untied["config"], "switch.json")


SWITCH = [entry for entry in RANDOM if entry.get("model_type") == "switch_transformers"]


@pytest.mark.parametrize("entry", SWITCH, ids=[entry["name"] for entry in SWITCH])
def test_switch_sparse_layers_are_as_many_as_the_class_builds(entry: dict[str, Any]) -> None:
    """The file's sparse step replaces the derived one, and a count of 0 sparse layers still makes
    layer 1 sparse: as many MoE layers per stack, of as many experts, as the module measured."""
    arch = import_hf_config({**entry["config"], "architectures": [entry["model_class"]]}, entry["name"])
    for role in ("encoder", "decoder"):
        groups = [group for group in entry.get("moe", []) if group["module"].startswith(f"{role}.")]
        assert len(_moe_layers(arch, role)) == sum(group["layers"] for group in groups)
        for run in arch.runs:
            if run.stack == role and run.block.ffn.kind == "moe":
                assert run.block.ffn.routing() == (groups[0]["E"], 1)


def test_switch_sparse_layers_follow_the_stacks_rule_for_every_small_stack_and_step() -> None:
    """SwitchTransformersStack: layer i sparse when ``i % step == 1 or step == 1``, none at step 0
    (the rule the random goldens measure, written out for every stack of up to 12 layers)."""
    for n in range(1, 13):
        for step in range(14):
            data = {**_config("switch-base-8"), "num_layers": n, "encoder_sparse_step": step}
            arch = import_hf_config(data, "switch.json")
            rule = [i for i in range(n) if step and (step == 1 or i % step == 1)]
            assert _moe_layers(arch, "encoder") == rule, (n, step)


def test_switch_quirks_are_among_the_random_configs() -> None:
    """The cases the test above stands for are measured: a file step that differs from the derived
    one, and a stack of two or more layers whose sparse-layer count is 0."""
    configs = [entry["config"] for entry in SWITCH]
    assert any(
        "decoder_sparse_step" in c
        and c["num_sparse_decoder_layers"]
        and c["decoder_sparse_step"] != c["num_decoder_layers"] // c["num_sparse_decoder_layers"]
        for c in configs
    )
    assert any(
        c["num_sparse_encoder_layers"] == 0 and c["num_layers"] >= 2 and "encoder_sparse_step" not in c
        for c in configs
    )


# --- what the activation profiles ask of them ---------------------------------------------------------


@pytest.mark.parametrize(
    ("stem", "refused_by"),
    [
        ("umt5-small", None),
        ("long-t5-tglobal-base", "LongT5ForConditionalGeneration"),
        ("switch-base-8", "SwitchTransformersForConditionalGeneration"),
    ],
)
def test_sdpa_is_refused_where_the_class_does_not_support_it(stem: str, refused_by: str | None) -> None:
    """UMT5PreTrainedModel sets _supports_sdpa = True as T5's does; LongT5's and Switch's keep
    PreTrainedModel's False, their attention written out (transformers 5.24)."""
    said = sdpa_refusal(import_hf_config(_config(stem), f"{stem}.json"))
    assert (said is None) if refused_by is None else (f"{refused_by} refuses SDPA" in (said or ""))
