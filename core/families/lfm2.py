"""LFM2 and LFM2-MoE (``Lfm2ForCausalLM``, ``Lfm2MoeForCausalLM``, transformers' ``modeling_lfm2.py``
and ``modeling_lfm2_moe.py``): gated short-convolution layers and attention layers, each followed by
a SwiGLU MLP (LFM2-MoE: its first ``num_dense_layers``; a mixture of experts after them).

A layer is a short conv (``Lfm2ShortConv``) or, where ``layer_types`` says full_attention (older
files: ``full_attn_idxs``; neither: every layer), attention with per-head q/k RMSNorms
(``q_layernorm``/``k_layernorm``) and no biases. Norms ``operator_norm`` and ``ffn_norm``; the final
norm is named ``embedding_norm``. Quirks, as ``Lfm2Config.__post_init__`` and ``Lfm2MLP`` read a
file:
- ``block_ff_dim`` is the MLP width (it wins over ``intermediate_size``), ``tie_embedding`` the tie
  (it wins over ``tie_word_embeddings``);
- with ``block_auto_adjust_ff_dim`` the MLP takes int(2·f/3), times ``block_ffn_dim_multiplier``,
  rounded up to ``block_multiple_of``: LFM2-1.2B's 12,288 → 8,192.

LFM2-MoE reads none of those: its dense MLPs are ``intermediate_size`` wide as written, its layer
types are ``layer_types`` alone (the model cannot be built without them), its experts gated with no
biases, an [E, h] router and, with ``use_expert_bias``, a routing bias that is a buffer
(``Lfm2MoeSparseMoeBlock.expert_bias``), no shared expert. ``tie_embedding`` still wins over
``tie_word_embeddings`` (``Lfm2MoeConfig.__post_init__``).
"""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import groups_from_kinds
from paramtally.core.families.pieces import (
    attention,
    changes_from,
    decoder_model,
    gated,
    layer_types,
    moe,
)
from paramtally.core.text import say

__all__ = ["FAMILY", "LFM2_DEFAULTS", "LFM2_MOE_DEFAULTS", "lfm2_ffn_width", "lfm2_layer_kinds", "lfm2_model"]

# Lfm2Config's defaults (transformers 5.24) for the keys read here.
LFM2_DEFAULTS: dict[str, Any] = {
    "vocab_size": 65536,
    "hidden_size": 2560,
    "intermediate_size": 12288,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "max_position_embeddings": 128000,
    "tie_word_embeddings": True,
    "conv_bias": False,
    "conv_L_cache": 3,
    "block_multiple_of": 256,
    "block_ffn_dim_multiplier": 1.0,
    "block_auto_adjust_ff_dim": True,
    "full_attn_idxs": None,
}
# Lfm2MoeConfig's defaults (transformers 5.24) for the keys read here.
LFM2_MOE_DEFAULTS: dict[str, Any] = {
    "vocab_size": 65536,
    "hidden_size": 2048,
    "intermediate_size": 7168,
    "moe_intermediate_size": 1792,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "max_position_embeddings": 128000,
    "tie_word_embeddings": True,
    "conv_bias": False,
    "conv_L_cache": 3,
    "num_dense_layers": 2,
    "num_experts_per_tok": 4,
    "num_experts": 32,
    "use_expert_bias": True,
    "layer_types": None,
}
_TYPES = {"full_attention": "full_attention", "conv": "conv"}


def lfm2_ffn_width(cfg: HFConfig, key: str) -> int:
    """The MLP width ``Lfm2MLP`` builds from ``key`` (``block_ff_dim`` where the file has it)."""
    width = cfg.integer("block_ff_dim") if cfg.has("block_ff_dim") else cfg.integer(key)
    if not cfg.flag("block_auto_adjust_ff_dim"):
        return width
    width = int(2 * width / 3)
    if cfg.raw("block_ffn_dim_multiplier") is None:  # the strict config refuses it, as the model would
        raise cfg.fail("block_ffn_dim_multiplier", say("must be a number (transformers refuses null)"))
    width = int(cfg.number("block_ffn_dim_multiplier") * width)
    multiple = cfg.integer("block_multiple_of")
    return multiple * ((width + multiple - 1) // multiple)


def lfm2_layer_kinds(cfg: HFConfig) -> list[str]:
    """Each layer's type: ``layer_types``, else full attention at ``full_attn_idxs`` (every layer
    where that is null too) and a short conv elsewhere."""
    n = cfg.integer("num_hidden_layers")
    if cfg.has("layer_types"):
        return layer_types(cfg, n, "conv", _TYPES)
    at = cfg.int_list("full_attn_idxs") if cfg.raw("full_attn_idxs") is not None else range(n)
    attending = set(at)
    return ["full_attention" if i in attending else "conv" for i in range(n)]


def lfm2_model(cfg: HFConfig, ffn: Spec, layers: list[Spec]) -> Spec:
    """An LFM2-shaped model: short-conv base block over ``ffn``, the ``layers`` groups."""
    h = cfg.integer("hidden_size")
    tied = cfg.flag("tie_embedding") if cfg.has("tie_embedding") else cfg.flag("tie_word_embeddings")
    block = {
        "mixer": {
            "kind": "short_conv",
            "conv_kernel": cfg.integer("conv_L_cache"),
            "bias": cfg.flag("conv_bias"),
        },
        "ffn": ffn,
        "norms": {"kind": "rmsnorm", "count": 2},
    }
    return decoder_model(
        h,
        cfg.integer("vocab_size"),
        block,
        layers,
        tied=tied,
        positions="rope",
        max_positions=cfg.integer("max_position_embeddings", default=0, minimum=0),
    )


def _attention_layer(cfg: HFConfig) -> Spec:
    return {"mixer": attention(cfg, cfg.integer("hidden_size"), bias_key=None, qk_norm=True)}


def lfm2(cfg: HFConfig) -> Spec:
    changes = changes_from({"full_attention": _attention_layer(cfg)})
    layers = groups_from_kinds(lfm2_layer_kinds(cfg), changes)
    return lfm2_model(cfg, gated(lfm2_ffn_width(cfg, "intermediate_size")), layers)


def lfm2_moe(cfg: HFConfig) -> Spec:
    n = cfg.integer("num_hidden_layers")
    if cfg.raw("layer_types") is None:
        raise cfg.fail(
            "layer_types", say("is needed: Lfm2MoeConfig derives none and the model reads one a layer")
        )
    kinds = layer_types(cfg, n, "conv", _TYPES)
    dense = cfg.integer("num_dense_layers", minimum=0)
    experts = moe(
        cfg.integer("num_experts"), cfg.integer("num_experts_per_tok"), cfg.integer("moe_intermediate_size")
    )
    attending = _attention_layer(cfg)
    changes = changes_from(
        {
            ("full_attention", True): attending,
            ("conv", False): {"ffn": experts},
            ("full_attention", False): {**attending, "ffn": experts},
        }
    )
    layers = groups_from_kinds([(kind, i < dense) for i, kind in enumerate(kinds)], changes)
    return lfm2_model(cfg, gated(cfg.integer("intermediate_size")), layers)


FAMILY = Family(
    "LFM2, LFM2-MoE",
    (
        ModelType(
            "lfm2",
            lfm2,
            LFM2_DEFAULTS,
            dropout=(None, None),
        ),
        ModelType(
            "lfm2_moe",
            lfm2_moe,
            LFM2_MOE_DEFAULTS,
            dropout=(None, None),
        ),
    ),
)
