"""ERNIE 4.5 dense (``Ernie4_5ForCausalLM``): Llama's shapes with ``use_bias`` biasing q, k, v, o and
the MLP alike; ``head_dim`` 128 whatever h / a (the 0.3B: 16 heads of 128 on h = 1024); tied by
default (``Ernie4_5Config``)."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped

__all__ = ["FAMILY"]

ERNIE4_5 = LlamaShape(bias_key="use_bias", mlp_bias_key="use_bias")

FAMILY = Family(
    "ERNIE 4.5",
    (
        ModelType(
            "ernie4_5",
            lambda cfg: llama_shaped(cfg, ERNIE4_5),
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 103424,
                "hidden_size": 1024,
                "intermediate_size": 3072,
                "num_hidden_layers": 18,
                "num_attention_heads": 16,
                "num_key_value_heads": 2,
                "head_dim": 128,
                "max_position_embeddings": 131072,
                "use_bias": False,
                "tie_word_embeddings": True,
            },
        ),
    ),
)
