"""Granite 3 dense (``GraniteForCausalLM``): Llama's shapes; ``embedding_multiplier``,
``attention_multiplier``, ``residual_multiplier`` and ``logits_scaling`` scale activations and
shape no parameter."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped

__all__ = ["FAMILY"]

GRANITE = LlamaShape(mlp_bias_key="mlp_bias")

FAMILY = Family(
    "Granite",
    (ModelType("granite", lambda cfg: llama_shaped(cfg, GRANITE), dict(LLAMA_DEFAULTS)),),
)
