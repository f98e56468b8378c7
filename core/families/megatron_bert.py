"""Megatron-BERT (``MegatronBertForMaskedLM``, or the bare ``MegatronBertModel``): BERT's tensors in
pre-norm order, as NVIDIA's Megatron-LM trains BERT.

``MegatronBertEmbeddings`` holds the word, position (from 0) and token-type tables and no
LayerNorm (Megatron normalizes in the first layer instead). Each layer normalizes before its
attention (``attention.ln``) and before its FFN (``ln``), and ``MegatronBertEncoder.ln`` normalizes
after the last layer. The heads are BERT's (``MegatronBertLMPredictionHead``: transform, decoder
tied with one bias of V), or the bare model's pooler.
"""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.bert import bert_block, encoder_head, head_named
from paramtally.core.families.hf_reader import HFConfig, display_name
from paramtally.core.families.pieces import encoder_model

__all__ = ["FAMILY"]


def megatron_bert(cfg: HFConfig) -> Spec:
    head = head_named(cfg, "MegatronBert", ("ForMaskedLM", "Model"))
    h = cfg.integer("hidden_size")
    spec = encoder_model(
        h,
        cfg.integer("vocab_size"),
        bert_block(cfg, h),  # the same tensors; the order of the norms holds no parameter
        [{"count": cfg.integer("num_hidden_layers")}],
        tied=cfg.flag("tie_word_embeddings"),
        positions="learned",
        max_positions=cfg.integer("max_position_embeddings"),
        embedding_norm=False,
        final_norm=True,
    )
    spec["embeddings"]["token_types"] = cfg.integer("type_vocab_size", minimum=0)
    spec["head"] = encoder_head(cfg, head != "Model")
    if head == "Model":
        spec["name"] = display_name(cfg.data, cfg.origin) + " (MegatronBertModel)"
    return spec


FAMILY = Family(
    "Megatron-BERT",
    (
        ModelType(
            "megatron-bert",
            megatron_bert,
            {
                "vocab_size": 29056,
                "hidden_size": 1024,
                "num_hidden_layers": 24,
                "num_attention_heads": 16,
                "intermediate_size": 4096,
                "hidden_act": "gelu",
                "max_position_embeddings": 512,
                "type_vocab_size": 2,
                "tie_word_embeddings": True,
                "attention_probs_dropout_prob": 0.1,
                "hidden_dropout_prob": 0.1,
                "add_cross_attention": False,
                "is_decoder": False,
            },
            activations=ActivationQuirks(softmax_in_activation_dtype=True),
            dropout=("attention_probs_dropout_prob", "hidden_dropout_prob"),
        ),
    ),
)
