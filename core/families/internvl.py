"""InternVL as a whole model (``InternVLForConditionalGeneration``): the InternViT tower, a
projector of a pixel shuffle (s = 1 / ``downsample_ratio``), a LayerNorm over s²·e and two
biased linear layers, and the language model of ``text_config`` (Qwen2 by default).

InternViT (``InternVLVisionModel``): a class token and a learned table of n + 1 rows (bare
parameters; the table only with ``use_absolute_position_embeddings``), biased conv patches, blocks
of ``norm_type`` norms with q/k/v biased by ``attention_bias`` and the output projection always
biased, two layer-scale vectors ``lambda_1``/``lambda_2`` per block (whatever
``layer_scale_init_value`` is), and a post-LayerNorm only without ``use_mean_pooling``.
``use_qk_norm`` normalises q and k over the whole projection (two RMSNorms of e): counted as two
more e-wide vectors of the block.

Tie: InternVLConfig defaults it to True, so 5.24 builds a file without the top-level key tied,
though the published checkpoints keep lm_head: such a file is read untied, as its text model is.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.errors import shown
from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
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

_TEXT = TextModel("qwen2", accepted=("llama", "qwen3", "qwen3_moe", "qwen2_moe"), absent_tie_from_text=True)
_VISION: dict[str, Any] = {  # InternVLVisionConfig
    "hidden_size": 1024,
    "num_hidden_layers": 24,
    "num_attention_heads": 16,
    "attention_bias": False,
    "use_qk_norm": False,
    "intermediate_size": 4096,
    "hidden_act": "gelu",
    "norm_type": "layer_norm",
    "image_size": [448, 448],
    "patch_size": [14, 14],
    "num_channels": 3,
    "use_mask_token": False,
    "use_absolute_position_embeddings": True,
    "use_mean_pooling": True,
}
_NORMS = {"layer_norm": "layernorm", "rms_norm": "rmsnorm"}


def _side(v: HFConfig, key: str) -> int:
    """An image or patch size: one number, or the [height, width] of a square."""
    value = v.raw(key)
    if not isinstance(value, list):
        return v.integer(key)
    whole = len(value) == 2 and all(isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in value)
    if not whole or value[0] != value[1]:
        raise v.fail(key, say("must be one size or a square's [height, width] (got {got})", got=shown(value)))
    side: int = value[0]
    return side


def internvl(cfg: HFConfig) -> Spec:
    _, lm = text_model(cfg, _TEXT)
    _, v = vision_config(cfg, "internvl_vision", _VISION)
    e, image, p = v.integer("hidden_size"), _side(v, "image_size"), _side(v, "patch_size")
    norm_type = v.text("norm_type")
    if norm_type not in _NORMS:
        raise v.fail(
            "norm_type",
            say("is {norm_type}; InternViT's norms are layer_norm or rms_norm", norm_type=repr(norm_type)),
        )
    if v.flag("use_mask_token"):
        raise v.fail("use_mask_token", say("is true: the masked-image token of pre-training is not read"))
    scales = 2 + (2 if v.flag("use_qk_norm") else 0)
    block = vit_block(
        v.divisor("num_attention_heads", e, "hidden_size"),
        v.integer("intermediate_size"),
        v.text("hidden_act"),
        norm_kind=_NORMS[norm_type],
        scales=scales,
    )
    bias = v.flag("attention_bias")
    block["mixer"].update(q_bias=bias, k_bias=bias, v_bias=bias)
    side = image // p
    learned = v.flag("use_absolute_position_embeddings")
    layers: list[Spec] = [{"count": v.integer("num_hidden_layers")}]
    pooled = v.flag("use_mean_pooling")
    if not pooled and norm_type == "rms_norm":  # the post-norm is a LayerNorm whatever norm_type says
        block["norms"]["kind"] = "layernorm"
        layers[0]["override"] = {"norms": {**block["norms"], "kind": "rmsnorm"}}
    stack = tower(
        layers,
        e,
        image,
        p,
        patches={"bias": True, "class_token": True, "channels": v.integer("num_channels")},
        positions="learned" if learned else "none",
        max_positions=side * side if learned else 0,
        position_offset=1 if learned else 0,
        final_norm=not pooled,
    )
    ratio = cfg.number("downsample_ratio")
    s = round(1 / ratio) if ratio > 0 else 0
    if s < 1 or abs(s * ratio - 1) > 1e-9:
        raise cfg.fail("downsample_ratio", say("must be 1/s for a whole s (got {ratio})", ratio=repr(ratio)))
    steps = [merge(s), norm(), linear(), linear()]
    return vlm(lm, block, stack, {"steps": steps})


FAMILY = Family(
    "InternVL (whole model)",
    (ModelType("internvl", internvl, {"tie_word_embeddings": True, "downsample_ratio": 0.5}),),
)
