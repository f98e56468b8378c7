"""Aya Vision as a whole model (``AyaVisionForConditionalGeneration``, CohereLabs/aya-vision-8b): a
SigLIP tower, ``AyaVisionMultiModalProjector`` and the Cohere-2 (or Cohere) language model read from
``text_config`` by its own family.

The projector: a pixel shuffle of ``downsample_factor``² patches (no weights), a LayerNorm with β
over e·s², ``linear_1`` (biased) to ``alignment_intermediate_size`` — a key ``AyaVisionConfig``
does not declare but keeps from the file, the text hidden size without it — then SwiGLU halves it
(the second half gates the first) and ``linear_2`` (biased) reads the half back to the hidden size.
Tied by default (``AyaVisionConfig.tie_word_embeddings``), as Cohere's models are.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.vision_parts import TextModel, known_tower, linear, merge, norm, text_model, vlm
from paramtally.core.text import say

__all__ = ["FAMILY"]

_TEXT = TextModel("cohere2", accepted=("cohere",), tied_by_default=True)
# AyaVisionConfig's vision config when the file has none. Its 14 heads do not divide 1,152: transformers
# refuses to build it (SiglipAttention), and so does the importer, naming num_attention_heads.
_ABSENT_VISION: dict[str, Any] = {
    "hidden_size": 1152,
    "intermediate_size": 4304,
    "patch_size": 14,
    "image_size": 384,
    "num_hidden_layers": 26,
    "num_attention_heads": 14,
    "vision_use_head": False,
}


def aya_vision(cfg: HFConfig) -> Spec:
    text, lm = text_model(cfg, _TEXT)
    _, block, stack = known_tower(
        cfg, "siglip_vision_model", accepted=("clip_vision_model", "pixtral"), absent=_ABSENT_VISION
    )
    layer = cfg.raw("vision_feature_layer")
    if isinstance(layer, list) and len(layer) != 1:
        # The projector is built e·s² wide whatever the layers: several concatenated cannot run.
        raise cfg.fail(
            "vision_feature_layer", say("lists several layers: an Aya Vision projector of those is not read")
        )
    s = cfg.integer("downsample_factor")
    h = text.integer("hidden_size")
    inner = cfg.integer("alignment_intermediate_size") if cfg.has("alignment_intermediate_size") else h
    steps = [merge(s), norm(), linear(inner), linear(reads=inner // 2)]
    return vlm(lm, block, stack, {"steps": steps})


FAMILY = Family(
    "Aya Vision (whole model)",
    (
        ModelType(
            "aya_vision",
            aya_vision,
            {"tie_word_embeddings": True, "downsample_factor": 2, "vision_feature_layer": -1},
        ),
    ),
)
