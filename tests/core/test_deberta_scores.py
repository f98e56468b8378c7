"""DeBERTa-v2's relative-position scores (``DisentangledSelfAttention.disentangled_attention_bias``,
transformers 5.24): the FLOPs and activations c2p and p2c add to attention, against what
tools/measure_deberta_scores.py measured on a tiny model (tests/golden/deberta_scores.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.blocks import DisentangledAttention
from paramtally.core.blocks.activation_profiles import HFProfile
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.flops import estimate_flops
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema import Architecture

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "tests" / "golden" / "deberta_scores.json").read_text(encoding="utf-8"))
SEQ, BATCH, BASE = GOLDEN["seq"], GOLDEN["batch"], GOLDEN["base"]
CASES = GOLDEN["cases"]
TOKENS = SEQ * BATCH
SPAN = BASE["position_buckets"]  # k: 2k rows of the relative table
HEADS, WIDTH = BASE["num_attention_heads"], BASE["hidden_size"]
D_H = WIDTH // HEADS


def _arch(case: str) -> Architecture:
    config: dict[str, Any] = {**BASE, **CASES[case]["config"], "num_hidden_layers": 1}
    return import_hf_config(config, f"deberta-{case}.json")


def _mixer(arch: Architecture) -> DisentangledAttention:
    (block,) = arch.layers_by_block()
    assert isinstance(block.mixer, DisentangledAttention)
    return block.mixer


def _scores(case: str) -> int:
    return len(CASES[case]["config"]["pos_att_type"])


def test_the_importer_reads_the_scores_and_their_span() -> None:
    mixer = _mixer(_arch("c2p-p2c"))
    assert (mixer.relative_span, mixer.c2p, mixer.p2c) == (SPAN, True, True)
    assert (_mixer(_arch("c2p")).c2p, _mixer(_arch("c2p")).p2c) == (True, False)
    v3 = _mixer(load_builtin("deberta-v3-base"))
    assert (v3.relative_span, v3.c2p, v3.p2c) == (256, True, True)  # position_buckets 256, "p2c|c2p"


def test_plain_attention_is_every_token_over_all_s() -> None:
    """The measured QKᵀ and A·V of one layer: 4·s·d_attn FLOPs per token (an encoder: no mask)."""
    flops = estimate_flops(_arch("none"), Scenario(context=SEQ))
    attention = next(term for term in flops.terms if term.name == "attention per token (prefill, forward)")
    assert attention.value * TOKENS == CASES["none"]["flops_per_layer"]["aten.bmm"]


@pytest.mark.parametrize("case", ["c2p", "p2c", "c2p-p2c", "c2p-p2c-own-projections"])
def test_relative_scores_add_the_measured_matmul_flops(case: str) -> None:
    """Per token, the scores' products alone: the own position projections multiply the table's
    rows, not the tokens (2·N_ne took them as per token, 2·2·(h·h + h) too much with both)."""
    s = Scenario(context=SEQ)
    extra = (
        estimate_flops(_arch(case), s).forward_per_token - estimate_flops(_arch("none"), s).forward_per_token
    )
    measured = CASES[case]["flops_per_layer"]
    plain = CASES["none"]["flops_per_layer"]
    assert extra * TOKENS == measured["aten.bmm"] - plain["aten.bmm"]  # 2·2k·a·d_h per token and score
    assert extra == _scores(case) * 2 * 2 * SPAN * WIDTH
    # The projection of the table's rows is per forward pass (two with share_att_key whatever the
    # scores, one per score without it), so equal here: the forward pass tests below count it.
    assert measured["aten.addmm"] == plain["aten.addmm"]


FORWARD = GOLDEN["forward"]
FFN = BASE["intermediate_size"]


def _vector_params(layers: int) -> int:
    """What 2·N counts per token that no matmul multiplies (the 2N convention: a multiply-add per
    parameter, FlopCounterMode counts matmuls): per layer the biases of q, k, v, o (h each) and of
    the FFN (f + h) and two LayerNorms (2h each); the embeddings' and the relative table's
    LayerNorms (2h each)."""
    return layers * (4 * WIDTH + FFN + WIDTH + 2 * 2 * WIDTH) + 2 * WIDTH + 2 * WIDTH


def _table_projections(config: dict[str, Any]) -> int:
    """key_proj and query_proj both with share_att_key, whichever scores; else one per score."""
    return 2 if config["share_att_key"] else len(config["pos_att_type"])


@pytest.mark.parametrize("case", sorted(FORWARD))
def test_a_forward_pass_is_the_measured_flops(case: str) -> None:
    """Whole forward passes of 1 and 2 layers, 1 and 2 sequences of 32, 128 and 256 tokens: the
    tokens at F each (less what 2·N counts of biases and norms, no matmul) and, once per layer and
    pass whatever the batch, the table's 2k rows through n projections, 2·2k·h·d_attn each."""
    config = FORWARD[case]["config"]
    n = _table_projections(config)
    for run in FORWARD[case]["runs"]:
        layers, batch, seq = run["layers"], run["batch"], run["seq"]
        arch = import_hf_config({**BASE, **config, "num_hidden_layers": layers}, f"deberta-{case}.json")
        flops = estimate_flops(arch, Scenario(context=seq))
        once = layers * n * 2 * (2 * SPAN) * WIDTH * WIDTH
        tokens = batch * seq * (flops.forward_per_token - 2 * _vector_params(layers))
        assert tokens + once == sum(run["flops"].values()), run
        if batch == 1:  # one request is one forward pass: its prefill term says the once-per-layer part
            prefill = next(term for term in flops.terms if term.name == "prefill per request")
            assert prefill.expr == "s·F + L·n·2·R·h·d"
            assert (prefill.values["n"], prefill.values["R"]) == (n, 2 * SPAN)
            assert prefill.value == seq * flops.forward_per_token + once


