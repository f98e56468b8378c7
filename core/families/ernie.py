"""ERNIE 1.0–3.0 (``ErnieForMaskedLM``, or the bare ``ErnieModel``): BERT with a task-type
embedding.

``ErnieEmbeddings`` is BERT's (words, positions from 0, token types, a LayerNorm) plus, with
``use_task_id``, ``task_type_embeddings`` of ``task_type_vocab_size`` rows at the hidden size,
added to every token's embedding before the norm (ERNIE 3.0: 3 rows). The layers and heads are
BERT's: ``ErnieLMPredictionHead`` (transform, decoder tied to the word embedding, one bias of V),
or the bare model's pooler.
"""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.bert import bert_block, encoder_head, head_named
from paramtally.core.families.hf_reader import HFConfig, display_name
from paramtally.core.families.pieces import encoder_model

__all__ = ["FAMILY"]


def ernie(cfg: HFConfig) -> Spec:
    head = head_named(cfg, "Ernie", ("ForMaskedLM", "Model"))
    h = cfg.integer("hidden_size")
    spec = encoder_model(
        h,
        cfg.integer("vocab_size"),
        bert_block(cfg, h),
        [{"count": cfg.integer("num_hidden_layers")}],
        tied=cfg.flag("tie_word_embeddings"),
        positions="learned",
        max_positions=cfg.integer("max_position_embeddings"),
        embedding_norm=True,
        final_norm=False,
    )
    spec["embeddings"]["token_types"] = cfg.integer("type_vocab_size", minimum=0)
    if cfg.flag("use_task_id"):  # task_type_vocab_size is read only where the table exists
        spec["embeddings"]["task_types"] = cfg.integer("task_type_vocab_size", minimum=0)
    spec["head"] = encoder_head(cfg, head != "Model")
    if head == "Model":
        spec["name"] = display_name(cfg.data, cfg.origin) + " (ErnieModel)"
    return spec


FAMILY = Family(
    "ERNIE 1.0–3.0",
    (
        ModelType(
            "ernie",
            ernie,
            {
                "vocab_size": 30522,
                "hidden_size": 768,
                "num_hidden_layers": 12,
                "num_attention_heads": 12,
                "intermediate_size": 3072,
                "hidden_act": "gelu",
                "max_position_embeddings": 512,
                "type_vocab_size": 2,
                "task_type_vocab_size": 3,
                "use_task_id": False,
                "tie_word_embeddings": True,
                "attention_probs_dropout_prob": 0.1,
                "hidden_dropout_prob": 0.1,
                "add_cross_attention": False,
                "is_decoder": False,
            },
            # ErnieSelfAttention's eager softmax runs in the activation dtype, as BERT's.
            activations=ActivationQuirks(softmax_in_activation_dtype=True),
            dropout=("attention_probs_dropout_prob", "hidden_dropout_prob"),
        ),
    ),
)
