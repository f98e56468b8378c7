"""EXAONE 4.0 (``Exaone4ForCausalLM``): Llama's shapes with the norms after each sublayer
(``post_attention_layernorm``, ``post_feedforward_layernorm``; two a layer all the same) and a
q/k RMSNorm over d_h. With a ``sliding_window`` the layers ``layer_types`` names slide (by default
all but every ``sliding_window_pattern``-th) and the global ones skip RoPE
(``Exaone4Attention``: rotary only where the model has no window or the layer slides)."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import groups_from_kinds, periodic_groups
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped
from paramtally.core.families.pieces import SLIDING_OR_FULL, changes_from, layer_types

__all__ = ["FAMILY"]

EXAONE4 = LlamaShape(biased=(), qk_norm=True)


def exaone4(cfg: HFConfig) -> Spec:
    spec = llama_shaped(cfg, EXAONE4)
    window = cfg.opt_integer("sliding_window")
    if window is None:  # Exaone4Config: no window, no pattern; every layer full with RoPE
        return spec
    n = cfg.integer("num_hidden_layers")
    full = changes_from({True: {"mixer": {"sliding_window": None, "rope": False}}})
    if cfg.raw("layer_types", None) is None:  # a string pattern ("LLLG") is read only through layer_types
        every = cfg.integer("sliding_window_pattern")
        layers = periodic_groups(n, every, lambda i: (i + 1) % every == 0, full)
    else:
        types = layer_types(cfg, n, "sliding_attention", SLIDING_OR_FULL)
        layers = groups_from_kinds([kind == "full_attention" for kind in types], full)
    spec["blocks"]["default"]["mixer"]["sliding_window"] = window
    spec["decoder"]["layers"] = layers
    return spec


FAMILY = Family(
    "EXAONE 4.0",
    (
        ModelType(
            "exaone4",
            exaone4,
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 102400,
                "intermediate_size": 16384,
                "sliding_window": 4096,
                "sliding_window_pattern": 4,
                "layer_types": None,
            },
        ),
    ),
)
