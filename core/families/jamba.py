"""Jamba (``JambaForCausalLM``): Mamba layers with RMSNorms inside the mixer, attention on layer i
where i % attn_layer_period == attn_layer_offset, a MoE FFN where i % expert_layer_period ==
expert_layer_offset (with more than one expert), a gated MLP elsewhere; no positions."""

from __future__ import annotations

import math

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import periodic_groups
from paramtally.core.families.llama import LLAMA_DEFAULTS
from paramtally.core.families.pieces import (
    activation,
    attention,
    changes_from,
    gated,
    model,
    moe,
)

__all__ = ["FAMILY"]


def jamba(cfg: HFConfig) -> Spec:
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    rank = cfg.raw("mamba_dt_rank", "auto")
    mixer: Spec = {
        "kind": "mamba",
        "inner": cfg.integer("mamba_expand") * h,
        "state": cfg.integer("mamba_d_state"),
        "conv_kernel": cfg.integer("mamba_d_conv"),
        "dt_rank": math.ceil(h / 16) if rank == "auto" else cfg.integer("mamba_dt_rank"),
        "proj_bias": cfg.flag("mamba_proj_bias"),
        "conv_bias": cfg.flag("mamba_conv_bias"),
        "inner_norms": True,
    }
    f = cfg.integer("intermediate_size")
    experts = cfg.integer("num_experts")
    a_period, a_offset = cfg.integer("attn_layer_period"), cfg.integer("attn_layer_offset", minimum=0)
    e_period, e_offset = cfg.integer("expert_layer_period"), cfg.integer("expert_layer_offset", minimum=0)
    table = {
        (True, False): {"mixer": attention(cfg, h, bias_key=None)},
        (False, True): {"ffn": moe(experts, cfg.integer("num_experts_per_tok"), f)},
    }
    table[(True, True)] = {**table[(True, False)], **table[(False, True)]}
    block = {
        "mixer": mixer,
        "ffn": gated(f, activation=activation(cfg)),
        "norms": {"kind": "rmsnorm", "count": 2},
    }

    def kind(i: int) -> tuple[bool, bool]:
        return i % a_period == a_offset, experts > 1 and i % e_period == e_offset

    layers = periodic_groups(n, math.lcm(a_period, e_period), kind, changes_from(table))
    return model(cfg, h, block, layers, positions="none")


FAMILY = Family(
    "Jamba",
    (
        ModelType(
            "jamba",
            jamba,
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 65536,
                "intermediate_size": 14336,
                "num_key_value_heads": 8,
                "num_experts": 16,
                "num_experts_per_tok": 2,
                "expert_layer_period": 2,
                "expert_layer_offset": 1,
                "attn_layer_period": 8,
                "attn_layer_offset": 4,
                "mamba_d_state": 16,
                "mamba_d_conv": 4,
                "mamba_expand": 2,
                "mamba_dt_rank": "auto",
                "mamba_conv_bias": True,
                "mamba_proj_bias": False,
                "max_position_embeddings": 262144,
            },
            derived_layer_types=("layer_types", "layers_block_type"),
        ),
    ),
)
