"""T5Gemma (``T5GemmaForConditionalGeneration``): an encoder-decoder whose two stacks are Gemma-2's
decoder stack, each read from its own nested config (``encoder``, ``decoder``: ``T5GemmaModuleConfig``).

- Each stack keeps its own token embedding (``T5GemmaEncoder.embed_tokens``,
  ``T5GemmaDecoder.embed_tokens``: nothing shares them); the head (``T5GemmaLMHead.out_proj``) is
  tied to the decoder's when the top level's ``tie_word_embeddings`` says so (as it defaults).
- A layer is Gemma-2's: GQA attention without biases (``attention_bias``), a gated MLP, RMSNorms
  that scale by (1 + weight) before and after each sublayer (four in an encoder layer); a decoder
  layer adds ``cross_attn`` (``T5GemmaCrossAttention``: the decoder's heads, keys and values from
  the encoder's width) and its two norms: six.
- Sliding and global layers alternate as ``layer_types`` says (else every second layer global).
  The encoder's sliding layers see ``sliding_window`` tokens either side
  (``sliding_window_bidirectional_overlay``: |q − k| ≤ w, a window of 2w + 1); the decoder's the
  last ``sliding_window``; the cross-attention always sees the whole input.
- An encoder and a decoder of different widths (T5Gemma 9B-2B) need two hidden sizes, which an
  architecture does not hold: refused.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import (
    attention,
    changes_from,
    encoder_decoder_blocks,
    gated,
    global_layers,
)
from paramtally.core.text import say

__all__ = ["FAMILY"]

# T5GemmaModuleConfig (transformers 5.24): Gemma-2 2B's sizes.
_MODULE_DEFAULTS: dict[str, Any] = {
    "vocab_size": 256000,
    "hidden_size": 2304,
    "intermediate_size": 9216,
    "num_hidden_layers": 26,
    "num_attention_heads": 8,
    "num_key_value_heads": 4,
    "head_dim": 256,
    "hidden_activation": "gelu_pytorch_tanh",
    "max_position_embeddings": 8192,
    "attention_bias": False,
    "sliding_window": 4096,
    "layer_types": None,  # the class then alternates sliding and full, the first sliding
}
_GLOBAL_EVERY = 2


class _Module:
    """How a stack's nested config is read (hf_reader.Nested): as ``t5_gemma_module``."""

    name = "t5_gemma_module"
    defaults = _MODULE_DEFAULTS


def _layer(stack: HFConfig, h: int, window: int | None) -> Spec:
    """A stack's Gemma-2 layer (its sliding form where it slides at all)."""
    mixer = attention(stack, h)
    if window:
        mixer["sliding_window"] = window
    ffn = gated(stack.integer("intermediate_size"), activation=stack.text("hidden_activation"))
    return {"mixer": mixer, "ffn": ffn}


def _layers(stack: HFConfig) -> list[Spec]:
    """Sliding and global layers as ``layer_types`` says, else every second one global."""
    n = stack.integer("num_hidden_layers")
    changes = changes_from({True: {"mixer": {"sliding_window": None}}})
    return global_layers(stack, n, _GLOBAL_EVERY, changes)


def _window(stack: HFConfig) -> int | None:
    # A null window: the sliding layers attend to everything (no window to keep).
    return stack.opt_integer("sliding_window")


def t5gemma(cfg: HFConfig) -> Spec:
    encoder, decoder = cfg.nested("encoder", _Module), cfg.nested("decoder", _Module)
    h = encoder.integer("hidden_size")
    if decoder.integer("hidden_size") != h:
        reason = say(
            "({d}) differs from encoder.hidden_size ({e}): an encoder and a decoder of two widths "
            "(T5Gemma 9B-2B) are not supported",
            d=decoder.integer("hidden_size"),
            e=h,
        )
        raise decoder.fail("hidden_size", reason)
    w_encoder, w_decoder = _window(encoder), _window(decoder)
    encoder_layer = _layer(encoder, h, 2 * w_encoder + 1 if w_encoder else None)
    decoder_layer = _layer(decoder, h, w_decoder)
    cross = attention(decoder, h)  # the decoder's heads, never sliding
    blocks = encoder_decoder_blocks(encoder_layer, decoder_layer, cross, {"kind": "rmsnorm", "count": 4}, 6)
    return {
        "hidden_size": h,
        "embeddings": {
            "vocab_size": encoder.integer("vocab_size"),
            "decoder_vocab_size": decoder.integer("vocab_size"),
        },
        "blocks": blocks,
        "encoder": _stack(encoder, "encoder"),
        "decoder": _stack(decoder, "decoder"),
        "head": {"tied": cfg.flag("tie_word_embeddings")},
    }


def _stack(stack: HFConfig, block: str) -> Spec:
    positions = stack.integer("max_position_embeddings", default=0, minimum=0)
    return {"block": block, "layers": _layers(stack), "positions": "rope", "max_positions": positions}


# T5GemmaConfig's own keys (the stacks' are T5GemmaModuleConfig's).
_T5GEMMA_DEFAULTS: dict[str, Any] = {
    "encoder": None,
    "decoder": None,
    "tie_word_embeddings": True,
    "dropout_rate": 0.0,
    "attention_dropout": 0.0,
}
# T5GemmaRMSNorm scales by (1 + weight) in fp32 as Gemma-2's does; the attention soft-caps its
# logits (attn_logit_softcapping) and T5GemmaPreTrainedModel refuses SDPA (_supports_sdpa False);
# T5GemmaMLP drops out before down_proj, and each stack drops out its (scaled) embeddings and its
# final norm's output (T5GemmaEncoder/T5GemmaDecoder.dropout, at dropout_rate). Measured per
# encoder and decoder layer by tools/measure_t5gemma_activations.py: hf-eager within 0.1 %.
_QUIRKS = ActivationQuirks(
    fp32_norm=True,
    logit_softcap=True,
    sdpa_refused_by="T5GemmaForConditionalGeneration",
    ffn_inner_dropout=True,
    embedding_dropout=True,
    final_norm_dropout=True,
)

FAMILY = Family(
    "T5Gemma",
    (
        ModelType(
            "t5gemma",
            t5gemma,
            _T5GEMMA_DEFAULTS,
            activations=_QUIRKS,
            tokenizer="sentencepiece",
            dropout=("attention_dropout", "dropout_rate"),
        ),
    ),
)
