"""Llama 4's language model (``Llama4ForCausalLM``, model_type ``llama4_text``): MoE layers (routed
experts and one shared expert of the same width) every ``interleave_moe_layer_step``-th layer or
at ``moe_layers``, dense ones of ``intermediate_size_mlp``; RoPE layers attend in chunks of
``attention_chunk_size``, the NoPE ones (``no_rope_layers`` 0) globally."""

from __future__ import annotations

import math

from paramtally.core.io.importers.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.io.importers.families.llama import LLAMA_DEFAULTS
from paramtally.core.io.importers.families.pieces import (
    CHUNKED_OR_FULL,
    activation,
    attention,
    gated,
    layer_types,
    model,
    moe,
)
from paramtally.core.io.importers.hf_reader import HFConfig
from paramtally.core.io.importers.layer_pattern import MAX_EXPANDED, groups_from_kinds, periodic_groups

__all__ = ["FAMILY"]


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
    no_rope = cfg.raw("no_rope_layers", None)
    types = cfg.raw("layer_types", None)
    if not explicit_moe and no_rope is None and types is None:  # all by rule: one period describes the stack
        # every 4th layer is NoPE, and attends globally (transformers' layer_types default)
        rule = lambda i: ((i + 1) % step == 0, (i + 1) % 4 != 0, (i + 1) % 4 != 0)  # noqa: E731
        return model(cfg, h, block, periodic_groups(n, math.lcm(step, 4), rule, changes))
    if n > MAX_EXPANDED:  # per-layer lists are written out layer by layer
        raise cfg.fail(
            "num_hidden_layers", f"({n:,}) is more layers than a layer list may hold ({MAX_EXPANDED:,})"
        )
    moe_at = set(cfg.int_list("moe_layers")) if explicit_moe else set(range(step - 1, n, step))
    rope = (
        [(i + 1) % 4 != 0 for i in range(n)]
        if no_rope is None
        else [bool(x) for x in cfg.int_list("no_rope_layers")]
    )
    if len(rope) != n:
        raise cfg.fail("no_rope_layers", f"must hold one 0/1 per layer ({n})")
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


FAMILY = Family(
    "Llama 4 (text)",
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
                "max_position_embeddings": 131072,
            },
            # Llama4's eager_attention_forward takes the softmax in the activation dtype.
            activations=ActivationQuirks(softmax_in_activation_dtype=True),
            wrapped_by=("llama4",),
        ),
    ),
)
