"""Qwen2-VL, Qwen2.5-VL, Qwen3-VL and Qwen3-VL-MoE as whole models
(``Qwen2VLForConditionalGeneration`` … ``Qwen3VLMoeForConditionalGeneration``): a tower of Conv3d
patches (t frames × p², 2-D rotary positions), ViT blocks, a patch merger (a norm, the
``spatial_merge_size``² merge and a two-layer MLP) and the Qwen language model of ``text_config``,
built by the Qwen family.

- Qwen2-VL: the published file is flat — ``Qwen2VLConfig.__post_init__`` moves its text keys into
  ``text_config``. The tower's width is ``embed_dim`` and its ``hidden_size`` the language
  model's; MLP ``mlp_ratio``·e, non-gated, biased; LayerNorms.
- Qwen2.5-VL: the tower's width is ``hidden_size`` and ``out_hidden_size`` the language model's;
  RMSNorms, gated MLP of ``intermediate_size`` with biases. Window attention has no weights.
- Qwen3-VL (and -MoE): biased Conv3d patches, a learned table of ``num_position_embeddings`` rows,
  LayerNorm blocks, and one deepstack merger per ``deepstack_visual_indexes`` entry (its
  LayerNorm after the merge, 4e wide): projector branches.
- Tied only by the top-level key (Qwen2/2.5-VL also take a ``text_config`` tie of true upwards).
"""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.image_resize import SmartResize
from paramtally.core.families.vision_parts import (
    TextModel,
    linear,
    merge,
    norm,
    text_model,
    tower,
    vision_config,
    vit_block,
    vlm,
)
from paramtally.core.text import say

__all__ = ["FAMILY"]

_IMAGE = 448  # Qwen reads images at their own size; 448² is the tower's memory-tab start (256 tokens)

_QWEN2_VL_TEXT = {  # Qwen2VLTextConfig
    "vocab_size": 152064,
    "hidden_size": 8192,
    "intermediate_size": 29568,
    "num_hidden_layers": 80,
    "num_attention_heads": 64,
    "num_key_value_heads": 8,
    "max_position_embeddings": 32768,
    "max_window_layers": 80,
}
_QWEN3_VL_TEXT = {  # Qwen3VLTextConfig
    "vocab_size": 151936,
    "hidden_size": 4096,
    "intermediate_size": 22016,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 32,
    "head_dim": 128,
    "max_position_embeddings": 128000,
}
_QWEN3_VL_MOE_TEXT = {  # Qwen3VLMoeTextConfig
    **_QWEN3_VL_TEXT,
    "hidden_size": 2048,
    "intermediate_size": 5632,
    "num_hidden_layers": 24,
    "num_attention_heads": 16,
    "num_key_value_heads": 16,
    "decoder_sparse_step": 1,
    "moe_intermediate_size": 1408,
    "num_experts_per_tok": 4,
    "num_local_experts": 60,
    "mlp_only_layers": [],
}
# Qwen2VLAttention and Qwen2_5_VLAttention take head_dim = hidden_size // num_heads, whatever the
# file's head_dim says.
_H_OVER_A = {"head_dim": None}
_TEXT = {
    "qwen2_vl": TextModel(
        "qwen2", own="qwen2_vl_text", defaults=_QWEN2_VL_TEXT, given=_H_OVER_A, text_tie_upwards=True
    ),
    "qwen2_5_vl": TextModel(
        "qwen2", own="qwen2_5_vl_text", defaults=_QWEN2_VL_TEXT, given=_H_OVER_A, text_tie_upwards=True
    ),
    "qwen3_vl": TextModel("qwen3", own="qwen3_vl_text", defaults=_QWEN3_VL_TEXT),
    "qwen3_vl_moe": TextModel("qwen3_moe", own="qwen3_vl_moe_text", defaults=_QWEN3_VL_MOE_TEXT),
}
_VISION: dict[str, dict[str, Any]] = {  # Qwen2VLVisionConfig … Qwen3VLMoeVisionConfig
    "qwen2_vl": {
        "depth": 32,
        "embed_dim": 1280,
        "hidden_size": 3584,
        "hidden_act": "quick_gelu",
        "mlp_ratio": 4,
        "num_heads": 16,
        "in_channels": 3,
        "patch_size": 14,
        "spatial_merge_size": 2,
        "temporal_patch_size": 2,
    },
    "qwen2_5_vl": {
        "depth": 32,
        "hidden_size": 3584,
        "hidden_act": "silu",
        "intermediate_size": 3420,
        "num_heads": 16,
        "in_channels": 3,
        "patch_size": 14,
        "spatial_merge_size": 2,
        "temporal_patch_size": 2,
        "out_hidden_size": 3584,
    },
    "qwen3_vl": {
        "depth": 27,
        "hidden_size": 1152,
        "hidden_act": "gelu_pytorch_tanh",
        "intermediate_size": 4304,
        "num_heads": 16,
        "in_channels": 3,
        "patch_size": 16,
        "spatial_merge_size": 2,
        "temporal_patch_size": 2,
        "out_hidden_size": 3584,
        "num_position_embeddings": 2304,
        "deepstack_visual_indexes": [8, 16, 24],
    },
}
_VISION["qwen3_vl_moe"] = _VISION["qwen3_vl"]
_NOT_TEXT = frozenset({"vision_config", "model_type", "architectures", "auto_map", "text_config"})


