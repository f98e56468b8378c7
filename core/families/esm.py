"""ESM-1b and ESM-2, the protein language models (``EsmForMaskedLM``, or the bare ``EsmModel``).

``EsmEmbeddings`` holds the word embedding, with ``position_embedding_type`` "absolute" a learned
position table of ``max_position_embeddings`` rows numbered from ``pad_token_id + 1`` as RoBERTa's
(ESM-1b), with "rotary" none (ESM-2: ``EsmRotaryEmbedding`` keeps only a buffer), and with
``emb_layer_norm_before`` a LayerNorm. ``token_dropout`` rescales the embeddings and holds nothing.
The layers are BERT's tensors in pre-norm order (``EsmLayer``: biased q, k, v, o, a biased FFN, two
LayerNorms), and ``EsmEncoder.emb_layer_norm_after`` is a final LayerNorm in every ESM.

``EsmModel`` always builds ``EsmContactPredictionHead``, whose ``regression`` is
Linear(num_hidden_layers · num_attention_heads, 1): a weight per attention map and a bias, counted in
the total although only ``predict_contacts`` runs it. The MLM head ``EsmLMHead`` is BERT's
transform (dense + LayerNorm) and a bias-free decoder, tied to the word embedding by
``tie_word_embeddings``, beside one bias of V whether tied or not; the bare model adds the pooler.
"""

from __future__ import annotations

from paramtally.core.errors import shown
from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.bert import head_named
from paramtally.core.families.hf_reader import HFConfig, display_name
from paramtally.core.families.pieces import all_biases, encoder_model, plain_ffn
from paramtally.core.text import say

__all__ = ["FAMILY"]

# position_embedding_type → the stack's positions (EsmModel builds no other kind).
_POSITIONS = {"absolute": "learned", "rotary": "rope"}


def esm_block(cfg: HFConfig, h: int) -> Spec:
    """An ``EsmLayer``: BERT's biased attention and FFN with two LayerNorms; ``EsmIntermediate``
    calls ESM's own erf GELU whatever ``hidden_act`` says, so that key is not read."""
    return {
        "mixer": {
            "kind": "attention",
            "num_heads": cfg.divisor("num_attention_heads", h, "hidden_size"),
            **all_biases(True),
        },
        "ffn": plain_ffn(cfg.integer("intermediate_size"), "gelu"),
        "norms": {"kind": "layernorm"},
    }


def esm(cfg: HFConfig) -> Spec:
    head = head_named(cfg, "Esm", ("ForMaskedLM", "Model"))
    h = cfg.integer("hidden_size")
    kind = cfg.raw("position_embedding_type")
    if kind not in _POSITIONS:
        reason = say("is {kind}; ESM's positions are absolute or rotary", kind=shown(kind, 40))
        raise cfg.fail("position_embedding_type", reason)
    rows = cfg.integer("max_position_embeddings")
    offset = 0
    # Absolute positions count from padding_idx + 1 (create_position_ids_from_input_ids); without a
    # pad_token_id (EsmConfig's default) or with a table too short for the offset: rows as they are.
    if kind == "absolute" and cfg.raw("pad_token_id") is not None:
        pad = cfg.integer("pad_token_id", minimum=0)
        offset = pad + 1 if rows > pad + 1 else 0
    spec = encoder_model(
        h,
        cfg.integer("vocab_size"),
        esm_block(cfg, h),
        [{"count": cfg.integer("num_hidden_layers")}],
        tied=cfg.flag("tie_word_embeddings"),
        positions=_POSITIONS[kind],
        max_positions=rows - offset,
        position_offset=offset,
        # emb_layer_norm_before is null by default: no norm, as false
        embedding_norm=cfg.raw("emb_layer_norm_before") is not None and cfg.flag("emb_layer_norm_before"),
        final_norm=True,  # EsmEncoder.emb_layer_norm_after
    )
    if head == "Model":
        spec["head"] = {"present": False, "pooler": True, "attention_map_regression": True}
        spec["name"] = display_name(cfg.data, cfg.origin) + " (EsmModel)"
    else:  # EsmLMHead.bias stays one tensor when the decoder is untied
        tied = cfg.flag("tie_word_embeddings")
        spec["head"] = {"tied": tied, "bias": True, "transform": True, "attention_map_regression": True}
    return spec


FAMILY = Family(
    "ESM",
    (
        ModelType(
            "esm",
            esm,
            {
                "vocab_size": None,  # EsmConfig names none: a file must
                "hidden_size": 768,
                "num_hidden_layers": 12,
                "num_attention_heads": 12,
                "intermediate_size": 3072,
                "max_position_embeddings": 1026,
                "position_embedding_type": "absolute",
                "emb_layer_norm_before": None,
                "pad_token_id": None,
                "tie_word_embeddings": True,
                "attention_probs_dropout_prob": 0.1,
                "hidden_dropout_prob": 0.1,
                "add_cross_attention": False,
                "is_decoder": False,
            },
            # ESM's eager_attention_forward takes the softmax in the activation dtype (no fp32 upcast).
            activations=ActivationQuirks(softmax_in_activation_dtype=True),
            dropout=("attention_probs_dropout_prob", "hidden_dropout_prob"),
        ),
    ),
)
