"""Mistral and Mixtral (``MistralForCausalLM``, ``MixtralForCausalLM``): Llama's layers without
biases, a sliding window on every layer where the config sets one, and in Mixtral every layer's
MLP a mixture of ``num_local_experts`` experts of ``intermediate_size``."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, Window, llama_shaped
from paramtally.core.families.pieces import moe

__all__ = ["FAMILY"]


def _every_layer_moe(cfg: HFConfig, dense: Spec) -> list[Spec]:
    experts = moe(cfg.integer("num_local_experts"), cfg.integer("num_experts_per_tok"), dense["width"])
    return [
        {
            "count": cfg.integer("num_hidden_layers"),
            "override": {"ffn": {"kind": "moe", "activation": dense["activation"], **experts}},
        }
    ]


MISTRAL = LlamaShape(biased=(), window=Window())
MIXTRAL = LlamaShape(biased=(), window=Window(), layers=_every_layer_moe)

FAMILY = Family(
    "Mistral, Mixtral",
    (
        ModelType(
            "mistral",
            lambda cfg: llama_shaped(cfg, MISTRAL),
            {
                **LLAMA_DEFAULTS,
                "intermediate_size": 14336,
                "num_key_value_heads": 8,
                "max_position_embeddings": 131072,
                "sliding_window": 4096,
            },
            tokenizer="sentencepiece_at_32k",
        ),
        ModelType(
            "mixtral",
            lambda cfg: llama_shaped(cfg, MIXTRAL),
            {
                **LLAMA_DEFAULTS,
                "intermediate_size": 14336,
                "num_key_value_heads": 8,
                "max_position_embeddings": 131072,
                "sliding_window": None,
                "num_local_experts": 8,
                "num_experts_per_tok": 2,
            },
            tokenizer="sentencepiece_at_32k",
        ),
    ),
)
