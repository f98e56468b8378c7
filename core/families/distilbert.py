"""DistilBERT (``DistilBertForMaskedLM``, or the bare ``DistilBertModel``): BERT's layers under
other key names (dim, n_heads, n_layers, hidden_dim), without token types or a pooler.

``Embeddings`` keeps its position table an ``nn.Embedding`` whether ``sinusoidal_pos_embds`` fills
it with sines or not: counted either way. The MLM head is ``vocab_transform`` (h → h),
``vocab_layer_norm`` and ``vocab_projector``, tied to the word embedding with its one bias of V
(the tie takes the weight alone, so an untied head still has one bias).
"""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.bert import head_named
from paramtally.core.families.hf_reader import HFConfig, display_name
from paramtally.core.families.pieces import all_biases, encoder_model, plain_ffn

__all__ = ["FAMILY"]


def distilbert(cfg: HFConfig) -> Spec:
    head = head_named(cfg, "DistilBert", ("ForMaskedLM", "Model"))
    h = cfg.integer("dim")
    block = {
        "mixer": {"kind": "attention", "num_heads": cfg.divisor("n_heads", h, "dim"), **all_biases(True)},
        "ffn": plain_ffn(cfg.integer("hidden_dim"), cfg.text("activation")),
        "norms": {"kind": "layernorm"},
    }
    tied = cfg.flag("tie_word_embeddings")
    spec = encoder_model(
        h,
        cfg.integer("vocab_size"),
        block,
        [{"count": cfg.integer("n_layers")}],
        tied=tied,
        positions="learned",
        max_positions=cfg.integer("max_position_embeddings"),
        embedding_norm=True,
        final_norm=False,
    )
    if head == "Model":
        spec["head"] = {"present": False}
        spec["name"] = display_name(cfg.data, cfg.origin) + " (DistilBertModel)"
    else:
        spec["head"] = {"tied": tied, "bias": True, "transform": True}
    return spec


FAMILY = Family(
    "DistilBERT",
    (
        ModelType(
            "distilbert",
            distilbert,
            {
                "vocab_size": 30522,
                "max_position_embeddings": 512,
                "n_layers": 6,
                "n_heads": 12,
                "dim": 768,
                "hidden_dim": 3072,
                "activation": "gelu",
                "tie_word_embeddings": True,
                "dropout": 0.1,
                "attention_dropout": 0.1,
            },
            # MultiHeadSelfAttention's eager softmax runs in the activation dtype, as BERT's.
            activations=ActivationQuirks(softmax_in_activation_dtype=True),
            dropout=("attention_dropout", "dropout"),
        ),
    ),
)
