"""LED, the Longformer Encoder-Decoder (``LEDForConditionalGeneration``, or the bare ``LEDModel``;
Beltagy et al. 2020):
BART's layers whose encoder self-attention is Longformer's — biased q, k, v and a second biased
set for global tokens (``LEDEncoderSelfAttention``: query_global, key_global, value_global), its
output projection biased (``LEDEncoderAttention.output``) — attending within ``attention_window``
(w / 2 tokens either side, per layer or one for all, as Longformer).

Each stack keeps a learned position table of its own length and no offset
(``LEDLearnedPositionalEmbedding``: ``max_encoder_position_embeddings`` rows, 16,384 in the published
models, and ``max_decoder_position_embeddings``, 1,024) and BART's ``layernorm_embedding``, no final
norm. The head, both stacks' ``embed_tokens`` and ``shared`` are one table; ``final_logits_bias``
is a buffer, never counted. The FLOPs count each encoder token's window and leave out global tokens;
the hf-eager activations take the encoder's full attention scores, an estimate over Longformer's
band past the window (see ``longformer``).
"""

from __future__ import annotations

from dataclasses import replace

from paramtally.core.families.bart import SEQ2SEQ_QUIRKS, bart_like, tied_three_ways
from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.bert import head_named
from paramtally.core.families.hf_reader import HFConfig, display_name
from paramtally.core.families.longformer import attention_windows, windowed_layers

__all__ = ["FAMILY"]


def led(cfg: HFConfig) -> Spec:
    head = head_named(cfg, "LED", ("ForConditionalGeneration", "Model"))
    tied_three_ways(cfg)
    spec = bart_like(cfg, positions="learned", embedding_norm=True, final_norm=False)
    spec["encoder"]["max_positions"] = cfg.integer("max_encoder_position_embeddings")
    spec["decoder"]["max_positions"] = cfg.integer("max_decoder_position_embeddings")
    window, layers = windowed_layers(attention_windows(cfg, cfg.integer("encoder_layers")))
    mixer = spec["blocks"]["encoder"]["mixer"]
    mixer["global_projections"] = True
    if window is not None:
        mixer["sliding_window"] = window
    spec["encoder"]["layers"] = layers
    if head == "Model":  # the bare LEDModel: no head (its tie made no tensor of its own either)
        spec["head"] = {"present": False}
        spec["name"] = display_name(cfg.data, cfg.origin) + " (LEDModel)"
    return spec


FAMILY = Family(
    "LED",
    (
        ModelType(
            "led",
            led,
            {
                "vocab_size": 50265,
                "d_model": 1024,
                "encoder_layers": 12,
                "decoder_layers": 12,
                "encoder_ffn_dim": 4096,
                "decoder_ffn_dim": 4096,
                "encoder_attention_heads": 16,
                "decoder_attention_heads": 16,
                "max_encoder_position_embeddings": 16384,
                "max_decoder_position_embeddings": 1024,
                "attention_window": 512,
                "activation_function": "gelu",
                "tie_word_embeddings": True,
                "dropout": 0.1,
                "attention_dropout": 0.0,
            },
            # The decoder's eager softmax, the loss and the embedding dropout are BART's; LED has no
            # SDPA path (LEDPreTrainedModel keeps _supports_sdpa False).
            activations=replace(SEQ2SEQ_QUIRKS, sdpa_refused_by="LEDForConditionalGeneration"),
            dropout=("attention_dropout", "dropout"),
        ),
    ),
)
