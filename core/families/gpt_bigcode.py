"""StarCoder, SantaCoder (``GPTBigCodeForCausalLM``): GPT-2's layers (learned positions, biased
LayerNorms, a plain biased MLP of ``n_inner`` or 4·h) with multi-query attention where
``multi_query`` (the default): q, k and v fused in one biased ``c_attn`` of h + 2·d_h outputs, one
K/V head. Tied by default (``GPTBigCodeConfig``)."""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import all_biases, decoder_model, plain_ffn
from paramtally.core.text import say

__all__ = ["FAMILY"]


def gpt_bigcode(cfg: HFConfig) -> Spec:
    if cfg.flag("add_cross_attention"):
        raise cfg.fail("add_cross_attention", say("is true: cross-attention blocks are not supported"))
    h = cfg.integer("n_embd")
    a = cfg.divisor("n_head", h, "n_embd")
    mixer = {
        "kind": "attention",
        "num_heads": a,
        "num_kv_heads": 1 if cfg.flag("multi_query") else a,
        **all_biases(True),
    }
    block = {
        "mixer": mixer,
        "ffn": plain_ffn(cfg.opt_integer("n_inner") or 4 * h, cfg.text("activation_function")),
        "norms": {"kind": "layernorm"},
    }
    layers = [{"count": cfg.integer("n_layer")}]
    return decoder_model(
        h,
        cfg.integer("vocab_size"),
        block,
        layers,
        tied=cfg.flag("tie_word_embeddings"),
        positions="learned",
        max_positions=cfg.integer("n_positions"),
    )


# GPTBigCodeAttention splits q, k and v from c_attn's one output: views that SDPA with the KV cache
# keeps whole (measured); its eager softmax upcasts to fp32 (attention_softmax_in_fp32).
_QUIRKS = ActivationQuirks(fused_qkv_views="always")

FAMILY = Family(
    "StarCoder (GPT-BigCode)",
    (
        ModelType(
            "gpt_bigcode",
            gpt_bigcode,
            {
                "vocab_size": 50257,
                "n_positions": 1024,
                "n_embd": 768,
                "n_layer": 12,
                "n_head": 12,
                "n_inner": None,
                "activation_function": "gelu_pytorch_tanh",
                "multi_query": True,
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
