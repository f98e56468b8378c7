"""Falcon-H1 (``FalconH1ForCausalLM``): every layer runs a Mamba-2 mixer and attention in parallel,
then a gated MLP."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS
from paramtally.core.families.mamba import MAMBA2_HYBRID_DEFAULTS, hybrid_mamba2_mixer
from paramtally.core.families.pieces import activation, attention, gated, model

__all__ = ["FAMILY"]


def falcon_h1(cfg: HFConfig) -> Spec:
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    d_ssm = cfg.raw("mamba_d_ssm")
    inner = cfg.integer("mamba_expand") * h if d_ssm is None else cfg.integer("mamba_d_ssm")
    block = {
        "mixer": attention(cfg, h),
        "parallel_mixer": hybrid_mamba2_mixer(
            cfg, h, inner, out_bias_key="projectors_bias", gated_norm=cfg.flag("mamba_rms_norm")
        ),
        "ffn": gated(cfg.integer("intermediate_size"), cfg.flag("mlp_bias"), activation(cfg)),
        "norms": {"kind": "rmsnorm", "count": 2},
    }
    return model(cfg, h, block, [{"count": n}])


FAMILY = Family(
    "Falcon-H1",
    (
        ModelType(
            "falcon_h1",
            falcon_h1,
            {
                **LLAMA_DEFAULTS,
                **MAMBA2_HYBRID_DEFAULTS,
                "vocab_size": 128000,
                "intermediate_size": 14336,
                "num_key_value_heads": 8,
                "max_position_embeddings": 8192,
                "projectors_bias": False,
                "mamba_d_ssm": 1024,
                "mamba_rms_norm": False,
            },
            derived_layer_types=("layer_types", "layers_block_type"),
        ),
    ),
)
