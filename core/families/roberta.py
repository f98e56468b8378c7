"""RoBERTa, XLM-RoBERTa and CamemBERT (``RobertaForMaskedLM``, ``…ForCausalLM``, or the bare
``RobertaModel``): BERT's layers and heads, with a position table offset past the padding token.

transformers keeps XLM-R and CamemBERT as model types of their own (``XLMRobertaConfig``,
``CamembertConfig``), whose classes are RoBERTa's copied under another name (modular_camembert:
``CamembertModel(RobertaModel)``): the same tensors, other config defaults.

``RobertaEmbeddings`` numbers positions from ``padding_idx + 1`` (create_position_ids_from_input_ids),
so ``max_position_embeddings`` (514 in roberta-base) holds ``pad_token_id + 1`` rows no position
reaches: 512 usable positions and an offset of 2. The MLM and causal-LM heads are ``RobertaLMHead``
(dense + LayerNorm, the decoder tied to the word embedding, one bias of V); the bare model has the
pooler instead.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.bert import bert_block, encoder_head, head_named
from paramtally.core.families.hf_reader import HFConfig, display_name
from paramtally.core.families.pieces import encoder_model

__all__ = ["FAMILY", "roberta_encoder"]

# The classes' names where they are not Roberta…
_CLASS_PREFIX = {"xlm-roberta": "XLMRoberta", "camembert": "Camembert"}


def roberta(cfg: HFConfig) -> Spec:
    prefix = _CLASS_PREFIX.get(cfg.model_type, "Roberta")
    h = cfg.integer("hidden_size")
    return roberta_encoder(
        cfg,
        prefix,
        ("ForMaskedLM", "ForCausalLM", "Model"),
        bert_block(cfg, h),
        [{"count": cfg.integer("num_hidden_layers")}],
    )


def roberta_encoder(
    cfg: HFConfig, prefix: str, heads: tuple[str, ...], block: Spec, layers: list[Spec]
) -> Spec:
    """RoBERTa's embeddings (positions offset past the padding token) and head around ``block``
    in ``layers``, for the class of ``heads`` the file names (Longformer's too)."""
    head_class = head_named(cfg, prefix, heads)
    h = cfg.integer("hidden_size")
    rows = cfg.integer("max_position_embeddings")
    pad = cfg.integer("pad_token_id", minimum=0)
    offset = pad + 1 if rows > pad + 1 else 0  # a table too short for the offset: rows as they are
    spec = encoder_model(
        h,
        cfg.integer("vocab_size"),
        block,
        layers,
        tied=cfg.flag("tie_word_embeddings"),
        positions="learned",
        max_positions=rows - offset,
        position_offset=offset,
        embedding_norm=True,
        final_norm=False,
    )
    spec["embeddings"]["token_types"] = cfg.integer("type_vocab_size", minimum=0)
    spec["head"] = encoder_head(cfg, head_class != "Model")
    if head_class == "Model":
        spec["name"] = display_name(cfg.data, cfg.origin) + f" ({prefix}Model)"
    return spec


_DEFAULTS: dict[str, Any] = {
    "vocab_size": 50265,
    "hidden_size": 768,
    "num_hidden_layers": 12,
    "num_attention_heads": 12,
    "intermediate_size": 3072,
    "hidden_act": "gelu",
    "max_position_embeddings": 512,
    "type_vocab_size": 2,
    "pad_token_id": 1,
    "tie_word_embeddings": True,
    "attention_probs_dropout_prob": 0.1,
    "hidden_dropout_prob": 0.1,
    "add_cross_attention": False,
    "is_decoder": False,
}
# RobertaSelfAttention's eager softmax runs in the activation dtype, as BERT's.
_QUIRKS = ActivationQuirks(softmax_in_activation_dtype=True)
_DROPOUT = ("attention_probs_dropout_prob", "hidden_dropout_prob")

FAMILY = Family(
    "RoBERTa, XLM-RoBERTa, CamemBERT",
    (
        ModelType("roberta", roberta, _DEFAULTS, activations=_QUIRKS, dropout=_DROPOUT),
        ModelType(
            "xlm-roberta",
            roberta,
            {**_DEFAULTS, "vocab_size": 30522},
            activations=_QUIRKS,
            tokenizer="sentencepiece",
            dropout=_DROPOUT,
        ),
        # CamembertConfig's defaults are XLMRobertaConfig's (vocab_size 30522).
        ModelType(
            "camembert",
            roberta,
            {**_DEFAULTS, "vocab_size": 30522},
            activations=_QUIRKS,
            tokenizer="sentencepiece",
            dropout=_DROPOUT,
        ),
    ),
)
