"""GPT-NeoX and Pythia (``GPTNeoXForCausalLM``): LayerNorms, biased attention rotating a share
``rotary_pct`` (newer files: ``partial_rotary_factor``) of each head, a plain biased MLP."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import all_biases, decoder_model, plain_ffn

__all__ = ["FAMILY"]


def gpt_neox(cfg: HFConfig) -> Spec:
    fraction = cfg.rope("partial_rotary_factor")
    if fraction is None:
        fraction = cfg.number("rotary_pct")
    fraction = cfg.as_number("partial_rotary_factor", fraction)
    h = cfg.integer("hidden_size")
    vocab, positions = cfg.integer("vocab_size"), cfg.integer("max_position_embeddings")
    block = {
        "mixer": {
            "kind": "attention",
            "num_heads": cfg.divisor("num_attention_heads", h, "hidden_size"),
            "rotary_fraction": fraction,
            **all_biases(cfg.flag("attention_bias")),
        },
        "ffn": plain_ffn(cfg.integer("intermediate_size"), cfg.text("hidden_act")),
        "norms": {"kind": "layernorm"},
    }
    tied = cfg.flag("tie_word_embeddings")
    layers = [{"count": cfg.integer("num_hidden_layers")}]
    return decoder_model(h, vocab, block, layers, tied=tied, max_positions=positions)


FAMILY = Family(
    "GPT-NeoX, Pythia",
    (
        ModelType(
            "gpt_neox",
            gpt_neox,
            {
                "vocab_size": 50432,
                "hidden_size": 6144,
                "num_hidden_layers": 44,
                "num_attention_heads": 64,
                "intermediate_size": 24576,
                "hidden_act": "gelu",
                "max_position_embeddings": 2048,
                "tie_word_embeddings": False,
                "attention_bias": True,
                "rotary_pct": 0.25,
            },
            dropout=("attention_dropout", "hidden_dropout"),
        ),
    ),
)
