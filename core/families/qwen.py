"""Qwen2, Qwen2-MoE, Qwen3 and Qwen3-MoE (``Qwen2ForCausalLM`` … ``Qwen3MoeForCausalLM``): Llama's
layers with q/k/v biases (Qwen2: always; Qwen2-MoE: ``qkv_bias``) or per-head q/k RMSNorms (Qwen3),
a window only where ``use_sliding_window`` is on from layer ``max_window_layers`` (0: every layer),
and in the MoE models experts on every ``decoder_sparse_step``-th layer but those of
``mlp_only_layers`` (Qwen2-MoE with one gated shared expert)."""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import periodic_groups
from paramtally.core.families.llama import (
    LLAMA_DEFAULTS,
    Layers,
    LlamaShape,
    Window,
    llama_shaped,
)
from paramtally.core.families.pieces import changes_from, moe

__all__ = ["FAMILY", "QWEN_DEFAULTS", "sparse_step_layers"]

QWEN_DEFAULTS: dict[str, Any] = {
    **LLAMA_DEFAULTS,
    "vocab_size": 151936,
    "intermediate_size": 22016,
    "max_position_embeddings": 32768,
    "use_sliding_window": False,
    "sliding_window": None,
    "max_window_layers": 28,
}


def sparse_step_layers(experts_key: str, *, shared_expert: bool = False) -> Layers:
    """Layers whose FFN is MoE when (i + 1) % decoder_sparse_step == 0, unless mlp_only_layers
    names them; ``shared_expert``: one gated shared expert of shared_expert_intermediate_size."""

    def layers(cfg: HFConfig, dense: Spec) -> list[Spec]:
        n = cfg.integer("num_hidden_layers")
        num_experts = cfg.integer(experts_key, minimum=0)
        step = cfg.integer("decoder_sparse_step")
        dense_only = set(cfg.int_list("mlp_only_layers"))
        if num_experts == 0:
            return [{"count": n}]
        routed = moe(num_experts, cfg.integer("num_experts_per_tok"), cfg.integer("moe_intermediate_size"))
        experts: Spec = {"kind": "moe", "activation": dense["activation"], **routed}
        if shared_expert:
            width = cfg.integer("shared_expert_intermediate_size")
            experts.update(shared_experts=1, shared_expert_width=width, shared_expert_gate=True)
        changes = changes_from({True: {"ffn": experts}})
        exceptions = dict.fromkeys(dense_only, False)
        return periodic_groups(n, step, lambda i: (i + 1) % step == 0, changes, exceptions)

    return layers


_WINDOW = Window(switch="use_sliding_window", below_key="max_window_layers")
_READ_TYPES = Window(switch="use_sliding_window", below_key="max_window_layers", reads_layer_types=True)
QWEN2 = LlamaShape(bias_key=None, biased=("q_bias", "k_bias", "v_bias"), window=_READ_TYPES)
QWEN2_MOE = LlamaShape(
    bias_key="qkv_bias",
    biased=("q_bias", "k_bias", "v_bias"),
    window=_READ_TYPES,
    layers=sparse_step_layers("num_experts", shared_expert=True),
)
QWEN3 = LlamaShape(qk_norm=True, window=_READ_TYPES)
# Qwen3MoeModel masks every layer alike: it never reads layer_types.
QWEN3_MOE = LlamaShape(qk_norm=True, window=_WINDOW, layers=sparse_step_layers("num_local_experts"))

FAMILY = Family(
    "Qwen2, Qwen3 (dense and MoE)",
    (
        ModelType("qwen2", lambda cfg: llama_shaped(cfg, QWEN2), QWEN_DEFAULTS),
        ModelType(
            "qwen2_moe",
            lambda cfg: llama_shaped(cfg, QWEN2_MOE),
            {
                **QWEN_DEFAULTS,
                "hidden_size": 2048,
                "intermediate_size": 5632,
                "num_hidden_layers": 24,
                "num_attention_heads": 16,
                "decoder_sparse_step": 1,
                "moe_intermediate_size": 1408,
                "shared_expert_intermediate_size": 5632,
                "num_experts_per_tok": 4,
                "num_experts": 60,
                "mlp_only_layers": [],
                "qkv_bias": True,
            },
        ),
        ModelType("qwen3", lambda cfg: llama_shaped(cfg, QWEN3), {**QWEN_DEFAULTS, "head_dim": 128}),
        ModelType(
            "qwen3_moe",
            lambda cfg: llama_shaped(cfg, QWEN3_MOE),
            {
                **QWEN_DEFAULTS,
                "hidden_size": 2048,
                "intermediate_size": 6144,
                "num_hidden_layers": 24,
                "num_attention_heads": 32,
                "num_key_value_heads": 4,
                "decoder_sparse_step": 1,
                "moe_intermediate_size": 768,
                "num_experts_per_tok": 8,
                "num_local_experts": 128,
                "mlp_only_layers": [],
            },
        ),
    ),
)
