"""LLaVA, LLaVA-NeXT, LLaVA-OneVision and Mistral-3 as whole models (``LlavaForConditionalGeneration``,
``LlavaNextForConditionalGeneration``, ``LlavaOnevisionForConditionalGeneration``,
``Mistral3ForConditionalGeneration``): a CLIP, SigLIP or Pixtral tower, a projector of two linear
layers, and a Llama, Mistral or Qwen2 language model read from ``text_config`` by its own family.

- LLaVA builds every tower layer and the post-norm although ``vision_feature_layer: -2`` never
  reads the last layer's output; a list of feature layers concatenates them (``features``).
- LLaVA-NeXT adds ``image_newline``, one learned vector of the hidden size (the projector's).
- LLaVA-OneVision: LLaVA-NeXT's parts (``image_newline`` too, whatever
  ``use_image_newline_parameter`` says) around a SigLIP tower and a Qwen2 language model by default;
  a file without ``vision_config`` gets ``LlavaOnevisionConfig``'s 26-layer SigLIP-So400m at 384².
  Like LLaVA it takes a ``text_config`` tie upwards (Qwen2-0.5B's tied head).
- Mistral-3: an RMSNorm, the patch merger (``spatial_merge_size``² patches → a bias-free linear
  layer back to the tower's width), then the two linear layers, biased only with
  ``multimodal_projector_bias``.
- Pixtral-12B is published as a ``llava`` config around a ``pixtral`` tower: read as llava.
- ``pixtral`` alone is ``PixtralVisionModel``, the vision encoder without a language model: the
  tower is the whole model (no vocabulary, projector or head).
"""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.image_resize import FIXED_SIZE
from paramtally.core.families.vision_parts import (
    PIXTRAL_DEFAULTS,
    TextModel,
    known_tower,
    linear,
    merge,
    norm,
    pixtral_tower,
    text_model,
    vlm,
)
from paramtally.core.text import say

__all__ = ["FAMILY"]

_TEXT_TYPES = ("llama", "mistral", "qwen2", "gemma", "gemma2", "phi3", "qwen3")
# LlavaConfig / LlavaNextConfig: untied unless the top level or (pre-v5 files) the text config says so.
_LLAVA_TEXT = TextModel("llama", accepted=_TEXT_TYPES, text_tie_upwards=True)
_LLAVA_NEXT_TEXT = TextModel("llama", accepted=_TEXT_TYPES)
# Mistral3Config defaults the tie to True, so a published file without the key is built tied by
# 5.24 though its checkpoint keeps lm_head: it is read untied, as its text model (MistralConfig) is.
_MISTRAL3_TEXT_DEFAULTS = {
    "vocab_size": 131072,
    "hidden_size": 5120,
    "intermediate_size": 32768,
    "num_hidden_layers": 40,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "head_dim": 128,
    "sliding_window": None,
}
_MISTRAL3_TEXT = TextModel(
    "mistral", accepted=_TEXT_TYPES, absent=_MISTRAL3_TEXT_DEFAULTS, absent_tie_from_text=True
)


def _features(cfg: HFConfig) -> int:
    """Vision layers whose outputs the projector concatenates: 1, or a list's length."""
    layer = cfg.raw("vision_feature_layer")
    if (
        isinstance(layer, list)
        and layer
        and all(isinstance(i, int) and not isinstance(i, bool) for i in layer)
    ):
        return len(layer)
    cfg.integer("vision_feature_layer", minimum=-(1 << 20))
    return 1


# LlavaOnevisionConfig: Qwen2 by default; like LlavaConfig it takes a text_config tie upwards.
_ONEVISION_TEXT = TextModel("qwen2", accepted=_TEXT_TYPES, text_tie_upwards=True)
# LlavaOnevisionConfig's vision config when the file has none: SigLIP-So400m at 384², its last layer cut.
_ONEVISION_VISION = {
    "hidden_size": 1152,
    "intermediate_size": 4304,
    "patch_size": 14,
    "image_size": 384,
    "num_hidden_layers": 26,
    "num_attention_heads": 16,
    "vision_use_head": False,
}


def _llava(
    cfg: HFConfig,
    text: TextModel,
    *,
    newline: bool,
    tower_type: str = "clip_vision_model",
    absent_tower: dict[str, Any] | None = None,
) -> Spec:
    _, lm = text_model(cfg, text)
    accepted = tuple(t for t in ("clip_vision_model", "pixtral", "siglip_vision_model") if t != tower_type)
    _, block, stack = known_tower(cfg, tower_type, accepted=accepted, absent=absent_tower)
    bias = cfg.flag("multimodal_projector_bias")
    steps = [linear(bias=bias), linear(bias=bias)] + ([{"kind": "vector"}] if newline else [])
    features = _features(cfg)
    return vlm(lm, block, stack, {"features": features, "steps": steps})


def mistral3(cfg: HFConfig) -> Spec:
    _, lm = text_model(cfg, _MISTRAL3_TEXT)
    _, block, stack = known_tower(cfg, "pixtral", absent={"image_size": 1540, "patch_size": 14})
    if _features(cfg) != 1:
        raise cfg.fail(
            "vision_feature_layer", say("lists several layers: a Mistral-3 projector of those is not read")
        )
    bias, s, e = cfg.flag("multimodal_projector_bias"), cfg.integer("spatial_merge_size"), stack["width"]
    steps = [norm("rmsnorm"), merge(s), linear(e, bias=False), linear(bias=bias), linear(bias=bias)]
    return vlm(lm, block, stack, {"steps": steps})


def pixtral(cfg: HFConfig) -> Spec:
    """``PixtralVisionModel``: its tower alone, the model's width the tower's."""
    block, stack = pixtral_tower(cfg)
    return {
        "hidden_size": stack["width"],
        "embeddings": {"vocab_size": 0},
        "blocks": {"vision": block},
        "vision": stack,
        "head": {"present": False},
    }


_LLAVA_DEFAULTS: dict[str, Any] = {
    "tie_word_embeddings": False,
    "vision_feature_layer": -2,
    "multimodal_projector_bias": True,
}

FAMILY = Family(
    "LLaVA, LLaVA-NeXT, LLaVA-OneVision, Pixtral (as llava; pixtral: its vision encoder alone), "
    "Mistral-3 (whole models)",
    (
        ModelType(
            "llava",
            lambda cfg: _llava(cfg, _LLAVA_TEXT, newline=False),
            _LLAVA_DEFAULTS,
            image_resize=FIXED_SIZE,  # LLaVA-1.5's CLIPImageProcessor: resize and centre-crop
        ),
        ModelType("llava_next", lambda cfg: _llava(cfg, _LLAVA_NEXT_TEXT, newline=True), _LLAVA_DEFAULTS),
        ModelType(
            "llava_onevision",
            lambda cfg: _llava(
                cfg,
                _ONEVISION_TEXT,
                newline=True,
                tower_type="siglip_vision_model",
                absent_tower=_ONEVISION_VISION,
            ),
            {**_LLAVA_DEFAULTS, "vision_feature_layer": -1},
        ),
        ModelType(
            "mistral3",
            mistral3,
            {
                "tie_word_embeddings": True,
                "vision_feature_layer": -1,
                "multimodal_projector_bias": False,
                "spatial_merge_size": 2,
            },
        ),
        ModelType("pixtral", pixtral, PIXTRAL_DEFAULTS),
    ),
)
