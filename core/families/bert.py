"""BERT (``BertForMaskedLM``, or ``BertModel`` when ``architectures`` says so): learned positions
and token types with a LayerNorm on the embeddings, post-norm layers with biases everywhere, no
final norm; the MLM head's transform (dense + LayerNorm) and its decoder tied to the embeddings,
or the bare model's pooler. ``bert_block``, ``encoder_head`` and ``head_named`` serve the BERT-like
encoders (RoBERTa, ELECTRA, DistilBERT)."""

from __future__ import annotations

from collections.abc import Sequence

from paramtally.core.errors import shown
from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig, display_name
from paramtally.core.families.pieces import all_biases, encoder_model, plain_ffn
from paramtally.core.text import say

__all__ = ["FAMILY", "bert_block", "encoder_head", "head_named"]


def head_named(cfg: HFConfig, prefix: str, heads: Sequence[str]) -> str:
    """Which of ``heads`` (class names after ``prefix``: "ForMaskedLM", "Model") the file's
    ``architectures`` names, the first where it names none; another class is refused."""
    classes = cfg.raw("architectures", None) or [prefix + heads[0]]
    names = isinstance(classes, list) and all(isinstance(name, str) for name in classes)
    known = [prefix + head for head in heads]
    found = [head for head, name in zip(heads, known, strict=True) if names and name in classes]
    if not found:
        raise cfg.fail(
            "architectures",
            say("names {classes}; supported: {known}", classes=shown(classes), known=", ".join(known)),
        )
    if cfg.flag("is_decoder", False) or cfg.flag("add_cross_attention", False):
        raise cfg.fail(
            "is_decoder",
            say("is true: {model_type} as a decoder is not supported", model_type=cfg.model_type),
        )
    return found[0]


def bert_block(cfg: HFConfig, h: int) -> Spec:
    """A BERT layer: biased attention, a plain biased FFN, two LayerNorms (post-norm)."""
    return {
        "mixer": {
            "kind": "attention",
            "num_heads": cfg.divisor("num_attention_heads", h, "hidden_size"),
            **all_biases(True),
        },
        "ffn": plain_ffn(cfg.integer("intermediate_size"), cfg.text("hidden_act")),
        "norms": {"kind": "layernorm"},
    }


def encoder_head(cfg: HFConfig, lm: bool) -> Spec:
    """The MLM head (transform, then the decoder, tied by ``tie_word_embeddings``), or without one
    the bare model's pooler. transformers 5 ties the decoder's bias to the head's bias only
    together with the weights (``_tied_weights_keys``), so an untied head has two."""
    if not lm:
        return {"present": False, "pooler": True}
    tied = cfg.flag("tie_word_embeddings")
    return {"tied": tied, "bias": True, "decoder_bias": not tied, "transform": True}


def bert(cfg: HFConfig) -> Spec:
    head = head_named(cfg, "Bert", ("ForMaskedLM", "Model"))
    h = cfg.integer("hidden_size")
    layers = [{"count": cfg.integer("num_hidden_layers")}]
    spec = encoder_model(
        h,
        cfg.integer("vocab_size"),
        bert_block(cfg, h),
        layers,
        tied=cfg.flag("tie_word_embeddings"),
        positions="learned",
        max_positions=cfg.integer("max_position_embeddings"),
        embedding_norm=True,
        final_norm=False,
    )
    spec["name"] = display_name(cfg.data, cfg.origin) + ("" if head != "Model" else " (BertModel)")
    spec["embeddings"]["token_types"] = cfg.integer("type_vocab_size")
    spec["head"] = encoder_head(cfg, head != "Model")
    return spec


FAMILY = Family(
    "BERT",
    (
        ModelType(
            "bert",
            bert,
            {
                "vocab_size": 30522,
                "hidden_size": 768,
                "num_hidden_layers": 12,
                "num_attention_heads": 12,
                "intermediate_size": 3072,
                "hidden_act": "gelu",
                "max_position_embeddings": 512,
                "type_vocab_size": 2,
                "tie_word_embeddings": True,
                "attention_probs_dropout_prob": 0.1,
                "hidden_dropout_prob": 0.1,
                "add_cross_attention": False,
                "is_decoder": False,
            },
            # BertSelfAttention's eager softmax runs in the activation dtype.
            activations=ActivationQuirks(softmax_in_activation_dtype=True),
            dropout=("attention_probs_dropout_prob", "hidden_dropout_prob"),
        ),
    ),
)
