"""GLM-4.1V as a whole model (``Glm4vForConditionalGeneration``): a tower of biased Conv3d
patches, an RMSNorm after them (``post_conv_layernorm``, the tower's pre-norm), a learned table of
(image/p)² rows, RMSNorm blocks whose attention has a q/k/v bias only with ``attention_bias`` (the
output projection none) and whose gated bias-free MLP is ``out_hidden_size`` wide (not
``intermediate_size``), a post-norm; then the projector — the s×s downsampling convolution (a
merge and a biased linear layer in count), the merger's bias-free projection, LayerNorm and gated
MLP of the vision ``intermediate_size`` — and GLM-4's language model (``Glm4vTextModel``: four
RMSNorms a layer, q/k/v biased, o not, head width hidden_size / heads whatever head_dim says)."""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped
from paramtally.core.families.vision_parts import (
    NestedType,
    TextModel,
    linear,
    merge,
    norm,
    tower,
    vision_config,
    vit_block,
    vlm,
    wrapper_tie,
)
from paramtally.core.text import say

__all__ = ["FAMILY"]

_TEXT = NestedType(
    "glm4v_text",
    {  # Glm4vTextConfig
        **LLAMA_DEFAULTS,
        "vocab_size": 151552,
        "hidden_size": 4096,
        "intermediate_size": 13696,
        "num_hidden_layers": 40,
        "num_attention_heads": 32,
        "num_key_value_heads": 2,
        "max_position_embeddings": 32768,
    },
)
# Glm4vConfig takes a text_config tie of true upwards (Glm4vTextConfig itself has no such key).
_TIE = TextModel("glm4v_text", text_tie_upwards=True)
_GLM4V_TEXT = LlamaShape(bias_key=None, biased=("q_bias", "k_bias", "v_bias"), norms_per_block=4)
_VISION: dict[str, Any] = {  # Glm4vVisionConfig
    "depth": 24,
    "hidden_size": 1536,
    "hidden_act": "silu",
    "attention_bias": False,
    "num_heads": 12,
    "in_channels": 3,
    "image_size": 336,
    "patch_size": 14,
    "spatial_merge_size": 2,
    "temporal_patch_size": 2,
    "out_hidden_size": 4096,
    "intermediate_size": 13696,
}


def glm4v(cfg: HFConfig) -> Spec:
    tied = wrapper_tie(cfg, cfg.nested("text_config", _TEXT), _TIE)
    text = cfg.nested("text_config", _TEXT, tie_word_embeddings=tied, head_dim=None)
    lm = llama_shaped(text, _GLM4V_TEXT)
    _, v = vision_config(cfg, "glm4v_vision", _VISION, accepted=("glm4v",))
    e, h = v.integer("hidden_size"), text.integer("hidden_size")
    out = v.integer("out_hidden_size") if v.has("out_hidden_size") else h  # as Qwen-VL: no default runs
    if out != h:
        raise v.fail(
            "out_hidden_size", say("({out}) must be the language model's hidden_size ({h})", out=out, h=h)
        )
    heads = (
        v.integer("num_heads")
        if v.has("num_heads") or not v.has("num_attention_heads")
        else v.integer("num_attention_heads")
    )
    depth = (
        v.integer("depth")
        if v.has("depth") or not v.has("num_hidden_layers")
        else v.integer("num_hidden_layers")
    )
    block = vit_block(
        v.divisor("num_heads", e, "hidden_size", heads),
        out,
        v.text("hidden_act"),
        biased=False,
        gated=True,
        mlp_bias=False,
        norm_kind="rmsnorm",
    )
    bias = v.flag("attention_bias")
    block["mixer"].update(q_bias=bias, k_bias=bias, v_bias=bias)
    image, p = v.integer("image_size"), v.integer("patch_size")
    side = image // p
    patches = {
        "temporal_patch": v.integer("temporal_patch_size"),
        "bias": True,
        "channels": v.integer("in_channels"),
    }
    stack = tower(depth, e, image, p, patches=patches, max_positions=side * side, embedding_norm=True)
    s, act = v.integer("spatial_merge_size"), v.text("hidden_act")
    merger_mlp = {"kind": "dense", "width": v.integer("intermediate_size"), "gated": True, "bias": False,
                  "activation": act}  # fmt: skip
    steps = [merge(s), linear(out), linear(out, bias=False), norm(), merger_mlp]
    return vlm(lm, block, stack, {"steps": steps})


FAMILY = Family("GLM-4.1V (whole model)", (ModelType("glm4v", glm4v, {"tie_word_embeddings": False}),))
