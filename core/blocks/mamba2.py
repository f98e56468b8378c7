"""Mamba-2 (state space duality, Dao & Gu 2024), as transformers' ``Mamba2Mixer`` builds it.

With inner width I = H heads × head width P, G groups, state N and conv kernel K: in_proj
h → 2I + 2·G·N + H (z, x, B, C and Δ per head), a depthwise conv over I + 2·G·N channels, per
head Δ bias, A_log and D, a gated RMSNorm over I (always built by Mamba-2, Bamba and Granite-4-H;
Falcon-H1 only with ``mamba_rms_norm``), out_proj I → h. Falcon-H1 gives out_proj its own bias
switch. A layer keeps a fixed state per sequence: the conv window (I + 2·G·N)·K and the SSM state
H·P·N (transformers' ``Mamba2Cache``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import ClassVar, Literal

from pydantic import ConfigDict, Field

from paramtally.core.blocks.activation_profiles import HFProfile, KernelPath
from paramtally.core.blocks.base import (
    Bounds,
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

__all__ = ["Mamba2"]

_GROUPS_REPLICATED = (
    "vLLM MambaMixer2: TP splits the heads; when t does not divide the G groups it gives each rank "
    "max(G/t, 1) whole groups, so past t = G the B and C rows of in_proj and conv1d "
    "(K = L·2·G·N·(h + K_conv), + biases) are replicated; per rank K·(1/g − 1/t) more than an even split"
)


class Mamba2(ScorelessMixer):
    """A Mamba-2 (SSD) layer."""

    model_config = ConfigDict(title="Mamba-2")

    kind: Literal["mamba2"] = "mamba2"
    inner: PositiveInt | None = Field(
        None, title="Inner width", description="Width of the scanned stream (I); empty means expand × hidden."
    )
    expand: PositiveInt = Field(
        2,
        title="Expand",
        description="I = expand × hidden when the width is empty.",
        json_schema_extra={"visible_when": {"inner": None}},  # a width set: expand changes nothing
    )
    num_heads: PositiveInt = Field(title="SSM heads", description="Heads (H); head width P = I / H.")
    groups: PositiveInt = Field(1, title="Groups", description="Groups sharing B and C (G).")
    state: PositiveInt = Field(128, title="State", description="SSM state size per head channel (N).")
    conv_kernel: PositiveInt = Field(4, title="Conv kernel", description="Width of the depthwise conv (K).")
    in_proj_bias: bool = Field(False, title="in_proj bias", description="A bias on in_proj.")
    out_proj_bias: bool = Field(False, title="out_proj bias", description="A bias on out_proj.")
    conv_bias: bool = Field(True, title="Conv bias", description="A bias on the conv.")
    gated_norm: bool = Field(
        True, title="Gated norm", description="The gated RMSNorm over I before out_proj."
    )
    chunk_size: PositiveInt = Field(
        256,
        title="Chunk size",
        description="Tokens per chunk of the SSD scan (Q; transformers' chunk_size, 256 by default): no "
        "parameters; the PyTorch path keeps a Q × Q score block per head and chunk.",
    )

    SHORT: ClassVar[str] = "Mamba-2"  # in labels such as "layers 0–3 (Mamba-2, dense)"
    COLOR: ClassVar[str] = "#CC79A7"
    PART: ClassVar[str] = "ssm"
    PLAIN: ClassVar[bool] = False
    # The kernels its hf bytes assume; transformers' PyTorch path without them keeps more (measured).
    KERNELS: ClassVar[KernelPath | None] = KernelPath(
        "Mamba-2",
        "mamba_ssm and causal-conv1d",
        6.5,
        "a small Mamba-2 layer, chunks of 128",
        "Mamba2Mixer.torch_forward: fp32 Q × Q chunk blocks",
    )
    WINDOW_FIELD: ClassVar[str | None] = None
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {"num_heads": lambda h: max(1, 2 * h // 64)}
    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("ssm", r"(mixer|mamba)\.(in_proj|out_proj|conv1d|A_log|D|dt_bias|norm)\b"),
    )
    EXAMPLES: ClassVar[tuple[dict[str, object], ...]] = (
        {"num_heads": 4, "groups": 2, "state": 8, "conv_kernel": 2},
        {
            "inner": 32,
            "num_heads": 8,
            "state": 4,
            "in_proj_bias": True,
            "out_proj_bias": True,
            "gated_norm": False,
        },
    )

    def dims(self, ctx: Context) -> dict[str, int]:
        inner = self.inner or self.expand * ctx.h
        return {
            "h": ctx.h,
            "I": inner,
            "H": self.num_heads,
            "P": inner // self.num_heads,
            "G": self.groups,
            "N": self.state,
            "K": self.conv_kernel,
        }

    def terms(self, ctx: Context, part: str = "ssm") -> list[Term]:
        d = self.dims(ctx)
        in_proj = "(2·I + 2·G·N + H)·h" + (" + 2·I + 2·G·N + H" if self.in_proj_bias else "")
        nodes = [
            leaf("in_proj (z, x, B, C, Δ)", part, in_proj, **d),
            leaf("conv1d", part, "(I + 2·G·N)·K" + (" + I + 2·G·N" if self.conv_bias else ""), **d),
            leaf("Δ bias, A_log, D", part, "3·H", **d),
        ]
        if self.gated_norm:
            nodes.append(leaf("gated norm (RMSNorm)", part, "I", **d))
        nodes.append(leaf("out_proj", part, "I·h" + (" + h" if self.out_proj_bias else ""), **d))
        return nodes

    def cache(self, ctx: Context, tp: int) -> Cache:
        d = self.dims(ctx)  # TP splits heads and channels and keeps max(G/t, 1) whole groups
        per_rank = max(d["G"] // tp, 1)
        numbers = (d["I"] // tp + 2 * per_rank * d["N"]) * (d["K"] - 1) + d["H"] // tp * d["P"] * d["N"]
        symbols = tuple((name, d[name]) for name in ("I", "G", "N", "K", "H", "P"))
        if tp == 1:
            expr = "L·((I + 2·G·N)·(K − 1) + H·P·N)"
        else:
            expr = "L·((I/t + 2·max(G/t, 1)·N)·(K − 1) + H·P·N/t)"
            symbols = (*symbols, ("t", tp))
        return Cache(
            per_sequence=numbers,
            state_expr=expr,
            symbols=symbols,
            source="Mamba-2 keeps the conv's last K − 1 inputs (I + 2·G·N)·(K − 1) and an SSM state H·P·N "
            "per sequence (vLLM's MambaStateShapeCalculator, llama.cpp; transformers' Mamba2Cache keeps K); "
            "under TP a rank keeps max(G/t, 1) whole groups (vLLM MambaMixer2)",
        )

    def tp_replicated(self, ctx: Context) -> Replicated | None:
        """The B and C rows of in_proj and conv1d and the groups G (see ``_GROUPS_REPLICATED``)."""
        d = self.dims(ctx)
        per_group = 2 * d["N"] * (d["h"] + d["K"] + self.in_proj_bias + self.conv_bias)
        return Replicated("Mamba-2 B/C", d["G"] * per_group, d["G"], _GROUPS_REPLICATED)

    def projection_widths(self, ctx: Context) -> int:
        """in_proj outputs, conv outputs, the scan output and the gated product (an estimate)."""
        d = self.dims(ctx)
        return (2 * d["I"] + 2 * d["G"] * d["N"] + d["H"]) + (d["I"] + 2 * d["G"] * d["N"]) + 2 * d["I"]

    def prefill_width(self, ctx: Context) -> int:
        d = self.dims(ctx)
        return 2 * d["I"] + 2 * d["G"] * d["N"] + d["H"]

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> int:
        """The projection widths at B bytes: an estimate of what the fused kernels keep (not
        measured); under hf-eager-fallback, transformers' PyTorch path as measured (``fallback_bytes``)."""
        return self.fallback_bytes(ctx, hf.b) if hf.fallback else hf.b * self.projection_widths(ctx)

    def fallback_bytes(self, ctx: Context, b: int) -> int:
        """Bytes per token transformers' PyTorch path of a Mamba-2 layer keeps (``Mamba2Mixer.torch_forward``,
        the chunked SSD scan in fp32), measured on two shapes (``kernel_fallback_cases``): per head the
        fp32 Q × Q blocks of each chunk — scores, decay mask, their product — 12·H·Q; per head the fp32 B
        and C read at every head, 20·H·N; the chunk states 8·I·N/Q; fp32 copies of x, the gate, the
        normed output and the SSD's intermediates, 40·I; in_proj's output B·(2·I + 2·G·N + H), the
        conv's output B·(I + 2·G·N), out_proj's input B·I; dt and its softplus and clamp (16 + 2·B)·H;
        the gated norm's 1/rms per group 4·G. Left out: per-layer masks and the state of each sequence
        (under 0.1 %)."""
        d = self.dims(ctx)
        i, heads, groups, n, q = d["I"], d["H"], d["G"], d["N"], self.chunk_size
        per_head = 12 * heads * q + 20 * heads * n + (16 + 2 * b) * heads
        streams = b * (2 * i + 2 * groups * n + heads) + b * (i + 2 * groups * n) + b * i + 40 * i
        return per_head + streams + -(-8 * i * n // q) + 4 * groups

    def context_width(self, ctx: Context, decoding: bool = False) -> int:
        return 0

    def scan_flops(self, ctx: Context) -> int:
        """The SSD scan per token ≈ 6·I·N (state update and read-out, 2 FLOPs each for B, C and the
        decay; Dao & Gu 2024 §6), an estimate."""
        d = self.dims(ctx)
        return 6 * d["I"] * d["N"]

    def gguf_tensors(self, ctx: Context) -> list[GGUFTensor]:
        return gguf_tensors_of(self.lora_matrices(ctx))

    def bounds(self, name: str, values: Mapping[str, int]) -> Bounds:
        """The hidden size such that expand × hidden splits into the heads, where the inner width
        follows from it."""
        if name == "hidden_size" and self.inner is None:
            return Bounds(step=self.num_heads // math.gcd(self.num_heads, self.expand))
        return Bounds()

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        return []

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        # vLLM MambaMixer2 splits the heads and, when t does not divide the groups, pads them to t
        # groups so each rank holds whole ones: that needs G to divide t.
        if self.num_heads % tp:
            return say("tensor parallel size {tp} does not divide the {n} SSM heads", tp=tp, n=self.num_heads)
        if self.groups % tp and tp % self.groups:
            return say(
                "tensor parallel size {tp} neither divides nor is a multiple of the {n} groups",
                tp=tp,
                n=self.groups,
            )
        return None

    def problems(self, ctx: Context) -> list[FieldProblem]:
        inner = self.inner or self.expand * ctx.h
        if inner % self.num_heads:
            return [
                (
                    ("num_heads",),
                    say("{n} SSM heads do not divide the inner width {inner}", n=self.num_heads, inner=inner),
                    self.num_heads,
                )
            ]
        return []
