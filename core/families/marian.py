"""Marian (``MarianMTModel``, the OPUS-MT models): BART's post-norm layers without any norm
outside them (no ``layernorm_embedding``, no final ``layer_norm``), and sinusoidal positions kept as
a parameter: ``MarianSinusoidalPositionalEmbedding`` subclasses ``nn.Embedding`` (max_position_embeddings
rows, frozen), counted in each stack (2 × 512 × 512 in opus-mt-en-de). ``final_logits_bias`` is a
buffer.

``share_encoder_decoder_embeddings`` (true in published models) makes ``shared``, both stacks'
``embed_tokens`` and the head one table; false gives the decoder its own table of
``decoder_vocab_size`` rows, which the head predicts and is tied to (``tie_word_embeddings``).
"""

from __future__ import annotations

from paramtally.core.families.bart import SEQ2SEQ_QUIRKS, bart_like, tied_three_ways
from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig

__all__ = ["FAMILY"]


def marian(cfg: HFConfig) -> Spec:
    shared = cfg.flag("share_encoder_decoder_embeddings")
    if shared:
        tied_three_ways(cfg)
    # A frozen table of sines is still rows of parameters: counted as a learned table is, but never
    # trained (MarianSinusoidalPositionalEmbedding is an nn.Embedding made with _freeze=True:
    # requires_grad false).
    spec = bart_like(
        cfg,
        positions="learned",
        max_positions=cfg.integer("max_position_embeddings"),
        frozen_positions=True,
        embedding_norm=False,
        final_norm=False,
    )
    if not shared:  # MarianConfig: decoder_vocab_size null (or 0) is the vocab_size
        own = cfg.integer("decoder_vocab_size", minimum=0) if cfg.raw("decoder_vocab_size") else None
        spec["embeddings"]["decoder_vocab_size"] = own or spec["embeddings"]["vocab_size"]
    return spec


FAMILY = Family(
    "Marian",
    (
        ModelType(
            "marian",
            marian,
            {
                "vocab_size": 58101,
                "decoder_vocab_size": None,  # MarianConfig: the vocab_size where null
                "d_model": 1024,
                "encoder_layers": 12,
                "decoder_layers": 12,
                "encoder_ffn_dim": 4096,
                "decoder_ffn_dim": 4096,
                "encoder_attention_heads": 16,
                "decoder_attention_heads": 16,
                "max_position_embeddings": 1024,
                "activation_function": "gelu",
                "share_encoder_decoder_embeddings": True,
                "tie_word_embeddings": True,
                "dropout": 0.1,
                "attention_dropout": 0.0,
            },
            # MarianAttention's eager softmax, the loss and the embedding dropout are BART's.
            activations=SEQ2SEQ_QUIRKS,
            tokenizer="sentencepiece",
            dropout=("attention_dropout", "dropout"),
        ),
    ),
)
