"""Schema-2 pieces the vision-language family modules share: a wrapper's language model read from
its ``text_config`` by the text family's own builder, the towers several wrappers reuse (CLIP,
SigLIP, Pixtral), the projector's steps, and the whole model put together.

A wrapper's language model is the text family's architecture unchanged, but for its tie: in
transformers 5.24 the *top-level* ``tie_word_embeddings`` decides it (each wrapper's config class
has its own default), and some wrappers also take a ``text_config`` tie upwards.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from paramtally.core.errors import ParamTallyWarning, shown
from paramtally.core.families.base import Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.text import say

__all__ = [
    "NestedType",
    "TextModel",
    "clip_tower",
    "linear",
    "merge",
    "norm",
    "pixtral_tower",
    "siglip_tower",
    "text_model",
    "vit_block",
    "vlm",
    "wrapper_tie",
]

_BIASED = {"q_bias": True, "k_bias": True, "v_bias": True, "o_bias": True}
_UNBIASED = dict.fromkeys(_BIASED, False)


@dataclass(frozen=True, slots=True)
class TextModel:
    """A wrapper's language model: the model type its ``text_config`` is read as (by name, or by
    the file's own ``text_config.model_type`` among ``accepted``), and the defaults the wrapper's
    config class gives that text config where they are not the text class's own."""

    default_type: str
    accepted: tuple[str, ...] = ()
    # The wrapper's own text config class (``qwen2_vl_text``): read as ``default_type`` with
    # ``defaults``, that class's defaults where they are not the text family's.
    own: str = ""
    defaults: Mapping[str, Any] | None = None
    # Values the wrapper's text model takes whatever the file says (a key its class ignores: None).
    given: Mapping[str, Any] | None = None
    # What the wrapper's class builds its text config with when the file has none (init_kwargs).
    absent: Mapping[str, Any] | None = None
    # How the wrapper decides the tie: its class default, and whether a text_config tie of true
    # is taken upwards (LlavaConfig, Qwen2VLConfig, Glm4vConfig: "BC: pre-v5 saves …").
    tied_by_default: bool = False
    text_tie_upwards: bool = False
    # The file leaves the top-level key out: the text model's own tie (Mistral3, InternVL — built
    # tied by 5.24, but the checkpoints keep lm_head).
    absent_tie_from_text: bool = False
    # The wrapper holds a whole *ForCausalLM that ties by its own text_config, and declares no tie
    # of its own (Llama4ForConditionalGeneration): the top-level key is not read.
    tied_by_text: bool = False


@dataclass(frozen=True, slots=True)
class NestedType:
    """What a nested config is read as: its model type and that class's defaults."""

    name: str
    defaults: Mapping[str, Any]


def text_config(cfg: HFConfig, text: TextModel) -> tuple[HFConfig, Callable[[HFConfig], Spec]]:
    """The wrapper's ``text_config`` as its text family reads it, with the wrapper's tie, and
    that family's builder."""
    from paramtally.core import families  # the registry loads this module's users

    data = cfg.raw("text_config", None)
    if data is not None and not isinstance(data, Mapping):
        raise cfg.fail("text_config", say("must be an object (got {got})", got=shown(data)))
    absent = data is None
    data = data or {}
    named = data.get("model_type", text.own or text.default_type)
    if named == text.own:
        named = text.default_type
    if named != text.default_type and named not in text.accepted:
        accepted = ", ".join((text.own or text.default_type, *text.accepted))
        raise cfg.fail(
            "text_config.model_type",
            say(
                "is {named}; a {model_type} reads {accepted}",
                named=shown(named, 40),
                model_type=cfg.model_type,
                accepted=accepted,
            ),
        )
    builder_type = named if named in text.accepted else text.default_type
    kind = families.find(builder_type)
    if kind is None:  # pragma: no cover - the wrappers name registered text families
        raise cfg.fail(
            "text_config.model_type",
            say("names {builder_type}, which no family reads", builder_type=builder_type),
        )
    defaults = (
        {**kind.defaults, **(text.defaults or {})} if builder_type == text.default_type else kind.defaults
    )
    if absent:
        defaults = {**defaults, **(text.absent or {})}
    read_as = NestedType(kind.name, defaults)
    tied = wrapper_tie(cfg, cfg.nested("text_config", read_as), text)
    given = dict(text.given or {}) if builder_type == text.default_type else {}
    return cfg.nested("text_config", read_as, **given, tie_word_embeddings=tied), kind.build


