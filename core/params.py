"""Exact parameter counts, as ``sum(p.numel() for p in model.parameters())`` of the real model.

Every term is one ``render`` call, so its number and its formula come from the same text.
Symbols: V vocab, h hidden, e embedding width, a query heads, g KV heads, d_h head width,
f FFN width, E experts, f_e expert width, r rank, b adapter width.
Tied weights count once (as PyTorch's ``parameters()`` does); the LM head then adds nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import lru_cache

from core.breakdown import ADDED_PARTS, PARTS, LayerGroupRow, Node, ParamReport, group
from core.formula import evaluate, render
from core.schema import Adapter, Architecture, LayerGroup, LoRA, MoE

__all__ = ["count_parameters"]


def leaf(name: str, part: str, expr: str, **values: int) -> Node:
    return Node(name, evaluate(expr, values), part, expr=expr, values=tuple(values.items()))


def _norm(
    arch: Architecture,
    name: str,
    width: int,
    part: str = "norms",
    times: int = 1,
    symbol: str = "h",
) -> Node:
    per = 2 if arch.norms.kind == "layernorm" and arch.norms.bias else 1
    coefficient = per * times
    expr = symbol if coefficient == 1 else f"{coefficient}·{symbol}"
    kind = "LayerNorm" if arch.norms.kind == "layernorm" else "RMSNorm"
    return leaf(f"{name} ({kind})", part, expr, **{symbol: width})


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
        parts.append(_norm(arch, "embedding norm", h))
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
        parts.append(_norm(arch, "transform norm", h, part="lm_head"))
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


# --- one block -----------------------------------------------------------------------------


def _standard_attention(arch: Architecture) -> list[Node]:
    att, h = arch.attention, arch.hidden_size
    a, g, d_h = att.num_heads, arch.num_kv_heads, arch.head_dim
    if g == a and a * d_h == h:
        weights = [leaf("q, k, v, o", "attention", "4·h²", h=h)]
    else:
        weights = [
            leaf("q", "attention", "h·a·d_h", h=h, a=a, d_h=d_h),
            leaf("k, v", "attention", "2·h·g·d_h", h=h, g=g, d_h=d_h),
            leaf("o", "attention", "a·d_h·h", a=a, d_h=d_h, h=h),
        ]
    biases = [
        expr
        for expr, on in (
            ("a·d_h", att.q_bias),
            ("g·d_h", att.k_bias),
            ("g·d_h", att.v_bias),
            ("h", att.o_bias),
        )
        if on
    ]
    if biases and g == a and a * d_h == h:
        weights.append(
            leaf(
                "biases",
                "attention",
                f"{len(biases)}·h" if len(biases) > 1 else "h",
                h=h,
            )
        )
    elif biases:
        weights.append(leaf("biases", "attention", " + ".join(biases), a=a, g=g, d_h=d_h, h=h))
    if att.qk_norm:
        weights.append(_norm(arch, "q/k norms", d_h, part="attention", times=2, symbol="d_h"))
    return weights


def _mla_attention(arch: Architecture) -> list[Node]:
    att, h, a = arch.attention, arch.hidden_size, arch.attention.num_heads
    dims = {
        "h": h,
        "a": a,
        "d_nope": att.qk_nope_head_dim,
        "d_rope": att.qk_rope_head_dim,
        "d_v": att.v_head_dim,
    }
    nodes: list[Node] = []
    if att.q_lora_rank:
        r_q = att.q_lora_rank
        nodes.append(
            leaf(
                "q down (q_a)",
                "attention",
                "h·r_q" + (" + r_q" if att.q_bias else ""),
                r_q=r_q,
                **dims,
            )
        )
        nodes.append(_norm(arch, "q latent norm", r_q, part="attention", symbol="r_q"))
        nodes.append(leaf("q up (q_b)", "attention", "r_q·a·(d_nope + d_rope)", r_q=r_q, **dims))
    else:
        nodes.append(leaf("q", "attention", "h·a·(d_nope + d_rope)", **dims))
    r_kv = att.kv_lora_rank
    kv_a = "h·(r_kv + d_rope)" + (" + r_kv + d_rope" if att.k_bias else "")
    nodes.append(leaf("kv down (kv_a)", "attention", kv_a, r_kv=r_kv, **dims))
    nodes.append(_norm(arch, "kv latent norm", r_kv, part="attention", symbol="r_kv"))
    nodes.append(leaf("kv up (kv_b)", "attention", "r_kv·a·(d_nope + d_v)", r_kv=r_kv, **dims))
    nodes.append(leaf("o", "attention", "a·d_v·h" + (" + h" if att.o_bias else ""), **dims))
    return nodes


def _mlp(arch: Architecture, name: str, part: str, width: int, bias: bool, times: int = 1) -> Node:
    """``times`` identical MLPs of width ``width``: the dense FFN, one expert, or all experts."""
    h, gated = arch.hidden_size, arch.ffn.gated
    matrices = "3·h·f" if gated else "2·h·f"
    expr = matrices + (" + 2·f + h" if gated else " + f + h") * bias
    if times != 1:
        expr = f"E·({expr})"
    return leaf(name, part, expr, h=h, f=width, E=times)


def _dense_ffn(arch: Architecture) -> list[Node]:
    ffn, h = arch.ffn, arch.hidden_size
    nodes = [leaf("matrices", "ffn", "3·h·f" if ffn.gated else "2·h·f", h=h, f=ffn.width)]
    if ffn.bias:
        nodes.append(leaf("biases", "ffn", "2·f + h" if ffn.gated else "f + h", h=h, f=ffn.width))
    return nodes


def _moe(arch: Architecture, moe: MoE) -> list[Node]:
    h = arch.hidden_size
    router = "h·E + E" if moe.router_bias else "h·E"
    nodes = [leaf("router", "router", router, h=h, E=moe.num_experts)]
    nodes.append(
        _mlp(
            arch,
            "routed experts",
            "moe_experts",
            moe.expert_width,
            moe.expert_bias,
            moe.num_experts,
        )
    )
    if moe.shared_experts:
        width = moe.shared_experts * (moe.shared_expert_width or moe.expert_width)
        bias = moe.expert_bias or moe.shared_expert_bias
        nodes.append(_mlp(arch, "shared experts", "shared_experts", width, bias))
        if moe.shared_expert_gate:
            nodes.append(leaf("shared expert gate", "router", "h", h=h))
    return nodes


def _lora_matrices(arch: Architecture, group_: LayerGroup) -> list[tuple[str, int, int, int]]:
    """(target, d_in, d_out, copies) of every matrix a LoRA target touches in one layer."""
    h, a, g, d_h = (
        arch.hidden_size,
        arch.attention.num_heads,
        arch.num_kv_heads,
        arch.head_dim,
    )
    att = arch.attention
    if att.kind == "mla":
        q_out = a * (att.qk_nope_head_dim + att.qk_rope_head_dim)
        q = (
            [("q", h, att.q_lora_rank, 1), ("q", att.q_lora_rank, q_out, 1)]
            if att.q_lora_rank
            else [("q", h, q_out, 1)]
        )
        kv = [
            ("k", h, att.kv_lora_rank + att.qk_rope_head_dim, 1),
            ("v", att.kv_lora_rank, a * (att.qk_nope_head_dim + att.v_head_dim), 1),
        ]
        matrices = [*q, *kv, ("o", a * att.v_head_dim, h, 1)]
    else:
        matrices = [
            ("q", h, a * d_h, 1),
            ("k", h, g * d_h, 1),
            ("v", h, g * d_h, 1),
            ("o", a * d_h, h, 1),
        ]
    widths: list[tuple[int, int]] = []
    if group_.moe:
        moe = group_.moe
        widths.append((moe.expert_width, moe.num_experts))
        if moe.shared_experts:
            widths.append((moe.shared_experts * (moe.shared_expert_width or moe.expert_width), 1))
    else:
        widths.append((arch.ffn.width, 1))
    for f, copies in widths:
        if arch.ffn.gated:
            matrices.append(("gate", h, f, copies))
        matrices += [("up", h, f, copies), ("down", f, h, copies)]
    return matrices


def _lora(arch: Architecture, group_: LayerGroup, lora: LoRA) -> Node:
    total = sum(
        copies * lora.rank * (d_in + d_out)
        for target, d_in, d_out, copies in _lora_matrices(arch, group_)
        if target in lora.targets
    )
    targets = ",".join(lora.targets)
    return Node(
        f"LoRA r={lora.rank} on {targets}",
        total,
        "lora",
        f"Σ r·(d_in + d_out) = {total:,}",
        added=True,
    )


def _adapter(arch: Architecture, adapter: Adapter) -> Node:
    copies = 2 if adapter.placement == "both" else 1
    expr = "2·h·b + b + h" if adapter.bias else "2·h·b"
    if copies == 2:
        expr = f"2·({expr})"
    params, formula = render(expr, h=arch.hidden_size, b=adapter.width)
    return Node(
        f"adapter b={adapter.width} ({adapter.placement})",
        params,
        "adapters",
        formula,
        added=True,
    )


def _block(arch: Architecture, group_: LayerGroup) -> Node:
    attention = _mla_attention(arch) if arch.attention.kind == "mla" else _standard_attention(arch)
    children = [group("attention", attention)]
    if group_.moe:
        children.append(group("moe", _moe(arch, group_.moe)))
    else:
        children.append(group("ffn", _dense_ffn(arch)))
    if arch.norms.per_block:
        children.append(_norm(arch, "block norms", arch.hidden_size, times=arch.norms.per_block))
    if group_.lora:
        children.append(_lora(arch, group_, group_.lora))
    if group_.adapter:
        children.append(_adapter(arch, group_.adapter))
    return group("block", children)


def _inactive_per_layer(arch: Architecture, group_: LayerGroup) -> int:
    """Parameters of the routed experts a token does not use, in one layer."""
    moe = group_.moe
    if moe is None:
        return 0
    expert = _mlp(arch, "", "", moe.expert_width, moe.expert_bias).params
    if group_.lora:
        expert += sum(
            group_.lora.rank * (d_in + d_out)
            for target, d_in, d_out, copies in _lora_matrices(arch, group_)
            if copies == moe.num_experts and target in group_.lora.targets
        )
    return (moe.num_experts - moe.top_k) * expert


# --- the whole model -----------------------------------------------------------------------


def _vocab_growth(arch: Architecture) -> Node | None:
    if not arch.added_vocab:
        return None
    dv, e = arch.added_vocab, arch.embed_dim
    parts = [replace(leaf("embedding rows", "vocab_growth", "dV·e", dV=dv, e=e), added=True)]
    # A tied head grows with the embedding; only its bias (if any) is new then.
    head_terms = ([] if arch.head.tied else ["dV·e"]) + ["dV"] * (arch.head.bias + arch.head.decoder_bias)
    if arch.head.present and head_terms:
        expr = " + ".join(head_terms)
        parts.append(replace(leaf("LM head rows", "vocab_growth", expr, dV=dv, e=e), added=True))
    return group(f"vocabulary growth (+{dv:,} tokens)", parts)


def layer_label(start: int, count: int) -> str:
    return f"layer {start}" if count == 1 else f"layers {start}–{start + count - 1}"


def _parts(nodes: tuple[Node, ...] | list[Node], into: Counter[str], times: int = 1) -> None:
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if node.children:
            stack.extend(node.children)
        else:
            into[node.part] += node.params * times


def _report(arch: Architecture) -> ParamReport:
    outside: list[Node] = [_embeddings(arch)]
    groups: list[Node] = []
    rows: list[LayerGroupRow] = []
    parts = Counter[str]()
    inactive = 0
    start = 0
    for group_ in arch.layers:
        block = _block(arch, group_)
        per_token = block.params - _inactive_per_layer(arch, group_)
        inactive += group_.count * (block.params - per_token)
        by_part = Counter[str]()
        _parts(block.children, by_part)
        kind = "moe" if group_.moe else "dense"
        rows.append(LayerGroupRow(start, group_.count, kind, block.params, per_token, by_part))
        node = block.repeated(group_.count)
        title = f"{layer_label(start, group_.count)} ({kind})"
        formula = f"one block = {block.params:,}"
        groups.append(Node(title, node.params, "", formula, group_.count, node.added, node.children))
        start += group_.count
    tail = [_norm(arch, "final norm", arch.hidden_size)] if arch.norms.final else []
    tail += _head(arch)
    growth = _vocab_growth(arch)
    if growth:
        tail.append(growth)
    tree = group(arch.name, [*outside, *groups, *tail])
    for row in rows:
        for part, params in row.by_part.items():
            parts[part] += params * row.count
    _parts([*outside, *tail], parts)
    added = sum(parts[part] for part in ADDED_PARTS)
    ordered = {part: parts[part] for part in PARTS if part in parts}
    return ParamReport(arch.name, tree.params, tree.params - inactive, added, tree, ordered, tuple(rows))


@lru_cache(maxsize=64)
def count_parameters(arch: Architecture) -> ParamReport:
    """The full report for ``arch``; cached because a GUI redraw asks for it several times."""
    return _report(arch)
