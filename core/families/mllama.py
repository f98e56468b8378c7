"""Llama-3.2-Vision as a whole model (``MllamaForConditionalGeneration``).

- The tower (``MllamaVisionModel``): bias-free conv patches, a class token, a position table of
  n + 1 rows, the tile tables — a position table per aspect ratio and tile
  (``gated_positional_embedding.tile_embedding``), the pre- and post-tile embeddings, their three
  gates — for up to ``max_num_tiles`` tiles and ``len(supported_aspect_ratios) + 1`` aspect-ratio
  rows; LayerNorms before and after; ``num_hidden_layers`` layers and ``num_global_layers`` more,
  each with two scalar gates; attention without biases, MLP and LayerNorms with.
- The projector: one biased linear layer from ``vision_output_dim`` — the last and the
  ``intermediate_layers_indices`` layers' outputs side by side.
- The language model (``MllamaTextModel``): a Llama whose ``cross_attention_layers`` cross-attend
  to the image instead of attending to the text (``MllamaCrossAttentionDecoderLayer``: per-head
  q/k RMSNorms, two scalar gates), head width hidden_size / heads, and an embedding 8 rows longer
  than the head.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import MAX_EXPANDED, groups_from_kinds
from paramtally.core.families.llama import LLAMA_DEFAULTS
from paramtally.core.families.pieces import activation, gated
from paramtally.core.families.vision_parts import (
    NestedType,
    linear,
    tower,
    vision_config,
    vit_block,
    vlm,
)
from paramtally.core.text import say

__all__ = ["FAMILY"]

_TEXT = NestedType(
    "mllama_text_model",
    {  # MllamaTextConfig
        **LLAMA_DEFAULTS,
        "vocab_size": 128256,
        "hidden_size": 4096,
        "num_hidden_layers": 40,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "intermediate_size": 14336,
        "max_position_embeddings": 131072,
        "cross_attention_layers": [3, 8, 13, 18, 23, 28, 33, 38],
    },
)
_VISION: dict[str, Any] = {  # MllamaVisionConfig
    "hidden_size": 1280,
    "hidden_act": "gelu",
    "num_hidden_layers": 32,
    "num_global_layers": 8,
    "attention_heads": 16,
    "num_channels": 3,
    "intermediate_size": 5120,
    "vision_output_dim": 7680,
    "image_size": 448,
    "patch_size": 14,
    "max_num_tiles": 4,
    "intermediate_layers_indices": [3, 7, 15, 23, 30],
    "supported_aspect_ratios": [[1, 1], [1, 2], [1, 3], [1, 4], [2, 1], [2, 2], [3, 1], [4, 1]],
}
_EXTRA_ROWS = 8  # MllamaTextModel.embed_tokens: vocab_size + 8 rows


def _text(cfg: HFConfig) -> Spec:
    if cfg.flag("tie_word_embeddings"):
        raise cfg.fail(
            "tie_word_embeddings", say("is true: the embedding has 8 more rows than the head it would tie")
        )
    t = cfg.nested("text_config", _TEXT)
    h, n = t.integer("hidden_size"), t.integer("num_hidden_layers")
    if n > MAX_EXPANDED:
        raise t.fail(
            "num_hidden_layers",
            say("({n:,}) is more layers than a layer list may hold ({most:,})", n=n, most=MAX_EXPANDED),
        )
    a = t.divisor("num_attention_heads", h, "hidden_size")
    g = t.divisor("num_key_value_heads", a, "num_attention_heads")
    cross = set(t.int_list("cross_attention_layers"))
    outside = sorted(i for i in cross if not 0 <= i < n)
    if outside:
        raise t.fail(
            "cross_attention_layers",
            say("names layer {layer}, outside the {n} layers", layer=outside[0], n=n),
        )
    attention: Spec = {"kind": "attention", "num_heads": a, "num_kv_heads": g}
    ffn = gated(t.integer("intermediate_size"), activation=activation(t))
    rmsnorm = {"kind": "rmsnorm", "count": 2}
    blocks = {
        "default": {"mixer": attention, "ffn": ffn, "norms": rmsnorm},
        "cross": {
            "mixer": {"kind": "no_mixer"},
            "cross_attention": {**attention, "qk_norm": True},
            "ffn": ffn,
            "norms": {**rmsnorm, "gates": 2},
        },
    }
    layers = _as_blocks(
        groups_from_kinds([i in cross for i in range(n)], lambda c: {"block": "cross"} if c else {})
    )
    return {
        "hidden_size": h,
        "embeddings": {"vocab_size": t.integer("vocab_size"), "extra_rows": _EXTRA_ROWS},
        "blocks": blocks,
        "decoder": {"layers": layers, "max_positions": t.integer("max_position_embeddings")},
        "head": {"tied": False},
    }


def _as_blocks(groups: list[Spec]) -> list[Spec]:
    """Groups whose override names a block, as groups of that block (a pattern's too)."""
    out: list[Spec] = []
    for group in groups:
        group = dict(group)
        if "pattern" in group:
            group["pattern"] = _as_blocks(group["pattern"])
        block = group.pop("override", {}).get("block")
        out.append({**group, "block": block} if block else group)
    return out


def mllama(cfg: HFConfig) -> Spec:
    lm = _text(cfg)
    _, v = vision_config(cfg, "mllama_vision_model", _VISION)
    e, image, p = v.integer("hidden_size"), v.integer("image_size"), v.integer("patch_size")
    block = vit_block(v.divisor("attention_heads", e, "hidden_size"), v.integer("intermediate_size"),
                      v.text("hidden_act"), biased=False)  # fmt: skip
    layers: list[Spec] = [{"count": v.integer("num_hidden_layers")}]
    global_layers = v.integer("num_global_layers", minimum=0)
    if global_layers:
        layers.append({"count": global_layers, "override": {"norms": {**block["norms"], "gates": 2}}})
    ratios = v.raw("supported_aspect_ratios")
    if not isinstance(ratios, list) or not ratios:
        raise v.fail("supported_aspect_ratios", say("must be a list of [width, height] tile counts"))
    side = image // p
    stack = tower(
        layers,
        e,
        image,
        p,
        patches={"class_token": True, "channels": v.integer("num_channels")},
        max_positions=side * side,
        position_offset=1,
        tiles={"tiles": v.integer("max_num_tiles"), "aspect_ratios": len(ratios) + 1},
        embedding_norm=True,
    )
    features = 1 + len(v.int_list("intermediate_layers_indices"))
    given = v.integer("vision_output_dim")
    projector = {"features": features, "steps": [linear(reads=given if given != features * e else None)]}
    return vlm(lm, block, stack, projector)


FAMILY = Family(
    "Llama-3.2-Vision (whole model)", (ModelType("mllama", mllama, {"tie_word_embeddings": False}),)
)
