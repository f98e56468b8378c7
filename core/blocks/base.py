"""What every block kind shares: the frozen schema base, the context a kind is counted in, and terms.

A kind (a token mixer such as attention or Mamba, or an FFN such as a dense MLP or an MoE) is a
pydantic model with a ``kind`` discriminator and the methods of the block protocol (see
``core.blocks``). It computes its own figures from the context it is given, so a new kind is one
module: nothing else needs to know its fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from paramtally.core.terms.term import Term

__all__ = [
    "GGUF_CATEGORY",
    "LENGTH",
    "MAX_SIZE",
    "Bounds",
    "Cache",
    "Context",
    "FieldProblem",
    "GGUFTensor",
    "Kind",
    "LoRAMatrix",
    "NonNegativeInt",
    "NormKind",
    "PositiveInt",
    "Replicated",
    "ScorelessMixer",
    "Spec",
    "TreeEdit",
    "carried_into",
    "frozen_leaf",
    "gguf_tensors_of",
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
# (field path within the part, message, value): a rule of the part that needs its context.
FieldProblem = tuple[tuple[str, ...], str, object]


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
    norm_affine: bool = True  # False: the norms only normalize (no γ, no β)

    @property
    def norm_per_width(self) -> int:
        """Parameters a norm holds per number it normalizes (0: a norm without parameters)."""
        if not self.norm_affine:
            return 0
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


def leaf(name: str, part: str, expr: str, **values: int) -> Term:
    """A term whose number and formula come from one expression."""
    return Term.of(name, part, expr, "", **values)


def frozen_leaf(name: str, part: str, expr: str, **values: int) -> Term:
    """A term of parameters transformers builds with requires_grad false (a sine position table,
    ERNIE-4.5's router correction bias): in the total and the weights, but without gradients or
    optimizer states (``Term.frozen``); its name says so to a reader."""
    return leaf(f"{name} (frozen)", part, expr, **values)._replace(frozen=True)


def norm_leaf(
    ctx: Context, name: str, width: int, part: str = "norms", times: int = 1, symbol: str = "h"
) -> Term:
    """``times`` norms over ``width`` numbers in the context's kind (LayerNorm: γ and β)."""
    coefficient = ctx.norm_per_width * times
    expr = symbol if coefficient == 1 else f"{coefficient}·{symbol}"
    return leaf(f"{name} ({ctx.norm_label})", part, expr, **{symbol: width})


# --- what the calculators and the window ask of a kind besides its terms ----------------------

# llama.cpp's tensor classes of the matrices a LoRA target names (``llama_tensor_get_type`` picks a
# type per class: attn_v and ffn_down get more bits in some layers).
GGUF_CATEGORY: Mapping[str, str] = {
    "q": "attn_q",
    "k": "attn_k",
    "v": "attn_v",
    "o": "attn_output",
    "gate": "ffn_gate",
    "up": "ffn_up",
    "down": "ffn_down",
}


class GGUFTensor(NamedTuple):
    """One layer's quantizable matrix as llama.cpp types it (``core.memory.gguf_types``)."""

    category: str  # llama.cpp's tensor class (``GGUF_CATEGORY``)
    ncols: int  # ne[0]: the input width, which the type's block must divide
    numel: int
    routed: bool  # a routed-expert tensor (expert parallelism splits these)
    kv: bool  # a K or V projection of softmax attention (replicated past g TP ranks)


def gguf_tensors_of(
    matrices: list[LoRAMatrix],
    kv: tuple[str, ...] = (),
    routed: Callable[[LoRAMatrix], bool] | None = None,
) -> list[GGUFTensor]:
    """The GGUF tensors of a part's matrices: the LoRA targets in ``kv`` are K/V projections,
    ``routed`` says which matrices are routed experts'."""
    return [
        GGUFTensor(
            GGUF_CATEGORY[m[0]], m[1], m[1] * m[2] * m[3], routed is not None and routed(m), m[0] in kv
        )
        for m in matrices
    ]


class Bounds(NamedTuple):
    """What one part asks of a design variable's value (``core.explore.variables``): a multiple of
    ``step``, a divisor of ``divides`` (0: no such rule), at least ``least``, at most ``most`` (0: no
    bound)."""

    step: int = 1
    divides: int = 0
    least: int = 1
    most: int = 0


class TreeEdit(NamedTuple):
    """A part the layer tree puts on a group, edits and takes away, one action each: Ctrl+``key``
    adds or edits it (in a dialog of its fields), Ctrl+Shift+``key`` removes it."""

    name: str  # the action's name ("moe")
    field: str  # the block field it sets ("ffn")
    title: str  # as a dialog and an undo step name it ("MoE")
    key: str
    add_text: str  # the add action's text when the group has none ("Convert FFN to MoE…")
    remove_text: str  # the remove action's text ("Convert MoE to dense FFN")
    # (the group's part in ``field`` as a mapping, hidden size) → what the dialog starts from
    initial: Callable[[Mapping[str, Any], int], dict[str, Any]]
    # The kind the part must be to count as present (an FFN converted to a MoE); None: any value.
    kind: str | None = None
    # The kind a removal leaves where the group has nothing else to inherit ("dense").
    fallback: str | None = None
    undo_remove: str = ""  # a removal's undo text ("Convert to dense FFN"); "": "Remove <title>"


class Kind(Spec):
    """A mixer or FFN kind (``core.blocks.protocols``), with the declarations most kinds leave empty."""

    # What a new part of this kind starts with when a person switches to it (the rest: defaults).
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]] = {}
    # Fields of other kinds that carry over under another name (a dense width → an expert width).
    RENAMED: ClassVar[dict[str, str]] = {}
    # Names the pattern language knows the kind by besides its tag and title ("gdn").
    PATTERN_NAMES: ClassVar[tuple[str, ...]] = ()
    # Fields the layer tree's value actions set, meaning what they mean in other kinds that list them
    # (an attention's and an MLA's query heads; not a Mamba-2 mixer's SSM heads).
    TREE_VALUES: ClassVar[tuple[str, ...]] = ()
    # The design variables (``core.explore.variables``) the kind holds, each with the field it sets.
    VARIABLES: ClassVar[dict[str, str]] = {}
    TREE_EDIT: ClassVar[TreeEdit | None] = None

    def variable(self, name: str) -> int:
        """The value of the design variable ``name`` (one of ``VARIABLES``) in this part."""
        return int(getattr(self, self.VARIABLES[name]))

    def bounds(self, name: str, values: Mapping[str, int]) -> Bounds:
        """What this part asks of the design variable ``name``, given ``values`` (the hidden size and
        the values other variables are about to take)."""
        return Bounds()

    def inactive(self, ctx: Context) -> int:
        """Parameters of one layer one token does not use: none but in a kind that routes."""
        return 0

    def routing(self) -> tuple[int, int]:
        """(copies of the part, copies a token uses): (E, k) for experts, (1, 1) otherwise."""
        return 1, 1

    def table_params(self, ctx: Context) -> int:
        """Parameters of one layer that multiply a table once per forward pass, not its tokens:
        none but DeBERTa's own position projections."""
        return 0

    def per_forward_flops(self, ctx: Context) -> Term | None:
        """FLOPs one layer runs once per forward pass whatever its tokens and sequences, with its
        formula: none but DeBERTa's relative table through its projections."""
        return None

    def matrix_widths(self) -> list[tuple[str, str, int]]:
        """(field, what it is, width) of the matrix widths a person sets, which GPU tiles want as
        multiples of 64 (``core.schema.advice``)."""
        return []


