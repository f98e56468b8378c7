"""Switch Transformers (``SwitchTransformersForConditionalGeneration``): T5 v1.0 whose FFN is a
sparse mixture of experts in some layers of each stack (SwitchTransformersSparseMLP: a top-1 router
``classifier`` h → E, no bias unless ``router_bias``, and E experts, each T5's DenseActDense wi/wo
of d_ff with ``dense_act_fn``; one expert per token, so E − 1 of them are inactive).

Which layers are sparse (SwitchTransformersStack): layer i when ``i % step == 1`` or ``step == 1``,
none at step 0, where step is ``encoder_sparse_step`` (``decoder_sparse_step``) if the file sets it,
else num_layers // num_sparse_encoder_layers (num_decoder_layers // num_sparse_decoder_layers), and
num_layers where that count is 0 — which still makes layer 1 sparse in a stack of two layers or more,
as the class builds it.

The embedding is tied three ways (``_tied_weights_keys``: both stacks' embed_tokens and lm_head are
``shared``); ``tie_word_embeddings: false`` unties all four tables, which no published model has: refused.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from paramtally.core.families.bart import tied_three_ways
from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import moe
from paramtally.core.families.t5 import T5_DROPOUT, T5_QUIRKS, t5_attention, t5_model

__all__ = ["FAMILY"]


def _sparse_step(cfg: HFConfig, step_key: str, layers: int, sparse_key: str) -> int:
    """SwitchTransformersConfig.__post_init__'s step; a step the file gives replaces it (the class
    sets the file's keys after deriving its own)."""
    if cfg.has(step_key):
        return cfg.integer(step_key, minimum=0)
    sparse = cfg.integer(sparse_key, minimum=0)
    return layers // sparse if sparse else layers


def _groups(n: int, step: int, experts: Spec) -> list[Spec]:
    """The stack's layers, sparse where SwitchTransformersStack makes them so: every layer at step 1;
    else layer 0 dense, then from layer 1 one sparse layer and step − 1 dense ones, repeated (a
    closed form: a stack of a million layers with two sparse ones is three groups)."""
    sparse: Spec = {"count": 1, "override": {"ffn": experts}}
    if step == 1:
        return [{**sparse, "count": n}]
    if step == 0 or n == 1:
        return [{"count": n}]
    repeats, rest = divmod(n - 1, step)
    groups: list[Spec] = [{"count": 1}]
    if repeats:
        groups.append({"count": repeats, "pattern": [sparse, {"count": step - 1}]})
    if rest:
        groups += [sparse, *([{"count": rest - 1}] if rest > 1 else [])]
    return groups


def switch_transformers(cfg: HFConfig) -> Spec:
    tied_three_ways(cfg)  # untied, shared and both stacks' embed_tokens come apart as well
    act = cfg.text("dense_act_fn")
    width = cfg.integer("d_ff")
    dense = {"kind": "dense", "width": width, "gated": False, "bias": False, "activation": act}
    experts = moe(cfg.integer("num_experts"), 1, width, gated=False, activation=act)
    experts["router_bias"] = cfg.flag("router_bias")
    n_encoder = cfg.integer("num_layers")
    n_decoder = cfg.opt_integer("num_decoder_layers") or n_encoder
    encoder_step = _sparse_step(cfg, "encoder_sparse_step", n_encoder, "num_sparse_encoder_layers")
    decoder_step = _sparse_step(cfg, "decoder_sparse_step", n_decoder, "num_sparse_decoder_layers")
    layer = {"mixer": t5_attention(cfg), "ffn": dense}
    return t5_model(
        cfg,
        layer,
        layer,
        encoder_layers=_groups(n_encoder, encoder_step, experts),
        decoder_layers=_groups(n_decoder, decoder_step, experts),
    )


# SwitchTransformers* copies T5's attention, norm, dense FFN, stack dropouts and loss; its
# PreTrainedModel keeps _supports_sdpa = False (the attention is written out, as T5's eager one).
_QUIRKS = replace(T5_QUIRKS, sdpa_refused_by="SwitchTransformersForConditionalGeneration")

_DEFAULTS: dict[str, Any] = {
    "vocab_size": 32128,
    "d_model": 768,
    "d_kv": 64,
    "d_ff": 2048,
    "num_layers": 12,
    "num_sparse_encoder_layers": 3,
    "num_decoder_layers": 12,
    "num_sparse_decoder_layers": 3,
    "num_heads": 12,
    "num_experts": 8,
    "router_bias": False,
    "relative_attention_num_buckets": 32,
    "dense_act_fn": "relu",
    "tie_word_embeddings": True,
    "dropout_rate": 0.1,
}

FAMILY = Family(
    "Switch Transformers",
    (
        ModelType(
            "switch_transformers",
            switch_transformers,
            _DEFAULTS,
            activations=_QUIRKS,
            tokenizer="sentencepiece",
            dropout=T5_DROPOUT,
        ),
    ),
)
