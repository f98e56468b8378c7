"""Frozen result objects of the parameter calculator: a tree of terms and a per-layer table."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from paramtally.core.terms.term import Path, Term

__all__ = [
    "ADDED_PARTS",
    "PARTS",
    "PART_INFO",
    "PART_LABELS",
    "STACK_ORDER",
    "LayerGroupRow",
    "LayerRow",
    "ParamReport",
    "PartInfo",
    "human",
]


@dataclass(frozen=True, slots=True)
class PartInfo:
    """A category every leaf term belongs to: its id, its label, whether it is an addition, and
    whether it is counted apart from the total (multi-token prediction, which transformers does
    not build)."""

    id: str
    label: str
    added: bool = False
    apart: bool = False


# The parts, in the order charts, tables and CSV columns show them.
PART_INFO: tuple[PartInfo, ...] = (
    PartInfo("vision", "Vision tower"),
    PartInfo("projector", "Projector"),
    PartInfo("embeddings", "Embeddings"),
    PartInfo("frontend", "Audio front-end"),
    PartInfo("attention", "Attention"),
    PartInfo("ssm", "SSM / linear attn"),
    PartInfo("cross_attention", "Cross-attention"),
    PartInfo("ffn", "FFN"),
    PartInfo("moe_experts", "MoE experts"),
    PartInfo("shared_experts", "Shared experts"),
    PartInfo("router", "Router"),
    PartInfo("norms", "Norms"),
    PartInfo("lm_head", "LM head"),
    PartInfo("lora", "LoRA", added=True),
    PartInfo("adapters", "Adapters", added=True),
    PartInfo("vocab_growth", "Vocabulary growth", added=True),
    PartInfo("mtp", "MTP modules", apart=True),
)
PARTS: tuple[str, ...] = tuple(info.id for info in PART_INFO if not info.apart)
# Parts that are not the base model: what LoRA, adapters and new tokens add.
ADDED_PARTS: tuple[str, ...] = tuple(info.id for info in PART_INFO if info.added)
PART_LABELS: Mapping[str, str] = {info.id: info.label for info in PART_INFO}
# The stacks in the order the per-layer rows list them: an image meets the vision tower first,
# an encoder reads before a decoder writes.
STACK_ORDER: Mapping[str, int] = {"vision": 0, "encoder": 1, "decoder": 2}


@dataclass(frozen=True, slots=True)
class LayerRow:
    """One layer of a stack: its parameters by part and per token."""

    stack: str
    index: int  # within its stack
    group: int  # the stack's top-level layer group it is in (the layer tree's row; 0 first)
    mixer: str  # the mixer's kind tag (``core.blocks.MIXERS``)
    kind: str  # the FFN's kind tag (``core.blocks.FFNS``)
    params: int
    active: int
    by_part: Mapping[str, int] = field(default_factory=dict)


class LayerGroupRow(NamedTuple):
    """A run of layers of one block: ``count`` consecutive layers from ``start`` (within its
    stack), recurring ``repeats`` times every ``period`` layers. Figures are for one layer.

    A named tuple: a report makes one per run (48 for a 48-group stack) on every edit, and a
    tuple is made about five times faster than a frozen dataclass (measured)."""

    stack: str
    group: int  # the stack's top-level layer group it belongs to
    start: int
    count: int  # type: ignore[assignment]  # shadows tuple.count, which a row never needs
    repeats: int
    period: int
    mixer: str
    kind: str  # the FFN's kind
    params: int
    active: int
    by_part: Mapping[str, int]

    @property
    def layers(self) -> int:
        return self.count * self.repeats

    def layer_indices(self) -> Iterator[int]:
        for repeat in range(self.repeats):
            first = self.start + repeat * self.period
            yield from range(first, first + self.count)


@dataclass(frozen=True)
class ParamReport:
    """The count of one architecture: totals, the tree of terms, sums by part, the runs of layers.

    ``total`` is ``sum(p.numel() for p in model.parameters())`` of the model transformers builds;
    multi-token-prediction modules (which it does not build) are counted apart in ``mtp``.
    """

    name: str
    total: int
    active: int
    added: int
    tree: Term
    by_part: Mapping[str, int]
    groups: tuple[LayerGroupRow, ...]
    mtp: int = 0
    mtp_active: int = 0
    mtp_tree: Term | None = None
    vision: int = 0  # the vision tower of a vision-language model, in the total
    projector: int = 0  # its projector to the hidden size, in the total
    # Parameters built with requires_grad false (frozen position tables), in the total: no training
    # keeps gradients or optimizer states for them.
    frozen: int = 0
    # The vision tower's runs of layers, apart from ``groups`` (the language model's, which memory,
    # FLOPs and a checkpoint's layers are compared with), as ``Architecture.vision_runs`` are.
    tower_groups: tuple[LayerGroupRow, ...] = ()

    @property
    def embedding_params(self) -> int:
        """The language model's input: the token embedding, its positions and token types (the
        tree's "embeddings" node; none in a vision tower alone)."""
        return next((node.value for node in self.tree.children if node.name == "embeddings"), 0)

    @property
    def is_multimodal(self) -> bool:
        return bool(self.vision or self.projector)

    @property
    def tower_only(self) -> bool:
        """A vision tower alone (``PixtralVisionModel``): the tower is the whole total."""
        return bool(self.vision) and self.total == self.vision

    @property
    def language_model(self) -> int:
        """The language model alone, its embedding and head included: the text-only total."""
        return self.total - self.vision - self.projector

    @property
    def language_model_active(self) -> int:
        """Parameters one text token uses (the vision tower and projector are always active)."""
        return self.active - self.vision - self.projector

    @property
    def layer_groups(self) -> tuple[LayerGroupRow, ...]:
        """Every run of layers, the vision tower's first (an image meets it first, as an encoder's
        layers come before a decoder's): what the per-layer views and tables show. With the
        embeddings, the head, the projector and each stack's own terms (its input, final norm;
        the tower's patch embedding), their layers make up the total."""
        return self.tower_groups + self.groups

    @cached_property
    def layers(self) -> tuple[LayerRow, ...]:
        """One row per layer, stack by stack (the vision tower's first), expanded from the runs only
        when a view asks for it."""
        rows = [
            LayerRow(g.stack, i, g.group, g.mixer, g.kind, g.params, g.active, g.by_part)
            for g in self.layer_groups
            for i in g.layer_indices()
        ]
        return tuple(sorted(rows, key=lambda row: (STACK_ORDER.get(row.stack, 3), row.index)))

    @cached_property
    def layer_stacks(self) -> tuple[tuple[str, int], ...]:
        """Each stack with layers and how many, in the order of ``layers``."""
        counts: dict[str, int] = {}
        for run in self.layer_groups:
            counts[run.stack] = counts.get(run.stack, 0) + run.layers
        return tuple(sorted(counts.items(), key=lambda item: STACK_ORDER.get(item[0], 3)))

    @property
    def base(self) -> int:
        return self.total - self.added

    @property
    def is_moe(self) -> bool:
        return self.active != self.total

    @property
    def total_with_mtp(self) -> int:
        return self.total + self.mtp

    def walk(self) -> Iterator[tuple[Path, int, Term]]:
        """Every node of the tree, then of the MTP modules (a second root: counted apart)."""
        yield from self.tree.walk()
        if self.mtp_tree is not None:
            yield from self.mtp_tree.walk()


