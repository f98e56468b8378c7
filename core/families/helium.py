"""Helium (``HeliumForCausalLM``): Llama's shapes, except that ``HeliumAttention`` builds its output
projection as ``nn.Linear(h, h)`` without a bias whatever the heads' width (``attention_bias``
biases q, k and v only); ``head_dim`` 128 by default."""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped

__all__ = ["FAMILY"]

HELIUM = LlamaShape(biased=("q_bias", "k_bias", "v_bias"), mlp_bias_key="mlp_bias")


def helium(cfg: HFConfig) -> Spec:
    spec = llama_shaped(cfg, HELIUM)
    spec["blocks"]["default"]["mixer"]["o_reads_hidden"] = True
    return spec


# HeliumRMSNorm: (self.weight.to(torch.float32) * hidden_states).to(input_dtype) keeps the fp32
# normalized value (measured).
_FP32_NORM = ActivationQuirks(fp32_norm=True)

FAMILY = Family(
    "Helium",
    (
        ModelType(
            "helium",
            helium,
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 48000,
                "hidden_size": 2560,
                "intermediate_size": 7040,
                "num_hidden_layers": 24,
                "num_attention_heads": 20,
                "head_dim": 128,
                "max_position_embeddings": 4096,
            },
            activations=_FP32_NORM,
        ),
    ),
)
