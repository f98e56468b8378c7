"""OLMo, OLMo-2 and OLMo-3 (``OlmoForCausalLM``, ``Olmo2ForCausalLM``, ``Olmo3ForCausalLM``).

OLMo (the first, ``olmo``): Llama's shapes with ``OlmoLayerNorm``, a LayerNorm without weight or
bias (``F.layer_norm(x, shape, None, None)``), before each sublayer and at the end: its norms hold
no parameters. ``clip_qkv`` clamps q, k and v (no parameter); ``attention_bias`` biases all four
projections.

OLMo-2 and OLMo-3: Llama's shapes with the norms
after each sublayer instead of before (``post_attention_layernorm``, ``post_feedforward_layernorm``;
two a layer all the same) and q/k RMSNorms over the whole projection, ``q_norm [a·d_h]`` and
``k_norm [g·d_h]`` (``Olmo2Attention``). OLMo-3 slides a window on the layers ``layer_types``
names (by default three of every four), which shapes no parameter."""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped
from paramtally.core.families.pieces import changes_from, global_layers

__all__ = ["FAMILY"]

OLMO2 = LlamaShape(qk_norm=True, qk_norm_span="projection")


def olmo(cfg: HFConfig) -> Spec:
    """Llama's layers; every norm an OlmoLayerNorm, which has no parameters (OlmoDecoderLayer's
    input_layernorm and post_attention_layernorm, OlmoModel.norm)."""
    spec = llama_shaped(cfg, LlamaShape(norm="layernorm"))
    spec["blocks"]["default"]["norms"]["affine"] = False
    return spec


def olmo3(cfg: HFConfig) -> Spec:
    """OLMo-2's layers; a layer ``layer_types`` calls sliding attends within ``sliding_window``
    (Olmo3Config: every fourth layer full where the file lists none; no window where it is null)."""
    spec = llama_shaped(cfg, OLMO2)
    window = cfg.opt_integer("sliding_window")
    if window is None:
        return spec
    n = cfg.integer("num_hidden_layers")
    full = changes_from({True: {"mixer": {"sliding_window": None}}})
    layers = global_layers(cfg, n, 4, full)
    if any(group.get("override") != full(True) for group in layers):  # a layer slides
        spec["blocks"]["default"]["mixer"]["sliding_window"] = window
        spec["decoder"]["layers"] = layers
    return spec


# Olmo2RMSNorm and Olmo3RMSNorm multiply the fp32 normalized value by the weight before the cast
# back: (self.weight * hidden_states).to(input_dtype) keeps that fp32 value (measured).
_FP32_NORM = ActivationQuirks(fp32_norm=True)

_OLMO2_DEFAULTS: dict[str, Any] = {
    **LLAMA_DEFAULTS,
    "vocab_size": 50304,
}

FAMILY = Family(
    "OLMo, OLMo-2, OLMo-3",
    (
        ModelType(
            "olmo",
            olmo,
            {**_OLMO2_DEFAULTS, "clip_qkv": None},
            # OlmoLayerNorm: F.layer_norm(hidden_states.to(torch.float32), ...) keeps that fp32 copy
            # (measured: 4·h + 8 bytes a token per norm, tools/measure_dense_activations.py).
            activations=ActivationQuirks(fp32_layer_norm=True),
        ),
        ModelType("olmo2", lambda cfg: llama_shaped(cfg, OLMO2), _OLMO2_DEFAULTS, activations=_FP32_NORM),
        ModelType(
            "olmo3",
            olmo3,
            {**_OLMO2_DEFAULTS, "sliding_window": 4096, "layer_types": None},
            activations=_FP32_NORM,
        ),
    ),
)
