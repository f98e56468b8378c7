"""Granite-4.0-H (``GraniteMoeHybridForCausalLM``): ``layer_types`` (mamba / attention) pick each
layer's mixer, Mamba-2 where the file lists none; every layer has the MoE FFN and the shared MLP,
Mamba layers included (a gated MLP of ``shared_intermediate_size`` without experts)."""

from __future__ import annotations

from types import MappingProxyType

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import groups_from_kinds
from paramtally.core.families.llama import LLAMA_DEFAULTS
from paramtally.core.families.mamba import MAMBA2_HYBRID_DEFAULTS, hybrid_mamba2_mixer
from paramtally.core.families.pieces import (
    LINEAR_OR_FULL,
    attention,
    changes_from,
    gated,
    layer_types,
    model,
    moe,
)

__all__ = ["FAMILY"]


def granitemoehybrid(cfg: HFConfig) -> Spec:
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    mixer = hybrid_mamba2_mixer(
        cfg, h, cfg.integer("mamba_expand") * h, out_bias_key="mamba_proj_bias", gated_norm=True
    )
    experts = cfg.integer("num_local_experts", minimum=0)
    shared = cfg.integer("shared_intermediate_size")
    if experts:
        ffn = moe(
            experts,
            cfg.integer("num_experts_per_tok"),
            cfg.integer("intermediate_size"),
            shared_experts=1,
            shared_expert_width=shared,
        )
    else:
        ffn = gated(shared)
    block = {"mixer": mixer, "ffn": ffn, "norms": {"kind": "rmsnorm", "count": 2}}
    positions = "none" if cfg.raw("position_embedding_type", None) == "nope" else "rope"
    if cfg.raw("layer_types", None) is None:  # every layer Mamba
        return model(cfg, h, block, [{"count": n}], positions=positions)
    types = layer_types(cfg, n, "linear_attention", LINEAR_OR_FULL)
    kinds = ["attention" if kind == "full_attention" else "mamba" for kind in types]
    changes = changes_from({"attention": {"mixer": attention(cfg, h)}})
    return model(cfg, h, block, groups_from_kinds(kinds, changes), positions=positions)


FAMILY = Family(
    "Granite-4.0-H",
    (
        ModelType(
            "granitemoehybrid",
            granitemoehybrid,
            {
                **LLAMA_DEFAULTS,
                **MAMBA2_HYBRID_DEFAULTS,
                "intermediate_size": 1024,
                "shared_intermediate_size": 1024,
                "num_local_experts": 8,
                "num_experts_per_tok": 2,
                "layer_types": None,
                "position_embedding_type": "rope",
            },
            # Its config's older name for layer_types.
            renamed_keys=MappingProxyType({"layers_block_type": "layer_types"}),
        ),
    ),
)
