"""XLM-RoBERTa-XL and -XXL (``XLMRobertaXLForMaskedLM``, ``…ForCausalLM``, or the bare
``XLMRobertaXLModel``): RoBERTa's tensors in pre-norm order.

``XLMRobertaXLEmbeddings`` holds the word, position and token-type tables and, unlike RoBERTa's,
no LayerNorm; positions are numbered from ``pad_token_id + 1`` as RoBERTa's, so of
``max_position_embeddings`` (514) rows, ``pad_token_id + 1`` are an offset no position reaches.
Each layer normalizes before its attention (``self_attn_layer_norm``) and before its FFN
(``LayerNorm``), and ``XLMRobertaXLEncoder.LayerNorm`` normalizes after the last layer. The heads
are RoBERTa's (``XLMRobertaXLLMHead``: transform, decoder tied with one bias of V), or the bare
model's pooler.
"""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.bert import bert_block, encoder_head, head_named
from paramtally.core.families.hf_reader import HFConfig, display_name
from paramtally.core.families.pieces import encoder_model

__all__ = ["FAMILY"]


def xlm_roberta_xl(cfg: HFConfig) -> Spec:
    head = head_named(cfg, "XLMRobertaXL", ("ForMaskedLM", "ForCausalLM", "Model"))
    h = cfg.integer("hidden_size")
    rows = cfg.integer("max_position_embeddings")
    pad = cfg.integer("pad_token_id", minimum=0)
    offset = pad + 1 if rows > pad + 1 else 0  # a table too short for the offset: rows as they are
    spec = encoder_model(
        h,
        cfg.integer("vocab_size"),
        bert_block(cfg, h),  # the same tensors; the order of the norms holds no parameter
        [{"count": cfg.integer("num_hidden_layers")}],
        tied=cfg.flag("tie_word_embeddings"),
        positions="learned",
        max_positions=rows - offset,
        position_offset=offset,
        embedding_norm=False,
        final_norm=True,
    )
    spec["embeddings"]["token_types"] = cfg.integer("type_vocab_size", minimum=0)
    spec["head"] = encoder_head(cfg, head != "Model")
    if head == "Model":
        spec["name"] = display_name(cfg.data, cfg.origin) + " (XLMRobertaXLModel)"
    return spec


FAMILY = Family(
    "XLM-RoBERTa-XL",
    (
        ModelType(
            "xlm-roberta-xl",
            xlm_roberta_xl,
            {
                "vocab_size": 250880,
                "hidden_size": 2560,
                "num_hidden_layers": 36,
                "num_attention_heads": 32,
                "intermediate_size": 10240,
                "hidden_act": "gelu",
                "max_position_embeddings": 514,
                "type_vocab_size": 1,
                "pad_token_id": 1,
                "tie_word_embeddings": True,
                "attention_probs_dropout_prob": 0.1,
                "hidden_dropout_prob": 0.1,
                "add_cross_attention": False,
                "is_decoder": False,
            },
            activations=ActivationQuirks(softmax_in_activation_dtype=True),
            tokenizer="sentencepiece",
            dropout=("attention_probs_dropout_prob", "hidden_dropout_prob"),
        ),
    ),
)
