"""Seed-OSS (``SeedOssForCausalLM``): Llama's shapes with ``attention_bias`` biasing q, k and v and
``attention_out_bias`` o on its own (``SeedOssAttention``); heads of ``head_dim`` 128 whatever
h / a (Seed-OSS-36B: 80 × 128 = 10,240 on h = 5,120)."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped

__all__ = ["FAMILY"]

SEED_OSS = LlamaShape(o_bias_key="attention_out_bias", mlp_bias_key="mlp_bias")

FAMILY = Family(
    "Seed-OSS",
    (
        ModelType(
            "seed_oss",
            lambda cfg: llama_shaped(cfg, SEED_OSS),
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 155136,
                "intermediate_size": 27648,
                "num_hidden_layers": 64,
                "num_attention_heads": 80,
                "num_key_value_heads": 8,
                "head_dim": 128,
                "max_position_embeddings": 524288,
                "attention_bias": True,
                "attention_out_bias": False,
                "attention_dropout": 0.1,
                "residual_dropout": 0.1,
            },
            dropout=("attention_dropout", "residual_dropout"),
        ),
    ),
)
