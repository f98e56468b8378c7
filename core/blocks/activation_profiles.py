"""What a kind's activation bytes depend on under the Hugging Face profiles (hf-eager, hf-sdpa,
hf-eager-fallback), and the fused kernels a recurrent mixer's figure assumes.

Each kind computes its own bytes per token (``hf_bytes``) from an ``HFProfile``: the bytes per
activation, the attention implementation, and the model family's quirks as booleans, which
``core.memory.activations_hf`` resolves from the family (the kind never reads a model type).
Under the megatron profile a kind answers with its ``projection_widths`` (Korthikanti et al. 2022).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

__all__ = ["ACTIVATION_SAVES", "HFProfile", "KernelPath", "activation_saves"]

# Tensors of its input's size an ACT2FN activation saves for backward, its output not counted
# (tools/measure_activations.py, transformers 5.24 / torch 2.13; the goldens hold the same table).
# The functions PyTorch fuses keep their input (silu, gelu) or their output (relu, tanh: 0 more);
# the ones transformers writes out in Python keep every intermediate.
ACTIVATION_SAVES: dict[str, float] = {
    "gelu": 1.0, "gelu_10": 2.0, "gelu_accurate": 4.0, "gelu_fast": 7.0, "gelu_new": 4.0,
    "gelu_python": 3.0, "gelu_python_tanh": 4.0, "gelu_pytorch_tanh": 1.0, "hardswish": 1.0,
    "laplace": 1.0, "leaky_relu": 1.0, "linear": 0.0, "mish": 1.0, "quick_gelu": 2.0, "relu": 0.0,
    "relu2": 1.0, "relu6": 1.0, "sigmoid": 0.0, "silu": 1.0, "sqrtsoftplus": 1.0, "swish": 1.0,
    "tanh": 0.0, "xielu": 4.5,
}  # fmt: skip
# Activations whose backward reads their output (ReLU, tanh, sigmoid): where dropout follows them,
# the output is kept beside the dropped copy the next matrix keeps (measured on torch 2.13).
KEEPS_OUTPUT = frozenset({"relu", "tanh", "sigmoid"})


def activation_saves(activation: str) -> float:
    """Tensors of its input's size ``activation`` keeps (``ACTIVATION_SAVES``; unknown names: 1)."""
    return ACTIVATION_SAVES.get(activation, 1.0)


@dataclass(frozen=True, slots=True)
class HFProfile:
    """One Hugging Face profile for one model: ``b`` bytes per activation (2 for bf16/fp16, 4 for
    fp32), eager or SDPA attention, and the family's quirks (``core.memory.activations_hf`` names
    the families that have each)."""

    b: int
    eager: bool
    # hf-eager-fallback: recurrent mixers on transformers' PyTorch path, without their kernels.
    fallback: bool = False
    # SDPA keeps the KV cache's copies of K and V beside a fused q, k, v output (use_cache).
    cache_copies: bool = False
    fp32_norm: bool = False  # RMSNorm multiplies its (1 + weight) in fp32 (Gemma)
    norm_keeps_input: bool = False  # RMSNorm multiplies its input, keeping it too (T5)
    fp32_layer_norm: bool = False  # LayerNorm normalizes an fp32 copy of its input (OLMo)
    qk_norm_reads_fused_qkv: bool = False  # the q/k norms keep the fused q/k/v output (Persimmon)
    sdpa_output_copied: bool = False  # the reshape after SDPA copies its output (Whisper)
    inner_dropout: bool = False  # a dense FFN drops out before its output matrix (T5, dropout on)
    expert_glu_saves: int | None = None  # tensors of f_e a gated expert keeps, written out (gpt-oss: 7)
    top_k_softmax_router: bool = False  # the router's softmax over the k chosen logits (gpt-oss)
    fp32_router_input: bool = False  # the router reads an fp32 copy of the input (DeepSeek)
    unnormalized_top_k: bool = False  # the chosen weights are not divided by their sum (DeepSeek-V2)

    def rms_norm(self, width: int) -> int:
        """Bytes per token an RMSNorm over ``width`` keeps: the fp32 copy of its input, the normalized
        value (fp32 where the family multiplies its weight in fp32), the fp32 1/rms, and T5's input."""
        kept_input = self.b * width if self.norm_keeps_input else 0
        return 4 * width + (4 if self.fp32_norm else self.b) * width + 4 + kept_input

    def layer_norm(self, width: int) -> int:
        """Bytes per token a LayerNorm over ``width`` keeps: its input (an fp32 copy where the family
        upcasts it) and the fp32 mean and 1/σ."""
        return (4 if self.fp32_layer_norm else self.b) * width + 8

    def sdpa_kept(self, a: int, d_h: int) -> int:
        """What SDPA keeps per token beyond q, K, V and the output projection's input: its fp32
        log-sum-exp per head, and its output where the reshape after it copies."""
        return 4 * a + (self.b * a * d_h if self.sdpa_output_copied else 0)


class KernelPath(NamedTuple):
    """A mixer whose hf widths estimate what fused CUDA kernels keep: its name, the kernels, how many
    times the figure transformers' PyTorch fallback kept in the measured ``case``, and the PyTorch
    path hf-eager-fallback counts instead, measured ("" where that path is not modelled)."""

    name: str
    kernels: str
    fallback_ratio: float
    case: str
    pytorch_path: str = ""
