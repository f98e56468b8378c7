"""Whole models' training activations against what PyTorch keeps (``whole_model_cases`` in
tests/golden/activations.json: two layers in each stack, trained one step with labels, bf16, s 256,
b 2; measured by tools/measure_activations.py, no torch needed here).

The figure is every activation term of the model: its layers and what lies outside them (the final
norms, the LM head's input, the logits and labels the loss keeps, the token ids, the position
tables, T5's position bias and SDPA's bias masks).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.families import activation_quirks
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema import Architecture

GOLDEN = json.loads((Path(__file__).parents[1] / "golden" / "activations.json").read_text(encoding="utf-8"))
WHOLE = {case["name"]: case for case in GOLDEN["whole_model_cases"]}
LAYERS = {case["name"]: case for case in GOLDEN["cases"]}
# What the issue asks of each (#34): 2 % for the decoder-only families, 3 % for T5.
TOLERANCE = {"t5": 0.03}


def _arch(case: dict[str, Any]) -> Architecture:
    config = {**case["config"], **dict.fromkeys(case["layer_keys"], case["layers"])}
    return import_hf_config(config, case["name"])


def _scenario(case: dict[str, Any]) -> Scenario:
    return Scenario(
        mode="training",
        context=case["seq"],
        batch=case["batch"],
        activations=f"hf-{case['attention']}",
        use_cache=case["config"].get("use_cache", True),
    )


def _modelled(case: dict[str, Any]) -> int:
    return estimate_memory(_arch(case), _scenario(case)).activations_bytes


def _cpu_extra(case: dict[str, Any], arch: Architecture) -> int:
    """What the CPU keeps beyond a GPU: its dropout masks in bf16 (a GPU's are bool: one byte less
    each) — eager attention's over the scores, each sublayer's output, T5's inside the FFN, the
    embeddings' and T5's final norms' — and LayerNorm's mean and 1/σ in bf16 (8 bytes less each)."""
    h, tokens, s = arch.hidden_size, case["seq"] * case["batch"], case["seq"]
    per_token = 0
    for role, stack in arch.stacks:
        layers, block = stack.num_layers, arch.base_block(stack)
        attentions = [m for m in (block.mixer, block.cross_attention) if m is not None]
        if arch.dropout.attention and case["attention"] == "eager":
            per_token += layers * sum(m.score_heads() for m in attentions) * s
        if arch.dropout.hidden:
            quirks = activation_quirks(arch.family)
            inner = block.ffn.width if quirks.ffn_inner_dropout else 0
            per_token += layers * ((len(attentions) + 1) * h + inner)
            per_token += h if quirks.embedding_dropout else 0
            per_token += h if quirks.final_norm_dropout and stack.final_norm else 0
        if block.norms.kind == "layernorm":
            norms = layers * block.norms.count + (1 if stack.final_norm else 0)
            per_token -= norms * 4  # the profile's fp32 mean and 1/σ, 8 bytes; the CPU's bf16, 4
        del role
    return per_token * tokens


@pytest.mark.parametrize("name", sorted(WHOLE))
def test_whole_model_within_the_issues_tolerance(name: str) -> None:
    """What a GPU keeps (the measurement less the CPU's bf16 masks, as the per-layer tests take it)."""
    case = WHOLE[name]
    measured, modelled = case["bytes"] - _cpu_extra(case, _arch(case)), _modelled(case)
    assert abs(modelled - measured) <= TOLERANCE.get(case["family"], 0.02) * measured


@pytest.mark.parametrize("name", sorted(WHOLE))
def test_whole_model_to_the_loss_scalar_but_for_the_cpus_masks(name: str) -> None:
    """Tighter: the measurement less the CPU's bf16 masks and norm statistics is the figure but for
    what is per step or per layer, not per token, which no term counts: the loss's 0-d total weight
    (fp32 4 bytes; T5's loss in bf16: 2) and an MoE layer's grouped_mm int32 offsets, 4 per expert."""
    case = WHOLE[name]
    arch = _arch(case)
    scalar = 2 if activation_quirks(arch.family).loss_in_activation_dtype else 4
    offsets = 4 * case["config"].get("num_local_experts", 0) * case["layers"]
    assert case["bytes"] - _cpu_extra(case, arch) - _modelled(case) == scalar + offsets


def test_the_terms_outside_the_layers_of_the_tiny_llama() -> None:
    """h 512, V 1,000, d_h 64, s 256, b 2: by hand from the measured tensors — the final RMSNorm
    4h + 2h + 4, the LM head's input 2h, the fp32 log-softmax 4V and the int64 labels 8, the token ids
    8 per token and one bf16 cos and sin table of s × d_h."""
    case = WHOLE["llama-sdpa"]
    terms = {t.name: t for t in estimate_memory(_arch(case), _scenario(case)).terms}
    h, v, tokens, s, d_h = 512, 1000, 512, 256, 64
    assert terms["activations (final norms, LM head input)"].value == tokens * (4 * h + 2 * h + 4 + 2 * h)
    assert terms["activations (logits and labels for the loss)"].value == tokens * (4 * v + 8)
    assert terms["activations (token ids, embedding dropout)"].value == tokens * 8
    assert terms["activations (position tables)"].value == 2 * s * d_h * 2
    layers = [t for t in terms.values() if t.name == "activations"]
    assert len(layers) == 1 and layers[0].value == 2 * LAYERS["llama-sdpa"]["per_layer"]
    assert "ForCausalLMLoss" in terms["activations (logits and labels for the loss)"].source


def test_t5_keeps_its_logits_in_bf16_and_its_position_buckets() -> None:
    case = WHOLE["t5-eager"]
    terms = {t.name: t for t in estimate_memory(_arch(case), _scenario(case)).terms}
    logits = terms["activations (logits and labels for the loss)"]
    assert logits.expr == "s·b·(B·V + 8)" and "CrossEntropyLoss" in logits.source
    tables = terms["activations (position tables)"]
    assert tables.expr == "8·s_e² + 8·s²" and tables.value == 2 * 8 * 256**2
    assert "activations (attention bias masks, SDPA)" not in terms  # eager adds the bias: nothing kept


def test_t5_sdpa_keeps_a_bias_mask_per_layer() -> None:
    """Measured: each encoder layer a contiguous (1, a, s, s) bf16 copy of the position bias, each
    decoder layer a torch.where of it with the causal mask and that bool condition, one zero bias
    the cross-attentions share."""
    case = WHOLE["t5-sdpa"]
    terms = {t.name: t for t in estimate_memory(_arch(case), _scenario(case)).terms}
    masks = terms["activations (attention bias masks, SDPA)"]
    a, s, layers = 8, 256, 2
    assert masks.value == layers * a * s * s * 2 + layers * (a * 2 + 1) * s * s + a * s * s * 2
    counted = {(t["saved_by"], tuple(t["shape"]), t["dtype"]): t["count"] for t in case["tensors"]}
    assert counted[("_GpuEfficientAttentionBackward.attn_bias", (1, a, s, s), "bfloat16")] == 2 * layers + 1
    assert counted[("WhereBackward0.condition", (1, 1, s, s), "bool")] == layers


def test_umt5_looks_up_a_bucket_table_in_each_layer_and_masks_each_cross_attention() -> None:
    """Measured: UMT5's layers each look up their own table (the int64 buckets per layer, not per
    stack) and share no bias, so each cross-attention keeps its own zero bias under SDPA."""
    case = WHOLE["umt5-sdpa"]
    terms = {t.name: t for t in estimate_memory(_arch(case), _scenario(case)).terms}
    a, s, layers = 8, 256, 2
    assert terms["activations (position tables)"].value == 2 * layers * 8 * s * s
    masks = terms["activations (attention bias masks, SDPA)"]
    assert masks.value == layers * a * s * s * 2 + layers * (a * 2 + 1) * s * s + layers * a * s * s * 2
    counted = {(t["saved_by"], tuple(t["shape"]), t["dtype"]): t["count"] for t in case["tensors"]}
    assert counted[("EmbeddingBackward0.indices", (s, s), "int64")] == 2 * layers
    assert counted[("_GpuEfficientAttentionBackward.attn_bias", (1, a, s, s), "bfloat16")] == 3 * layers


def test_bias_masks_grow_with_the_square_of_the_context_and_split_over_tp() -> None:
    arch = load_builtin("flan-t5-base")
    s = Scenario(mode="training", context=512, encoder_tokens=512, activations="hf-sdpa")
    one = next(
        t for t in estimate_memory(arch, s).terms if t.name == "activations (attention bias masks, SDPA)"
    )
    twice = s.model_copy(update={"context": 1024, "encoder_tokens": 1024})
    two = next(t for t in estimate_memory(arch, twice).terms if t.name == one.name)
    assert two.value == 4 * one.value
    tp = s.model_copy(update={"tp": 2, "gpus": 2})
    split = next(t for t in estimate_memory(arch, tp).terms if t.name == one.name)
    assert "(a/t)" in split.expr and split.value < one.value
    full = s.model_copy(update={"recompute": "full"})
    assert all(t.name != one.name for t in estimate_memory(arch, full).terms)


def test_megatron_keeps_korthikantis_output_layer() -> None:
    arch = load_builtin("llama-3-8b")
    s = Scenario(mode="training", context=4096)
    names = [t.name for t in estimate_memory(arch, s).terms if t.part == "activations"]
    assert "output layer (fp32 logits)" in names
    assert not any("logits and labels" in name for name in names)


def test_alibi_under_sdpa_keeps_one_mask_every_layer_shares() -> None:
    """Falcon folds ALiBi into one float (b, a, s, s) mask (FalconModel.forward), which SDPA keeps:
    measured once in a two-layer model, as the term counts it; its query is a view of the fused
    query_key_value output, so with the cache K and V are kept twice over, as GPT-2's are."""
    case = WHOLE["falcon-alibi-sdpa"]
    b, a, s = case["batch"], case["config"]["num_attention_heads"], case["seq"]
    counted = {(t["saved_by"], tuple(t["shape"]), t["dtype"]): t["count"] for t in case["tensors"]}
    assert counted[("ScaledDotProductFlashAttentionForCpuBackward0.attn_mask", (b, a, s, s), "bfloat16")] == 1
    terms = {t.name: t for t in estimate_memory(_arch(case), _scenario(case)).terms}
    masks = terms["activations (attention bias masks, SDPA)"]
    assert masks.expr == "b·a·s²·B" and masks.value == b * a * s * s * 2 and "FalconModel" in masks.source
    assert "query_key_value" in terms["activations"].source  # the cache's copies, counted and said
