"""T5, mT5, UMT5 and LongT5 (``T5ForConditionalGeneration``, ``MT5ForConditionalGeneration``,
``UMT5ForConditionalGeneration``, ``LongT5ForConditionalGeneration``): no biases, RMS-style norms
(T5LayerNorm), a relative position bias in each stack's first layer; a ``feed_forward_proj`` of
"gated-gelu"/"gated-silu" makes the FFN gated (v1.1, Flan, mT5, UMT5).

UMT5 (UMT5LayerSelfAttention builds every UMT5Attention with ``has_relative_attention_bias=True``)
keeps a bias table in every layer's self-attention, none per stack; its cross-attention has none.

LongT5's encoder attends locally (LongT5LocalAttention: each token to the ``local_radius`` tokens
either side) or adds transient global tokens (LongT5TransientGlobalAttention, ``encoder_attention_type``
"transient-global"): then every encoder layer normalizes the global tokens (``global_input_layer_norm``,
an RMS norm of h) and the first layer keeps a second bias table for them (``global_relative_attention_bias``).
Its decoder is T5's. The FLOPs count a local layer's window and leave out the s/16 global tokens.
The hf-eager activations take T5's full attention scores (a·s per token, softmax in bf16), while
LongT5's blocks keep a·3·(local_radius + 1) in fp32 (measured: 3 % under at s 256, r 63; over at
contexts much longer than the blocks): an estimate, not modelled.

T5 v1.1, Flan-T5, mT5, UMT5 and LongT5 checkpoints keep a separate ``lm_head``
(``tie_word_embeddings: false``) that transformers 5 ties anyway (each config class forces
``tie_word_embeddings = True``); the count follows the published checkpoint.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from paramtally.core.errors import shown
from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import encoder_decoder_blocks, heads_attention
from paramtally.core.text import say

__all__ = ["FAMILY", "T5_DROPOUT", "T5_QUIRKS", "t5_attention", "t5_ffn", "t5_model"]

_LONGT5_ATTENTION = ("local", "transient-global")


def t5_attention(cfg: HFConfig) -> Spec:
    """T5Attention: num_heads heads of d_kv, no biases (d_kv kept where heads·d_kv is not d_model)."""
    h = cfg.integer("d_model")
    heads, d_kv = cfg.integer("num_heads"), cfg.integer("d_kv")
    return heads_attention(heads, d_kv if heads * d_kv != h else None, False, False, False, False)


def t5_ffn(cfg: HFConfig) -> Spec:
    """T5DenseActDense or, for a "gated-…" feed_forward_proj, T5DenseGatedActDense (gelu: gelu_new)."""
    proj = cfg.text("feed_forward_proj")
    gated = proj.startswith("gated-")
    activation = proj.removeprefix("gated-").replace("gelu", "gelu_new" if gated else "gelu")
    return {
        "kind": "dense",
        "width": cfg.integer("d_ff"),
        "gated": gated,
        "bias": False,
        "activation": activation,
    }


def t5_model(
    cfg: HFConfig,
    encoder: Spec,
    decoder: Spec,
    *,
    stack_buckets: bool = True,
    encoder_layers: list[Spec] | None = None,
    decoder_layers: list[Spec] | None = None,
) -> Spec:
    """A T5-shaped encoder-decoder of these self-attention blocks (``{"mixer", "ffn"}``; the norms,
    T5's cross-attention and its norm added): a relative position bias in each stack's first layer
    unless ``stack_buckets`` is False (UMT5's layers each keep their own); layer groups as given,
    else one group of num_layers / num_decoder_layers."""
    blocks = encoder_decoder_blocks(encoder, decoder, t5_attention(cfg), {"kind": "rmsnorm", "count": 2}, 3)
    n_encoder = cfg.integer("num_layers")
    n_decoder = cfg.opt_integer("num_decoder_layers") or n_encoder
    stack: Spec = {"positions": "relative_bias"}
    if stack_buckets:
        stack["relative_buckets"] = cfg.integer("relative_attention_num_buckets")
    return {
        "hidden_size": cfg.integer("d_model"),
        "embeddings": {"vocab_size": cfg.integer("vocab_size")},
        "blocks": blocks,
        "encoder": {"block": "encoder", "layers": encoder_layers or [{"count": n_encoder}], **stack},
        "decoder": {"block": "decoder", "layers": decoder_layers or [{"count": n_decoder}], **stack},
        "head": {"tied": cfg.flag("tie_word_embeddings")},
    }


def t5(cfg: HFConfig) -> Spec:
    layer = {"mixer": t5_attention(cfg), "ffn": t5_ffn(cfg)}
    return t5_model(cfg, layer, layer)


def umt5(cfg: HFConfig) -> Spec:
    """T5 with a relative position bias table in every self-attention (UMT5Attention), none per stack."""
    mixer = {**t5_attention(cfg), "relative_buckets": cfg.integer("relative_attention_num_buckets")}
    layer = {"mixer": mixer, "ffn": t5_ffn(cfg)}
    return t5_model(cfg, layer, layer, stack_buckets=False)


def longt5(cfg: HFConfig) -> Spec:
    """T5 whose encoder attends within local_radius (and, transient-global, to global tokens too)."""
    kind = cfg.text("encoder_attention_type")
    if kind not in _LONGT5_ATTENTION:
        reason = say(
            "is {kind}; LongT5's encoder attention is local or transient-global", kind=shown(kind, 40)
        )
        raise cfg.fail("encoder_attention_type", reason)
    radius = cfg.integer("local_radius", minimum=0)
    ffn = t5_ffn(cfg)
    encoder: Spec = {"mixer": {**t5_attention(cfg), "sliding_window": 2 * radius + 1}, "ffn": ffn}
    if kind == "local":
        return t5_model(cfg, encoder, {"mixer": t5_attention(cfg), "ffn": ffn})
    # The first layer's global_relative_attention_bias, beside the stack's relative_attention_bias.
    global_bias = {"mixer": {"relative_buckets": cfg.integer("relative_attention_num_buckets")}}
    rest = cfg.integer("num_layers") - 1
    layers: list[Spec] = [{"count": 1, "override": global_bias}, *([{"count": rest}] if rest else [])]
    spec = t5_model(cfg, encoder, {"mixer": t5_attention(cfg), "ffn": ffn}, encoder_layers=layers)
    spec["blocks"]["encoder"]["norms"]["count"] = 3  # and global_input_layer_norm beside T5's two
    return spec


_T5_DEFAULTS: dict[str, Any] = {
    "vocab_size": 32128,
    "d_model": 512,
    "d_kv": 64,
    "d_ff": 2048,
    "num_layers": 6,
    "num_decoder_layers": None,
    "num_heads": 8,
    "relative_attention_num_buckets": 32,
    "feed_forward_proj": "relu",
    "tie_word_embeddings": True,
    "dropout_rate": 0.1,
}
# mT5 and UMT5 (MT5Config, UMT5Config); transformers builds each tied whatever the file says: a
# checkpoint has its own head only when the file says `tie_word_embeddings: false` (as the
# published ones do).
_MT5_DEFAULTS: dict[str, Any] = {
    **_T5_DEFAULTS,
    "vocab_size": 250112,
    "d_ff": 1024,
    "num_layers": 8,
    "num_heads": 6,
    "feed_forward_proj": "gated-gelu",
}
_LONGT5_DEFAULTS: dict[str, Any] = {**_T5_DEFAULTS, "encoder_attention_type": "local", "local_radius": 127}
# T5's eager_attention_forward takes the softmax in the activation dtype; T5LayerNorm multiplies
# its input (hidden_states * torch.rsqrt(variance + eps)), keeping it; T5DenseActDense and
# T5DenseGatedActDense drop out before wo; the loss is taken on the logits as they are
# (CrossEntropyLoss); T5Stack drops out the embeddings and its final norm's output.
T5_QUIRKS = ActivationQuirks(
    softmax_in_activation_dtype=True,
    norm_keeps_input=True,
    ffn_inner_dropout=True,
    loss_in_activation_dtype=True,
    embedding_dropout=True,
    final_norm_dropout=True,
)
T5_DROPOUT = ("dropout_rate", "dropout_rate")
# LongT5PreTrainedModel keeps PreTrainedModel's _supports_sdpa = False (its attention is written out).
_LONGT5_QUIRKS = replace(T5_QUIRKS, sdpa_refused_by="LongT5ForConditionalGeneration")


def _t5_type(
    name: str,
    build: Callable[[HFConfig], Spec],
    defaults: dict[str, Any],
    quirks: ActivationQuirks = T5_QUIRKS,
) -> ModelType:
    return ModelType(name, build, defaults, activations=quirks, tokenizer="sentencepiece", dropout=T5_DROPOUT)


FAMILY = Family(
    "T5, mT5, UMT5, LongT5",
    (
        _t5_type("t5", t5, _T5_DEFAULTS),
        _t5_type("mt5", t5, _MT5_DEFAULTS),
        _t5_type("umt5", umt5, _MT5_DEFAULTS),
        _t5_type("longt5", longt5, _LONGT5_DEFAULTS, _LONGT5_QUIRKS),
    ),
)
