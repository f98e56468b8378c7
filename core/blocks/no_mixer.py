"""No token mixer: a layer whose positions exchange nothing among themselves.

Mllama's cross-attention decoder layers (``MllamaCrossAttentionDecoderLayer`` in transformers'
``modeling_mllama.py``) have no self-attention: the layer attends to the image through its
cross-attention, then runs its MLP. Nemotron-H's "-" layers are an MLP alone. Such a layer costs
nothing here and keeps nothing while generating; its other parts count as they always do.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import ConfigDict

from paramtally.core.blocks.activation_profiles import HFProfile, KernelPath
from paramtally.core.blocks.base import (
    Cache,
    Context,
    FieldProblem,
    GGUFTensor,
    LoRAMatrix,
    Replicated,
    ScorelessMixer,
)
from paramtally.core.terms.term import Term

__all__ = ["NoMixer"]


class NoMixer(ScorelessMixer):
    """No self-attention or recurrence in this block (Mllama's cross-attention layers)."""

    model_config = ConfigDict(title="No mixer")

    kind: Literal["no_mixer"] = "no_mixer"

    SHORT: ClassVar[str] = "no mixer"  # in labels such as "layers 3, 8, … (no mixer, dense)"
    COLOR: ClassVar[str] = "#DDDDDD"
    PART: ClassVar[str] = "attention"
    PLAIN: ClassVar[bool] = False
    KERNELS: ClassVar[KernelPath | None] = None  # nothing kept, on any path
    PATTERN_NAMES: ClassVar[tuple[str, ...]] = ()  # its tag and title ("no mixer") name it
    WINDOW_FIELD: ClassVar[str | None] = None
    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = ()
    EXAMPLES: ClassVar[tuple[dict[str, object], ...]] = ({},)

    def terms(self, ctx: Context, part: str = "attention") -> list[Term]:
        return []

    def cache(self, ctx: Context, tp: int) -> Cache:
        return Cache(source="a layer without a mixer keeps nothing per token")

    def tp_replicated(self, ctx: Context) -> Replicated | None:
        return None

    def projection_widths(self, ctx: Context) -> int:
        return 0

    def prefill_width(self, ctx: Context) -> int:
        return 0

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> int:
        """Nothing of its own: no projection, no scores."""
        return 0

    def context_width(self, ctx: Context, decoding: bool = False) -> int:
        return 0

    def scan_flops(self, ctx: Context) -> int:
        return 0

    def gguf_tensors(self, ctx: Context) -> list[GGUFTensor]:
        return []

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        return []

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        return None

    def problems(self, ctx: Context) -> list[FieldProblem]:
        return []
