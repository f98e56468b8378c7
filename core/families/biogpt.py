"""BioGPT (``BioGptForCausalLM``): fairseq's decoder alone, as XGLM — pre-norm layers of biased
q, k, v and ``out_proj``, a plain biased MLP ``fc1``/``fc2`` of ``intermediate_size``, two
LayerNorms, a final ``layer_norm`` — with learned positions of max_position_embeddings + 2 rows
(``BioGptLearnedPositionalEmbedding``'s offset). ``scale_embedding`` multiplies the embeddings by
√h (no parameter); ``output_projection`` has no bias and is tied by default."""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import all_biases, decoder_model, plain_ffn

__all__ = ["FAMILY"]


def biogpt(cfg: HFConfig) -> Spec:
    h = cfg.integer("hidden_size")
    block = {
        "mixer": {
            "kind": "attention",
            "num_heads": cfg.divisor("num_attention_heads", h, "hidden_size"),
            **all_biases(True),
        },
        "ffn": plain_ffn(cfg.integer("intermediate_size"), cfg.text("hidden_act")),
        "norms": {"kind": "layernorm"},
    }
    return decoder_model(
        h,
        cfg.integer("vocab_size"),
        block,
        [{"count": cfg.integer("num_hidden_layers")}],
        tied=cfg.flag("tie_word_embeddings"),
        positions="learned",
        max_positions=cfg.integer("max_position_embeddings"),
        position_offset=2,
    )


# BioGPT's eager_attention_forward takes the softmax in the activation dtype; BioGptModel drops out
# the embeddings at hidden_dropout_prob.
_QUIRKS = ActivationQuirks(softmax_in_activation_dtype=True, embedding_dropout=True)

FAMILY = Family(
    "BioGPT",
    (
        ModelType(
            "biogpt",
            biogpt,
            {
                "vocab_size": 42384,
                "hidden_size": 1024,
                "num_hidden_layers": 24,
                "num_attention_heads": 16,
                "intermediate_size": 4096,
                "hidden_act": "gelu",
                "max_position_embeddings": 1024,
                "tie_word_embeddings": True,
                "attention_probs_dropout_prob": 0.1,
                "hidden_dropout_prob": 0.1,
            },
            activations=_QUIRKS,
            dropout=("attention_probs_dropout_prob", "hidden_dropout_prob"),
        ),
    ),
)
