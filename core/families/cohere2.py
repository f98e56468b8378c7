"""Command R7B (``Cohere2ForCausalLM``): one weight-only LayerNorm feeds attention and MLP in
parallel; every ``sliding_window_pattern``-th layer is global without RoPE, the others slide."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS
from paramtally.core.families.pieces import (
    activation,
    attention,
    changes_from,
    gated,
    global_layers,
    model,
)

__all__ = ["FAMILY"]


def cohere2(cfg: HFConfig) -> Spec:
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    block = {
        "mixer": attention(cfg, h, sliding_window=cfg.integer("sliding_window")),
        "ffn": gated(cfg.integer("intermediate_size"), activation=activation(cfg)),
        "norms": {"kind": "layernorm", "bias": False, "count": 1},
    }
    changes = changes_from({True: {"mixer": {"sliding_window": None, "rope": False}}})
    return model(cfg, h, block, global_layers(cfg, n, cfg.integer("sliding_window_pattern"), changes))


FAMILY = Family(
    "Command R7B (Cohere2)",
    (
        ModelType(
            "cohere2",
            cohere2,
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 256000,
                "hidden_size": 8192,
                "intermediate_size": 22528,
                "num_hidden_layers": 40,
                "num_attention_heads": 64,
                "sliding_window": 4096,
                "sliding_window_pattern": 4,
                "max_position_embeddings": 8192,
                "tie_word_embeddings": True,
                "layer_types": None,
            },
        ),
    ),
)
