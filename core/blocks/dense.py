"""The dense feed-forward network and the absence of one.

A plain MLP (GELU/ReLU) has two matrices, 2·h·f (+ f + h biases); a gated one (SwiGLU, GeGLU)
three, 3·h·f (+ 2·f + h). The activation costs no parameters, but xIELU (Apertus) learns two
scalars per MLP. BitNet normalizes the f-wide activation before the down projection (one norm
over f).

Activations under the Hugging Face profiles (measured by ``tools/measure_activations.py``): the
activation's own saved tensors (u of them: silu 1, tanh-GELU written out in Python 4, ReLU 0, per
``ACT2FN`` name: ``ACTIVATION_SAVES``) plus its output; gated FFNs also keep the up projection and the
product: (u + 3)·B·f gated, (u + 1)·B·f plain. T5 drops out inside the FFN as well, before wo: its
mask f (a GPU's bool) and, where the activation keeps its own output (ReLU's), that output B·f
beside the dropped copy wo keeps. BitNet's inner norm keeps what an RMSNorm over f keeps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Literal, get_args

from pydantic import ConfigDict, Field

from paramtally.core.blocks.activation_profiles import KEEPS_OUTPUT, HFProfile, activation_saves
from paramtally.core.blocks.base import (
    Context,
    FieldProblem,
    GGUFTensor,
    Kind,
    LoRAMatrix,
    PositiveInt,
    gguf_tensors_of,
    leaf,
    norm_leaf,
)
from paramtally.core.terms.term import Term, group
from paramtally.core.text import say

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


class DenseFFN(Kind):
    """One MLP on every token."""

    model_config = ConfigDict(title="Dense FFN")

    kind: Literal["dense"] = "dense"
    GROUP: ClassVar[str] = "ffn"
    SHORT: ClassVar[str] = "dense"
    PARTS: ClassVar[tuple[str, ...]] = ("ffn",)
    COLOR: ClassVar[str] = "#009E73"
    ROUTED: ClassVar[bool] = False
    SCALED_WIDTHS: ClassVar[tuple[str, ...]] = ("width",)
    TREE_VALUES: ClassVar[tuple[str, ...]] = ("width",)
    VARIABLES: ClassVar[dict[str, str]] = {"ffn_width": "width"}
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

    # Nemotron-H keeps an MLP layer's matrices under ``mixer.`` (NemotronHBlock.mixer).
    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = (("ffn", r"\.mixer\.(up_proj|down_proj)\."),)

    def terms(self, ctx: Context) -> list[Term]:
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

    def active_width(self) -> int:
        """FFN width a token goes through (activations)."""
        return self.width

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> tuple[int, int]:
        """Nothing kept whole; split by TP: the activation's saved tensors and output, and a gated
        FFN's up projection and product, (u + 3)·B·f gated, (u + 1)·B·f plain; T5's inner dropout;
        BitNet's inner norm as the block's norms keep theirs, over f."""
        kept = hf.b * self.width * (activation_saves(self.activation) + (3 if self.gated else 1))
        if self.inner_norm:  # BitNetMLP.ffn_sub_norm (measured: 8,260 bytes a token at f 1,376, bf16)
            kept += hf.rms_norm(self.width) if ctx.norm == "rmsnorm" else hf.layer_norm(self.width)
        if hf.inner_dropout:
            # Its bool mask, and the activation's output where its backward reads it (the dropped
            # copy takes the place of the one wo kept).
            kept_output = hf.b if not self.gated and self.activation in KEEPS_OUTPUT else 0
            kept += self.width * (1 + kept_output)
        return 0, round(kept)

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        h, f = ctx.h, self.width
        gate: list[LoRAMatrix] = [("gate", h, f, 1)] if self.gated else []
        return [*gate, ("up", h, f, 1), ("down", f, h, 1)]

    def gguf_tensors(self, ctx: Context) -> list[GGUFTensor]:
        return gguf_tensors_of(self.lora_matrices(ctx))

    def matrix_widths(self) -> list[tuple[str, str, int]]:
        return [("width", say("The FFN width"), self.width)]

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        return None

    def problems(self, ctx: Context) -> list[FieldProblem]:
        return []

    # As a vision-language projector's step (``core.schema.vision``): an MLP at the features' width.
    def apply(self, width: int, h: int) -> tuple[list[Term], int]:
        """Its terms as a projector step reading features ``width`` wide, and the width it ends at."""
        return [group("MLP", self.terms(Context(width)))], width

    def kept_widths(self, width: int) -> int:
        """Features per token it keeps for backward as a projector step: its input and intermediate."""
        return width + (2 if self.gated else 1) * self.width


class NoFFN(Kind):
    """No FFN in this block (pure Mamba layers, for instance)."""

    model_config = ConfigDict(title="No FFN")

    kind: Literal["none"] = "none"
    GROUP: ClassVar[str] = "ffn"
    SHORT: ClassVar[str] = "no FFN"
    PARTS: ClassVar[tuple[str, ...]] = ()
    COLOR: ClassVar[str] = "#BBBBBB"
    ROUTED: ClassVar[bool] = False
    SCALED_WIDTHS: ClassVar[tuple[str, ...]] = ()
    PATTERN_NAMES: ClassVar[tuple[str, ...]] = ("no_ffn",)
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {}
    gated: ClassVar[bool] = False

    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = ()

    def terms(self, ctx: Context) -> list[Term]:
        return []

    def inactive(self, ctx: Context) -> int:
        return 0

    def active_width(self) -> int:
        return 0

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> tuple[int, int]:
        return 0, 0

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        return []

    def gguf_tensors(self, ctx: Context) -> list[GGUFTensor]:
        return []

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        return None

    def problems(self, ctx: Context) -> list[FieldProblem]:
        return []
