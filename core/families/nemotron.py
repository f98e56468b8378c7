"""Nemotron-3/-4 and Minitron (``NemotronForCausalLM``): Llama's attention with a plain MLP
``up_proj``/``down_proj`` (relu²), and ``NemotronLayerNorm1P`` (a LayerNorm with β whose weight
is read as 1 + w) for both block norms and the final norm. ``partial_rotary_factor`` (0.5 by
default) rotates half of each head."""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped

__all__ = ["FAMILY"]

NEMOTRON = LlamaShape(mlp_bias_key="mlp_bias", gated=False, norm="layernorm", rotary_fraction=True)

# NemotronAttention rotates part of each head and concatenates the rotated and passed parts: q and k
# reach SDPA contiguous, the reshape after it copies, and SDPA keeps its output beside the
# copy (measured: B·a·d_h more per layer under hf-sdpa).
_PARTIAL_ROTARY = ActivationQuirks(sdpa_output_copied=True)

FAMILY = Family(
    "Nemotron",
    (
        ModelType(
            "nemotron",
            lambda cfg: llama_shaped(cfg, NEMOTRON),
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 256000,
                "hidden_size": 6144,
                "intermediate_size": 24576,
                "num_attention_heads": 48,
                "hidden_act": "relu2",
                "max_position_embeddings": 4096,
                "partial_rotary_factor": 0.5,
            },
            activations=_PARTIAL_ROTARY,
        ),
    ),
)
