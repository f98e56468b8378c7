"""Falcon (``FalconForCausalLM``): multi-query attention (7B) or grouped KV heads with the new
decoder architecture (40B, 180B), attention and MLP in parallel after one or two LayerNorms,
RoPE or ALiBi; tied by default."""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import all_biases, decoder_model, plain_ffn

__all__ = ["FAMILY"]


def falcon(cfg: HFConfig) -> Spec:
    h = cfg.integer("hidden_size")
    a = cfg.divisor("num_attention_heads", h, "hidden_size")
    new_arch = cfg.flag("new_decoder_architecture")
    if new_arch:
        kv = cfg.divisor("num_kv_heads", a, "num_attention_heads", cfg.opt_integer("num_kv_heads") or a)
    else:
        kv = 1 if cfg.flag("multi_query") else a
    norms_in_parallel = cfg.opt_integer("num_ln_in_parallel_attn") or (2 if new_arch else 1)
    per_block = 2 if not cfg.flag("parallel_attn") or norms_in_parallel == 2 else 1
    bias = cfg.flag("bias")
    vocab = cfg.integer("vocab_size")
    positions = "alibi" if cfg.flag("alibi") else "rope"
    max_positions = cfg.integer("max_position_embeddings")
    block = {
        "mixer": {"kind": "attention", "num_heads": a, "num_kv_heads": kv, **all_biases(bias)},
        "ffn": plain_ffn(cfg.opt_integer("ffn_hidden_size") or 4 * h, cfg.text("activation"), bias),
        "norms": {"kind": "layernorm", "count": per_block},
    }
    tied = cfg.flag("tie_word_embeddings")
    layers = [{"count": cfg.integer("num_hidden_layers")}]
    return decoder_model(h, vocab, block, layers, tied=tied, positions=positions, max_positions=max_positions)


FAMILY = Family(
    "Falcon",
    (
        ModelType(
            "falcon",
            falcon,
            {
                "vocab_size": 65024,
                "hidden_size": 4544,
                "num_hidden_layers": 32,
                "num_attention_heads": 71,
                "num_kv_heads": None,
                "num_ln_in_parallel_attn": None,
                "alibi": False,
                "new_decoder_architecture": False,
                "multi_query": True,
                "parallel_attn": True,
                "bias": False,
                "max_position_embeddings": 2048,
                "ffn_hidden_size": None,
                "activation": "gelu",
                "tie_word_embeddings": True,
            },
            # FalconAttention's eager softmax runs in the activation dtype; with ALiBi, q stays
            # unrotated, a view of query_key_value's output that SDPA with the KV cache keeps whole.
            activations=ActivationQuirks(softmax_in_activation_dtype=True, fused_qkv_views="alibi"),
            dropout=("attention_dropout", "hidden_dropout"),
        ),
    ),
)
