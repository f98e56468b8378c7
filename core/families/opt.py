"""OPT (``OPTForCausalLM``): GPT-2's layers with separate q/k/v, learned positions offset by 2, an
optional projection of narrower word embeddings (OPT-350m), and LayerNorms that may hold no
parameters (``layer_norm_elementwise_affine`` false) or no final one (post-norm OPT-350m)."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import all_biases, decoder_model, plain_ffn

__all__ = ["FAMILY"]


def opt(cfg: HFConfig) -> Spec:
    h = cfg.integer("hidden_size")
    word_dim = cfg.opt_integer("word_embed_proj_dim") or h
    bias = cfg.flag("enable_bias")
    affine = cfg.flag("layer_norm_elementwise_affine")
    final = cfg.flag("do_layer_norm_before") and not cfg.flag("_remove_final_layer_norm")
    vocab, positions = cfg.integer("vocab_size"), cfg.integer("max_position_embeddings")
    block = {
        "mixer": {
            "kind": "attention",
            "num_heads": cfg.divisor("num_attention_heads", h, "hidden_size"),
            **all_biases(bias),
        },
        "ffn": plain_ffn(cfg.integer("ffn_dim"), cfg.text("activation_function"), bias),
        # LayerNorms without elementwise affine hold no parameters at all.
        "norms": {"kind": "layernorm", "count": 2 if affine else 0},
    }
    spec = decoder_model(
        h,
        vocab,
        block,
        [{"count": cfg.integer("num_hidden_layers")}],
        tied=cfg.flag("tie_word_embeddings"),
        positions="learned",
        max_positions=positions,
        position_offset=2,
        final_norm=final and affine,
    )
    if word_dim != h:
        spec["embeddings"]["embed_dim"] = word_dim
    return spec


FAMILY = Family(
    "OPT",
    (
        ModelType(
            "opt",
            opt,
            {
                "vocab_size": 50272,
                "hidden_size": 768,
                "num_hidden_layers": 12,
                "ffn_dim": 3072,
                "max_position_embeddings": 2048,
                "do_layer_norm_before": True,
                "_remove_final_layer_norm": False,
                "word_embed_proj_dim": None,
                "num_attention_heads": 12,
                "activation_function": "relu",
                "enable_bias": True,
                "layer_norm_elementwise_affine": True,
                "tie_word_embeddings": True,
                "dropout": 0.1,
            },
            dropout=("attention_dropout", "dropout"),
        ),
    ),
)
