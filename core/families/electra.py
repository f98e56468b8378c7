"""ELECTRA (``ElectraForPreTraining``, ``…ForMaskedLM``, ``…ForCausalLM``, or the bare
``ElectraModel``): BERT's layers behind embeddings of their own width.

``ElectraEmbeddings`` looks up words, positions and token types at ``embedding_size`` (e) and
normalizes them there; ``ElectraModel.embeddings_project`` (e → h, with a bias) follows only where
e ≠ h (electra-small: 128 → 256). The discriminator (``ElectraForPreTraining``) classifies each
token as replaced or not: a dense h → h and a linear h → 1, both biased. The generator's head
(``ElectraGeneratorPredictions``) is a dense h → e and a LayerNorm over e, then the decoder tied
to the word embedding, with its bias. The bare model has no pooler.
"""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.bert import bert_block, head_named
from paramtally.core.families.hf_reader import HFConfig, display_name
from paramtally.core.families.pieces import encoder_model

__all__ = ["FAMILY"]


def electra(cfg: HFConfig) -> Spec:
    head = head_named(cfg, "Electra", ("ForPreTraining", "ForMaskedLM", "ForCausalLM", "Model"))
    h, e = cfg.integer("hidden_size"), cfg.integer("embedding_size")
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
    if e != h:
        spec["embeddings"] |= {"embed_dim": e, "projection": "in_after_norm"}
    if head == "ForPreTraining":
        spec["head"] = {"present": False, "token_classifier": 1}
    elif head == "Model":
        spec["head"] = {"present": False}
        spec["name"] = display_name(cfg.data, cfg.origin) + " (ElectraModel)"
    else:  # the generator's head: one bias, on the decoder (not among the tied keys)
        spec["head"] = {"tied": cfg.flag("tie_word_embeddings"), "bias": True, "transform": True}
    return spec


FAMILY = Family(
    "ELECTRA",
    (
        ModelType(
            "electra",
            electra,
            {
                "vocab_size": 30522,
                "embedding_size": 128,
                "hidden_size": 256,
                "num_hidden_layers": 12,
                "num_attention_heads": 4,
                "intermediate_size": 1024,
                "hidden_act": "gelu",
                "max_position_embeddings": 512,
                "type_vocab_size": 2,
                "tie_word_embeddings": True,
                "attention_probs_dropout_prob": 0.1,
                "hidden_dropout_prob": 0.1,
                "add_cross_attention": False,
                "is_decoder": False,
            },
            # ElectraSelfAttention's eager softmax runs in the activation dtype, as BERT's.
            activations=ActivationQuirks(softmax_in_activation_dtype=True),
            dropout=("attention_probs_dropout_prob", "hidden_dropout_prob"),
        ),
    ),
)
