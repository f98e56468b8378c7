"""MiniMax-01 (``MiniMaxForCausalLM``: MiniMax-Text-01): lightning attention layers
(``MiniMaxLightningAttention``, a gated linear attention) with softmax attention layers
(``MiniMaxAttention``: GQA, no biases) where ``layer_types`` says full_attention, and Mixtral's
MoE FFN (a bias-free router over fused gated experts) in every layer.

Without ``layer_types`` MiniMaxConfig alternates, the first layer full. The original remote-code
files say ``attn_type_list`` instead (1 softmax, 0 lightning), which 5.24's MiniMaxConfig does
not read: it would build the alternation, not the checkpoint, so such a file is refused.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import groups_from_kinds
from paramtally.core.families.pieces import (
    LINEAR_OR_FULL,
    activation,
    attention,
    changes_from,
    layer_types,
    model,
    moe,
)
from paramtally.core.text import say

__all__ = ["FAMILY"]


def _full_layers(cfg: HFConfig, n: int) -> list[bool]:
    """Which layers are softmax attention: as ``layer_types`` says, else every other one from 0."""
    if cfg.has("layer_types") and cfg.raw("layer_types") is not None:
        return [kind == "full_attention" for kind in layer_types(cfg, n, "full_attention", LINEAR_OR_FULL)]
    if cfg.has("attn_type_list"):
        reason = say(
            "is not read by transformers 5.24 (MiniMaxConfig), which then alternates lightning and "
            "softmax layers; write the layers as layer_types"
        )
        raise cfg.fail("attn_type_list", reason)
    return [i % 2 == 0 for i in range(n)]


def minimax(cfg: HFConfig) -> Spec:
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    a = cfg.integer("num_attention_heads")
    lightning = {
        "kind": "lightning_attention",
        "num_heads": a,
        "head_dim": cfg.opt_integer("head_dim") or h // a,
        "block_size": cfg.integer("block_size"),
    }
    window = cfg.opt_integer("sliding_window")
    full = attention(cfg, h, bias_key=None, **({"sliding_window": window} if window else {}))
    experts = moe(
        cfg.integer("num_local_experts"), cfg.integer("num_experts_per_tok"), cfg.integer("intermediate_size")
    )
    ffn = {**experts, "activation": activation(cfg)}
    block = {"mixer": lightning, "ffn": ffn, "norms": {"kind": "rmsnorm", "count": 2}}
    layers = groups_from_kinds(_full_layers(cfg, n), changes_from({True: {"mixer": full}}))
    return model(cfg, h, block, layers)


# MiniMaxConfig (transformers 5.24).
_MINIMAX_DEFAULTS: dict[str, Any] = {
    "vocab_size": 32000,
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "head_dim": None,  # h / a
    "hidden_act": "silu",
    "max_position_embeddings": 4096 * 32,
    "tie_word_embeddings": False,
    "sliding_window": None,
    "attention_dropout": 0.0,
    "num_experts_per_tok": 2,
    "num_local_experts": 8,
    "layer_types": None,
    "block_size": 256,
}

FAMILY = Family("MiniMax-01", (ModelType("minimax", minimax, _MINIMAX_DEFAULTS),))
