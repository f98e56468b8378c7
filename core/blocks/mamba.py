"""Mamba (selective state space, Gu & Dao 2023), as transformers' ``MambaMixer`` and Jamba's builds it.

With inner width I, state N, conv kernel K and Δ rank R: in_proj h → 2I (x and the gate z),
a depthwise conv over I channels, x_proj I → R + 2N (Δ, B, C; no bias), dt_proj R → I (always
with a bias), A_log I×N, D I, out_proj I → h. Jamba adds RMSNorms over Δ (R), B and C (N each).
A layer keeps a fixed state per sequence, whatever the context: the conv window I·K and the SSM
state I·N (transformers' ``MambaCache``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import ClassVar, Literal

from pydantic import ConfigDict, Field

from paramtally.core.blocks.activation_profiles import HFProfile, KernelPath
from paramtally.core.blocks.base import (
    Cache,
    Context,
    FieldProblem,
    GGUFTensor,
    LoRAMatrix,
    PositiveInt,
    Replicated,
    ScorelessMixer,
    gguf_tensors_of,
    leaf,
)
from paramtally.core.terms.term import Term
from paramtally.core.text import say

__all__ = ["Mamba"]


class Mamba(ScorelessMixer):
    """A Mamba-1 selective-scan layer."""

    model_config = ConfigDict(title="Mamba")

    kind: Literal["mamba"] = "mamba"
    inner: PositiveInt | None = Field(
        None, title="Inner width", description="Width of the scanned stream (I); empty means expand × hidden."
    )
    expand: PositiveInt = Field(
        2,
        title="Expand",
        description="I = expand × hidden when the width is empty.",
        json_schema_extra={"visible_when": {"inner": None}},  # a width set: expand changes nothing
    )
    state: PositiveInt = Field(16, title="State", description="SSM state size per channel (N).")
    conv_kernel: PositiveInt = Field(4, title="Conv kernel", description="Width of the depthwise conv (K).")
    dt_rank: PositiveInt | None = Field(
        None, title="Δ rank", description="Rank of the Δ projection (R); empty means ⌈hidden / 16⌉."
    )
    proj_bias: bool = Field(False, title="Projection bias", description="Biases on in_proj and out_proj.")
    conv_bias: bool = Field(True, title="Conv bias", description="A bias on the conv.")
    inner_norms: bool = Field(
        False, title="Δ/B/C norms", description="RMSNorms over Δ, B and C inside the mixer (Jamba)."
    )

    SHORT: ClassVar[str] = "Mamba"  # in labels such as "layers 0–3 (Mamba, dense)"
    COLOR: ClassVar[str] = "#B5651D"
    PART: ClassVar[str] = "ssm"
    PLAIN: ClassVar[bool] = False
    # The kernels its hf bytes assume; transformers' PyTorch path without them keeps more (measured).
    KERNELS: ClassVar[KernelPath | None] = KernelPath(
        "Mamba",
        "mamba_ssm and causal-conv1d",
        15.8,
        "a layer of Mamba-2.8B's widths",
        "MambaMixer.slow_forward: fp32 scan states of every step",
    )
    WINDOW_FIELD: ClassVar[str | None] = None
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {}
    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = (
        (
            "ssm",
            r"(mixer|mamba)\.(in_proj|out_proj|x_proj|dt_proj|conv1d|A_log|D|dt_layernorm|b_layernorm|c_layernorm)",
        ),
        ("ssm", r"ssm_(in|out|x|dt|conv1d|a|d)\b"),
    )
    EXAMPLES: ClassVar[tuple[dict[str, object], ...]] = (
        {"state": 4, "conv_kernel": 2},
        {"inner": 48, "dt_rank": 3, "proj_bias": True, "inner_norms": True},
    )

    def dims(self, ctx: Context) -> dict[str, int]:
        return {
            "h": ctx.h,
            "I": self.inner or self.expand * ctx.h,
            "N": self.state,
            "K": self.conv_kernel,
            "R": self.dt_rank or math.ceil(ctx.h / 16),
        }

    def terms(self, ctx: Context, part: str = "ssm") -> list[Term]:
        d = self.dims(ctx)
        bias = self.proj_bias
        nodes = [
            leaf("in_proj (x, z)", part, "2·I·h" + (" + 2·I" if bias else ""), **d),
            leaf("conv1d", part, "I·K" + (" + I" if self.conv_bias else ""), **d),
            leaf("x_proj (Δ, B, C)", part, "I·(R + 2·N)", **d),
            leaf("dt_proj", part, "R·I + I", **d),
            leaf("A_log, D", part, "I·N + I", **d),
            leaf("out_proj", part, "I·h" + (" + h" if bias else ""), **d),
        ]
        if self.inner_norms:
            nodes.append(leaf("Δ, B, C norms (RMSNorm)", part, "R + 2·N", **d))
        return nodes

    def cache(self, ctx: Context, tp: int) -> Cache:
        d = self.dims(ctx)  # TP splits the channels (``tp_problem`` refuses a split that does not divide)
        return Cache(
            per_sequence=d["I"] // tp * (d["K"] - 1 + d["N"]),
            state_expr="L·I·(K − 1 + N)/t" if tp > 1 else "L·I·(K − 1 + N)",
            symbols=(("I", d["I"]), ("K", d["K"]), ("N", d["N"]), *((("t", tp),) if tp > 1 else ())),
            source="Mamba keeps the conv's last K − 1 inputs I·(K − 1) and an SSM state I·N per sequence "
            "(vLLM's MambaStateShapeCalculator, llama.cpp; transformers' MambaCache keeps K)",
        )

    def tp_replicated(self, ctx: Context) -> Replicated | None:
        """Nothing that TP keeps whole (see ``Attention.tp_replicated``)."""
        return None

    def projection_widths(self, ctx: Context) -> int:
        """Tensors kept for backward per token: in_proj out 2I, conv out I, x_proj out R + 2N,
        Δ I, the scan output I and the gated product I (an estimate in Korthikanti's terms)."""
        d = self.dims(ctx)
        return 6 * d["I"] + d["R"] + 2 * d["N"]

    def prefill_width(self, ctx: Context) -> int:
        return 2 * self.dims(ctx)["I"]

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> int:
        """The projection widths at B bytes: an estimate of what the fused kernels keep (not
        measured); under hf-eager-fallback, transformers' PyTorch path as measured (``fallback_bytes``)."""
        return self.fallback_bytes(ctx, hf.b) if hf.fallback else hf.b * self.projection_widths(ctx)

    def fallback_bytes(self, ctx: Context, b: int) -> int:
        """Bytes per token transformers' PyTorch path of a Mamba layer keeps (``MambaMixer.slow_forward``,
        no mamba_ssm kernels), measured on two widths (``kernel_fallback_cases``): the fp32 discretized
        A and B·u and every step's fp32 state, 12·I·N, and each step's state in B for the C product,
        B·I·N; fp32 dt and D-skip products 8·I; in_proj's output (x and the gate) 2·B·I, the conv's
        output, x_proj's and out_proj's inputs, the softplus, gate and skip inputs, 7·B·I; x_proj's
        output B·(R + 2·N) and C in fp32 4·N. Left out: what is per layer (A in fp32 twice, D: 8·I·N +
        4·I) and the conv's K − 1 extra positions (under 0.1 %)."""
        d = self.dims(ctx)
        i, n, r = d["I"], d["N"], d["R"]
        return (12 + b) * i * n + (8 + 9 * b) * i + b * (r + 2 * n) + 4 * n

    def context_width(self, ctx: Context, decoding: bool = False) -> int:
        return 0

    def scan_flops(self, ctx: Context) -> int:
        """The selective scan per token: 9·I·N (Gu & Dao 2023, §3.3.2: 9BLDN for the scan)."""
        d = self.dims(ctx)
        return 9 * d["I"] * d["N"]

    def gguf_tensors(self, ctx: Context) -> list[GGUFTensor]:
        return gguf_tensors_of(self.lora_matrices(ctx))

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        return []

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        inner = self.dims(ctx)["I"]
        if inner % tp == 0:
            return None
        return say("tensor parallel size {tp} does not divide the Mamba width {inner}", tp=tp, inner=inner)

    def problems(self, ctx: Context) -> list[FieldProblem]:
        return []