def carried_into(cls: type[Kind], part: Mapping[str, Any], h: int) -> dict[str, Any]:
    """``part`` (a mixer or an FFN, as a mapping) switched to kind ``cls``: what the new kind shares
    with the old keeps its value (heads, widths), what it requires besides starts at the kind's
    suggestion for hidden size ``h``, the rest at its defaults."""
    carried = {cls.RENAMED.get(name, name): value for name, value in part.items()}
    # An empty value the new kind requires (an attention's head width "h / a" into JetMoE's MoA,
    # whose experts need it set) starts at the suggestion instead.
    kept = {
        name: value
        for name, value in carried.items()
        if name in cls.model_fields
        and name != "kind"
        and (value is not None or not cls.model_fields[name].is_required())
    }
    suggested = {name: make(h) for name, make in cls.SUGGESTED.items() if name not in kept}
    return {"kind": cls.model_fields["kind"].default, **suggested, **kept}


class ScorelessMixer(Kind):
    """A mixer that computes no attention scores (recurrent, convolutional or none): no score or
    bias heads, no window, no rotary or head width, no grouped K/V in GGUF."""

    def score_heads(self) -> int:
        return 0

    def bias_heads(self) -> int:
        return 0

    def relative_tables(self) -> int:
        return 0

    def attended_window(self) -> int | None:
        return None

    def rotary_width(self, ctx: Context) -> int | None:
        return None

    def head_width(self, ctx: Context) -> tuple[str, int] | None:
        return None

    def gguf_gqa(self, ctx: Context) -> int:
        return 0
