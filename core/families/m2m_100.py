"""M2M-100 and NLLB (``M2M100ForConditionalGeneration``): mBART's pre-norm layers and final
``layer_norm`` in each stack, no ``layernorm_embedding``, and sinusoidal positions kept as a
non-persistent buffer (``M2M100SinusoidalPositionalEmbedding.weights``, max_position_embeddings + 2
rows): not parameters, not in the checkpoint. No ``final_logits_bias`` at all. ``shared`` (scaled
by √d_model, ``M2M100ScaledWordEmbedding``), both stacks' ``embed_tokens`` and the head are one
table."""

from __future__ import annotations

from paramtally.core.families.bart import SEQ2SEQ_QUIRKS, bart_like, tied_three_ways
from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig

__all__ = ["FAMILY"]


def m2m_100(cfg: HFConfig) -> Spec:
    tied_three_ways(cfg)
    return bart_like(
        cfg,
        positions="sinusoidal",
        max_positions=cfg.integer("max_position_embeddings"),
        embedding_norm=False,
        final_norm=True,
    )


FAMILY = Family(
    "M2M-100, NLLB",
    (
        ModelType(
            "m2m_100",
            m2m_100,
            {
                "vocab_size": 128112,
                "d_model": 1024,
                "encoder_layers": 12,
                "decoder_layers": 12,
                "encoder_ffn_dim": 4096,
                "decoder_ffn_dim": 4096,
                "encoder_attention_heads": 16,
                "decoder_attention_heads": 16,
                "max_position_embeddings": 1024,
                "activation_function": "relu",
                "tie_word_embeddings": True,
                "dropout": 0.1,
                "attention_dropout": 0.1,
            },
            # M2M100Attention's eager softmax, the loss and the embedding dropout are BART's.
            activations=SEQ2SEQ_QUIRKS,
            tokenizer="sentencepiece",
            dropout=("attention_dropout", "dropout"),
        ),
    ),
)
