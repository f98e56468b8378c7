"""The dense feed-forward network and the absence of one.

A plain MLP (GELU/ReLU) has two matrices, 2·h·f (+ f + h biases); a gated one (SwiGLU, GeGLU)
three, 3·h·f (+ 2·f + h). The activation costs no parameters, but xIELU (Apertus) learns two
scalars per MLP. BitNet normalizes the f-wide activation before the down projection (one norm
over f).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Literal, get_args

from pydantic import ConfigDict, Field

from paramtally.core.blocks.base import Context, LoRAMatrix, PositiveInt, Spec, leaf, norm_leaf
from paramtally.core.count.breakdown import Node

__all__ = ["ACTIVATIONS", "Activation", "DenseFFN", "NoFFN", "mlp_expr"]

# Every name transformers' ACT2FN knows (transformers/activations.py), which is what the
# importers copy from a config.json, plus the gated names papers use for a gated FFN.
Activation = Literal[
    "gelu", "gelu_10", "gelu_accurate", "gelu_fast", "gelu_new", "gelu_python", "gelu_python_tanh",
    "gelu_pytorch_tanh", "hardswish", "laplace", "leaky_relu", "linear", "mish", "prelu", "quick_gelu",
    "relu", "relu2", "relu6", "sigmoid", "silu", "sqrtsoftplus", "swish", "tanh", "xielu", "swiglu", "geglu",
]  # fmt: skip
ACTIVATIONS: tuple[str, ...] = get_args(Activation)


def mlp_expr(gated: bool, bias: bool) -> str:
    """Parameters of one MLP of width f on h, in the symbols h and f."""
    matrices = "3·h·f" if gated else "2·h·f"
    return matrices + ((" + 2·f + h" if gated else " + f + h") if bias else "")


class DenseFFN(Spec):
    """One MLP on every token."""

    model_config = ConfigDict(title="Dense FFN")

    kind: Literal["dense"] = "dense"
    GROUP: ClassVar[str] = "ffn"
    SHORT: ClassVar[str] = "dense"
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {"width": lambda h: 4 * h}
    # An MoE's expert width and biases carry over (with gated and activation, shared).
    RENAMED: ClassVar[dict[str, str]] = {"expert_width": "width", "expert_bias": "bias"}
    width: PositiveInt = Field(title="FFN width", description="Intermediate width (f).")
    gated: bool = Field(True, title="Gated", description="Three matrices (SwiGLU/GeGLU) instead of two.")
    bias: bool = Field(False, title="Bias", description="Biases on the FFN matrices.")
    activation: Activation = Field(
        "silu", title="Activation", description="Costs no parameters (xIELU: two learned scalars)."
    )
    inner_norm: bool = Field(
        False,
        title="Inner norm",
        description="A norm over f before the down projection (BitNet's ffn_sub_norm).",
    )

    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = ()

    def terms(self, ctx: Context) -> list[Node]:
        nodes = [leaf("matrices", "ffn", "3·h·f" if self.gated else "2·h·f", h=ctx.h, f=self.width)]
        if self.bias:
            nodes.append(leaf("biases", "ffn", "2·f + h" if self.gated else "f + h", h=ctx.h, f=self.width))
        if self.inner_norm:  # BitNetMLP.ffn_sub_norm, in the block's norm kind
            nodes.append(norm_leaf(ctx, "inner norm", self.width, symbol="f"))
        if self.activation == "xielu":
            # XIELUActivation (transformers/activations.py): alpha_p and alpha_n are parameters of
            # one element each; its beta and eps are buffers.
            nodes.append(leaf("xIELU α_p, α_n", "ffn", "2"))
        return nodes

    def inactive(self, ctx: Context) -> int:
        return 0

    def routing(self) -> tuple[int, int]:
        """(copies of the FFN, copies a token uses): (E, k) for experts, (1, 1) otherwise."""
        return 1, 1

    def active_width(self) -> int:
        """FFN width a token goes through (activations)."""
        return self.width

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        h, f = ctx.h, self.width
        gate: list[LoRAMatrix] = [("gate", h, f, 1)] if self.gated else []
        return [*gate, ("up", h, f, 1), ("down", f, h, 1)]

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        return None

    def problems(self, ctx: Context) -> list[tuple[tuple[str, ...], str, object]]:
        return []


class NoFFN(Spec):
    """No FFN in this block (pure Mamba layers, for instance)."""

    model_config = ConfigDict(title="No FFN")

    kind: Literal["none"] = "none"
    GROUP: ClassVar[str] = "ffn"
    SHORT: ClassVar[str] = "no FFN"
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {}
    gated: ClassVar[bool] = False

    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = ()

    def terms(self, ctx: Context) -> list[Node]:
        return []

    def inactive(self, ctx: Context) -> int:
        return 0

    def routing(self) -> tuple[int, int]:
        """(copies of the FFN, copies a token uses): (E, k) for experts, (1, 1) otherwise."""
        return 1, 1

    def active_width(self) -> int:
        return 0

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        return []

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        return None

    def problems(self, ctx: Context) -> list[tuple[tuple[str, ...], str, object]]:
        return []
