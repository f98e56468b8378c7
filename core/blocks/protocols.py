"""The roles a kind plays, as types: everything the rest of the program asks of a mixer, an FFN or
an insertion (LoRA, an adapter).

Code outside ``core.blocks`` holds a part as one of these protocols and asks it; it never tests
which kind it is. ``core.blocks`` has mypy prove that every registered kind has its role's
protocol, so a new kind that leaves out an answer fails the type check, not a figure.
``ctx`` is the ``Context`` a part is counted in (the hidden size and the block's norm).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar, Protocol

from paramtally.core.blocks.activation_profiles import HFProfile, KernelPath
from paramtally.core.blocks.base import (
    Bounds,
    Cache,
    Context,
    FieldProblem,
    GGUFTensor,
    LoRAMatrix,
    Replicated,
    TreeEdit,
)
from paramtally.core.terms.term import Term

__all__ = ["FFNProtocol", "InsertionProtocol", "KindProtocol", "MixerProtocol"]


class KindProtocol(Protocol):
    """What every mixer and FFN kind answers.

    Names: ``kind`` (the registry's tag, as files write it), the class's schema title (the kind
    switch, the legends), ``SHORT`` (in layer titles: "layers 0–3 (Mamba, MoE)"), ``PATTERN_NAMES``
    (the pattern language's other names for it), ``COLOR`` (its bars in the per-layer chart by kind).
    """

    SHORT: ClassVar[str]
    COLOR: ClassVar[str]
    PATTERN_NAMES: ClassVar[tuple[str, ...]]
    # What a new part of the kind starts with, and the fields of other kinds it takes under its names.
    SUGGESTED: ClassVar[dict[str, Callable[[int], object]]]
    RENAMED: ClassVar[dict[str, str]]
    # Checkpoint tensor-name patterns → breakdown part, for ``verify``.
    TENSOR_RULES: ClassVar[tuple[tuple[str, str], ...]]
    # The layer tree: the fields its value actions set here, and the part it adds and removes.
    TREE_VALUES: ClassVar[tuple[str, ...]]
    TREE_EDIT: ClassVar[TreeEdit | None]
    # The design variables the explore tools may vary in it, each with the field it writes.
    VARIABLES: ClassVar[dict[str, str]]

    @property
    def kind(self) -> str: ...

    def inactive(self, ctx: Context) -> int:
        """Parameters of one layer one token does not use (routed experts it is not sent to: an
        MoE's, a mixture of attention heads')."""
        ...

    def routing(self) -> tuple[int, int]:
        """(copies of the part, copies a token uses): (E, k) for routed experts, (1, 1) otherwise;
        its ``inactive`` parameters are the E − k copies a token leaves."""
        ...

    def problems(self, ctx: Context) -> list[FieldProblem]:
        """Rules that need the context (heads dividing the width), as field problems."""
        ...

    def tp_problem(self, ctx: Context, tp: int) -> str | None:
        """Why tensor parallelism of size ``tp`` cannot split it, if it cannot."""
        ...

    def lora_matrices(self, ctx: Context) -> list[LoRAMatrix]:
        """The matrices a LoRA target can touch, as (target, d_in, d_out, copies)."""
        ...

    def gguf_tensors(self, ctx: Context) -> list[GGUFTensor]:
        """Its quantizable matrices in llama.cpp's tensor classes (the rest is typed by default)."""
        ...

    def variable(self, name: str) -> int:
        """The value of the design variable ``name`` (one of ``VARIABLES``)."""
        ...

    def bounds(self, name: str, values: Mapping[str, int]) -> Bounds:
        """What it asks of the design variable ``name``'s values, given the hidden size and the
        values other variables are about to take."""
        ...

    def matrix_widths(self) -> list[tuple[str, str, int]]:
        """(field, what it is, width) of the widths GPU tiles want as multiples of 64."""
        ...


class MixerProtocol(KindProtocol, Protocol):
    """A token mixer: how positions exchange information."""

    PART: ClassVar[str]  # the breakdown part of its parameters ("attention", "ssm")
    # The usual mixer: a layer's title need not name it ("layers 0–3 (dense)").
    PLAIN: ClassVar[bool]
    # The fused kernels its hf activation bytes assume, or None (measured as PyTorch runs it).
    KERNELS: ClassVar[KernelPath | None]

    def terms(self, ctx: Context, part: str = ...) -> list[Term]:
        """The exact parameter terms, each with its formula, in breakdown part ``part``."""
        ...

    def table_params(self, ctx: Context) -> int:
        """Parameters of one layer that multiply a table once per forward pass, not its tokens
        (DeBERTa's own position projections): outside the FLOPs' 2·N per token."""
        ...

    def per_forward_flops(self, ctx: Context) -> Term | None:
        """FLOPs one layer runs once per forward pass, whatever its tokens and sequences (DeBERTa's
        relative table through its projections), as a term with its formula; None: none."""
        ...

    def cache(self, ctx: Context, tp: int) -> Cache:
        """What one layer keeps per generated sequence on one TP rank: KV per token, state per sequence."""
        ...

    def tp_replicated(self, ctx: Context) -> Replicated | None:
        """What TP keeps whole past t = g (K/V heads, Mamba-2 groups), or None."""
        ...

    def projection_widths(self, ctx: Context) -> int:
        """Widths per token of the activations TP splits (Korthikanti's S; the megatron profile)."""
        ...

    def prefill_width(self, ctx: Context) -> int:
        """Widths per token of its projections while a prefill chunk runs (inference working set)."""
        ...

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> int:
        """Bytes per token one layer keeps for backward under a Hugging Face profile, split by TP."""
        ...

    def context_width(self, ctx: Context, decoding: bool = ...) -> int:
        """d_attn of Kaplan's 2·n_ctx·d_attn FLOPs per attended token (0: it reads no context)."""
        ...

    def scan_flops(self, ctx: Context) -> int:
        """FLOPs per token beyond attention over the context: a recurrent scan, DeBERTa's relative
        scores (0 for plain attention)."""
        ...

    def score_heads(self) -> int:
        """Heads that score every pair of tokens (0 for recurrent kinds)."""
        ...

    def bias_heads(self) -> int:
        """Heads an additive attention bias (T5's relative positions, ALiBi) is added to, or 0."""
        ...

    def relative_tables(self) -> int:
        """Relative position bias tables the layer looks its buckets up in itself (UMT5's every
        self-attention: 1), or 0 where it reads its stack's bias or takes none."""
        ...

    def attended_window(self) -> int | None:
        """Tokens a position attends to and caches when a window bounds them; None: all."""
        ...

    def rotary_width(self, ctx: Context) -> int | None:
        """Width d_r of the rotary cos/sin tables it reads, or None without rotary positions."""
        ...

    def head_width(self, ctx: Context) -> tuple[str, int] | None:
        """(the field that sets it, the width) of a head fused attention kernels want a multiple of
        8, or None."""
        ...

    def gguf_gqa(self, ctx: Context) -> int:
        """Query heads per KV head as llama.cpp reads them when it picks types (0: no attention)."""
        ...


class FFNProtocol(KindProtocol, Protocol):
    """A position-wise network: what each position computes on its own."""

    GROUP: ClassVar[str]  # its node in a block's breakdown ("ffn", "moe")
    PARTS: ClassVar[tuple[str, ...]]  # the breakdown parts its terms fall in
    ROUTED: ClassVar[bool]  # whether it routes each token to some of its experts
    # The width fields that keep their ratio to the hidden size when asked to follow it.
    SCALED_WIDTHS: ClassVar[tuple[str, ...]]

    @property
    def gated(self) -> bool:
        """Three matrices (SwiGLU/GeGLU) instead of two."""
        ...

    def terms(self, ctx: Context) -> list[Term]:
        """The exact parameter terms, each with its formula."""
        ...

    def active_width(self) -> int:
        """The FFN width one token passes through (activations)."""
        ...

    def hf_bytes(self, ctx: Context, hf: HFProfile) -> tuple[int, int]:
        """(kept whole by TP, split by it) bytes per token one layer keeps under a Hugging Face profile."""
        ...


class InsertionProtocol(Protocol):
    """What is inserted into a block on top of its weights (LoRA, a bottleneck adapter)."""

    FIELD: ClassVar[str]  # the block field that holds it
    TREE_EDIT: ClassVar[TreeEdit]

    def term(self, ctx: Context, matrices: list[LoRAMatrix]) -> Term:
        """Its parameters in a block whose matrices are ``matrices``, with the formula."""
        ...

    def idle(self, matrices: list[LoRAMatrix], routing: tuple[int, int]) -> int:
        """Its parameters one token does not use, on the routed experts it is not sent to."""
        ...
