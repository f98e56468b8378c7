"""Mixture of experts: a router over E routed experts, k of them per token, plus shared experts.

Router h·E (+ E with a bias, gpt-oss); E experts of one MLP of width f_e each (transformers 5
fuses them into two 3-D tensors, same numel); DeepSeek's n shared experts are ONE gated MLP of
width n·f_e, Qwen-MoE's shared expert has its own width and a sigmoid gate h → 1. A token uses
k routed experts, so E − k of them are inactive for it. LongCat-Flash's Z zero-computation experts
are identities the router also scores (h·(E + Z)): a token that picks one uses fewer parameters,
so its active count is the most, all k picks real.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Literal

from pydantic import ConfigDict, Field

from paramtally.core.blocks.base import Context, LoRAMatrix, NonNegativeInt, PositiveInt, Spec, leaf
from paramtally.core.blocks.dense import Activation, mlp_expr
from paramtally.core.count.breakdown import Node

__all__ = ["MoE"]


class MoE(Spec):
    """Routed experts (and optional shared experts) in place of the dense FFN."""

    model_config = ConfigDict(title="Mixture of experts")

    kind: Literal["moe"] = "moe"
    GROUP: ClassVar[str] = "moe"
    SHORT: ClassVar[str] = "MoE"
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {
        "num_experts": lambda h: 8,
        "top_k": lambda h: 2,
        "expert_width": lambda h: 4 * h,
    }
    # A dense FFN's width and biases carry over to its experts (with gated and activation, shared).
    RENAMED: ClassVar[dict[str, str]] = {"width": "expert_width", "bias": "expert_bias"}
    num_experts: PositiveInt = Field(title="Experts", description="Routed experts (E).")
    top_k: PositiveInt = Field(title="Experts per token", description="Routed experts per token (k).")
    expert_width: PositiveInt = Field(
        title="Expert width", description="Intermediate width of one expert (f_e)."
    )
    gated: bool = Field(True, title="Gated", description="Each expert has three matrices (SwiGLU).")
    activation: Activation = Field("silu", title="Activation", description="Costs no parameters.")
    shared_experts: NonNegativeInt = Field(
        0, title="Shared experts", description="Always-active experts; together they form one MLP."
    )
    shared_expert_width: PositiveInt | None = Field(
        None, title="Shared width", description="Width of one shared expert; empty means the expert width."
    )
    shared_expert_gate: bool = Field(
        False, title="Shared gate", description="A sigmoid gate h→1 on the shared expert (Qwen-MoE)."
    )
    zero_experts: NonNegativeInt = Field(
        0,
        title="Zero experts",
        description="Zero-computation (identity) experts the router also scores (LongCat-Flash): "
        "the router is h·(E + Z); they hold no parameters.",
    )
    router_bias: bool = Field(False, title="Router bias", description="A bias on the router.")
    expert_bias: bool = Field(False, title="Expert bias", description="Biases on the expert matrices.")
    shared_expert_bias: bool = Field(
        False,
        title="Shared bias",
        description="Biases on the shared expert only (DeepSeek-V2 mlp_bias); expert bias implies them.",
    )

    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = (
        (
            "router",
            r"shared_expert_gate|(mlp|block_sparse_moe|feed_forward)\.gate\.(wg\.)?weight$|\.router\.|ffn_gate_inp"
            r"|moe_statics\.",  # Hunyuan's gate.wg; ERNIE-4.5's correction bias, a parameter
        ),
        ("shared_experts", r"shared_expert|_shexp|shared_mlp"),
        # Granite-3 MoE saves its experts as block_sparse_moe.input_linear / output_linear
        ("moe_experts", r"experts|_exps\.|block_sparse_moe\.(input|output)_linear"),
    )

    @property
    def shared_width(self) -> int:
        return self.shared_experts * (self.shared_expert_width or self.expert_width)

    def terms(self, ctx: Context) -> list[Node]:
        h, E = ctx.h, self.num_experts
        if self.zero_experts:  # LongcatFlashTopkRouter: classifier over E + Z
            router = "h·(E + Z) + E + Z" if self.router_bias else "h·(E + Z)"
            nodes = [leaf("router", "router", router, h=h, E=E, Z=self.zero_experts)]
        else:
            nodes = [leaf("router", "router", "h·E + E" if self.router_bias else "h·E", h=h, E=E)]
        expert = mlp_expr(self.gated, self.expert_bias)
        nodes.append(leaf("routed experts", "moe_experts", f"E·({expert})", h=h, f=self.expert_width, E=E))
        if self.shared_experts:
            shared = mlp_expr(self.gated, self.expert_bias or self.shared_expert_bias)
            nodes.append(leaf("shared experts", "shared_experts", shared, h=h, f=self.shared_width))
            if self.shared_expert_gate:
                nodes.append(leaf("shared expert gate", "router", "h", h=h))
        return nodes

    def expert_params(self, ctx: Context) -> int:
        return leaf("", "", mlp_expr(self.gated, self.expert_bias), h=ctx.h, f=self.expert_width).params

    def inactive(self, ctx: Context) -> int:
        """Parameters of the routed experts one token does not use, in one layer (with zero
        experts, the most a token uses: every one of its k picks a real expert)."""
        return (self.num_experts - self.top_k) * self.expert_params(ctx)

    def routing(self) -> tuple[int, int]:
        return self.num_experts, self.top_k

    def active_width(self) -> int:
        return self.top_k * self.expert_width + self.shared_width

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        h = ctx.h
        matrices: list[LoRAMatrix] = []
        for f, copies in ((self.expert_width, self.num_experts), (self.shared_width, 1)):
            if not f:
                continue
            if self.gated:
                matrices.append(("gate", h, f, copies))
            matrices += [("up", h, f, copies), ("down", f, h, copies)]
        return matrices

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        return None

    def problems(self, ctx: Context) -> list[tuple[tuple[str, ...], str, object]]:
        if self.top_k > self.num_experts:
            message = f"experts per token ({self.top_k}) exceed the experts ({self.num_experts})"
            return [(("top_k",), message, self.top_k)]
        return []
