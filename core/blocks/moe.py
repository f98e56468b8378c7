"""Mixture of experts: a router over E routed experts, k of them per token, plus shared experts.

Router h·E (+ E with a bias, gpt-oss); E experts of one MLP of width f_e each (transformers 5
fuses them into two 3-D tensors, same numel); DeepSeek's n shared experts are ONE gated MLP of
width n·f_e, Qwen-MoE's shared expert has its own width and a sigmoid gate h → 1. A token uses
k routed experts, so E − k of them are inactive for it. LongCat-Flash's Z zero-computation experts
are identities the router also scores (h·(E + Z)): a token that picks one uses fewer parameters,
so its active count is the most, all k picks real.

Activations under the Hugging Face profiles (fused experts, grouped matmuls; measured by
``tools/measure_activations.py``): per routed token the permuted input and the expert output B·h
each and a gated expert (u + 3)·B·f_e; per token the router's fp32 softmax 4E and its top-k
bookkeeping (indices, weights, sort order: 40 bytes per routed token, plus 4). gpt-oss's experts
clamp and gate in Python, 7·B·f_e; its router takes the softmax of the k chosen logits alone in the
activation dtype; expert biases add the int64 expert id gathering them, 8 per routed token.
DeepSeek's routers (V2, V3) take their logits from an fp32 copy of the layer's input, 4h; V3's group
selection keeps nothing (the nodes die in the forward, their outputs being integer indices); V2's
router does not renormalize the chosen weights, keeping 4 bytes per routed token and 4 per token
less.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar, Literal

from pydantic import ConfigDict, Field

from paramtally.core.blocks.activation_profiles import HFProfile, activation_saves
from paramtally.core.blocks.base import (
    Bounds,
    Context,
    FieldProblem,
    GGUFTensor,
    Kind,
    LoRAMatrix,
    NonNegativeInt,
    PositiveInt,
    TreeEdit,
    carried_into,
    frozen_leaf,
    gguf_tensors_of,
    leaf,
)
from paramtally.core.blocks.dense import Activation, mlp_expr
from paramtally.core.terms.term import Term
from paramtally.core.text import say

__all__ = ["MoE"]

# Per routed token: top-k indices (int64) 8, normalized top-k weights (fp32) 4, three int64 index
# tensors that sort tokens by expert 24, the weight column multiplying each expert output 4.
_ROUTED_BOOKKEEPING = 40
_NORMALIZED_WEIGHT, _NORMALIZING_SUM = 4, 4  # the division's input (per routed token) and divisor (per token)
# Per routed token with expert biases: the sorted expert ids that gather each row's biases (int64;
# transformers' grouped_mm_experts_forward).
_BIAS_IDS = 8


class MoE(Kind):
    """Routed experts (and optional shared experts) in place of the dense FFN."""

    model_config = ConfigDict(title="Mixture of experts")

    kind: Literal["moe"] = "moe"
    GROUP: ClassVar[str] = "moe"
    SHORT: ClassVar[str] = "MoE"
    PARTS: ClassVar[tuple[str, ...]] = ("router", "moe_experts", "shared_experts")
    COLOR: ClassVar[str] = "#56B4E9"
    ROUTED: ClassVar[bool] = True
    SCALED_WIDTHS: ClassVar[tuple[str, ...]] = ("expert_width", "shared_expert_width")
    VARIABLES: ClassVar[dict[str, str]] = {
        "expert_width": "expert_width",
        "num_experts": "num_experts",
        "top_k": "top_k",
    }
    # The layer tree converts a group's FFN to experts like it (its width, gating, activation and
    # biases), and back: to the FFN the group inherits, else a dense FFN as wide as an expert.
    TREE_EDIT: ClassVar[TreeEdit | None] = TreeEdit(
        name="moe",
        field="ffn",
        title="MoE",
        key="M",
        add_text="Convert FFN to MoE…",
        remove_text="Convert MoE to dense FFN",
        initial=lambda ffn, h: carried_into(MoE, ffn, h),
        kind="moe",
        fallback="dense",
        undo_remove=say("Convert to dense FFN"),
    )
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
    correction_bias: bool = Field(
        False,
        title="Frozen correction bias",
        description="E numbers added to the router's scores to pick experts, kept as a parameter that "
        "never trains (ERNIE-4.5's e_score_correction_bias, requires_grad false): in the total and the "
        "weights, without gradients or optimizer states.",
    )
    output_bias: bool = Field(
        False, title="Output bias", description="One bias of h on the experts' summed output (JetMoE)."
    )
    expert_bias: bool = Field(False, title="Expert bias", description="Biases on the expert matrices.")
    shared_expert_bias: bool = Field(
        False,
        title="Shared bias",
        description="Biases on the shared expert only (DeepSeek-V2 mlp_bias); expert bias implies them.",
    )

    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = (
        (
            "router",
            r"shared_expert_gate|(mlp|block_sparse_moe|feed_forward|mixer)\.gate\.(wg\.)?weight$|\.router\.|ffn_gate_inp"
            r"|moe_statics\.",  # Hunyuan's gate.wg; ERNIE-4.5's correction bias, a parameter
        ),
        ("shared_experts", r"shared_expert|_shexp|shared_mlp"),
        # Granite-3 MoE saves its experts as block_sparse_moe.input_linear / output_linear, JetMoE
        # as mlp.input_linear / output_linear beside the MLP's output bias (JetMoeMoE.bias)
        ("moe_experts", r"experts|_exps\.|(block_sparse_moe|\bmlp)\.(input|output)_linear|\bmlp\.bias$"),
    )

    @property
    def shared_width(self) -> int:
        return self.shared_experts * (self.shared_expert_width or self.expert_width)

    def terms(self, ctx: Context) -> list[Term]:
        h, E = ctx.h, self.num_experts
        if self.zero_experts:  # LongcatFlashTopkRouter: classifier over E + Z
            router = "h·(E + Z) + E + Z" if self.router_bias else "h·(E + Z)"
            nodes = [leaf("router", "router", router, h=h, E=E, Z=self.zero_experts)]
        else:
            nodes = [leaf("router", "router", "h·E + E" if self.router_bias else "h·E", h=h, E=E)]
        if self.correction_bias:  # Ernie4_5_MoeStatics: nn.Parameter(zeros(1, E), requires_grad=False)
            nodes.append(frozen_leaf("router correction bias", "router", "E", E=E))
        expert = mlp_expr(self.gated, self.expert_bias)
        nodes.append(leaf("routed experts", "moe_experts", f"E·({expert})", h=h, f=self.expert_width, E=E))
        if self.shared_experts:
            shared = mlp_expr(self.gated, self.expert_bias or self.shared_expert_bias)
            nodes.append(leaf("shared experts", "shared_experts", shared, h=h, f=self.shared_width))
            if self.shared_expert_gate:
                nodes.append(leaf("shared expert gate", "router", "h", h=h))
        if self.output_bias:  # JetMoeMoE.bias, added to the experts' summed output
            nodes.append(leaf("output bias", "moe_experts", "h", h=h))
        return nodes

    def expert_params(self, ctx: Context) -> int:
        return leaf("", "", mlp_expr(self.gated, self.expert_bias), h=ctx.h, f=self.expert_width).value

    def inactive(self, ctx: Context) -> int:
        """Parameters of the routed experts one token does not use, in one layer (with zero
        experts, the most a token uses: every one of its k picks a real expert)."""
        return (self.num_experts - self.top_k) * self.expert_params(ctx)

    def routing(self) -> tuple[int, int]:
        return self.num_experts, self.top_k

    def active_width(self) -> int:
        return self.top_k * self.expert_width + self.shared_width

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> tuple[int, int]:
        """(the router's bytes, kept whole by TP; the routed tokens' copies, the experts' and the
        shared expert's, split by it)."""
        b, h, k = hf.b, ctx.h, self.top_k
        kept = activation_saves(self.activation) + (3 if self.gated else 1)
        glu = hf.expert_glu_saves if hf.expert_glu_saves is not None else kept
        per_expert = b * self.expert_width * (glu if self.gated else kept)
        shared = b * self.shared_width * kept
        return self._router_bytes(h, hf), round(k * (2 * b * h + per_expert) + shared)

    def _router_bytes(self, h: int, hf: HFProfile) -> int:
        k, b = self.top_k, hf.b
        bias_ids = _BIAS_IDS if self.expert_bias else 0
        if hf.top_k_softmax_router:  # indices 8 and sort order 24; weights and their column B each
            return k * (32 + bias_ids + 2 * b)
        fp32_input = 4 * h if hf.fp32_router_input else 0
        if hf.unnormalized_top_k:
            unnormalized = _ROUTED_BOOKKEEPING - _NORMALIZED_WEIGHT + bias_ids
            return fp32_input + 4 * self.num_experts + unnormalized * k
        return fp32_input + 4 * self.num_experts + (_ROUTED_BOOKKEEPING + bias_ids) * k + _NORMALIZING_SUM

    def gguf_tensors(self, ctx: Context) -> list[GGUFTensor]:
        """The routed experts' matrices (E copies, of the expert width) are the routed tensors."""
        E, f = self.num_experts, self.expert_width
        return gguf_tensors_of(self.lora_matrices(ctx), routed=lambda m: m[3] == E and f in (m[1], m[2]))

    def matrix_widths(self) -> list[tuple[str, str, int]]:
        return [("expert_width", say("The expert width"), self.expert_width)]

    def bounds(self, name: str, values: Mapping[str, int]) -> Bounds:
        """At least as many experts as a token uses, and at most as many per token as there are."""
        if name == "num_experts":
            return Bounds(least=values.get("top_k") or self.top_k)
        if name == "top_k":
            return Bounds(most=values.get("num_experts") or self.num_experts)
        return Bounds()

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

    def problems(self, ctx: Context) -> list[FieldProblem]:
        if self.top_k > self.num_experts:
            message = say(
                "experts per token ({k}) exceed the experts ({n})", k=self.top_k, n=self.num_experts
            )
            return [(("top_k",), message, self.top_k)]
        return []
