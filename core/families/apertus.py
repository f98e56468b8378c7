"""Apertus (``ApertusForCausalLM``): Llama's attention with a q/k RMSNorm over d_h on every
layer, norms named ``attention_layernorm`` and ``feedforward_layernorm`` (two RMSNorms all the
same), and a plain MLP ``up_proj``/``down_proj`` without biases whose xIELU activation learns two
scalars (``XIELUActivation``: ``alpha_p``, ``alpha_n``; ``beta`` and ``eps`` are buffers)."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped

__all__ = ["FAMILY"]

APERTUS = LlamaShape(qk_norm=True, gated=False)

FAMILY = Family(
    "Apertus",
    (
        ModelType(
            "apertus",
            lambda cfg: llama_shaped(cfg, APERTUS),
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 131072,
                "intermediate_size": 14336,
                "hidden_act": "xielu",
                "max_position_embeddings": 65536,
            },
        ),
    ),
)
