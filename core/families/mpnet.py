"""MPNet (``MPNetForMaskedLM``, or the bare ``MPNetModel``): BERT's post-norm layers (q, k, v and
o biased, a plain FFN) under a relative position bias and a learned position table, without
token types.

``MPNetEncoder.relative_attention_bias`` is one table of ``relative_attention_num_buckets`` rows
of a bias per head, which every layer adds to its scores: counted once for the encoder, as T5's
first-layer bias is. ``MPNetEmbeddings`` fixes ``padding_idx`` at 1 whatever ``pad_token_id``
says and numbers positions from ``padding_idx + 1``, as RoBERTa does: of
``max_position_embeddings`` (514 in mpnet-base) rows, 2 are an offset no position reaches. The
MLM head is ``MPNetLMHead`` (dense + LayerNorm, the decoder tied to the word embedding with one
bias of V); the bare model has the pooler instead.
"""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.bert import bert_block, encoder_head, head_named
from paramtally.core.families.hf_reader import HFConfig, display_name
from paramtally.core.families.pieces import encoder_model

__all__ = ["FAMILY"]

# MPNetEmbeddings.padding_idx: a constant, not the config's pad_token_id.
_PADDING_IDX = 1


def mpnet(cfg: HFConfig) -> Spec:
    head = head_named(cfg, "MPNet", ("ForMaskedLM", "Model"))
    h = cfg.integer("hidden_size")
    rows = cfg.integer("max_position_embeddings")
    offset = _PADDING_IDX + 1 if rows > _PADDING_IDX + 1 else 0  # too short for the offset: rows as they are
    spec = encoder_model(
        h,
        cfg.integer("vocab_size"),
        bert_block(cfg, h),
        [{"count": cfg.integer("num_hidden_layers")}],
        tied=cfg.flag("tie_word_embeddings"),
        positions="learned",
        max_positions=rows - offset,
        position_offset=offset,
        relative_buckets=cfg.integer("relative_attention_num_buckets"),
        embedding_norm=True,
        final_norm=False,
    )
    spec["head"] = encoder_head(cfg, head != "Model")
    if head == "Model":
        spec["name"] = display_name(cfg.data, cfg.origin) + " (MPNetModel)"
    return spec


FAMILY = Family(
    "MPNet",
    (
        ModelType(
            "mpnet",
            mpnet,
            {
                "vocab_size": 30527,
                "hidden_size": 768,
                "num_hidden_layers": 12,
                "num_attention_heads": 12,
                "intermediate_size": 3072,
                "hidden_act": "gelu",
                "max_position_embeddings": 512,
                "relative_attention_num_buckets": 32,
                "tie_word_embeddings": True,
                "attention_probs_dropout_prob": 0.1,
                "hidden_dropout_prob": 0.1,
            },
            # MPNetSelfAttention takes the softmax in the activation dtype and has no SDPA path
            # (MPNetPreTrainedModel leaves _supports_sdpa False: attn_implementation="sdpa" is refused).
            activations=ActivationQuirks(
                softmax_in_activation_dtype=True, sdpa_refused_by="MPNetForMaskedLM"
            ),
            dropout=("attention_probs_dropout_prob", "hidden_dropout_prob"),
        ),
    ),
)
