"""SmolLM3 (``SmolLM3ForCausalLM``): Llama's shapes, tied by default; the layers
``no_rope_layers`` marks 0 skip RoPE (by default every ``no_rope_layer_interval``-th,
``SmolLM3Attention.use_rope``), which shapes no parameter."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import groups_from_kinds, periodic_groups
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped
from paramtally.core.families.pieces import changes_from
from paramtally.core.text import say

__all__ = ["FAMILY"]

SMOLLM3 = LlamaShape(mlp_bias_key="mlp_bias")


def smollm3(cfg: HFConfig) -> Spec:
    spec = llama_shaped(cfg, SMOLLM3)
    n = cfg.integer("num_hidden_layers")
    nope = changes_from({False: {"mixer": {"rope": False}}})
    if cfg.raw("no_rope_layers", None) is None:
        every = cfg.integer("no_rope_layer_interval")
        spec["decoder"]["layers"] = periodic_groups(n, every, lambda i: (i + 1) % every != 0, nope)
        return spec
    rope = cfg.int_list("no_rope_layers")
    if len(rope) != n:
        raise cfg.fail("no_rope_layers", say("must hold one 0/1 per layer ({n})", n=n))
    spec["decoder"]["layers"] = groups_from_kinds([bool(flag) for flag in rope], nope)
    return spec


FAMILY = Family(
    "SmolLM3",
    (
        ModelType(
            "smollm3",
            smollm3,
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 128256,
                "hidden_size": 2048,
                "num_hidden_layers": 36,
                "num_attention_heads": 16,
                "num_key_value_heads": 4,
                "max_position_embeddings": 32768,
                "no_rope_layers": None,
                "no_rope_layer_interval": 4,
                "tie_word_embeddings": True,
            },
        ),
    ),
)
