"""BART (``BartForConditionalGeneration``): biased attention and FFN, LayerNorms, learned positions
with 2 extra rows and an embedding LayerNorm in each stack, no final norm; the head is tied to the
shared embedding. ``bart_block`` is the layer Whisper shares."""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import encoder_decoder_blocks, heads_attention
from paramtally.core.text import say

__all__ = ["FAMILY", "SEQ2SEQ_QUIRKS", "bart_block", "bart_blocks", "bart_like", "tied_three_ways"]


def bart_block(cfg: HFConfig, prefix: str, k_bias: bool) -> tuple[Spec, Spec]:
    """One stack's block of a BART-like model (biased attention and a plain biased FFN) and its
    attention, which the decoder's cross-attention repeats."""
    h = cfg.integer("d_model")
    heads = cfg.integer(f"{prefix}_attention_heads")
    attention = heads_attention(heads, None if h % heads == 0 else h // heads, True, k_bias, True, True)
    ffn = {
        "kind": "dense",
        "width": cfg.integer(f"{prefix}_ffn_dim"),
        "gated": False,
        "bias": True,
        "activation": cfg.text("activation_function"),
    }
    return {"mixer": attention, "ffn": ffn}, attention


def bart_blocks(cfg: HFConfig, k_bias: bool) -> dict[str, Spec]:
    """The encoder's and the decoder's blocks, LayerNorms around each sublayer."""
    encoder, _ = bart_block(cfg, "encoder", k_bias)
    decoder, cross = bart_block(cfg, "decoder", k_bias)
    return encoder_decoder_blocks(encoder, decoder, cross, {"kind": "layernorm", "count": 2}, 3)


def bart_like(cfg: HFConfig, **stack: object) -> Spec:
    """A BART-like encoder-decoder (BART, mBART, Pegasus, Marian, M2M-100): the layers of
    ``bart_blocks``, one shared token embedding, and ``stack`` the settings both stacks share
    (positions, embedding and final norms)."""
    return {
        "hidden_size": cfg.integer("d_model"),
        "embeddings": {"vocab_size": cfg.integer("vocab_size")},
        "blocks": bart_blocks(cfg, k_bias=True),
        "encoder": {"block": "encoder", "layers": [{"count": cfg.integer("encoder_layers")}], **stack},
        "decoder": {"block": "decoder", "layers": [{"count": cfg.integer("decoder_layers")}], **stack},
        "head": {"tied": cfg.flag("tie_word_embeddings")},
    }


def tied_three_ways(cfg: HFConfig) -> None:
    """Refuse ``tie_word_embeddings: false`` where transformers 5.24 then also unties the encoder's
    and the decoder's ``embed_tokens`` from ``shared`` (``_tied_weights_keys``): four tables of V·h,
    one of them read by nothing, which no published checkpoint has."""
    if not cfg.flag("tie_word_embeddings"):
        raise cfg.fail(
            "tie_word_embeddings",
            say(
                "is false: transformers 5.24 then builds {model_type} with four V·d_model tables "
                "(shared, both stacks' and the head's), which no published model has; not supported",
                model_type=cfg.model_type,
            ),
        )


def bart(cfg: HFConfig) -> Spec:
    positions = cfg.integer("max_position_embeddings")
    return bart_like(
        cfg,
        positions="learned",
        max_positions=positions,
        position_offset=2,
        embedding_norm=True,
        final_norm=False,
    )


# BART's and Whisper's eager_attention_forward take the softmax in the activation dtype, their loss
# is taken on the logits as they are (CrossEntropyLoss), and each stack drops out its embeddings
# (nn.functional.dropout after them).
SEQ2SEQ_QUIRKS = ActivationQuirks(
    softmax_in_activation_dtype=True, loss_in_activation_dtype=True, embedding_dropout=True
)

FAMILY = Family(
    "BART",
    (
        ModelType(
            "bart",
            bart,
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
            },
            activations=SEQ2SEQ_QUIRKS,
            dropout=("attention_dropout", "dropout"),
        ),
    ),
)
