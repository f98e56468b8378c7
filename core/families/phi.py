"""Phi-2 and Phi-3 (``PhiForCausalLM``, ``Phi3ForCausalLM``). Phi-2: one LayerNorm feeding attention
and a plain biased MLP in parallel, biases everywhere (the head too), optional q/k LayerNorms of
h / a; Phi-3: Llama's shapes with fused projections (the same parameters). Both rotate a share
``partial_rotary_factor`` of each head."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, Window, llama_shaped
from paramtally.core.families.pieces import plain_ffn
from paramtally.core.text import say

__all__ = ["FAMILY"]

_PHI_SHAPE = LlamaShape(bias_key=None, rotary_fraction=True)
PHI3 = LlamaShape(biased=(), rotary_fraction=True, window=Window())


def phi(cfg: HFConfig) -> Spec:
    h, a = cfg.integer("hidden_size"), cfg.integer("num_attention_heads")
    spec = llama_shaped(cfg, _PHI_SHAPE)
    block = spec["blocks"]["default"]
    if cfg.flag("qk_layernorm"):
        if block["mixer"].get("head_dim") not in (None, h // a):
            raise cfg.fail(
                "head_dim",
                say(
                    "differs from hidden_size / heads while qk_layernorm is on: "
                    "Phi's q/k LayerNorms are h/a wide, which the schema cannot express"
                ),
            )
        block["mixer"]["qk_norm"] = True
    block["ffn"] = plain_ffn(cfg.integer("intermediate_size"), cfg.text("hidden_act"), bias=True)
    block["norms"] = {"kind": "layernorm", "count": 1}
    spec["head"]["bias"] = True
    return spec


_DROPOUT = ("attention_dropout", "resid_pdrop")

FAMILY = Family(
    "Phi-2, Phi-3",
    (
        ModelType(
            "phi",
            phi,
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 51200,
                "hidden_size": 2048,
                "intermediate_size": 8192,
                "num_hidden_layers": 24,
                "hidden_act": "gelu_new",
                "qk_layernorm": False,
                "partial_rotary_factor": 0.5,
            },
            dropout=_DROPOUT,
        ),
        ModelType(
            "phi3",
            lambda cfg: llama_shaped(cfg, PHI3),
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 32064,
                "hidden_size": 3072,
                "intermediate_size": 8192,
                "max_position_embeddings": 4096,
                "sliding_window": None,
            },
            tokenizer="sentencepiece",
            dropout=_DROPOUT,
        ),
    ),
)