def wrapper_tie(cfg: HFConfig, inner: HFConfig, text: TextModel) -> bool:
    """Whether the wrapper ties its head: its top-level key (or class default), a text_config tie
    of true taken upwards where the wrapper does so."""
    text_tied = inner.flag("tie_word_embeddings", False)
    if text.tied_by_text:
        return text_tied
    if not cfg.has("tie_word_embeddings"):
        if text.absent_tie_from_text:
            if not text_tied:
                warnings.warn(
                    say(
                        "{origin}: no top-level tie_word_embeddings: read untied, as its text model is and "
                        "the published checkpoints keep lm_head (transformers 5.24 builds {model_type} "
                        "files without the key tied)",
                        origin=cfg.origin,
                        model_type=cfg.model_type,
                    ),
                    ParamTallyWarning,
                    stacklevel=2,
                )
            return text_tied
        return text.tied_by_default or (text.text_tie_upwards and text_tied)
    top = cfg.flag("tie_word_embeddings")
    return top or (text.text_tie_upwards and text_tied)


def text_model(cfg: HFConfig, text: TextModel) -> tuple[HFConfig, Spec]:
    """The wrapper's language model as its text family builds it (and the config it read)."""
    inner, build = text_config(cfg, text)
    return inner, build(inner)


def vit_block(
    heads: int,
    width: int,
    act: str,
    *,
    biased: bool = True,
    gated: bool = False,
    mlp_bias: bool = True,
    norm_kind: str = "layernorm",
    head_dim: int | None = None,
    **norms: Any,
) -> Spec:
    """A ViT layer: attention (q, k, v and o biased unless ``biased`` is off), an MLP, two norms."""
    mixer: Spec = {"kind": "attention", "num_heads": heads, **(_BIASED if biased else _UNBIASED)}
    if head_dim is not None:
        mixer["head_dim"] = head_dim
    ffn = {"kind": "dense", "width": width, "gated": gated, "bias": mlp_bias, "activation": act}
    return {"mixer": mixer, "ffn": ffn, "norms": {"kind": norm_kind, "count": 2, **norms}}


def tower(layers: int | list[Spec], width: int, image: int, patch: int, **extra: Any) -> Spec:
    groups = [{"count": layers}] if isinstance(layers, int) else layers
    patches = {"patch_size": patch, **extra.pop("patches", {})}
    return {
        "block": "vision",
        "layers": groups,
        "width": width,
        "image_size": image,
        "patches": patches,
        **extra,
    }


def vision_heads(v: HFConfig, width: int, key: str = "num_attention_heads") -> int:
    return v.divisor(key, width, "hidden_size")


def siglip_tower(v: HFConfig) -> tuple[Spec, Spec]:
    """SigLIP's tower (``SiglipVisionModel``; Idefics3's and SmolVLM's copies): biased conv patches,
    a learned table of (image/p)² rows, LayerNorm blocks with biases everywhere, a post-norm.

    The attention-pooling head (``vision_use_head``, on by default in ``SiglipVisionConfig``;
    published wrappers turn it off) is one more layer in count: ``nn.MultiheadAttention`` with
    biases (4e² + 4e), one LayerNorm, the MLP, and its probe token (e) as a scale vector."""
    e, p, image = v.integer("hidden_size"), v.integer("patch_size"), v.integer("image_size")
    block = vit_block(vision_heads(v, e), v.integer("intermediate_size"), v.text("hidden_act"))
    side = image // p
    layers: list[Spec] = [{"count": v.integer("num_hidden_layers")}]
    if v.flag("vision_use_head", False):
        layers.append({"count": 1, "override": {"norms": {"count": 1, "scales": 1}}})
    stack = tower(
        layers,
        e,
        image,
        p,
        patches={"bias": True, "channels": v.integer("num_channels")},
        max_positions=side * side,
    )
    return block, stack


def clip_tower(v: HFConfig) -> tuple[Spec, Spec]:
    """CLIP's tower (``CLIPVisionModel``): bias-free conv patches, a class token and its position,
    pre- and post-norm, biased blocks; every layer built, whichever ``vision_feature_layer`` a
    wrapper reads."""
    e, p, image = v.integer("hidden_size"), v.integer("patch_size"), v.integer("image_size")
    block = vit_block(vision_heads(v, e), v.integer("intermediate_size"), v.text("hidden_act"))
    side = image // p
    stack = tower(
        v.integer("num_hidden_layers"),
        e,
        image,
        p,
        patches={"class_token": True, "channels": v.integer("num_channels")},
        max_positions=side * side,
        position_offset=1,
        embedding_norm=True,
    )
    return block, stack


def pixtral_tower(v: HFConfig) -> tuple[Spec, Spec]:
    """Pixtral's tower (``PixtralVisionModel``): bias-free conv patches, an RMSNorm pre-norm, 2-D
    rotary positions (no table), RMSNorm blocks with bias-free attention and gated MLPs, no
    post-norm. ``PixtralAttention`` builds its projections e×e whatever ``head_dim`` says (only the
    rotary table reads it), so the heads are e / a wide here too."""
    e, p = v.integer("hidden_size"), v.integer("patch_size")
    heads = vision_heads(v, e)
    block = vit_block(
        heads,
        v.integer("intermediate_size"),
        v.text("hidden_act"),
        biased=False,
        gated=True,
        mlp_bias=False,
        norm_kind="rmsnorm",
    )
    stack = tower(
        v.integer("num_hidden_layers"),
        e,
        v.integer("image_size"),
        p,
        patches={"channels": v.integer("num_channels")},
        positions="rope",
        embedding_norm=True,
        final_norm=False,
    )
    return block, stack


