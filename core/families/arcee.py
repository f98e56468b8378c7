"""Arcee AFM (``ArceeForCausalLM``): Llama's shapes with a plain MLP ``up_proj``/``down_proj``
(relu²): 2·h·f, not 3·h·f."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped

__all__ = ["FAMILY"]

ARCEE = LlamaShape(mlp_bias_key="mlp_bias", gated=False)

FAMILY = Family(
    "Arcee AFM",
    (
        ModelType(
            "arcee",
            lambda cfg: llama_shaped(cfg, ARCEE),
            {
                **LLAMA_DEFAULTS,
                "hidden_size": 2560,
                "intermediate_size": 18432,
                "hidden_act": "relu2",
                "max_position_embeddings": 4096,
            },
        ),
    ),
)
