"""Pegasus (``PegasusForConditionalGeneration``): mBART's pre-norm layers and final ``layer_norm``
in each stack, without ``layernorm_embedding``; the positions are sinusoidal but kept as a
parameter: ``PegasusSinusoidalPositionalEmbedding`` subclasses ``nn.Embedding`` (max_position_embeddings
rows, no offset, frozen), so transformers counts 2 × 1,024 × 1,024 of them in pegasus-large.
``final_logits_bias`` is a buffer; the head and the embeddings are one table."""

from __future__ import annotations

from paramtally.core.families.bart import SEQ2SEQ_QUIRKS, bart_like, tied_three_ways
from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig

__all__ = ["FAMILY"]


def pegasus(cfg: HFConfig) -> Spec:
    tied_three_ways(cfg)
    # A frozen table of sines is still rows of parameters: counted as a learned table is, but never
    # trained (PegasusSinusoidalPositionalEmbedding is an nn.Embedding made with _freeze=True:
    # requires_grad false).
    return bart_like(
        cfg,
        positions="learned",
        max_positions=cfg.integer("max_position_embeddings"),
        frozen_positions=True,
        embedding_norm=False,
        final_norm=True,
    )


FAMILY = Family(
    "Pegasus",
    (
        ModelType(
            "pegasus",
            pegasus,
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
            # PegasusAttention's eager softmax, the loss and the embedding dropout are BART's.
            activations=SEQ2SEQ_QUIRKS,
            tokenizer="sentencepiece",
            dropout=("attention_dropout", "dropout"),
        ),
    ),
)
