"""Bits per stored number: weight dtypes, quantization formats and KV-cache dtypes.

Effective bits include each format's scales and zero points, so ``bytes = numel · bits / 8``
holds for a whole tensor. Figures come from llama.cpp, AutoGPTQ/AWQ, bitsandbytes, OCP MX and
NVIDIA's NVFP4 notes; exact fractions keep bytes exact. A GGUF format stores each tensor in a
type of its own (``core.memory.gguf_types``); its ``bits`` here are its default type's block.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, get_args

__all__ = [
    "DTYPE_BITS",
    "KV_DTYPE_BITS",
    "QUANT_FORMATS",
    "Dtype",
    "KvDtype",
    "QuantFormat",
    "QuantId",
    "format_bits",
]

Dtype = Literal["fp32", "bf16", "fp16", "fp8", "int8", "int4"]
KvDtype = Literal["fp32", "bf16", "fp16", "fp8", "q8_0", "q4_0"]
QuantId = Literal[
    "q8_0",
    "q6_k",
    "q5_k_m",
    "q4_k_m",
    "q4_0",
    "q3_k_m",
    "q2_k",
    "iq4_xs",
    "gptq-4bit-g128",
    "awq-4bit-g128",
    "nf4",
    "nf4-dq",
    "mxfp4",
    "nvfp4",
]

# Whole widths are ints: a formula over ints stays in fast integer arithmetic (Fractions only
# where a width is not whole), and every figure is the same number either way.
DTYPE_BITS: dict[str, int] = {
    "fp32": 32,
    "bf16": 16,
    "fp16": 16,
    "fp8": 8,
    "int8": 8,
    "int4": 4,
}

KV_DTYPE_BITS: dict[str, int | Fraction] = {
    "fp32": 32,
    "bf16": 16,
    "fp16": 16,
    "fp8": 8,
    "q8_0": Fraction("8.5"),  # llama.cpp: 32 int8 values + one fp16 scale
    "q4_0": Fraction("4.5"),  # llama.cpp: 32 4-bit values + one fp16 scale
}


@dataclass(frozen=True, slots=True)
class QuantFormat:
    id: str
    label: str
    bits: Fraction
    source: str
    # The routed experts alone, the rest at the scenario's dtype: how transformers and vLLM load
    # MXFP4 (gpt-oss ships its experts in it and the rest in bf16).
    experts_only: bool = False


# GGUF formats are a type per tensor (``core.memory.gguf_types``); ``bits`` is the block layout of the
# format's default type (gguf's GGML_QUANT_SIZES: bytes per block × 8 / values per block).
_GGUF = "llama.cpp: default tensor type's block; each tensor's own type is in core.memory.gguf_types"
QUANT_FORMATS: dict[str, QuantFormat] = {
    q.id: q
    for q in (
        QuantFormat("q8_0", "GGUF Q8_0", Fraction(34 * 8, 32), _GGUF),
        QuantFormat("q6_k", "GGUF Q6_K", Fraction(210 * 8, 256), _GGUF),
        QuantFormat("q5_k_m", "GGUF Q5_K_M", Fraction(176 * 8, 256), _GGUF),
        QuantFormat("q4_k_m", "GGUF Q4_K_M", Fraction(144 * 8, 256), _GGUF),
        QuantFormat("q4_0", "GGUF Q4_0", Fraction(18 * 8, 32), _GGUF),
        QuantFormat("q3_k_m", "GGUF Q3_K_M", Fraction(110 * 8, 256), _GGUF),
        QuantFormat("q2_k", "GGUF Q2_K", Fraction(84 * 8, 256), _GGUF),
        QuantFormat("iq4_xs", "GGUF IQ4_XS", Fraction(136 * 8, 256), _GGUF),
        QuantFormat("gptq-4bit-g128", "GPTQ 4-bit g128", Fraction("4.156"), "AutoGPTQ, group size 128"),
        QuantFormat("awq-4bit-g128", "AWQ 4-bit g128", Fraction("4.156"), "AutoAWQ, group size 128"),
        QuantFormat("nf4", "bitsandbytes NF4", Fraction("4.5"), "bitsandbytes / QLoRA (Dettmers 2023)"),
        QuantFormat(
            "nf4-dq",
            "bitsandbytes NF4 + double quant",
            Fraction("4.127"),
            "QLoRA double quantization (Dettmers 2023)",
        ),
        QuantFormat(
            "mxfp4",
            "MXFP4",
            Fraction("4.25"),
            "OCP Microscaling: 32 FP4 + one E8M0 scale; the routed experts only, as transformers' "
            "Mxfp4 quantizer and vLLM load gpt-oss",
            experts_only=True,
        ),
        QuantFormat("nvfp4", "NVFP4", Fraction("4.5"), "NVIDIA NVFP4: 16 FP4 + one FP8 scale"),
    )
}

assert set(QUANT_FORMATS) == set(get_args(QuantId))


def experts_only(quant: str | None) -> bool:
    """Whether ``quant`` keeps only the routed experts quantized (the rest at the dtype)."""
    return quant is not None and QUANT_FORMATS[quant].experts_only


def format_bits(dtype: str, quant: str | None) -> tuple[int | Fraction, str]:
    """Bits per weight and a label for the weights' storage format."""
    if quant is not None:
        fmt = QUANT_FORMATS[quant]
        return fmt.bits, fmt.label
    return DTYPE_BITS[dtype], dtype
