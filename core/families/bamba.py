"""Bamba (``BambaForCausalLM``): Mamba-2 layers with attention at ``attn_layer_indices`` and a gated
MLP in every layer."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import periodic_groups
from paramtally.core.families.llama import LLAMA_DEFAULTS
from paramtally.core.families.mamba import MAMBA2_HYBRID_DEFAULTS, hybrid_mamba2_mixer
from paramtally.core.families.pieces import activation, attention, changes_from, gated, model

__all__ = ["FAMILY"]


def bamba(cfg: HFConfig) -> Spec:
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    mixer = hybrid_mamba2_mixer(
        cfg, h, cfg.integer("mamba_expand") * h, out_bias_key="mamba_proj_bias", gated_norm=True
    )
    block = {
        "mixer": mixer,
        "ffn": gated(cfg.integer("intermediate_size"), cfg.flag("mlp_bias"), activation(cfg)),
        "norms": {"kind": "rmsnorm", "count": 2},
    }
    at = dict.fromkeys(cfg.int_list("attn_layer_indices"), "attention")
    changes = changes_from({"attention": {"mixer": attention(cfg, h)}})
    return model(cfg, h, block, periodic_groups(n, 1, lambda i: "mamba", changes, at))


FAMILY = Family(
    "Bamba",
    (
        ModelType(
            "bamba",
            bamba,
            {
                **LLAMA_DEFAULTS,
                **MAMBA2_HYBRID_DEFAULTS,
                "vocab_size": 128000,
                "intermediate_size": 14336,
                "num_key_value_heads": 8,
                "attn_layer_indices": None,
                "max_position_embeddings": 262144,
            },
            derived_layer_types=("layer_types", "layers_block_type"),
        ),
    ),
)
