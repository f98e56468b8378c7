"""BLOOM (``BloomForCausalLM``): ALiBi instead of a position table, a LayerNorm on the embeddings,
biases everywhere and a plain GELU MLP of 4·h; tied."""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import all_biases, decoder_model, plain_ffn

__all__ = ["FAMILY"]


def bloom(cfg: HFConfig) -> Spec:
    h = cfg.integer("hidden_size")
    vocab = cfg.integer("vocab_size")
    block = {
        "mixer": {
            "kind": "attention",
            "num_heads": cfg.divisor("n_head", h, "hidden_size"),
            **all_biases(True),
        },
        "ffn": plain_ffn(4 * h, "gelu"),
        "norms": {"kind": "layernorm"},
    }
    tied = cfg.flag("tie_word_embeddings")
    layers = [{"count": cfg.integer("n_layer")}]
    return decoder_model(h, vocab, block, layers, tied=tied, positions="alibi", embedding_norm=True)


FAMILY = Family(
    "BLOOM",
    (
        ModelType(
            "bloom",
            bloom,
            {"vocab_size": 250880, "hidden_size": 64, "n_layer": 2, "n_head": 8, "tie_word_embeddings": True},
            # BloomForCausalLM refuses SDPA (_supports_sdpa is False).
            activations=ActivationQuirks(sdpa_refused_by="BloomForCausalLM"),
            dropout=("attention_dropout", "hidden_dropout"),
        ),
    ),
)
