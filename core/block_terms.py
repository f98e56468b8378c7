"""The terms of one transformer block: attention (standard or MLA), FFN or MoE, norms, LoRA, adapters.

Each term is a ``Node`` whose number and formula come from one expression (``core.formula``).
Symbols: h hidden, a query heads, g KV heads, d_h head width, f FFN width, E experts,
f_e expert width, r rank, b adapter width.
"""

from __future__ import annotations

from functools import cached_property

from paramtally.core.breakdown import Node, group
from paramtally.core.formula import evaluate
from paramtally.core.schema import Adapter, Architecture, LayerGroup, LoRA, MoE

__all__ = ["BlockTerms", "inactive_per_layer", "leaf", "norm_leaf"]


def leaf(name: str, part: str, expr: str, **values: int) -> Node:
    return Node(name, evaluate(expr, values), part, "", 1, False, (), expr, tuple(values.items()))


def norm_leaf(
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
        weights.append(norm_leaf(arch, "q/k norms", d_h, part="attention", times=2, symbol="d_h"))
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
        nodes.append(norm_leaf(arch, "q latent norm", r_q, part="attention", symbol="r_q"))
        nodes.append(leaf("q up (q_b)", "attention", "r_q·a·(d_nope + d_rope)", r_q=r_q, **dims))
    else:
        nodes.append(leaf("q", "attention", "h·a·(d_nope + d_rope)", **dims))
    r_kv = att.kv_lora_rank
    kv_a = "h·(r_kv + d_rope)" + (" + r_kv + d_rope" if att.k_bias else "")
    nodes.append(leaf("kv down (kv_a)", "attention", kv_a, r_kv=r_kv, **dims))
    nodes.append(norm_leaf(arch, "kv latent norm", r_kv, part="attention", symbol="r_kv"))
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
    touched = [
        (d_in, d_out, copies)
        for target, d_in, d_out, copies in _lora_matrices(arch, group_)
        if target in lora.targets
    ]
    total = sum(copies * lora.rank * (d_in + d_out) for d_in, d_out, copies in touched)
    sums = " + ".join(
        f"{copies}·({d_in} + {d_out})" if copies > 1 else f"({d_in} + {d_out})"
        for d_in, d_out, copies in touched
    )
    formula = f"r·Σ(d_in + d_out) = {lora.rank}·({sums}) = {total:,}"
    return Node(f"LoRA r={lora.rank} on {','.join(lora.targets)}", total, "lora", formula, added=True)


def _adapter(arch: Architecture, adapter: Adapter) -> Node:
    expr = "2·h·b + b + h" if adapter.bias else "2·h·b"
    if adapter.placement == "both":
        expr = f"2·({expr})"
    name = f"adapter b={adapter.width} ({adapter.placement})"
    return leaf(name, "adapters", expr, h=arch.hidden_size, b=adapter.width)._replace(added=True)


class BlockTerms:
    """The blocks of one architecture. Parts every block shares (attention, the dense FFN, the
    block norms) are built once per architecture, not once per layer group."""

    def __init__(self, arch: Architecture) -> None:
        self.arch = arch

    @cached_property
    def attention(self) -> Node:
        arch = self.arch
        terms = _mla_attention(arch) if arch.attention.kind == "mla" else _standard_attention(arch)
        return group("attention", terms)

    @cached_property
    def dense_ffn(self) -> Node:
        return group("ffn", _dense_ffn(self.arch))

    @cached_property
    def norms(self) -> list[Node]:
        arch = self.arch
        if not arch.norms.per_block:
            return []
        return [norm_leaf(arch, "block norms", arch.hidden_size, times=arch.norms.per_block)]

    def block(self, group_: LayerGroup) -> Node:
        arch = self.arch
        ffn = group("moe", _moe(arch, group_.moe)) if group_.moe else self.dense_ffn
        children = [self.attention, ffn, *self.norms]
        if group_.lora:
            children.append(_lora(arch, group_, group_.lora))
        if group_.adapter:
            children.append(_adapter(arch, group_.adapter))
        return group("block", children)


def inactive_per_layer(arch: Architecture, group_: LayerGroup) -> int:
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
