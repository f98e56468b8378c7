"""OLMoE (``OlmoeForCausalLM``): Llama's layers with q/k RMSNorms over the whole projection
(``OlmoeAttention``: ``q_norm`` of h, ``k_norm`` of (h / a)·g) and every MLP a mixture of
``num_experts`` experts of ``intermediate_size`` (``OlmoeExperts``, fused 3-D; router
``OlmoeTopKRouter`` without bias), no shared expert."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS, Layers, LlamaShape, llama_shaped
from paramtally.core.families.pieces import moe

__all__ = ["FAMILY", "every_layer_moe"]


def every_layer_moe(experts_key: str, width_key: str = "intermediate_size") -> Layers:
    """Layers whose MLP is ``experts_key`` experts of ``width_key``, top ``num_experts_per_tok``."""

    def layers(cfg: HFConfig, dense: Spec) -> list[Spec]:
        routed = moe(cfg.integer(experts_key), cfg.integer("num_experts_per_tok"), cfg.integer(width_key))
        experts = {"kind": "moe", "activation": dense["activation"], **routed}
        return [{"count": cfg.integer("num_hidden_layers"), "override": {"ffn": experts}}]

    return layers


# Olmoe's q/k norms are h and (h // a)·g wide whatever head_dim says; the head width is h / a.
OLMOE = LlamaShape(
    biased=("q_bias", "k_bias", "v_bias", "o_bias"),
    qk_norm=True,
    qk_norm_span="projection",
    head_dim_key=None,
    layers=every_layer_moe("num_experts"),
)

FAMILY = Family(
    "OLMoE",
    (
        ModelType(
            "olmoe",
            lambda cfg: llama_shaped(cfg, OLMOE),
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 50304,
                "hidden_size": 2048,
                "intermediate_size": 2048,
                "num_hidden_layers": 16,
                "num_attention_heads": 16,
                "max_position_embeddings": 4096,
                "num_experts_per_tok": 8,
                "num_experts": 64,
            },
        ),
    ),
)
