"""Builders for the encoder-decoder families: T5 and mT5, BART, Whisper.

Each has an encoder block and a decoder block (the latter with cross-attention over the encoder's
output) and shares one token embedding between the stacks. Shapes follow
``T5ForConditionalGeneration``, ``BartForConditionalGeneration`` and
``WhisperForConditionalGeneration`` (tools/TRANSFORMERS_FINDINGS.md). T5 v1.1, Flan-T5 and mT5
checkpoints keep a separate ``lm_head`` (``tie_word_embeddings: false``) that transformers 5 ties
anyway; the count follows the published checkpoint.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.io.importers.hf_reader import HFConfig

__all__ = ["SEQ2SEQ_BUILDERS"]

Spec = dict[str, Any]


def _attention(heads: int, head_dim: int | None, q: bool, k: bool, v: bool, o: bool) -> Spec:
    mixer: Spec = {
        "kind": "attention",
        "num_heads": heads,
        "q_bias": q,
        "k_bias": k,
        "v_bias": v,
        "o_bias": o,
    }
    if head_dim is not None:
        mixer["head_dim"] = head_dim
    return mixer


def _pair(encoder: Spec, decoder: Spec, cross: Spec, norms: Spec, cross_norms: int) -> dict[str, Spec]:
    """The encoder block and the decoder block (its self-attention, cross-attention and FFN)."""
    return {
        "encoder": {**encoder, "norms": norms},
        "decoder": {**decoder, "cross_attention": cross, "norms": {**norms, "count": cross_norms}},
    }


def t5(cfg: HFConfig) -> Spec:
    """No biases, RMS-style norms (T5LayerNorm), a relative position bias in each stack's first
    layer; ``feed_forward_proj`` "gated-gelu"/"gated-silu" makes the FFN gated (v1.1, Flan, mT5)."""
    h = cfg.integer("d_model")
    heads, d_kv = cfg.integer("num_heads"), cfg.integer("d_kv")
    proj = cfg.text("feed_forward_proj")
    gated = proj.startswith("gated-")
    activation = proj.removeprefix("gated-").replace("gelu", "gelu_new" if gated else "gelu")
    attention = _attention(heads, d_kv if heads * d_kv != h else None, False, False, False, False)
    ffn = {
        "kind": "dense",
        "width": cfg.integer("d_ff"),
        "gated": gated,
        "bias": False,
        "activation": activation,
    }
    blocks = _pair(
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


def _bart_side(cfg: HFConfig, prefix: str, k_bias: bool) -> tuple[Spec, Spec]:
    """One stack's block of a BART-like model (biased attention and a plain biased FFN) and its
    attention, which the decoder's cross-attention repeats."""
    h = cfg.integer("d_model")
    heads = cfg.integer(f"{prefix}_attention_heads")
    attention = _attention(heads, None if h % heads == 0 else h // heads, True, k_bias, True, True)
    ffn = {
        "kind": "dense",
        "width": cfg.integer(f"{prefix}_ffn_dim"),
        "gated": False,
        "bias": True,
        "activation": cfg.text("activation_function"),
    }
    return {"mixer": attention, "ffn": ffn}, attention


def bart(cfg: HFConfig) -> Spec:
    """Biased attention and FFN, LayerNorms, learned positions with 2 extra rows and an embedding
    LayerNorm in each stack, no final norm; the head is tied to the shared embedding."""
    h = cfg.integer("d_model")
    positions = cfg.integer("max_position_embeddings")

    encoder, _ = _bart_side(cfg, "encoder", k_bias=True)
    decoder, cross = _bart_side(cfg, "decoder", k_bias=True)
    stack = {
        "positions": "learned",
        "max_positions": positions,
        "position_offset": 2,
        "embedding_norm": True,
        "final_norm": False,
    }
    return {
        "hidden_size": h,
        "embeddings": {"vocab_size": cfg.integer("vocab_size")},
        "blocks": _pair(encoder, decoder, cross, {"kind": "layernorm", "count": 2}, 3),
        "encoder": {"block": "encoder", "layers": [{"count": cfg.integer("encoder_layers")}], **stack},
        "decoder": {"block": "decoder", "layers": [{"count": cfg.integer("decoder_layers")}], **stack},
        "head": {"tied": cfg.flag("tie_word_embeddings")},
    }


def whisper(cfg: HFConfig) -> Spec:
    """BART-like layers whose key projection has no bias; the encoder reads log-mel frames
    through two convolutions and adds sinusoidal positions kept as a parameter table."""
    h = cfg.integer("d_model")

    encoder, _ = _bart_side(cfg, "encoder", k_bias=False)
    decoder, cross = _bart_side(cfg, "decoder", k_bias=False)
    return {
        "hidden_size": h,
        "embeddings": {"vocab_size": cfg.integer("vocab_size")},
        "blocks": _pair(encoder, decoder, cross, {"kind": "layernorm", "count": 2}, 3),
        "encoder": {
            "block": "encoder",
            "layers": [{"count": cfg.integer("encoder_layers")}],
            "positions": "learned",
            "max_positions": cfg.integer("max_source_positions"),
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


SEQ2SEQ_BUILDERS = {"t5": t5, "mt5": t5, "bart": bart, "whisper": whisper}