SIGLIP_DEFAULTS: dict[str, Any] = {
    "hidden_size": 768,
    "intermediate_size": 3072,
    "num_hidden_layers": 12,
    "num_attention_heads": 12,
    "num_channels": 3,
    "image_size": 224,
    "patch_size": 16,
    "hidden_act": "gelu_pytorch_tanh",
    "vision_use_head": True,
}
CLIP_DEFAULTS: dict[str, Any] = {
    "hidden_size": 768,
    "intermediate_size": 3072,
    "num_hidden_layers": 12,
    "num_attention_heads": 12,
    "num_channels": 3,
    "image_size": 224,
    "patch_size": 32,
    "hidden_act": "quick_gelu",
}
PIXTRAL_DEFAULTS: dict[str, Any] = {
    "hidden_size": 1024,
    "intermediate_size": 4096,
    "num_hidden_layers": 24,
    "num_attention_heads": 16,
    "num_channels": 3,
    "image_size": 1024,
    "patch_size": 16,
    "hidden_act": "gelu",
    "head_dim": 64,
}
# The towers a wrapper may name in vision_config.model_type, each with its config class's defaults.
TOWERS: dict[str, tuple[Callable[[HFConfig], tuple[Spec, Spec]], Mapping[str, Any]]] = {
    "clip_vision_model": (clip_tower, CLIP_DEFAULTS),
    "siglip_vision_model": (siglip_tower, SIGLIP_DEFAULTS),
    "pixtral": (pixtral_tower, PIXTRAL_DEFAULTS),
}


def vision_config(
    cfg: HFConfig,
    default_type: str,
    defaults: Mapping[str, Any] | None = None,
    accepted: tuple[str, ...] = (),
    absent: Mapping[str, Any] | None = None,
) -> tuple[str, HFConfig]:
    """The wrapper's ``vision_config`` read as its tower type (the file's ``model_type`` among
    ``accepted`` and the default one), with the tower class's ``defaults`` (where the wrapper's
    type names its own class) and ``absent``: what the wrapper builds when the file has none."""
    data = cfg.raw("vision_config", None)
    if data is not None and not isinstance(data, Mapping):
        raise cfg.fail("vision_config", say("must be an object (got {got})", got=shown(data)))
    missing = data is None
    data = data or {}
    named = data.get("model_type", default_type)
    if named != default_type and named not in accepted:
        said = ", ".join((default_type, *accepted))
        raise cfg.fail(
            "vision_config.model_type",
            say(
                "is {named}; a {model_type} reads {accepted}",
                named=shown(named, 40),
                model_type=cfg.model_type,
                accepted=said,
            ),
        )
    base = TOWERS[named][1] if named in TOWERS else {}
    own = named == default_type or named not in TOWERS  # the wrapper's own tower, an older name too
    kind = NestedType(named, {**base, **(defaults or {})} if own else base)
    if missing:
        kind = NestedType(named, {**kind.defaults, **(absent or {})})
    return named, cfg.nested("vision_config", kind)


def known_tower(
    cfg: HFConfig,
    default_type: str,
    defaults: Mapping[str, Any] | None = None,
    accepted: tuple[str, ...] = (),
    absent: Mapping[str, Any] | None = None,
) -> tuple[HFConfig, Spec, Spec]:
    """A CLIP, SigLIP or Pixtral tower as the wrapper's ``vision_config`` names it."""
    named, v = vision_config(cfg, default_type, defaults, accepted, absent)
    block, stack = TOWERS[named][0](v)
    return v, block, stack


def linear(width: int | None = None, bias: bool = True, reads: int | None = None) -> Spec:
    """A linear layer to ``width`` (None: the hidden size); ``reads``: the width it is built to
    read where that is not the width before it."""
    step: Spec = {"kind": "linear", "bias": bias}
    if width is not None:
        step["width"] = width
    if reads is not None:
        step["in_width"] = reads
    return step


def norm(kind: str = "layernorm") -> Spec:
    return {"kind": "norm", "norm": kind}


def merge(factor: int, concat: bool = True) -> Spec:
    return {"kind": "merge", "factor": factor, "concat": concat}


def vlm(text: Spec, block: Spec, stack: Spec, projector: Spec) -> Spec:
    """The whole model: the language model's architecture, the tower's block beside its blocks."""
    if "vision" in text["blocks"]:  # pragma: no cover - no text family names a block so
        raise ValueError("the language model already has a block named vision")
    return {**text, "blocks": {**text["blocks"], "vision": block}, "vision": stack, "projector": projector}
