"""mBART (``MBartForConditionalGeneration``): BART's layers made pre-norm, so each stack ends in
a ``layer_norm`` beside BART's ``layernorm_embedding``; learned positions with BART's offset of 2
(``MBartLearnedPositionalEmbedding``: 1,026 rows for 1,024 positions). ``scale_embedding``
multiplies the embeddings by √d_model (no parameter); ``final_logits_bias`` is a buffer, never
counted. The head, both stacks' ``embed_tokens`` and ``shared`` are one table."""

from __future__ import annotations

from paramtally.core.families.bart import SEQ2SEQ_QUIRKS, bart_like, tied_three_ways
from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig

__all__ = ["FAMILY"]


def mbart(cfg: HFConfig) -> Spec:
    tied_three_ways(cfg)
    return bart_like(
        cfg,
        positions="learned",
        max_positions=cfg.integer("max_position_embeddings"),
        position_offset=2,
        embedding_norm=True,
        final_norm=True,
    )


FAMILY = Family(
    "mBART",
    (
        ModelType(
            "mbart",
            mbart,
            {
                "vocab_size": 50265,
                "d_model": 1024,
                "encoder_layers": 12,
                "decoder_layers": 12,
                "encoder_ffn_dim": 4096,
                "decoder_ffn_dim": 4096,
                "encoder_attention_heads": 16,
                "decoder_attention_heads": 16,
                "max_position_embeddings": 1024,
                "activation_function": "gelu",
                "tie_word_embeddings": True,
                "dropout": 0.1,
                "attention_dropout": 0.0,
            },
            # MBartAttention's eager softmax, the loss and the embedding dropout are BART's.
            activations=SEQ2SEQ_QUIRKS,
            tokenizer="sentencepiece",
            dropout=("attention_dropout", "dropout"),
        ),
    ),
)
