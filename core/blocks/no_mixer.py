"""No token mixer: a layer whose positions exchange nothing among themselves.

Mllama's cross-attention decoder layers (``MllamaCrossAttentionDecoderLayer`` in transformers'
``modeling_mllama.py``) have no self-attention: the layer attends to the image through its
cross-attention, then runs its MLP. Nemotron-H's "-" layers are an MLP alone. Such a layer costs
nothing here and keeps nothing while generating; its other parts count as they always do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Literal

from pydantic import ConfigDict

from paramtally.core.blocks.base import Cache, Context, LoRAMatrix, Replicated, Spec
from paramtally.core.count.breakdown import Node

__all__ = ["NoMixer"]


class NoMixer(Spec):
    """No self-attention or recurrence in this block (Mllama's cross-attention layers)."""

    model_config = ConfigDict(title="No mixer")

    kind: Literal["no_mixer"] = "no_mixer"

    SHORT: ClassVar[str] = "no mixer"  # in labels such as "layers 3, 8, … (no mixer, dense)"
    PART: ClassVar[str] = "attention"
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {}
    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]] = ()
    EXAMPLES: ClassVar[tuple[dict[str, object], ...]] = ({},)

    def terms(self, ctx: Context, part: str = "attention") -> list[Node]:
        return []

    def cache(self, ctx: Context, tp: int) -> Cache:
        return Cache(source="a layer without a mixer keeps nothing per token")

    def tp_replicated(self, ctx: Context) -> Replicated | None:
        return None

    def projection_widths(self, ctx: Context) -> int:
        return 0

    def prefill_width(self, ctx: Context) -> int:
        return 0

    def context_width(self, ctx: Context, decoding: bool = False) -> int:
        return 0

    def scan_flops(self, ctx: Context) -> int:
        return 0

    def score_heads(self) -> int:
        return 0

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        return []

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        return None

    def problems(self, ctx: Context) -> list[tuple[tuple[str, ...], str, object]]:
        return []
