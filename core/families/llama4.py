"""Llama 4's language model (``Llama4ForCausalLM``, model_type ``llama4_text``): MoE layers (routed
experts and one shared expert of the same width) every ``interleave_moe_layer_step``-th layer or
at ``moe_layers``, dense ones of ``intermediate_size_mlp``; RoPE layers attend in chunks of
``attention_chunk_size``, the NoPE ones (``no_rope_layers`` 0) globally."""

from __future__ import annotations

import math
from typing import Any

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import MAX_EXPANDED, groups_from_kinds, periodic_groups
from paramtally.core.families.llama import LLAMA_DEFAULTS
from paramtally.core.families.pieces import (
    CHUNKED_OR_FULL,
    activation,
    attention,
    gated,
    layer_types,
    model,
    moe,
)
from paramtally.core.families.vision_parts import (
    TextModel,
    linear,
    merge,
    text_model,
    tower,
    vision_config,
    vit_block,
    vlm,
)
from paramtally.core.text import say

__all__ = ["FAMILY"]

# Llama4's eager_attention_forward takes the softmax in the activation dtype.
_SOFTMAX_IN_DTYPE = ActivationQuirks(softmax_in_activation_dtype=True)


def llama4_text(cfg: HFConfig) -> Spec:
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    f = cfg.integer("intermediate_size")
    routed = moe(cfg.integer("num_local_experts"), cfg.integer("num_experts_per_tok"), f, shared_experts=1)
    chunk = cfg.opt_integer("attention_chunk_size", default=None)
    block = {
        "mixer": attention(cfg, h, sliding_window=chunk),
        "ffn": routed,
        "norms": {"kind": "rmsnorm", "count": 2},
    }
    dense = gated(cfg.integer("intermediate_size_mlp"), activation=activation(cfg))

    def changes(kind: tuple[bool, bool, bool]) -> Spec:
        is_moe, has_rope, chunked = kind
        change: Spec = {} if is_moe else {"ffn": dense}
        mixer: Spec = {} if chunked else {"sliding_window": None}
        if not has_rope:
            mixer["rope"] = False
        if mixer:
            change["mixer"] = mixer
        return change

    step = cfg.integer("interleave_moe_layer_step")
    explicit_moe = cfg.raw("moe_layers", None) is not None
    # Llama4TextConfig: `no_rope_layers if no_rope_layers else default` — an empty list (as the
    # published Scout and Maverick files have) means the default, NoPE every interval-th layer.
    no_rope = cfg.raw("no_rope_layers", None) or None
    nope = cfg.integer("no_rope_layer_interval")
    types = cfg.raw("layer_types", None)
    if not explicit_moe and no_rope is None and types is None:  # all by rule: one period describes the stack
        # every nope-th layer is NoPE, and attends globally (transformers' layer_types default)
        rule = lambda i: ((i + 1) % step == 0, (i + 1) % nope != 0, (i + 1) % nope != 0)  # noqa: E731
        return model(cfg, h, block, periodic_groups(n, math.lcm(step, nope), rule, changes))
    if n > MAX_EXPANDED:  # per-layer lists are written out layer by layer
        raise cfg.fail(
            "num_hidden_layers",
            say("({n:,}) is more layers than a layer list may hold ({most:,})", n=n, most=MAX_EXPANDED),
        )
    moe_at = set(cfg.int_list("moe_layers")) if explicit_moe else set(range(step - 1, n, step))
    rope = (
        [(i + 1) % nope != 0 for i in range(n)]
        if no_rope is None
        else [bool(x) for x in cfg.int_list("no_rope_layers")]
    )
    if len(rope) != n:
        raise cfg.fail("no_rope_layers", say("must hold one 0/1 per layer ({n})", n=n))
    # Llama4TextModel masks a layer by its type: chunks where layer_types says chunked_attention
    # (by default the RoPE layers), the whole context where it says full_attention.
    chunked = (
        rope
        if types is None
        else [kind == "chunked_attention" for kind in layer_types(cfg, n, "", CHUNKED_OR_FULL)]
    )
    if chunk is None:  # no chunks to drop: every layer keeps the base block's attention
        chunked = [True] * n
    kinds = [(i in moe_at, rope[i], chunked[i]) for i in range(n)]
    return model(cfg, h, block, groups_from_kinds(kinds, changes))


