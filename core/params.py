"""Exact parameter counts, as ``sum(p.numel() for p in model.parameters())`` of the real model.

The report is the model's tree of terms: embeddings, one node per layer group (its block's terms
from ``core.block_terms`` repeated over the group), the final norm, the head and what LoRA,
adapters or new tokens add. Symbols: V vocab, h hidden, e embedding width.
Tied weights count once (as PyTorch's ``parameters()`` does); the LM head then adds nothing.
"""

from __future__ import annotations

from functools import lru_cache

from paramtally.core.block_terms import BlockTerms, inactive_per_layer, leaf, norm_leaf
from paramtally.core.breakdown import ADDED_PARTS, PARTS, LayerGroupRow, Node, ParamReport, group
from paramtally.core.schema import Architecture

__all__ = ["count_parameters"]


# --- embeddings and head -------------------------------------------------------------------


def _embeddings(arch: Architecture) -> Node:
    emb, h, e = arch.embeddings, arch.hidden_size, arch.embed_dim
    parts = [leaf("token embedding", "embeddings", "V·e", V=emb.vocab_size, e=e)]
    if emb.position == "learned":
        expr = "(n_pos + offset)·h" if emb.position_offset else "n_pos·h"
        parts.append(
            leaf(
                "positions",
                "embeddings",
                expr,
                n_pos=emb.max_positions,
                offset=emb.position_offset,
                h=h,
            )
        )
    if emb.position == "relative_bias" and emb.relative_buckets:
        parts.append(
            leaf(
                "relative position bias",
                "embeddings",
                "buckets·a",
                buckets=emb.relative_buckets,
                a=arch.attention.num_heads,
            )
        )
    if emb.token_types:
        parts.append(leaf("token types", "embeddings", "T·h", T=emb.token_types, h=h))
    if e != h:
        parts.append(leaf("projections in and out", "embeddings", "2·e·h", e=e, h=h))
    if emb.norm:
        parts.append(norm_leaf(arch, "embedding norm", h))
    return group("embeddings", parts)


def _head(arch: Architecture) -> list[Node]:
    head, h, V, e = (
        arch.head,
        arch.hidden_size,
        arch.embeddings.vocab_size,
        arch.embed_dim,
    )
    nodes: list[Node] = []
    if head.pooler:
        nodes.append(group("pooler", [leaf("dense", "lm_head", "h·h + h", h=h)]))
    if not head.present:
        return nodes
    parts: list[Node] = []
    if head.transform:
        parts.append(leaf("transform dense", "lm_head", "h·h + h", h=h))
        parts.append(norm_leaf(arch, "transform norm", h, part="lm_head"))
    if head.tied:
        parts.append(Node("weights (tied to the token embedding)", 0, "lm_head", "0"))
    else:
        parts.append(leaf("weights", "lm_head", "e·V", e=e, V=V))
    if head.bias:
        parts.append(leaf("bias", "lm_head", "V", V=V))
    if head.decoder_bias:
        parts.append(leaf("decoder bias", "lm_head", "V", V=V))
    nodes.append(group("lm head", parts))
    return nodes


# --- the whole model -----------------------------------------------------------------------


def _vocab_growth(arch: Architecture) -> Node | None:
    if not arch.added_vocab:
        return None
    dv, e = arch.added_vocab, arch.embed_dim
    parts = [leaf("embedding rows", "vocab_growth", "dV·e", dV=dv, e=e)._replace(added=True)]
    # A tied head grows with the embedding; only its bias (if any) is new then.
    head_terms = ([] if arch.head.tied else ["dV·e"]) + ["dV"] * (arch.head.bias + arch.head.decoder_bias)
    if arch.head.present and head_terms:
        expr = " + ".join(head_terms)
        parts.append(leaf("LM head rows", "vocab_growth", expr, dV=dv, e=e)._replace(added=True))
    return group(f"vocabulary growth (+{dv:,} tokens)", parts)


def _layer_label(start: int, count: int) -> str:
    return f"layer {start}" if count == 1 else f"layers {start}–{start + count - 1}"


def _add_parts(nodes: tuple[Node, ...] | list[Node], into: dict[str, int], times: int = 1) -> None:
    """Add each leaf's parameters (× ``times``) to its part's sum."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if node.children:
            stack.extend(node.children)
        else:
            into[node.part] = into.get(node.part, 0) + node.params * times


def _report(arch: Architecture) -> ParamReport:
    outside: list[Node] = [_embeddings(arch)]
    groups: list[Node] = []
    rows: list[LayerGroupRow] = []
    parts: dict[str, int] = {}
    inactive = 0
    start = 0
    blocks = BlockTerms(arch)
    for group_ in arch.layers:
        block = blocks.block(group_)
        per_token = block.params - inactive_per_layer(arch, group_)
        inactive += group_.count * (block.params - per_token)
        by_part: dict[str, int] = {}
        _add_parts(block.children, by_part)
        kind = "moe" if group_.moe else "dense"
        rows.append(LayerGroupRow(start, group_.count, kind, block.params, per_token, by_part))
        node = block.repeated(group_.count)
        title = f"{_layer_label(start, group_.count)} ({kind})"
        formula = f"one block = {block.params:,}"
        groups.append(Node(title, node.params, "", formula, group_.count, node.added, node.children))
        start += group_.count
    tail = [norm_leaf(arch, "final norm", arch.hidden_size)] if arch.norms.final else []
    tail += _head(arch)
    growth = _vocab_growth(arch)
    if growth:
        tail.append(growth)
    tree = group(arch.name, [*outside, *groups, *tail])
    for row in rows:
        for part, params in row.by_part.items():
            parts[part] = parts.get(part, 0) + params * row.count
    _add_parts([*outside, *tail], parts)
    added = sum(parts.get(part, 0) for part in ADDED_PARTS)
    ordered = {part: parts[part] for part in PARTS if part in parts}
    return ParamReport(arch.name, tree.params, tree.params - inactive, added, tree, ordered, tuple(rows))


@lru_cache(maxsize=64)
def count_parameters(arch: Architecture) -> ParamReport:
    """The full report for ``arch``; cached because a GUI redraw asks for it several times."""
    return _report(arch)
