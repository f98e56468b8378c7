#!/usr/bin/env python3
"""Goldens for the quirks of the recurrent and hybrid families (issue 33): small configs, each
showing one rule of what transformers 5.24 builds, measured on the meta device.

    /tmp/tv/bin/python tools/measure_recurrent_quirks.py           # tests/golden/recurrent_quirks_v3.json
    /tmp/tv/bin/python tools/measure_recurrent_quirks.py --check   # re-measure, compare, write nothing

Each case is a published config of tests/data/hf_configs_v3 (``base``) or none, with keys changed
(``change``; a key set to ``DROP`` is removed). The entry holds what ``measure_v3.measure`` gives
(total, active, tied) and, where a case says so, the shape of one named parameter.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import measure_v3 as v3

OUT = v3.mg.ROOT / "tests" / "golden" / "recurrent_quirks_v3.json"
DROP = "<drop>"

_TINY_NEMOTRON_H = {
    "architectures": ["NemotronHForCausalLM"],
    "model_type": "nemotron_h",
    "hidden_size": 64,
    "vocab_size": 256,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "intermediate_size": 96,
    "mamba_num_heads": 4,
    "mamba_head_dim": 16,
    "n_groups": 2,
    "ssm_state_size": 8,
    "n_routed_experts": 6,
    "num_experts_per_tok": 2,
    "moe_intermediate_size": 32,
    "moe_shared_expert_intermediate_size": 48,
    "use_mamba_kernels": False,
}

_TINY_LFM2 = {
    "architectures": ["Lfm2ForCausalLM"],
    "model_type": "lfm2",
    "hidden_size": 64,
    "num_hidden_layers": 3,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "vocab_size": 256,
    "layer_types": ["conv", "full_attention", "conv"],
}

# name -> (base config stem or None, changes, parameter whose shape is recorded or None)
CASES: dict[str, tuple[str | None, dict[str, Any], str | None]] = {
    # block_ff_dim wins over intermediate_size (Lfm2Config.__post_init__ pops it over the field).
    "lfm2-block-ff-dim-over-intermediate": (
        None,
        {**_TINY_LFM2, "intermediate_size": 999, "block_ff_dim": 384, "block_auto_adjust_ff_dim": False},
        "model.layers.0.feed_forward.w1.weight",
    ),
    # auto-adjust: int(2·f/3) = 256, × 1.3 = 332, rounded up to 128 → 384.
    "lfm2-auto-adjust-multiplier-and-multiple": (
        None,
        {**_TINY_LFM2, "block_ff_dim": 384, "block_ffn_dim_multiplier": 1.3, "block_multiple_of": 128},
        "model.layers.0.feed_forward.w1.weight",
    ),
    # tie_embedding wins over tie_word_embeddings.
    "lfm2-tie-embedding-over-tie-word-embeddings": (
        None,
        {**_TINY_LFM2, "tie_embedding": False, "tie_word_embeddings": True},
        None,
    ),
    # No layer_types and no full_attn_idxs: every layer is attention.
    "lfm2-no-layer-types-all-attention": (
        None,
        {**_TINY_LFM2, "layer_types": DROP},
        None,
    ),
    # LFM2-1.2B with conv_bias: in_proj, the conv and out_proj each get a bias.
    "lfm2-1.2b-conv-bias": ("lfm2-1.2b", {"conv_bias": True}, "model.layers.0.conv.in_proj.bias"),
    # attention_bias biases q, k and v; o_proj has its bias either way.
    "recurrentgemma-2b-attention-bias": (
        "recurrentgemma-2b",
        {"attention_bias": True},
        "model.layers.2.temporal_block.q_proj.bias",
    ),
    # A file's head_dim is what the attention is built with (not h / a).
    "recurrentgemma-2b-head-dim-128": (
        "recurrentgemma-2b",
        {"head_dim": 128},
        "model.layers.2.temporal_block.q_proj.weight",
    ),
    # lru_width apart from the hidden size; null means the hidden size.
    "recurrentgemma-2b-lru-1280": (
        "recurrentgemma-2b",
        {"lru_width": 1280},
        "model.layers.0.temporal_block.rg_lru.input_gate_weight",
    ),
    "recurrentgemma-2b-lru-null": ("recurrentgemma-2b", {"lru_width": None}, None),
    # Any block type but "recurrent" is a (local) attention block.
    "recurrentgemma-2b-other-block-type": (
        "recurrentgemma-2b",
        {"block_types": ["recurrent", "local"], "num_hidden_layers": 4},
        None,
    ),
    # A file's intermediate_size wins over expand × hidden (set after __post_init__).
    "falcon-mamba-7b-intermediate-size": (
        "falcon-mamba-7b",
        {"intermediate_size": 4096},
        "backbone.layers.0.mixer.in_proj.weight",
    ),
    # FalconMambaConfig ties by default; the 7B's file unties.
    "falcon-mamba-7b-tie-by-default": ("falcon-mamba-7b", {"tie_word_embeddings": DROP}, None),
    # LFM2-MoE reads no block_ff_dim and does not auto-adjust its dense MLP; tie_embedding wins.
    "lfm2-8b-a1b-no-auto-adjust": (
        "lfm2-8b-a1b",
        {"block_ff_dim": 999, "block_auto_adjust_ff_dim": True, "tie_embedding": False},
        "model.layers.0.feed_forward.w1.weight",
    ),
    # Zamba2: each use's own adapters on q, k and v too.
    "zamba2-2.7b-attention-adapters": (
        "zamba2-2.7b",
        {"use_shared_attention_adapter": True},
        "model.layers.6.shared_transformer.self_attn.linear_q_adapter_list.0.0.weight",
    ),
    # One shared block instead of two: half the shared weights, the same adapters.
    "zamba2-2.7b-one-memory-block": ("zamba2-2.7b", {"num_mem_blocks": 1}, None),
    # More memory blocks than hybrid layers: only the used ones are built.
    "zamba2-2.7b-more-blocks-than-uses": (
        "zamba2-2.7b",
        {
            "num_mem_blocks": 4,
            "layers_block_type": ["mamba"] * 50 + ["hybrid", "mamba", "hybrid", "mamba"],
            "hybrid_layer_ids": DROP,
        },
        None,
    ),
    # The file's hybrid_layer_ids (9 entries) beside layer types of 2 hybrid layers: each block
    # still builds an adapter slot per entry of the file's list.
    "zamba2-2.7b-stale-hybrid-layer-ids": (
        "zamba2-2.7b",
        {"num_mem_blocks": 4, "layers_block_type": ["mamba"] * 50 + ["hybrid", "mamba", "hybrid", "mamba"]},
        None,
    ),
    # __post_init__ computes mamba_headdim, attention_head_dim and attention_hidden_size, but a
    # file's keys are set after it and win: mamba_headdim shapes no parameter, the other two do.
    "zamba2-2.7b-mamba-headdim": ("zamba2-2.7b", {"mamba_headdim": 32}, None),
    "zamba2-2.7b-attention-widths": (
        "zamba2-2.7b",
        {"attention_head_dim": 40, "attention_hidden_size": 1000},
        "model.layers.6.shared_transformer.self_attn.q_proj.weight",
    ),
    # Zamba's attention width and head width as the file sets them.
    "zamba-7b-attention-widths": (
        "zamba-7b-v1",
        {"attention_hidden_size": 3712, "attention_head_dim": 128},
        "model.layers.2.shared_transf.self_attn.q_proj.weight",
    ),
    # num_hidden_layers is ignored where the pattern disagrees; attention_bias biases nothing;
    # tie_word_embeddings ties nothing (_tied_weights_keys is empty).
    "nemotron-nano-9b-v2-ignored-keys": (
        "nvidia-nemotron-nano-9b-v2",
        {"num_hidden_layers": 10, "attention_bias": True, "tie_word_embeddings": True},
        None,
    ),
    # Mixture-of-experts layers ("E"): plain relu² experts, a shared expert biased by mlp_bias.
    "nemotron-h-moe-layers": (
        None,
        {**_TINY_NEMOTRON_H, "hybrid_override_pattern": "ME*-E", "mlp_bias": True},
        "model.layers.1.mixer.experts.up_proj",
    ),
    # No pattern and no layer types: Mamba-2, MoE, attention, MLP.
    "nemotron-h-default-layer-types": (None, dict(_TINY_NEMOTRON_H), None),
    # The older mamba_* keys win over the field names (__post_init__ pops them).
    "nemotron-h-older-mamba-keys": (
        None,
        {
            **_TINY_NEMOTRON_H,
            "hybrid_override_pattern": "M*",
            "mamba_n_groups": 4,
            "mamba_d_conv": 2,
            "mamba_conv_bias": False,
        },
        "model.layers.0.mixer.conv1d.weight",
    ),
}


def config_of(base: str | None, change: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if base is not None:
        data = json.loads((v3.V3_DIR / f"{base}.json").read_text(encoding="utf-8"))
    data = {**data, **change}
    return {key: value for key, value in data.items() if value != DROP}


def measure_all() -> dict[str, Any]:
    out: dict[str, Any] = {"_generated_by": v3.mg.versions("python tools/measure_recurrent_quirks.py")}
    for name, (base, change, shape_of) in CASES.items():
        config = config_of(base, change)
        entry, model = v3.measure(config)
        result = {key: entry[key] for key in ("model_type", "model_class", "total", "active", "tied")}
        result["config"] = config
        if shape_of is not None:
            result["shape"] = {shape_of: list(dict(model.named_parameters())[shape_of].shape)}
        out[name] = result
        print(f"{name:50s} {result['total']:>16,} {result['active']:>16,} {result['tied']}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="compare with the file; write nothing")
    args = parser.parse_args(argv)
    measured = measure_all()
    text = json.dumps(measured, indent=1, sort_keys=True) + "\n"
    if args.check:
        old = json.loads(OUT.read_text(encoding="utf-8"))
        same = {k: v for k, v in old.items() if k != "_generated_by"} == {
            k: v for k, v in measured.items() if k != "_generated_by"
        }
        print("unchanged" if same else "differs")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
