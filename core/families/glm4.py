"""GLM-4: the 0414 models (``Glm4ForCausalLM``, GLM-4-9B-0414 and GLM-Z1) and the first
GLM-4-9B (``GlmForCausalLM``, ``glm``). The 0414 models are Llama-shaped with four RMSNorms a layer
(``input_layernorm``, ``post_self_attn_layernorm`` on the attention output,
``post_attention_layernorm`` before the MLP, ``post_mlp_layernorm``), q/k/v biases with
``attention_bias`` (o has none), gate and up fused in one ``gate_up_proj`` (the same parameters as
two matrices) and half of each head rotated. ``Glm4Config`` defaults ``head_dim`` to 128, not
h / a. ``GlmDecoderLayer`` is the same layer with Llama's two norms (``input_layernorm``,
``post_attention_layernorm``) and the same defaults (``GlmConfig``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from paramtally.core.families.base import ActivationQuirks, Family, ModelType
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped

__all__ = ["FAMILY", "GLM4_DEFAULTS"]

GLM4_DEFAULTS: dict[str, Any] = {
    **LLAMA_DEFAULTS,
    "vocab_size": 151552,
    "hidden_size": 4096,
    "intermediate_size": 13696,
    "num_hidden_layers": 40,
    "num_attention_heads": 32,
    "num_key_value_heads": 2,
    "head_dim": 128,
    "max_position_embeddings": 131072,
    "partial_rotary_factor": 0.5,
    "attention_bias": True,
}
GLM = LlamaShape(biased=("q_bias", "k_bias", "v_bias"), rotary_fraction=True)
GLM4 = replace(GLM, norms_per_block=4)

# Glm4Attention rotates part of each head and concatenates the rotated and passed parts: q and k
# reach SDPA contiguous, the reshape after it copies, and SDPA keeps its output beside the
# copy (measured: B·a·d_h more per layer under hf-sdpa). Glm4Attention subclasses GlmAttention
# and keeps its forward (modular_glm4.py), so GLM's first model keeps the same.
_PARTIAL_ROTARY = ActivationQuirks(sdpa_output_copied=True)

FAMILY = Family(
    "GLM-4",
    (
        ModelType("glm", lambda cfg: llama_shaped(cfg, GLM), GLM4_DEFAULTS, activations=_PARTIAL_ROTARY),
        ModelType("glm4", lambda cfg: llama_shaped(cfg, GLM4), GLM4_DEFAULTS, activations=_PARTIAL_ROTARY),
    ),
)