def human(count: float, unit: str = "") -> str:
    """175221817344 → '175.22B'; keeps three significant figures at least. Any int, however large
    (past 999T in digit groups: '215,314.02T')."""
    for threshold, suffix in ((10**12, "T"), (10**9, "B"), (10**6, "M"), (10**3, "K")):
        if abs(count) >= threshold:
            if isinstance(count, int) and abs(count) >= _EXACT_FLOAT:
                return f"{_hundredths(count, threshold)}{suffix}{unit}"
            return f"{count / threshold:,.2f}{suffix}{unit}"
    return f"{count:,.0f}{unit}"


_EXACT_FLOAT = 2**53  # below this an int converts to float exactly


def percent(part: float, total: float, decimals: int = 2) -> str:
    """``part`` as a percentage of ``total``, the number alone: ``decimals`` places, and a share
    under 0.1 in two significant digits without an exponent — Llama-3-70B's norms are 0.0019 % of
    it, which two places showed as 0.00, as if they held nothing. Empty without a total."""
    if total <= 0:
        return ""
    share = 100 * part / total  # int · int first: a float product could overflow
    if 0 < share < 0.1:
        decimals = 1 - math.floor(math.log10(share))
    return f"{share:.{decimals}f}"


def _hundredths(count: int, threshold: int) -> str:
    """``count / threshold`` to two decimals in integer arithmetic (a float would overflow)."""
    hundredths = (abs(count) * 100 + threshold // 2) // threshold
    sign = "-" if count < 0 else ""
    return f"{sign}{hundredths // 100:,}.{hundredths % 100:02d}"