@pytest.mark.parametrize("case", ["c2p", "p2c", "c2p-p2c"])
def test_relative_scores_keep_the_measured_activations_per_token(case: str) -> None:
    """Per layer, beyond plain attention: per score the gathered product [b·a, s, 2k] (the input
    ``torch.gather`` keeps) and p2c's key heads [b·a, s, d_h] — per token, in the formula; per
    score, the gather's int64 index of s² positions, the projected rows repeated over the batch
    [b·a, 2k, d_h] and the scale (a bf16 scalar) — per layer and forward pass, left out."""
    bf16 = HFProfile(b=2, eager=True)
    arch, plain = _arch(case), _arch("none")
    (block,) = arch.layers_by_block()
    ctx = block.context(WIDTH)
    ours = _mixer(arch).hf_bytes(ctx, bf16) - _mixer(plain).hf_bytes(ctx, bf16)
    scores = _scores(case)
    per_forward = scores * (SEQ * SEQ * 8 + BATCH * HEADS * 2 * SPAN * D_H * 2 + 2)
    measured = CASES[case]["activation_bytes_per_layer"] - CASES["none"]["activation_bytes_per_layer"]
    assert ours * TOKENS == measured - per_forward
    # Megatron's rule keeps them at 16 bits too: twice the widths in its S.
    assert 2 * (_mixer(arch).projection_widths(ctx) - _mixer(plain).projection_widths(ctx)) == ours


def test_scores_need_a_span() -> None:
    data = _arch("c2p").model_dump(mode="json")
    next(iter(data["blocks"].values()))["mixer"]["relative_span"] = 0
    with pytest.raises(ValueError, match="relative scores need a relative span above 0"):
        Architecture.model_validate(data)


def test_share_att_key_projects_the_table_even_without_scores() -> None:
    """DisentangledSelfAttention projects the table through key_proj and query_proj whenever
    relative attention is on with share_att_key, whichever scores it lists (the measured 'none'
    case); without share_att_key and without scores nothing reads it: no span, no projection."""
    shared = import_hf_config(
        {**BASE, "pos_att_type": [], "share_att_key": True, "num_hidden_layers": 1}, "a"
    )
    own = import_hf_config({**BASE, "pos_att_type": [], "share_att_key": False, "num_hidden_layers": 1}, "b")
    (block,) = shared.layers_by_block()
    ctx = block.context(WIDTH)
    term = _mixer(shared).per_forward_flops(ctx)
    assert term is not None and term.value == 2 * 2 * (2 * SPAN) * WIDTH * WIDTH
    assert _mixer(own).relative_span == 0 and _mixer(own).per_forward_flops(ctx) is None
    both = _mixer(_arch("c2p-p2c-own-projections"))
    assert both.table_params(ctx) == 2 * (WIDTH * WIDTH + WIDTH)  # outside 2·N_ne per token