# Llama4ForConditionalGeneration ties nothing itself: its Llama4ForCausalLM ties as text_config says.
_TEXT = TextModel("llama4_text", tied_by_text=True)
_VISION: dict[str, Any] = {  # Llama4VisionConfig
    "hidden_size": 768,
    "hidden_act": "gelu",
    "num_hidden_layers": 34,
    "num_attention_heads": 16,
    "num_channels": 3,
    "intermediate_size": 5632,
    "vision_output_dim": 7680,
    "image_size": 448,
    "patch_size": 14,
    "pixel_shuffle_ratio": 0.5,
    "projector_input_dim": 4096,
    "projector_output_dim": 4096,
}


def llama4(cfg: HFConfig) -> Spec:
    """The whole model (``Llama4ForConditionalGeneration``): the vision tower — a linear layer over
    the unfolded patch (``Llama4UnfoldConvolution``, no bias), a class token, n + 1 position rows,
    LayerNorms before and after, blocks biased everywhere — the vision adapter (pixel shuffle by
    1 / ``pixel_shuffle_ratio``, ``fc1`` from the vision ``intermediate_size`` to
    ``projector_input_dim``, ``fc2`` of ``projector_output_dim``, no biases) and the projector's
    bias-free ``linear_1`` from ``vision_output_dim``, then the text model."""
    _, lm = text_model(cfg, _TEXT)
    _, v = vision_config(cfg, "llama4_vision_model", _VISION)
    e, image, p = v.integer("hidden_size"), v.integer("image_size"), v.integer("patch_size")
    f = v.integer("intermediate_size")
    block = vit_block(v.divisor("num_attention_heads", e, "hidden_size"), f, v.text("hidden_act"))
    side = image // p
    patches = {"linear": True, "class_token": True, "channels": v.integer("num_channels")}
    stack = tower(
        v.integer("num_hidden_layers"), e, image, p, patches=patches, max_positions=side * side,
        position_offset=1, embedding_norm=True,
    )  # fmt: skip
    ratio = v.number("pixel_shuffle_ratio")
    s = round(1 / ratio) if ratio > 0 else 0
    if s < 1 or abs(s * ratio - 1) > 1e-9:
        raise v.fail("pixel_shuffle_ratio", say("must be 1/s for a whole s (got {ratio})", ratio=repr(ratio)))
    inner, out = v.integer("projector_input_dim"), v.integer("projector_output_dim")
    # Each layer is built at the width its config key names; where one disagrees with the width
    # before it (a file that builds but cannot run), it is counted as built.
    shuffled, given = e * s * s, v.integer("vision_output_dim")
    steps = [
        merge(s),
        linear(inner, bias=False, reads=f if f != shuffled else None),
        linear(out, bias=False, reads=out if out != inner else None),
        linear(bias=False, reads=given if given != out else None),
    ]
    return vlm(lm, block, stack, {"steps": steps})


FAMILY = Family(
    "Llama 4 (text, and whole with vision)",
    (
        ModelType(
            "llama4_text",
            llama4_text,
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 202048,
                "hidden_size": 5120,
                "intermediate_size": 8192,
                "intermediate_size_mlp": 16384,
                "num_hidden_layers": 48,
                "num_attention_heads": 40,
                "num_key_value_heads": 8,
                "num_local_experts": 16,
                "num_experts_per_tok": 1,
                "interleave_moe_layer_step": 1,
                "moe_layers": None,
                "attention_chunk_size": 8192,
                "no_rope_layers": None,
                "no_rope_layer_interval": 4,
                "max_position_embeddings": 131072,
            },
            activations=_SOFTMAX_IN_DTYPE,
        ),
        ModelType(
            "llama4",
            llama4,
            {"tie_word_embeddings": False},
            activations=_SOFTMAX_IN_DTYPE,
        ),
    ),
)
