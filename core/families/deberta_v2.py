"""DeBERTa-v2 and -v3 (``DebertaV2ForMaskedLM``, or the bare ``DebertaV2Model``): BERT-like
post-norm layers whose attention is disentangled (``DisentangledSelfAttention``) over a relative
position table the encoder keeps once for every layer.

``DebertaV2Encoder.rel_embeddings`` has 2 × ``position_buckets`` rows (2 × max_relative_positions,
or max_position_embeddings, without buckets) of h, with a LayerNorm where ``norm_rel_ebd`` names
``layer_norm``; there is none without ``relative_attention``. Each layer projects the positions
itself (``pos_key_proj`` for c2p, ``pos_query_proj`` for p2c, as ``pos_att_type`` lists them) only
without ``share_att_key``. ``DebertaV2Embeddings`` looks up words, absolute positions (only with
``position_biased_input``: DeBERTa-v3 has none) and token types (only where ``type_vocab_size`` >
0) at ``embedding_size``, projects them without a bias where that is not h, and normalizes at h.
The legacy MLM head (``LegacyDebertaV2LMPredictionHead``, the default) is a dense h → embedding
size and a LayerNorm, then the decoder tied to the word embedding with its bias; the bare model
has no pooler.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.errors import shown
from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.bert import encoder_head, head_named
from paramtally.core.families.hf_reader import HFConfig, display_name
from paramtally.core.families.pieces import all_biases, encoder_model, plain_ffn
from paramtally.core.text import say

__all__ = ["FAMILY"]


def deberta_v2(cfg: HFConfig) -> Spec:
    # The published DeBERTa-v3 files name no class, and their checkpoints hold the bare encoder
    # (deberta-v3-base: 184M, "86M backbone + 98M embedding"): without one, the bare model.
    head = head_named(cfg, "DebertaV2", ("Model", "ForMaskedLM"))
    if cfg.integer("conv_kernel_size", minimum=0):
        raise cfg.fail("conv_kernel_size", say("is above 0: DeBERTa's convolution layer is not supported"))
    h = cfg.integer("hidden_size")
    e = cfg.integer("embedding_size", default=h) if cfg.raw("embedding_size", None) is not None else h
    relative = cfg.flag("relative_attention")
    kinds = _position_attention(cfg)
    own = relative and not cfg.flag("share_att_key")
    block = {
        "mixer": {
            "kind": "disentangled_attention",
            "num_heads": cfg.divisor("num_attention_heads", h, "hidden_size"),
            **all_biases(True),
            "position_key": own and "c2p" in kinds,
            "position_query": own and "p2c" in kinds,
            # DisentangledSelfAttention scores c2p and p2c against 2·pos_ebd_size table rows. With
            # share_att_key it projects them through key_proj and query_proj even with no score
            # listed; without it and without scores nothing reads the table: no span.
            **(
                {"relative_span": _position_rows(cfg), "c2p": "c2p" in kinds, "p2c": "p2c" in kinds}
                if relative and ("c2p" in kinds or "p2c" in kinds or not own)
                else {}
            ),
        },
        "ffn": plain_ffn(cfg.integer("intermediate_size"), cfg.text("hidden_act")),
        "norms": {"kind": "layernorm"},
    }
    absolute = cfg.flag("position_biased_input")
    tied = cfg.flag("tie_word_embeddings")
    spec = encoder_model(
        h,
        cfg.integer("vocab_size"),
        block,
        [{"count": cfg.integer("num_hidden_layers")}],
        tied=tied,
        positions="learned" if absolute else "none",
        max_positions=cfg.integer("max_position_embeddings"),
        embedding_norm=True,
        final_norm=False,
    )
    if relative:
        spec["encoder"]["relative_embeddings"] = 2 * _position_rows(cfg)
        norms = [part.strip() for part in cfg.text("norm_rel_ebd").lower().split("|")]
        spec["encoder"]["relative_norm"] = "layer_norm" in norms
    spec["embeddings"]["token_types"] = cfg.integer("type_vocab_size", minimum=0)
    if e != h:
        spec["embeddings"] |= {"embed_dim": e, "projection": "in"}
    if head == "Model":
        spec["head"] = {"present": False}
        spec["name"] = display_name(cfg.data, cfg.origin) + " (DebertaV2Model)"
    elif cfg.flag("legacy"):
        spec["head"] = encoder_head(cfg, True)  # the transform maps h to the embedding size
    elif e != h:
        raise cfg.fail("legacy", say("is false with embedding_size ≠ hidden_size: that MLM head cannot run"))
    else:  # DebertaV2LMPredictionHead: dense, LayerNorm and a bias, scored on the word embedding
        spec["head"] = {"tied": True, "bias": True, "transform": True}
    return spec


def _position_attention(cfg: HFConfig) -> list[str]:
    """``pos_att_type`` as DebertaV2Config reads it: a list, or names joined by "|"."""
    kinds = cfg.raw("pos_att_type")
    if kinds is None:
        return []
    if isinstance(kinds, str):
        return [kind.strip().lower() for kind in kinds.split("|")]
    if not isinstance(kinds, list) or not all(isinstance(kind, str) for kind in kinds):
        raise cfg.fail(
            "pos_att_type",
            say("must be a list of c2p/p2c or a string like 'p2c|c2p' (got {got})", got=shown(kinds)),
        )
    return [kind.lower() for kind in kinds]


def _position_rows(cfg: HFConfig) -> int:
    """Relative positions each side (DebertaV2Encoder's pos_ebd_size before doubling)."""
    buckets = cfg.raw("position_buckets")
    if isinstance(buckets, int) and not isinstance(buckets, bool) and buckets > 0:
        return buckets
    furthest = cfg.raw("max_relative_positions")
    if isinstance(furthest, int) and not isinstance(furthest, bool) and furthest >= 1:
        return furthest
    return cfg.integer("max_position_embeddings")


_DEFAULTS: dict[str, Any] = {
    "vocab_size": 128100,
    "hidden_size": 1536,
    "num_hidden_layers": 24,
    "num_attention_heads": 24,
    "intermediate_size": 6144,
    "hidden_act": "gelu",
    "max_position_embeddings": 512,
    "type_vocab_size": 0,
    "relative_attention": False,
    "max_relative_positions": -1,
    "position_buckets": -1,
    "position_biased_input": True,
    "pos_att_type": None,
    "share_att_key": False,
    "norm_rel_ebd": "none",
    "conv_kernel_size": 0,
    "legacy": True,
    "tie_word_embeddings": True,
    "attention_probs_dropout_prob": 0.1,
    "hidden_dropout_prob": 0.1,
    "add_cross_attention": False,
    "is_decoder": False,
}

FAMILY = Family(
    "DeBERTa-v2, DeBERTa-v3",
    (
        ModelType(
            "deberta-v2",
            deberta_v2,
            _DEFAULTS,
            # DisentangledSelfAttention's softmax (nn.functional.softmax) runs in the activation dtype.
            activations=ActivationQuirks(softmax_in_activation_dtype=True),
            tokenizer="sentencepiece",
            dropout=("attention_probs_dropout_prob", "hidden_dropout_prob"),
        ),
    ),
)
