"""Qwen3-Next (``Qwen3NextForCausalLM``): gated DeltaNet layers with full (gated) attention every
``full_attention_interval``-th layer (or as ``layer_types`` say); a MoE FFN with a gated shared
expert on every ``decoder_sparse_step``-th layer but those of ``mlp_only_layers``."""

from __future__ import annotations

import math

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import groups_from_kinds, periodic_groups
from paramtally.core.families.pieces import (
    LINEAR_OR_FULL,
    activation,
    attention,
    changes_from,
    gated,
    layer_types,
    model,
    moe,
)
from paramtally.core.families.qwen import QWEN_DEFAULTS

__all__ = ["FAMILY"]


def qwen3_next(cfg: HFConfig) -> Spec:
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    mixer: Spec = {
        "kind": "gated_deltanet",
        "key_heads": cfg.integer("linear_num_key_heads"),
        "value_heads": cfg.integer("linear_num_value_heads"),
        "key_dim": cfg.integer("linear_key_head_dim"),
        "value_dim": cfg.integer("linear_value_head_dim"),
        "conv_kernel": cfg.integer("linear_conv_kernel_dim"),
    }
    experts = cfg.integer("num_experts", minimum=0)
    routed = moe(
        experts,
        cfg.integer("num_experts_per_tok"),
        cfg.integer("moe_intermediate_size"),
        shared_experts=1,
        shared_expert_width=cfg.integer("shared_expert_intermediate_size"),
        shared_expert_gate=True,
    )
    dense = gated(cfg.integer("intermediate_size"), activation=activation(cfg))
    block = {"mixer": mixer, "ffn": routed if experts else dense, "norms": {"kind": "rmsnorm", "count": 2}}
    full = attention(cfg, h, qk_norm=True, output_gate=True, head_dim=cfg.integer("head_dim"))
    step = cfg.integer("decoder_sparse_step")
    dense_only = set(cfg.int_list("mlp_only_layers"))
    table = {
        ("attention", True): {"mixer": full},
        ("deltanet", False): {"ffn": dense},
        ("attention", False): {"mixer": full, "ffn": dense},
    }

    def is_moe(i: int) -> bool:
        return experts > 0 and (i + 1) % step == 0

    if cfg.has("layer_types"):
        types = layer_types(cfg, n, "linear_attention", LINEAR_OR_FULL)
        kinds = [
            ("attention" if t == "full_attention" else "deltanet", is_moe(i) and i not in dense_only)
            for i, t in enumerate(types)
        ]
        return model(cfg, h, block, groups_from_kinds(kinds, changes_from(table)))
    interval = cfg.integer("full_attention_interval")

    def kind(i: int) -> tuple[str, bool]:
        return ("attention" if (i + 1) % interval == 0 else "deltanet"), is_moe(i)

    exceptions = {i: (kind(i)[0], False) for i in dense_only}
    layers = periodic_groups(n, math.lcm(interval, step), kind, changes_from(table), exceptions)
    return model(cfg, h, block, layers)


FAMILY = Family(
    "Qwen3-Next",
    (
        ModelType(
            "qwen3_next",
            qwen3_next,
            {
                **QWEN_DEFAULTS,
                "hidden_size": 2048,
                "intermediate_size": 5632,
                "num_hidden_layers": 48,
                "num_attention_heads": 16,
                "num_key_value_heads": 2,
                "head_dim": 256,
                "linear_num_key_heads": 16,
                "linear_num_value_heads": 32,
                "linear_key_head_dim": 128,
                "linear_value_head_dim": 128,
                "linear_conv_kernel_dim": 4,
                "full_attention_interval": 4,
                "num_experts": 512,
                "num_experts_per_tok": 10,
                "decoder_sparse_step": 1,
                "moe_intermediate_size": 512,
                "shared_expert_intermediate_size": 512,
                "layer_types": None,
            },
            # Qwen3NextRMSNorm scales by (1 + weight) in fp32, as Gemma's does.
            activations=ActivationQuirks(fp32_norm=True),
        ),
    ),
)
