"""Gemma-3 and PaliGemma as whole models (``Gemma3ForConditionalGeneration``,
``PaliGemmaForConditionalGeneration``): a SigLIP tower, a projector, and the Gemma language model
read from ``text_config`` by its own family (Gemma-3's text model, or PaliGemma's Gemma / Gemma-2).

- Gemma-3's projector (``Gemma3MultiModalProjector``): an average pool of (image/p) / √tokens
  patches a side down to ``mm_tokens_per_image`` tokens (no weights), the soft-embedding RMSNorm
  and ``mm_input_projection_weight`` — a bare [e, h] parameter, no bias. Tied by default.
- PaliGemma's projector: one biased linear layer to ``projection_dim``. Tied by default.
"""

from __future__ import annotations

import math

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.image_resize import FIXED_SIZE
from paramtally.core.families.vision_parts import (
    TextModel,
    known_tower,
    linear,
    merge,
    norm,
    text_model,
    vlm,
)
from paramtally.core.text import say

__all__ = ["FAMILY"]

_GEMMA3_TEXT = TextModel("gemma3_text", tied_by_default=True)
# PaliGemmaConfig's text config when the file has none (PaliGemma-3B's Gemma-2B).
_PALIGEMMA_TEXT = TextModel(
    "gemma",
    accepted=("gemma2",),
    tied_by_default=True,
    absent={
        "hidden_size": 2048,
        "num_hidden_layers": 18,
        "intermediate_size": 16384,
        "num_attention_heads": 8,
        "num_key_value_heads": 1,
        "vocab_size": 257152,
    },
)
# A file without vision_config: Gemma-3's published SigLIP-So400m at 896² (Gemma3Config's own default,
# SiglipVisionConfig(), cannot be built: 256 tokens need 16 patches a side and it has 14).
_GEMMA3_VISION = {
    "hidden_size": 1152,
    "intermediate_size": 4304,
    "num_hidden_layers": 27,
    "num_attention_heads": 16,
    "image_size": 896,
    "patch_size": 14,
    "vision_use_head": False,
}
_PALIGEMMA_VISION = {
    "intermediate_size": 4096,
    "hidden_size": 1152,
    "patch_size": 14,
    "image_size": 224,
    "num_hidden_layers": 27,
    "num_attention_heads": 16,
    "vision_use_head": False,
}


def gemma3(cfg: HFConfig) -> Spec:
    _, lm = text_model(cfg, _GEMMA3_TEXT)
    _, block, stack = known_tower(cfg, "siglip_vision_model", absent=_GEMMA3_VISION)
    side = stack["image_size"] // stack["patches"]["patch_size"]
    tokens = cfg.integer("mm_tokens_per_image")
    per_side = math.isqrt(tokens)
    if per_side * per_side != tokens or per_side > side or side % per_side:
        raise cfg.fail(
            "mm_tokens_per_image",
            say(
                "({tokens}) must be a square whose side divides the {side} patches a side of the image",
                tokens=tokens,
                side=side,
            ),
        )
    steps = [merge(side // per_side, concat=False), norm("rmsnorm"), linear(bias=False)]
    return vlm(lm, block, stack, {"steps": steps})


def paligemma(cfg: HFConfig) -> Spec:
    text, lm = text_model(cfg, _PALIGEMMA_TEXT)
    _, block, stack = known_tower(cfg, "siglip_vision_model", absent=_PALIGEMMA_VISION)
    h = text.integer("hidden_size")
    if cfg.integer("projection_dim") != h:
        raise cfg.fail(
            "projection_dim",
            say(
                "({width}) must be the text model's hidden_size ({h})",
                width=cfg.integer("projection_dim"),
                h=h,
            ),
        )
    return vlm(lm, block, stack, {"steps": [linear()]})


# Gemma's RMSNorm multiplies by (1 + weight) in fp32, in the language model as in the projector.
_FP32_NORM = ActivationQuirks(fp32_norm=True)

FAMILY = Family(
    "Gemma-3, PaliGemma (whole models)",
    (
        ModelType(
            "gemma3",
            gemma3,
            {"tie_word_embeddings": True, "mm_tokens_per_image": 256},
            activations=_FP32_NORM,
            tokenizer="sentencepiece",
            image_resize=FIXED_SIZE,
        ),
        ModelType(
            "paligemma",
            paligemma,
            {"tie_word_embeddings": True, "projection_dim": 2048},
            activations=_FP32_NORM,
            tokenizer="sentencepiece",
            image_resize=FIXED_SIZE,
        ),
    ),
)
