"""Gemma, Gemma-2 and Gemma-3's language model (``GemmaForCausalLM``, ``Gemma2ForCausalLM``,
``Gemma3ForCausalLM``): Llama-shaped, tied, with RMSNorms that scale by (1 + weight) in fp32.
Gemma-2 has four norms a layer (before and after attention and MLP) and slides on every other
layer; Gemma-3 adds per-head q/k norms and attends globally every ``sliding_window_pattern``-th
layer (or as ``layer_types`` say)."""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, Window, llama_shaped
from paramtally.core.families.pieces import attention, changes_from, gated, global_layers, model

__all__ = ["FAMILY"]


def _gemma2_activation(cfg: HFConfig) -> str:
    """Gemma-2 names its MLP activation ``hidden_activation`` (an older file: ``hidden_act``)."""
    if not cfg.has("hidden_activation") and cfg.has("hidden_act"):
        return cfg.text("hidden_act")
    return cfg.text("hidden_activation", "silu")


GEMMA = LlamaShape()
GEMMA2 = LlamaShape(
    norms_per_block=4, window=Window(global_every=2, reads_layer_types=True), activation=_gemma2_activation
)


def gemma3_text(cfg: HFConfig) -> Spec:
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    window = cfg.integer("sliding_window")
    block = {
        "mixer": attention(cfg, h, qk_norm=True, sliding_window=window, head_dim=cfg.integer("head_dim")),
        "ffn": gated(
            cfg.integer("intermediate_size"), activation=cfg.text("hidden_activation", "gelu_pytorch_tanh")
        ),
        "norms": {"kind": "rmsnorm", "count": 4},
    }
    changes = changes_from({True: {"mixer": {"sliding_window": None}}})
    return model(cfg, h, block, global_layers(cfg, n, cfg.integer("sliding_window_pattern"), changes))


_GEMMA_DEFAULTS = {
    **LLAMA_DEFAULTS,
    "vocab_size": 256000,
    "hidden_size": 3072,
    "intermediate_size": 24576,
    "num_hidden_layers": 28,
    "num_attention_heads": 16,
    "head_dim": 256,
    "hidden_act": "gelu_pytorch_tanh",
    "max_position_embeddings": 8192,
    "tie_word_embeddings": True,
}
_GEMMA2_DEFAULTS = {
    **LLAMA_DEFAULTS,
    "vocab_size": 256000,
    "hidden_size": 2304,
    "intermediate_size": 9216,
    "num_hidden_layers": 26,
    "num_attention_heads": 8,
    "num_key_value_heads": 4,
    "head_dim": 256,
    "hidden_activation": "gelu_pytorch_tanh",
    "max_position_embeddings": 8192,
    "tie_word_embeddings": True,
    "sliding_window": 4096,
}
_GEMMA3_TEXT_DEFAULTS = {
    **LLAMA_DEFAULTS,
    "vocab_size": 262208,
    "hidden_size": 2304,
    "intermediate_size": 9216,
    "num_hidden_layers": 26,
    "num_attention_heads": 8,
    "num_key_value_heads": 4,
    "head_dim": 256,
    "sliding_window": 4096,
    "sliding_window_pattern": 6,
    "max_position_embeddings": 131072,
    "hidden_activation": "gelu_pytorch_tanh",
    "tie_word_embeddings": True,
    "layer_types": None,
}
# GemmaRMSNorm: output * (1.0 + self.weight.float()) keeps the fp32 normalized value.
_FP32_NORM = ActivationQuirks(fp32_norm=True)
# Gemma2Attention soft-caps its logits (attn_logit_softcapping, 50 by default): tanh keeps its
# output; Gemma2ForCausalLM refuses SDPA (_supports_sdpa is False, for the soft-capping).
_GEMMA2 = ActivationQuirks(fp32_norm=True, logit_softcap=True, sdpa_refused_by="Gemma2ForCausalLM")

FAMILY = Family(
    "Gemma, Gemma-2, Gemma-3 (text)",
    (
        ModelType(
            "gemma",
            lambda cfg: llama_shaped(cfg, GEMMA),
            _GEMMA_DEFAULTS,
            activations=_FP32_NORM,
            tokenizer="sentencepiece",
        ),
        ModelType(
            "gemma2",
            lambda cfg: llama_shaped(cfg, GEMMA2),
            _GEMMA2_DEFAULTS,
            activations=_GEMMA2,
            tokenizer="sentencepiece",
        ),
        ModelType(
            "gemma3_text",
            gemma3_text,
            _GEMMA3_TEXT_DEFAULTS,
            activations=_FP32_NORM,
            tokenizer="sentencepiece",
        ),
    ),
)
