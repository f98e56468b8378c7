"""ModernBERT (``ModernBertForMaskedLM``, or the bare ``ModernBertModel``): a pre-norm encoder with
rotary positions, global attention every ``global_attn_every_n_layers`` layers and a window of
``local_attention`` tokens in the others (or as ``layer_types`` lists them), fused ``Wqkv``, a
GeGLU MLP (``Wi`` of 2·f, ``Wo``), LayerNorms whose β ``norm_bias`` decides (false in the
published models, as ``attention_bias`` and ``mlp_bias`` are).

``ModernBertEncoderLayer`` of layer 0 has no ``attn_norm`` (an ``nn.Identity``: the embedding
norm just ran), so its block has one norm. The MLM head (``ModernBertPredictionHead``) is a dense
h → h whose bias is ``classifier_bias`` and a LayerNorm, then the decoder tied to the embedding,
its bias ``decoder_bias``. The bare model has no pooler.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.bert import head_named
from paramtally.core.families.hf_reader import HFConfig, display_name
from paramtally.core.families.layer_pattern import groups_from_kinds, periodic_groups
from paramtally.core.families.pieces import (
    SLIDING_OR_FULL,
    all_biases,
    encoder_model,
    layer_types,
)

__all__ = ["FAMILY"]

Kind = tuple[bool, bool]  # (the first layer, a local-attention layer)


def modernbert(cfg: HFConfig) -> Spec:
    head = head_named(cfg, "ModernBert", ("ForMaskedLM", "Model"))
    h = cfg.integer("hidden_size")
    bias = cfg.flag("norm_bias")
    block = {
        "mixer": {
            "kind": "attention",
            "num_heads": cfg.divisor("num_attention_heads", h, "hidden_size"),
            **all_biases(cfg.flag("attention_bias")),
        },
        "ffn": {
            "kind": "dense",
            "width": cfg.integer("intermediate_size"),
            "gated": True,
            "bias": cfg.flag("mlp_bias"),
            "activation": cfg.text("hidden_activation"),
        },
        "norms": {"kind": "layernorm", "bias": bias},
    }
    window = cfg.integer("local_attention")

    def changes(kind: Kind) -> dict[str, Any]:
        first, local = kind
        return ({"norms": {"count": 1}} if first else {}) | (
            {"mixer": {"sliding_window": window}} if local else {}
        )

    layers = _layers(cfg, cfg.integer("num_hidden_layers"), changes)
    tied = cfg.flag("tie_word_embeddings")
    spec = encoder_model(
        h,
        cfg.integer("vocab_size"),
        block,
        layers,
        tied=tied,
        positions="rope",
        max_positions=cfg.integer("max_position_embeddings"),
        embedding_norm=True,
        final_norm=True,
    )
    if head == "Model":
        spec["head"] = {"present": False}
        spec["name"] = display_name(cfg.data, cfg.origin) + " (ModernBertModel)"
    else:
        spec["head"] = {
            "tied": tied,
            "bias": cfg.flag("decoder_bias"),
            "transform": True,
            "transform_bias": cfg.flag("classifier_bias"),
        }
    return spec


def _layers(cfg: HFConfig, n: int, changes: Any) -> list[Spec]:
    """Layer 0 (one norm), then the local and global layers: as ``layer_types`` lists them, else
    ModernBertConfig's rule (layer i global where i % global_attn_every_n_layers is 0)."""
    if cfg.has("layer_types"):
        types = layer_types(cfg, n, "full_attention", SLIDING_OR_FULL)
        kinds = [(i == 0, kind == "sliding_attention") for i, kind in enumerate(types)]
        return groups_from_kinds(kinds[:1], changes) + groups_from_kinds(kinds[1:], changes)
    every = cfg.integer("global_attn_every_n_layers")
    return periodic_groups(
        n, every, lambda i: (False, i % every != 0), changes, exceptions={0: (True, False)}
    )


FAMILY = Family(
    "ModernBERT",
    (
        ModelType(
            "modernbert",
            modernbert,
            {
                "vocab_size": 50368,
                "hidden_size": 768,
                "intermediate_size": 1152,
                "num_hidden_layers": 22,
                "num_attention_heads": 12,
                "hidden_activation": "gelu",
                "max_position_embeddings": 8192,
                "norm_bias": False,
                "attention_bias": False,
                "mlp_bias": False,
                "decoder_bias": True,
                "classifier_bias": False,
                "local_attention": 128,
                "global_attn_every_n_layers": 3,
                "tie_word_embeddings": True,
                "attention_dropout": 0.0,
            },
        ),
    ),
)
