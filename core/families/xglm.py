"""XGLM (``XGLMForCausalLM``): fairseq's decoder alone — pre-norm layers of biased q, k, v and
``out_proj``, a plain biased MLP ``fc1``/``fc2`` of ``ffn_dim``, two LayerNorms, and a final
``layer_norm``. Its positions are sinusoidal (``XGLMSinusoidalPositionalEmbedding.weights``,
max_position_embeddings + 2 rows): a non-persistent buffer, not a parameter and not in the
checkpoint. ``scale_embedding`` multiplies the embeddings by √d_model (no parameter); the head
is tied by default."""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import all_biases, decoder_model, plain_ffn
from paramtally.core.text import say

__all__ = ["FAMILY"]


def xglm(cfg: HFConfig) -> Spec:
    if cfg.flag("add_cross_attention"):
        raise cfg.fail("add_cross_attention", say("is true: cross-attention blocks are not supported"))
    h = cfg.integer("d_model")
    block = {
        "mixer": {
            "kind": "attention",
            "num_heads": cfg.divisor("attention_heads", h, "d_model"),
            **all_biases(True),
        },
        "ffn": plain_ffn(cfg.integer("ffn_dim"), cfg.text("activation_function")),
        "norms": {"kind": "layernorm"},
    }
    return decoder_model(
        h,
        cfg.integer("vocab_size"),
        block,
        [{"count": cfg.integer("num_layers")}],
        tied=cfg.flag("tie_word_embeddings"),
        positions="sinusoidal",
        max_positions=cfg.integer("max_position_embeddings"),
    )


# XGLMAttention's eager softmax runs in the activation dtype (in fp32 only for fp16) after torch.max
# clamps the masked scores, which it keeps; transformers 5.24 refuses SDPA for it (_supports_sdpa is
# not set); XGLMModel drops out the embeddings at `dropout`.
_QUIRKS = ActivationQuirks(
    softmax_in_activation_dtype=True,
    clamped_scores=True,
    sdpa_refused_by="XGLMForCausalLM",
    embedding_dropout=True,
)

FAMILY = Family(
    "XGLM",
    (
        ModelType(
            "xglm",
            xglm,
            {
                "vocab_size": 256008,
                "max_position_embeddings": 2048,
                "d_model": 1024,
                "ffn_dim": 4096,
                "num_layers": 24,
                "attention_heads": 16,
                "activation_function": "gelu",
                "add_cross_attention": False,
                "tie_word_embeddings": True,
                "attention_dropout": 0.1,
                "dropout": 0.1,
            },
            activations=_QUIRKS,
            tokenizer="sentencepiece",  # XGLMTokenizer: a SentencePiece model
            dropout=("attention_dropout", "dropout"),
            # XGLMConfig.attribute_map: the common names stand for its own.
            renamed_keys={
                "hidden_size": "d_model",
                "num_attention_heads": "attention_heads",
                "num_hidden_layers": "num_layers",
            },
        ),
    ),
)
