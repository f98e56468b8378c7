"""T5 and mT5 (``T5ForConditionalGeneration``, ``MT5ForConditionalGeneration``): no biases,
RMS-style norms (T5LayerNorm), a relative position bias in each stack's first layer; a
``feed_forward_proj`` of "gated-gelu"/"gated-silu" makes the FFN gated (v1.1, Flan, mT5).

T5 v1.1, Flan-T5 and mT5 checkpoints keep a separate ``lm_head`` (``tie_word_embeddings: false``)
that transformers 5 ties anyway; the count follows the published checkpoint.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import encoder_decoder_blocks, heads_attention

__all__ = ["FAMILY"]


def t5(cfg: HFConfig) -> Spec:
    h = cfg.integer("d_model")
    heads, d_kv = cfg.integer("num_heads"), cfg.integer("d_kv")
    proj = cfg.text("feed_forward_proj")
    gated = proj.startswith("gated-")
    activation = proj.removeprefix("gated-").replace("gelu", "gelu_new" if gated else "gelu")
    attention = heads_attention(heads, d_kv if heads * d_kv != h else None, False, False, False, False)
    ffn = {
        "kind": "dense",
        "width": cfg.integer("d_ff"),
        "gated": gated,
        "bias": False,
        "activation": activation,
    }
    blocks = encoder_decoder_blocks(
        {"mixer": attention, "ffn": ffn},
        {"mixer": attention, "ffn": ffn},
        attention,
        {"kind": "rmsnorm", "count": 2},
        3,
    )
    encoder_layers = cfg.integer("num_layers")
    decoder_layers = cfg.opt_integer("num_decoder_layers") or encoder_layers
    buckets = cfg.integer("relative_attention_num_buckets")
    stack = {"positions": "relative_bias", "relative_buckets": buckets}
    return {
        "hidden_size": h,
        "embeddings": {"vocab_size": cfg.integer("vocab_size")},
        "blocks": blocks,
        "encoder": {"block": "encoder", "layers": [{"count": encoder_layers}], **stack},
        "decoder": {"block": "decoder", "layers": [{"count": decoder_layers}], **stack},
        "head": {"tied": cfg.flag("tie_word_embeddings")},
    }


_T5_DEFAULTS: dict[str, Any] = {
    "vocab_size": 32128,
    "d_model": 512,
    "d_kv": 64,
    "d_ff": 2048,
    "num_layers": 6,
    "num_decoder_layers": None,
    "num_heads": 8,
    "relative_attention_num_buckets": 32,
    "feed_forward_proj": "relu",
    "tie_word_embeddings": True,
    "dropout_rate": 0.1,
}
# T5's eager_attention_forward takes the softmax in the activation dtype; T5LayerNorm multiplies
# its input (hidden_states * torch.rsqrt(variance + eps)), keeping it; T5DenseActDense and
# T5DenseGatedActDense drop out before wo; the loss is taken on the logits as they are
# (CrossEntropyLoss); T5Stack drops out the embeddings and its final norm's output.
_QUIRKS = ActivationQuirks(
    softmax_in_activation_dtype=True,
    norm_keeps_input=True,
    ffn_inner_dropout=True,
    loss_in_activation_dtype=True,
    embedding_dropout=True,
    final_norm_dropout=True,
)
_DROPOUT = ("dropout_rate", "dropout_rate")

FAMILY = Family(
    "T5, mT5",
    (
        ModelType("t5", t5, _T5_DEFAULTS, activations=_QUIRKS, tokenizer="sentencepiece", dropout=_DROPOUT),
        ModelType(
            "mt5",
            t5,
            {
                **_T5_DEFAULTS,
                "vocab_size": 250112,
                "d_ff": 1024,
                "num_layers": 8,
                "num_heads": 6,
                "feed_forward_proj": "gated-gelu",
                # transformers builds mT5 tied whatever the file says; a checkpoint has its own head
                # only when the file says `tie_word_embeddings: false` (as the published ones do).
                "tie_word_embeddings": True,
            },
            activations=_QUIRKS,
            tokenizer="sentencepiece",
            dropout=_DROPOUT,
        ),
    ),
)
