"""What can be inserted into a block on top of its weights: LoRA updates and bottleneck adapters.

LoRA on a d_in → d_out matrix adds r·(d_in + d_out) (Hu et al. 2021; PEFT's ``lora_A``/``lora_B``).
A bottleneck adapter adds a down and an up projection, 2·h·b (+ b + h biases), after the mixer,
after the FFN, or both (Houlsby et al. 2019).
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import AfterValidator, ConfigDict, Field

from paramtally.core.blocks.base import Context, LoRAMatrix, PositiveInt, Spec, TreeEdit, leaf
from paramtally.core.terms.term import Term
from paramtally.core.text import say

__all__ = ["Adapter", "LoRA", "LoRATarget", "LoRATargets"]

LoRATarget = Literal["q", "k", "v", "o", "gate", "up", "down"]


def _distinct(targets: tuple[str, ...]) -> tuple[str, ...]:
    """Refuse a target named twice: a matrix gets one update (a file's 900,000 'q's named the
    term with 1.8 MB of text)."""
    seen: set[str] = set()
    for target in targets:
        if target in seen:
            raise ValueError(
                say("'{target}' is named twice; a matrix gets one low-rank update", target=target)
            )
        seen.add(target)
    return targets


# Matrices that get a low-rank update, each once.
LoRATargets = Annotated[tuple[LoRATarget, ...], AfterValidator(_distinct)]


class LoRA(Spec):
    """Low-rank updates on chosen matrices of the block."""

    model_config = ConfigDict(title="LoRA")

    FIELD: ClassVar[str] = "lora"
    TREE_EDIT: ClassVar[TreeEdit] = TreeEdit(
        "lora", "lora", "LoRA", "L", "Add LoRA…", "Remove LoRA", lambda part, h: {"rank": 16}
    )

    rank: PositiveInt = Field(title="Rank", description="LoRA rank (r): adds r·(d_in + d_out) per matrix.")
    targets: LoRATargets = Field(
        ("q", "v"),
        strict=False,
        min_length=1,
        title="Targets",
        description="Matrices that get a low-rank update.",
    )

    def touched(self, matrices: list[LoRAMatrix]) -> list[LoRAMatrix]:
        return [matrix for matrix in matrices if matrix[0] in self.targets]

    def term(self, ctx: Context, matrices: list[LoRAMatrix]) -> Term:
        touched = self.touched(matrices)
        total = sum(copies * self.rank * (d_in + d_out) for _, d_in, d_out, copies in touched)
        sums = " + ".join(
            f"{copies}·({d_in} + {d_out})" if copies > 1 else f"({d_in} + {d_out})"
            for _, d_in, d_out, copies in touched
        )
        formula = f"r·Σ(d_in + d_out) = {self.rank}·({sums or 0}) = {total:,}"
        return Term(f"LoRA r={self.rank} on {','.join(self.targets)}", total, "lora", formula, added=True)

    def on_copies(self, matrices: list[LoRAMatrix], copies: int) -> int:
        """LoRA parameters on the matrices that come ``copies`` times (one routed expert's share)."""
        return sum(self.rank * (d_in + d_out) for _, d_in, d_out, n in self.touched(matrices) if n == copies)

    def idle(self, matrices: list[LoRAMatrix], routing: tuple[int, int]) -> int:
        """The updates of the routed experts a token is not sent to."""
        experts, per_token = routing
        return (experts - per_token) * self.on_copies(matrices, experts) if experts > per_token else 0


class Adapter(Spec):
    """A bottleneck adapter (down, nonlinearity, up) with a residual."""

    model_config = ConfigDict(title="Adapter")

    FIELD: ClassVar[str] = "adapter"
    TREE_EDIT: ClassVar[TreeEdit] = TreeEdit(
        "adapter", "adapter", "adapter", "D", "Add adapter…", "Remove adapter",
        lambda part, h: {"width": max(8, h // 16)},
    )  # fmt: skip

    width: PositiveInt = Field(title="Bottleneck", description="Bottleneck width (b).")
    placement: Literal["attention", "ffn", "both"] = Field(
        "both", title="Placement", description="After the mixer, after the FFN, or both (Houlsby)."
    )
    bias: bool = Field(True, title="Bias", description="Biases on the down and up projections.")

    def term(self, ctx: Context, matrices: list[LoRAMatrix]) -> Term:
        expr = "2·h·b + b + h" if self.bias else "2·h·b"
        if self.placement == "both":
            expr = f"2·({expr})"
        name = f"adapter b={self.width} ({self.placement})"
        return leaf(name, "adapters", expr, h=ctx.h, b=self.width)._replace(added=True)

    def idle(self, matrices: list[LoRAMatrix], routing: tuple[int, int]) -> int:
        return 0  # on every token's path
