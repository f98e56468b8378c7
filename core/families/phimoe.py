"""Phi-3.5-MoE (``PhimoeForCausalLM``; published files name ``PhiMoEForCausalLM``, not a
transformers class): Mixtral's layers with LayerNorms that have a bias (``nn.LayerNorm``, also the
final norm), q/k/v/o biases with ``attention_bias``, a bias on the head with ``lm_head_bias``,
and every MLP ``num_local_experts`` experts of ``intermediate_size`` under a bias-free router
(``PhimoeTopKRouter``, ``mlp.router.weight [E, h]``). A ``sliding_window`` bounds every layer."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, Window, llama_shaped
from paramtally.core.families.olmoe import every_layer_moe

__all__ = ["FAMILY"]

_PHIMOE = LlamaShape(norm="layernorm", window=Window(), layers=every_layer_moe("num_local_experts"))


def phimoe(cfg: HFConfig) -> Spec:
    spec = llama_shaped(cfg, _PHIMOE)
    if cfg.flag("lm_head_bias"):  # PhimoeForCausalLM: nn.Linear(h, V, bias=config.lm_head_bias)
        spec["head"]["bias"] = True
    return spec


FAMILY = Family(
    "Phi-3.5-MoE",
    (
        ModelType(
            "phimoe",
            phimoe,
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 32064,
                "intermediate_size": 6400,
                "num_key_value_heads": 8,
                "max_position_embeddings": 131072,
                "sliding_window": None,
                "num_experts_per_tok": 2,
                "num_local_experts": 16,
                "lm_head_bias": False,
            },
            tokenizer="sentencepiece",
            dropout=("attention_dropout", None),
        ),
    ),
)
