"""Frozen result objects of the parameter calculator: a tree of terms and a per-layer table."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

__all__ = ["PARTS", "LayerRow", "Node", "ParamReport", "human"]

# Part categories every leaf belongs to, in the order charts show them.
PARTS: tuple[str, ...] = (
    "embeddings",
    "attention",
    "ffn",
    "moe_experts",
    "shared_experts",
    "router",
    "norms",
    "lm_head",
    "lora",
    "adapters",
    "vocab_growth",
)
PART_LABELS: Mapping[str, str] = {
    "embeddings": "Embeddings",
    "attention": "Attention",
    "ffn": "FFN",
    "moe_experts": "MoE experts",
    "shared_experts": "Shared experts",
    "router": "Router",
    "norms": "Norms",
    "lm_head": "LM head",
    "lora": "LoRA",
    "adapters": "Adapters",
    "vocab_growth": "Vocabulary growth",
}


@dataclass(frozen=True, slots=True)
class Node:
    """One term of the breakdown. ``params`` covers ``count`` repeated layers of ``formula``."""

    name: str
    params: int
    part: str = ""
    formula: str = ""
    count: int = 1
    added: bool = False
    children: tuple[Node, ...] = ()

    @property
    def is_leaf(self) -> bool:
        return not self.children

    @property
    def unit_params(self) -> int:
        return self.params // self.count

    @property
    def full_formula(self) -> str:
        if self.count == 1 or not self.formula:
            return self.formula
        return f"{self.count} × ({self.formula}) = {self.params:,}"

    def repeated(self, count: int) -> Node:
        return replace(
            self,
            params=self.params * count,
            count=self.count * count,
            children=tuple(child.repeated(count) for child in self.children),
        )

    def walk(self, path: str = "", depth: int = 0) -> Iterator[tuple[str, int, Node]]:
        here = f"{path}/{self.name}" if path else self.name
        yield here, depth, self
        for child in self.children:
            yield from child.walk(here, depth + 1)

    def leaves(self) -> Iterator[tuple[str, Node]]:
        for path, _, node in self.walk():
            if node.is_leaf:
                yield path, node


def group(name: str, children: tuple[Node, ...] | list[Node], formula: str = "") -> Node:
    kids = tuple(children)
    return Node(
        name=name,
        params=sum(child.params for child in kids),
        formula=formula,
        added=bool(kids) and all(child.added for child in kids),
        children=kids,
    )


@dataclass(frozen=True, slots=True)
class LayerRow:
    """One layer of the stack: its parameters by part and per token."""

    index: int
    group: int
    kind: str  # "dense" or "moe"
    params: int
    active: int
    by_part: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ParamReport:
    name: str
    total: int
    active: int
    added: int
    tree: Node
    by_part: Mapping[str, int]
    layers: tuple[LayerRow, ...]

    @property
    def base(self) -> int:
        return self.total - self.added

    @property
    def is_moe(self) -> bool:
        return self.active != self.total


def human(count: float, unit: str = "") -> str:
    """175221817344 → '175.22B'; keeps three significant figures at least."""
    for threshold, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")):
        if abs(count) >= threshold:
            return f"{count / threshold:.2f}{suffix}{unit}"
    return f"{count:,.0f}{unit}"
