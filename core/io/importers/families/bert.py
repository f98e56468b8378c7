"""BERT (``BertForMaskedLM``, or ``BertModel`` when ``architectures`` says so): learned positions
and token types with a LayerNorm on the embeddings, post-norm layers with biases everywhere, no
final norm; the MLM head's transform (dense + LayerNorm) and its decoder tied to the embeddings,
or the bare model's pooler."""

from __future__ import annotations

from paramtally.core.errors import shown
from paramtally.core.io.importers.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.io.importers.families.pieces import all_biases, decoder_model, plain_ffn
from paramtally.core.io.importers.hf_reader import HFConfig, display_name

__all__ = ["FAMILY"]


def bert(cfg: HFConfig) -> Spec:
    classes = cfg.raw("architectures", None) or ["BertForMaskedLM"]
    names = isinstance(classes, list) and all(isinstance(name, str) for name in classes)
    if not names or not {"BertForMaskedLM", "BertModel"} & set(classes):
        raise cfg.fail("architectures", f"names {shown(classes)}; supported: BertForMaskedLM, BertModel")
    if cfg.flag("is_decoder") or cfg.flag("add_cross_attention"):
        raise cfg.fail("is_decoder", "is true: BERT as a decoder is not supported")
    masked_lm = "BertForMaskedLM" in classes
    h = cfg.integer("hidden_size")
    tied = cfg.flag("tie_word_embeddings")
    # transformers 5 ties decoder.bias to the head's bias only together with the weights.
    head = {"tied": tied, "bias": True, "decoder_bias": not tied, "transform": True}
    vocab, positions = cfg.integer("vocab_size"), cfg.integer("max_position_embeddings")
    token_types = cfg.integer("type_vocab_size")
    block = {
        "mixer": {
            "kind": "attention",
            "num_heads": cfg.divisor("num_attention_heads", h, "hidden_size"),
            **all_biases(True),
        },
        "ffn": plain_ffn(cfg.integer("intermediate_size"), cfg.text("hidden_act")),
        "norms": {"kind": "layernorm"},
    }
    layers = [{"count": cfg.integer("num_hidden_layers")}]
    spec = decoder_model(
        h,
        vocab,
        block,
        layers,
        tied=tied,
        positions="learned",
        max_positions=positions,
        embedding_norm=True,
        final_norm=False,
    )
    spec["name"] = display_name(cfg.data, cfg.origin) + ("" if masked_lm else " (BertModel)")
    spec["embeddings"]["token_types"] = token_types
    spec["head"] = head if masked_lm else {"present": False, "pooler": True}
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