def _either(v: HFConfig, key: str, other: str) -> int:
    """A key the config class also answers under another name (its ``attribute_map``)."""
    return v.integer(other) if not v.has(key) and v.has(other) else v.integer(key)


def _flat_moved(cfg: HFConfig) -> HFConfig:
    """A flat Qwen2-VL file read with its text keys as the ``text_config`` they become."""
    if cfg.has("text_config"):
        return cfg
    text = {key: value for key, value in cfg.data.items() if key not in _NOT_TEXT}
    return HFConfig({**cfg.data, "text_config": text}, cfg.model_type, cfg.origin, cfg.defaults, cfg.prefix)


def qwen_vl(cfg: HFConfig) -> Spec:
    kind = cfg.model_type
    if kind in ("qwen2_vl", "qwen2_5_vl"):
        cfg = _flat_moved(cfg)
    text, lm = text_model(cfg, _TEXT[kind])
    _, v = vision_config(cfg, f"{kind}_vision", _VISION[kind], accepted=(kind, kind.removesuffix("_moe")))
    heads, depth = _either(v, "num_heads", "num_attention_heads"), _either(v, "depth", "num_hidden_layers")
    channels = (
        v.integer("in_channels") if v.has("in_channels") or not v.has("in_chans") else v.integer("in_chans")
    )
    patches: Spec = {"temporal_patch": v.integer("temporal_patch_size"), "channels": channels}
    s, act = v.integer("spatial_merge_size"), v.text("hidden_act")
    if kind == "qwen2_vl":
        e, out = v.integer("embed_dim"), v.integer("hidden_size")
        block = vit_block(heads, int(e * v.number("mlp_ratio")), act)
        stack = tower(
            depth, e, _IMAGE, v.integer("patch_size"), patches=patches, positions="rope", final_norm=False
        )
        merger = [norm(), merge(s), linear(e * s * s), linear()]
    elif kind == "qwen2_5_vl":
        e, out = v.integer("hidden_size"), v.integer("out_hidden_size")
        block = vit_block(heads, v.integer("intermediate_size"), act, gated=True, norm_kind="rmsnorm")
        stack = tower(
            depth, e, _IMAGE, v.integer("patch_size"), patches=patches, positions="rope", final_norm=False
        )
        merger = [norm("rmsnorm"), merge(s), linear(e * s * s), linear()]
    else:
        e, out = v.integer("hidden_size"), v.integer("out_hidden_size")
        block = vit_block(heads, v.integer("intermediate_size"), act)
        rows = v.integer("num_position_embeddings")
        patches["bias"] = True
        stack = tower(
            depth, e, _IMAGE, v.integer("patch_size"), patches=patches, max_positions=rows, final_norm=False
        )
        merger = [norm(), merge(s), linear(e * s * s), linear()]
    h = text.integer("hidden_size")
    key = "hidden_size" if kind == "qwen2_vl" else "out_hidden_size"
    if not v.has(key):  # the class defaults (3584) disagree with the text class's (8192, 4096): no
        out = h  # model of those runs, so a file without the key maps to its language model's width
    if out != h:
        raise v.fail(
            key,
            say(
                "({out}) must be the language model's hidden_size ({h}): the merger maps to it", out=out, h=h
            ),
        )
    projector: Spec = {"steps": merger}
    if kind in ("qwen3_vl", "qwen3_vl_moe"):
        deepstack = v.int_list("deepstack_visual_indexes")
        if deepstack:
            branch = [merge(s), norm(), linear(e * s * s), linear()]
            projector["branches"] = [{"count": len(deepstack), "steps": branch}]
    return vlm(lm, block, stack, projector)


_DEFAULTS = {"tie_word_embeddings": False}
# Qwen2VLImageProcessor's smart_resize, within the pixels of the released checkpoints'
# preprocessor_config.json (Qwen2-VL and Qwen2.5-VL: min_pixels 56², max_pixels 16,384·28²; the
# class's own max is 1,280·28²). Qwen3-VL's processor (16-pixel patches, other bounds) is not
# modelled: its images are taken as given.
_SMART_RESIZED = ("qwen2_vl", "qwen2_5_vl")
_SMART_RESIZE = SmartResize(min_pixels=56 * 56, max_pixels=16384 * 28 * 28)

FAMILY = Family(
    "Qwen2-VL, Qwen2.5-VL, Qwen3-VL (dense and MoE; whole models)",
    (
        *(ModelType(name, qwen_vl, _DEFAULTS, image_resize=_SMART_RESIZE) for name in _SMART_RESIZED),
        *(ModelType(name, qwen_vl, _DEFAULTS) for name in ("qwen3_vl", "qwen3_vl_moe")),
    ),
)
