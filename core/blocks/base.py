"""What every block kind shares: the frozen schema base, the context a kind is counted in, and terms.

A kind (a token mixer such as attention or Mamba, or an FFN such as a dense MLP or an MoE) is a
pydantic model with a ``kind`` discriminator and the methods of the block protocol (see
``core.blocks``). It computes its own figures from the context it is given, so a new kind is one
module: nothing else needs to know its fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from paramtally.core.count.breakdown import Node
from paramtally.core.count.formula import evaluate

__all__ = [
    "LENGTH",
    "MAX_SIZE",
    "Cache",
    "Context",
    "LoRAMatrix",
    "NonNegativeInt",
    "NormKind",
    "PositiveInt",
    "Replicated",
    "Spec",
    "leaf",
    "norm_leaf",
]

# Sizes are bounded so every total stays an exact integer that a float can still show:
# a width of 2^24 squared times layers and experts stays far below 1.8e308.
MAX_SIZE = 1 << 24
PositiveInt = Annotated[int, Field(gt=0, le=MAX_SIZE)]
NonNegativeInt = Annotated[int, Field(ge=0, le=MAX_SIZE)]
NormKind = Literal["layernorm", "rmsnorm"]
# A length in tokens (a context, a window, the positions): typed "32k", it is 32,768 tokens, as such
# lengths are named (core.typed_numbers); a field says so in its ``json_schema_extra``.
LENGTH: dict[str, Any] = {"unit": "length"}

# (LoRA target, d_in, d_out, copies): one matrix a LoRA target touches, ``copies`` times.
LoRAMatrix = tuple[str, int, int, int]


class Replicated(NamedTuple):
    """Parameters of one layer that tensor parallelism keeps whole past t = g: a rank holds
    max(g/t, 1) of their g heads or groups, so past g each rank has numbers·(1/g − 1/t) more than an
    even split. ``what`` names them in term labels ("K/V"), ``source`` says which engine does so."""

    what: str
    numbers: int
    g: int
    source: str


class Spec(BaseModel):
    """Every schema model: frozen (hashable, so results can be cached by value), no unknown keys,
    strict: a file's ``true`` or ``"4096"`` is not taken for a size (pydantic's lax mode would read
    them as 1 and 4096). Tuples opt back in to lists (``strict=False`` on the field), as JSON has none."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)


@dataclass(frozen=True, slots=True)
class Context:
    """What a kind needs from around it: the width it reads and writes and the block's norms."""

    h: int  # hidden size
    norm: NormKind = "rmsnorm"
    norm_bias: bool = True  # LayerNorm's β

    @property
    def norm_per_width(self) -> int:
        return 2 if self.norm == "layernorm" and self.norm_bias else 1

    @property
    def norm_label(self) -> str:
        return "LayerNorm" if self.norm == "layernorm" else "RMSNorm"


# A named tuple: immutable, quick to make (each block makes one per TP size the fit table tries) and
# hashed in C (the KV terms are cached by the caches a stage holds, and every stage of every layout
# the fit table tries looks them up).
class Cache(NamedTuple):
    """What L layers of this kind keep per sequence while generating, on one TP rank.

    ``per_token`` numbers for each cached token (K and V) per layer, at most ``window`` tokens
    when set; ``per_sequence`` numbers per layer of fixed size (a recurrent state), whatever the
    context. ``token_expr``/``state_expr`` say the same for L layers in the ``symbols`` (and L),
    e.g. ``2·L·max(g/t, 1)·d_h``; ``source`` names where the rule comes from.
    """

    per_token: int = 0
    window: int | None = None
    per_sequence: int = 0
    token_expr: str = ""
    state_expr: str = ""
    symbols: tuple[tuple[str, int], ...] = ()
    source: str = ""


def leaf(name: str, part: str, expr: str, **values: int) -> Node:
    """A term whose number and formula come from one expression."""
    return Node(name, evaluate(expr, values), part, "", 1, False, (), expr, tuple(values.items()))


def norm_leaf(
    ctx: Context, name: str, width: int, part: str = "norms", times: int = 1, symbol: str = "h"
) -> Node:
    """``times`` norms over ``width`` numbers in the context's kind (LayerNorm: γ and β)."""
    coefficient = ctx.norm_per_width * times
    expr = symbol if coefficient == 1 else f"{coefficient}·{symbol}"
    return leaf(f"{name} ({ctx.norm_label})", part, expr, **{symbol: width})
