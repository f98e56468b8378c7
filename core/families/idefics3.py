"""Idefics3 and SmolVLM as whole models (``Idefics3ForConditionalGeneration``,
``SmolVLMForConditionalGeneration``): a SigLIP-like tower (biased conv patches, a learned table of
(image/p)² rows, a post-norm, no pooling head), the connector — a pixel shuffle of
``scale_factor``² patches (no weights) and one bias-free linear layer from e·s² to the hidden
size — and a Llama language model read from ``text_config``."""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.vision_parts import (
    TextModel,
    linear,
    merge,
    siglip_tower,
    text_model,
    vision_config,
    vlm,
)

__all__ = ["FAMILY"]

_TEXT = TextModel("llama", accepted=("mistral", "qwen2", "qwen3"))
# Idefics3VisionConfig / SmolVLMVisionConfig (no pooling head).
_VISION_DEFAULTS: dict[str, Any] = {
    "hidden_size": 1152,
    "intermediate_size": 3072,
    "num_hidden_layers": 12,
    "num_attention_heads": 16,
    "num_channels": 3,
    "image_size": 224,
    "patch_size": 32,
    "hidden_act": "gelu_pytorch_tanh",
    "vision_use_head": False,
}


def _connected(cfg: HFConfig, vision_type: str) -> Spec:
    _, lm = text_model(cfg, _TEXT)
    # Older files name the tower by the wrapper's type ("idefics3").
    _, v = vision_config(cfg, vision_type, _VISION_DEFAULTS, accepted=(cfg.model_type,))
    block, stack = siglip_tower(v)
    steps = [merge(cfg.integer("scale_factor")), linear(bias=False)]
    return vlm(lm, block, stack, {"steps": steps})


_DEFAULTS = {"tie_word_embeddings": False, "scale_factor": 2}

FAMILY = Family(
    "Idefics3, SmolVLM (whole models)",
    (
        ModelType("idefics3", lambda cfg: _connected(cfg, "idefics3_vision"), _DEFAULTS),
        ModelType("smolvlm", lambda cfg: _connected(cfg, "smolvlm_vision"), _DEFAULTS),
    ),
)
