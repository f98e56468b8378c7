"""GPT-2 (``GPT2LMHeadModel``): learned positions, LayerNorms, biased fused q/k/v and a plain
biased MLP of ``n_inner`` (4·h when null); tied by default."""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import all_biases, decoder_model, plain_ffn
from paramtally.core.text import say

__all__ = ["FAMILY"]


def gpt2(cfg: HFConfig) -> Spec:
    if cfg.flag("add_cross_attention"):
        raise cfg.fail("add_cross_attention", say("is true: cross-attention blocks are not supported"))
    h = cfg.integer("n_embd")
    vocab, positions = cfg.integer("vocab_size"), cfg.integer("n_positions")
    block = {
        "mixer": {"kind": "attention", "num_heads": cfg.divisor("n_head", h, "n_embd"), **all_biases(True)},
        "ffn": plain_ffn(cfg.opt_integer("n_inner") or 4 * h, cfg.text("activation_function")),
        "norms": {"kind": "layernorm"},
    }
    tied = cfg.flag("tie_word_embeddings")
    layers = [{"count": cfg.integer("n_layer")}]
    return decoder_model(h, vocab, block, layers, tied=tied, positions="learned", max_positions=positions)


# GPT2Attention: c_attn(x).split(…) gives q, k and v as views of one output, which SDPA with the
# KV cache keeps whole; its eager softmax runs in the activation dtype; GPT2Model.drop drops out
# the embeddings.
_QUIRKS = ActivationQuirks(softmax_in_activation_dtype=True, fused_qkv_views="always", embedding_dropout=True)

FAMILY = Family(
    "GPT-2",
    (
        ModelType(
            "gpt2",
            gpt2,
            {
                "vocab_size": 50257,
                "n_positions": 1024,
                "n_embd": 768,
                "n_layer": 12,
                "n_head": 12,
                "n_inner": None,
                "activation_function": "gelu_new",
                "tie_word_embeddings": True,
                "add_cross_attention": False,
                "attn_pdrop": 0.1,
                "resid_pdrop": 0.1,
            },
            activations=_QUIRKS,
            dropout=("attn_pdrop", "resid_pdrop"),
        ),
    ),
)
