"""Longformer (``LongformerForMaskedLM``, or the bare ``LongformerModel``): RoBERTa whose every
self-attention keeps a second set of biased q, k and v projections for the tokens that attend
globally, and attends locally within ``attention_window`` (Beltagy et al. 2020, "Longformer: The
Long-Document Transformer").

``LongformerSelfAttention`` builds query, key, value and query_global, key_global, value_global
(six biased h × h linears); ``LongformerSelfOutput`` the biased output projection and LayerNorm, as
BERT's. Each token attends to ``attention_window / 2`` tokens either side
(``one_sided_attn_window_size``): a window of w + 1. ``attention_window`` is one even number for
every layer or a list of one per layer (``LongformerModel.__init__`` asserts its length). The
embeddings and the MLM head are RoBERTa's: positions from ``pad_token_id + 1`` (4098 rows in
longformer-base-4096, 4096 positions), the decoder tied to the word embedding with one bias of V;
the bare model adds the pooler. The FLOPs count each token's window and leave out global tokens.
The hf-eager activations take full attention scores (a·s per token), while Longformer's chunked
band keeps about a·(w + 1) per token and its global tokens' rows: over at contexts past the window,
an estimate (not measured, not modelled), as LongT5's.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.errors import shown
from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.bert import bert_block
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import MAX_EXPANDED, groups_from_kinds
from paramtally.core.families.roberta import roberta_encoder
from paramtally.core.text import say

__all__ = ["FAMILY", "attention_windows", "windowed_layers"]


def attention_windows(cfg: HFConfig, n: int, key: str = "attention_window") -> list[int]:
    """One window per layer of the ``n``: the file's one number for all, or its list of ``n``; each
    even and positive, as LongformerSelfAttention and LEDEncoderSelfAttention assert."""
    value = cfg.raw(key)
    if n > MAX_EXPANDED:  # one window per layer is written out layer by layer
        if isinstance(value, list):
            raise cfg.fail(key, say("lists {n:,} layers (at most {most:,})", n=n, most=MAX_EXPANDED))
        raise cfg.fail(key, say("is one window for {n:,} layers (at most {most:,})", n=n, most=MAX_EXPANDED))
    if not isinstance(value, list):
        return [_even_window(cfg, key, value)] * n
    if len(value) != n:
        raise cfg.fail(key, say("lists {got:,} windows for {n:,} layers", got=len(value), n=n))
    return [_even_window(cfg, key, item) for item in value]


def _even_window(cfg: HFConfig, key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0 or value % 2:
        raise cfg.fail(key, say("must hold even positive integers (got {got})", got=shown(value)))
    return value


def windowed_layers(windows: list[int]) -> tuple[int | None, list[Spec]]:
    """(the block's window, the layer groups) for one attention window per layer: the window a
    token attends to is w / 2 either side and itself, w + 1; one for all layers sits in the block."""
    if len(set(windows)) == 1:
        return windows[0] + 1, [{"count": len(windows)}]
    return None, groups_from_kinds(windows, lambda w: {"mixer": {"sliding_window": w + 1}})


def longformer(cfg: HFConfig) -> Spec:
    h = cfg.integer("hidden_size")
    block = bert_block(cfg, h)
    window, layers = windowed_layers(attention_windows(cfg, cfg.integer("num_hidden_layers")))
    block["mixer"]["global_projections"] = True
    if window is not None:
        block["mixer"]["sliding_window"] = window
    return roberta_encoder(cfg, "Longformer", ("ForMaskedLM", "Model"), block, layers)


FAMILY = Family(
    "Longformer",
    (
        ModelType(
            "longformer",
            longformer,
            {
                "vocab_size": 30522,
                "hidden_size": 768,
                "num_hidden_layers": 12,
                "num_attention_heads": 12,
                "intermediate_size": 3072,
                "hidden_act": "gelu",
                "max_position_embeddings": 512,
                "type_vocab_size": 2,
                "pad_token_id": 1,
                "attention_window": 512,
                "tie_word_embeddings": True,
                "attention_probs_dropout_prob": 0.1,
                "hidden_dropout_prob": 0.1,
            },
            # LongformerSelfAttention's softmax is taken in the activation dtype over its chunked
            # band, and LongformerPreTrainedModel has no SDPA path (_supports_sdpa False).
            activations=ActivationQuirks(
                softmax_in_activation_dtype=True, sdpa_refused_by="LongformerForMaskedLM"
            ),
            dropout=("attention_probs_dropout_prob", "hidden_dropout_prob"),
        ),
    ),
)
