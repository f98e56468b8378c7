"""Granite-3 MoE and its shared-expert variant (``GraniteMoeForCausalLM``,
``GraniteMoeSharedForCausalLM``): Llama's layers whose MLP is ``block_sparse_moe``
(``GraniteMoeMoE``: ``router.weight [E, h]``, fused ``experts.gate_up_proj [E, 2f, h]`` and
``down_proj [E, h, f]``). GraniteMoeShared adds a gated ``shared_mlp`` of
``shared_intermediate_size`` (``input_linear [2s, h]``, ``output_linear [h, s]``; 0 builds none).

Granite's ``embedding_multiplier``, ``attention_multiplier``, ``residual_multiplier`` and
``logits_scaling`` scale activations and hold no parameters: they are not read.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped
from paramtally.core.families.pieces import moe

__all__ = ["FAMILY"]


def _experts(cfg: HFConfig, dense: Spec, *, shared: bool) -> list[Spec]:
    routed = moe(cfg.integer("num_local_experts"), cfg.integer("num_experts_per_tok"), dense["width"])
    experts: Spec = {"kind": "moe", "activation": dense["activation"], **routed}
    width = cfg.integer("shared_intermediate_size", minimum=0) if shared else 0
    if width:  # GraniteMoeSharedDecoderLayer: shared_mlp is None at 0
        experts.update(shared_experts=1, shared_expert_width=width)
    return [{"count": cfg.integer("num_hidden_layers"), "override": {"ffn": experts}}]


# GraniteMoeAttention reads head_dim only where the config has one (h / a otherwise).
GRANITEMOE = LlamaShape(layers=lambda cfg, dense: _experts(cfg, dense, shared=False))
GRANITEMOE_SHARED = LlamaShape(layers=lambda cfg, dense: _experts(cfg, dense, shared=True))

_DEFAULTS: dict[str, Any] = {
    **LLAMA_DEFAULTS,
    "num_local_experts": 8,
    "num_experts_per_tok": 2,
}

FAMILY = Family(
    "Granite-3 MoE",
    (
        ModelType("granitemoe", lambda cfg: llama_shaped(cfg, GRANITEMOE), _DEFAULTS),
        ModelType(
            "granitemoeshared",
            lambda cfg: llama_shaped(cfg, GRANITEMOE_SHARED),
            {**_DEFAULTS, "shared_intermediate_size": 0},
        ),
    ),
)
