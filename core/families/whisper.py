"""Whisper (``WhisperForConditionalGeneration``): BART-like layers whose key projection has no
bias; the encoder reads log-mel frames through two convolutions and adds sinusoidal positions kept
as a parameter table."""

from __future__ import annotations

from dataclasses import replace

from paramtally.core.families.bart import SEQ2SEQ_QUIRKS, bart_blocks
from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig

__all__ = ["FAMILY"]


def whisper(cfg: HFConfig) -> Spec:
    h = cfg.integer("d_model")
    blocks = bart_blocks(cfg, k_bias=False)
    return {
        "hidden_size": h,
        "embeddings": {"vocab_size": cfg.integer("vocab_size")},
        "blocks": blocks,
        "encoder": {
            "block": "encoder",
            "layers": [{"count": cfg.integer("encoder_layers")}],
            "positions": "learned",
            "max_positions": cfg.integer("max_source_positions"),
            # WhisperEncoder: embed_positions.requires_grad_(False), a table of sines never trained.
            "frozen_positions": True,
            "frontend": {"mel_bins": cfg.integer("num_mel_bins"), "kernel": 3},
        },
        "decoder": {
            "block": "decoder",
            "layers": [{"count": cfg.integer("decoder_layers")}],
            "positions": "learned",
            "max_positions": cfg.integer("max_target_positions"),
        },
        "head": {"tied": cfg.flag("tie_word_embeddings")},
    }


FAMILY = Family(
    "Whisper",
    (
        ModelType(
            "whisper",
            whisper,
            {
                "vocab_size": 51865,
                "d_model": 384,
                "encoder_layers": 4,
                "decoder_layers": 4,
                "encoder_ffn_dim": 1536,
                "decoder_ffn_dim": 1536,
                "encoder_attention_heads": 6,
                "decoder_attention_heads": 6,
                "num_mel_bins": 80,
                "max_source_positions": 1500,
                "max_target_positions": 448,
                "activation_function": "gelu",
                "tie_word_embeddings": True,
            },
            # WhisperAttention makes q, k and v contiguous heads-first before SDPA
            # (.transpose(1, 2).contiguous()), so the reshape after it copies the output.
            activations=replace(SEQ2SEQ_QUIRKS, sdpa_output_copied=True),
            dropout=("attention_dropout", "dropout"),
        ),
    ),
)
