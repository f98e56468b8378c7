"""Weights, gradients and optimizer states on one GPU, with ZeRO / FSDP sharding.

Mixed-precision AdamW keeps 2Ψ weights + 2Ψ gradients + 12Ψ fp32 master, m and v (ZeRO paper,
Rajbhandari et al. 2020). ZeRO-1 shards the optimizer states over the N_d data-parallel GPUs,
ZeRO-2 also the gradients, ZeRO-3 (FSDP full sharding) also the weights. Tensor parallelism
divides everything by t first. LoRA/QLoRA: the base is frozen (no gradients or states); only
the adapters train.
"""

from __future__ import annotations

from paramtally.core.quant import DTYPE_BITS, format_bits
from paramtally.core.scenario import Scenario
from paramtally.core.stages import Stage
from paramtally.core.terms import Term

__all__ = ["optimizer_bytes_per_param", "state_terms", "weight_terms", "zero_model_states"]

ZERO_SOURCE = "ZeRO (Rajbhandari et al. 2020): stage 1 shards optimizer states, 2 gradients, 3 weights"
_OPTIMIZER_STATES = {"adamw": 8, "adam8bit": 2, "sgd": 4, "none": 0}
_OPTIMIZER_LABEL = {
    "adamw": "AdamW m + v fp32",
    "adam8bit": "8-bit Adam m + v",
    "sgd": "SGD momentum fp32",
    "none": "no states",
}


def optimizer_bytes_per_param(optimizer: str, trainable_dtype: str) -> int:
    """Optimizer state bytes per trainable parameter, with the fp32 master copy when weights are 16-bit."""
    if optimizer == "none":
        return 0
    master = 0 if trainable_dtype == "fp32" else 4
    return _OPTIMIZER_STATES[optimizer] + master


def _split(t: int, dp: int, sharded: bool) -> str:
    symbols = [name for name, size in (("t", t), ("N_d", dp if sharded else 1)) if size > 1]
    if not symbols:
        return ""
    return "/" + symbols[0] if len(symbols) == 1 else "/(" + "·".join(symbols) + ")"


def _adapter_dtype(s: Scenario) -> str:
    return s.dtype if DTYPE_BITS[s.dtype] >= 16 else "bf16"


def weight_terms(s: Scenario, stage: Stage, adapters: bool) -> list[Term]:
    """Weights on one GPU: the model (or frozen base) in its format, adapters at 16 bits."""
    t, dp = s.tp, s.dp
    training = s.mode == "training"
    quant = s.quant or ("nf4-dq" if s.qlora else None)
    if training and not adapters:
        quant = None
    bits, label = format_bits(s.dtype, quant)
    shard = _split(t, dp, training and s.zero == 3)
    trainable = stage.adapters if adapters else 0
    base = stage.params - trainable
    keep16 = s.keep_embeddings_16bit and bits < 16 and stage.embed16 > 0
    terms: list[Term] = []
    base_name = "frozen base weights" if adapters else "weights"
    source = f"Σ numel × bits/8 at {label}" + (f"; {ZERO_SOURCE}" if training and s.zero == 3 else "")
    if keep16:
        terms.append(
            Term.of(
                f"{base_name} ({label})",
                "weights",
                f"(P − E)·bits/8{shard}",
                source,
                P=base,
                E=stage.embed16,
                bits=bits,
                t=t,
                N_d=dp,
            )
        )
        terms.append(
            Term.of(
                "embeddings / LM head (16-bit)",
                "weights",
                f"E·16/8{shard}",
                "embeddings and LM head kept at 16 bits",
                E=stage.embed16,
                t=t,
                N_d=dp,
            )
        )
    else:
        terms.append(
            Term.of(
                f"{base_name} ({label})",
                "weights",
                f"P·bits/8{shard}",
                source,
                P=base,
                bits=bits,
                t=t,
                N_d=dp,
            )
        )
    if trainable:
        a_dtype = _adapter_dtype(s)
        terms.append(
            Term.of(
                f"adapter weights ({a_dtype})",
                "weights",
                f"A·bits/8{shard}",
                "trainable LoRA/adapter parameters r·(d_in + d_out) per matrix",
                A=trainable,
                bits=DTYPE_BITS[a_dtype],
                t=t,
                N_d=dp,
            )
        )
    return terms


def state_terms(s: Scenario, trainable: int, t: int, dp: int) -> list[Term]:
    """Gradients and optimizer states of ``trainable`` parameters (before TP/ZeRO split)."""
    dtype = s.dtype if s.lora_rank is None else _adapter_dtype(s)
    grad = 2 if s.grad_dtype == "bf16" else 4
    k = optimizer_bytes_per_param(s.optimizer, dtype)
    terms = [
        Term.of(
            f"gradients ({s.grad_dtype})",
            "gradients",
            f"T·{grad}{_split(t, dp, s.zero >= 2)}",
            f"one gradient per trainable parameter; {ZERO_SOURCE}",
            T=trainable,
            t=t,
            N_d=dp,
        )
    ]
    if k:
        master = "" if dtype == "fp32" else " + fp32 master"
        terms.append(
            Term.of(
                f"optimizer states ({_OPTIMIZER_LABEL[s.optimizer]}{master})",
                "optimizer",
                f"T·{k}{_split(t, dp, s.zero >= 1)}",
                f"{k} B/param (ZeRO paper: Adam 12 = 4 master + 4 m + 4 v); {ZERO_SOURCE}",
                T=trainable,
                t=t,
                N_d=dp,
            )
        )
    return terms


def zero_model_states(psi: int, zero: int, dp: int) -> tuple[int, int, int]:
    """(weights, gradients, optimizer) bytes per GPU of mixed-precision AdamW over ``dp`` GPUs."""
    s = Scenario(mode="training", zero=zero, gpus=dp)
    stage = Stage(0, 0, 1, psi, 0, 0)
    weights = sum(term.value for term in weight_terms(s, stage, adapters=False))
    grads, states = (term.value for term in state_terms(s, psi, 1, dp))
    return weights, grads, states
