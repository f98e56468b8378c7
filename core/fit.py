"""Will it fit: every GPU kind × count (1 … 64) with a parallel layout chosen for it.

Layouts: tensor parallel stays within a node of 8 and must divide the heads; beyond a node the
model is split into pipeline stages. Inference uses all the GPUs for one model copy (the most
memory per request). Training tries layouts from the cheapest in communication: data parallel
with ZeRO stages from the one asked (FSDP ≈ ZeRO-3), then more TP, then PP, and takes the first
that fits; when none does, the one with the least per-GPU memory. Decode speed is the memory-
bandwidth bound: every token reads the active weights and the KV cache once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from paramtally.core.gpus import GPU, load_catalog
from paramtally.core.memory import effective_architecture, stage_terms
from paramtally.core.scenario import Scenario, check_scenario, valid_tp
from paramtally.core.schema import Architecture
from paramtally.core.stages import model_layout
from paramtally.core.terms import Piece

__all__ = ["COUNTS", "NODE_SIZE", "SetupFit", "fit_setup", "fit_setups", "layout_text", "setup_layouts"]

COUNTS = (1, 2, 4, 8, 16, 32, 64)
NODE_SIZE = 8
CONTEXT_LIMIT = 100_000_000  # Scenario.context's upper bound


@dataclass(frozen=True, slots=True)
class SetupFit:
    gpu: str
    gpu_name: str
    count: int
    fits: bool
    per_gpu_bytes: int
    capacity_bytes: int
    free_bytes: int  # negative: the shortfall
    layout: str
    tp: int
    pp: int
    dp: int
    zero: int
    max_context: int | None = None  # inference: the longest context that fits, up to the model's (0: none)
    decode_tokens_per_s: float | None = None  # inference: bandwidth bound, when it fits


def layout_text(tp: int, pp: int, dp: int, zero: int) -> str:
    parts = [f"{name}={size}" for name, size in (("TP", tp), ("PP", pp), ("DP", dp)) if size > 1]
    text = " × ".join(parts) if parts else "single GPU"
    return f"{text}, ZeRO-{zero}" if dp > 1 and zero else text


def _tps(arch: Architecture, count: int) -> list[int]:
    return [t for t in (1, 2, 4, 8) if t <= min(count, NODE_SIZE) and count % t == 0 and valid_tp(arch, t)]


def _candidates(arch: Architecture, s: Scenario, count: int) -> list[Scenario]:
    tps = _tps(arch, count)
    if s.mode == "inference":
        tp = tps[-1]
        pp = min(count // tp, arch.num_layers)
        while (count // tp) % pp:
            pp -= 1
        return [s.model_copy(update={"tp": tp, "pp": pp, "gpus": count})]
    result = []
    pps = [p for p in COUNTS if p <= arch.num_layers]
    for pp in pps:
        for tp in tps:
            if count % (tp * pp):
                continue
            for zero in range(s.zero, 4):
                result.append(s.model_copy(update={"tp": tp, "pp": pp, "gpus": count, "zero": zero}))
    return result


@dataclass(frozen=True, slots=True)
class _StagePlan:
    total: int
    fixed: int  # bytes that do not grow with the context
    weights: int
    kv_cache: int
    pieces: tuple[Piece, ...]  # the rest, growing with the context
    slope: float  # Σ c, and the caps in order as (cap, c), in floats for a fast first guess
    events: tuple[tuple[float, float], ...]


@lru_cache(maxsize=1024)
def _plan(arch: Architecture, s: Scenario) -> tuple[_StagePlan, ...]:
    """Per stage: the total at the scenario and, for inference, how it grows with the context."""
    plans = []
    for terms in stage_terms(arch, s):
        pieces = (
            tuple(term.growth for term in terms if term.growth is not None) if s.mode == "inference" else ()
        )
        plans.append(
            _StagePlan(
                total=sum(term.value for term in terms),
                fixed=sum(term.value for term in terms if term.growth is None),
                weights=sum(term.value for term in terms if term.part == "weights"),
                kv_cache=sum(term.value for term in terms if term.part == "kv_cache"),
                pieces=pieces,
                slope=sum(p * m / q for p, q, m, _ in pieces),
                events=tuple(sorted((cap / m, p * m / q) for p, q, m, cap in pieces if cap is not None)),
            )
        )
    return tuple(plans)


def _cost(pieces: tuple[Piece, ...], s: int) -> int:
    return sum(-(-p * (m * s if cap is None else min(m * s, cap)) // q) for p, q, m, cap in pieces)


def _longest_estimate(free: int, plan: _StagePlan, limit: int) -> float:
    """Largest real s with Σ c·min(s, cap) ≤ free (floats: exact enough to be checked after)."""
    if free < 0:
        return 0.0
    slope = plan.slope
    position = cost = 0.0
    for cap, c in plan.events:
        reach = cost + slope * (cap - position)
        if reach > free:
            return position + (free - cost) / slope
        position, cost, slope = cap, reach, slope - c
    return position + (free - cost) / slope if slope > 0 else float(limit)


def _max_context(plans: tuple[_StagePlan, ...], capacity: int, limit: int) -> int:
    """The longest context (tokens per sequence, at most ``limit``) whose busiest stage fits."""
    if any(plan.fixed > capacity for plan in plans):
        return 0
    estimates = [_longest_estimate(capacity - plan.fixed, plan, limit) for plan in plans]
    least = min(estimates)
    binding = plans[estimates.index(least)]
    free = capacity - binding.fixed
    s = max(min(math.floor(least), limit), 0)
    while s > 0 and _cost(binding.pieces, s) > free:  # float rounding: step back
        s -= 1
    while s < limit and _cost(binding.pieces, s + 1) <= free:
        s += 1
    return s


def _decode_rate(plans: tuple[_StagePlan, ...], s: Scenario, gpu: GPU, active_share: float) -> float:
    """Tokens/s bound by bandwidth: each step reads active weights and the KV cache of each stage."""
    busiest = max(plans, key=lambda plan: plan.total)
    read = busiest.weights * active_share + busiest.kv_cache
    return s.batch * gpu.bandwidth_gbs * 1e9 / (s.pp * read)


_Option = tuple[Scenario, tuple[_StagePlan, ...], int]


def _fit_one(s: Scenario, gpu: GPU, options: list[_Option], active_share: float, limit: int) -> SetupFit:
    capacity = gpu.capacity_bytes(s.utilization_cap)
    chosen = next((option for option in options if option[2] <= capacity), None)
    fits = chosen is not None
    if chosen is None:
        chosen = min(options, key=lambda option: option[2])
    layout, plans, total = chosen
    max_context = decode = None
    if s.mode == "inference":
        max_context = _max_context(plans, capacity, limit)
        decode = _decode_rate(plans, layout, gpu, active_share) if fits else None
    return SetupFit(
        gpu=gpu.id,
        gpu_name=gpu.name,
        count=layout.gpus,
        fits=fits,
        per_gpu_bytes=total,
        capacity_bytes=capacity,
        free_bytes=capacity - total,
        layout=layout_text(layout.tp, layout.pp, layout.dp, layout.zero),
        tp=layout.tp,
        pp=layout.pp,
        dp=layout.dp,
        zero=layout.zero,
        max_context=max_context,
        decode_tokens_per_s=decode,
    )


def fit_setups(
    arch: Architecture, scenario: Scenario, catalog: tuple[GPU, ...] | None = None
) -> tuple[SetupFit, ...]:
    """Each GPU kind × count with its layout, per-GPU bytes and verdict, in catalog order."""
    check_scenario(arch, scenario.model_copy(update={"tp": 1, "pp": 1, "gpus": 1}))
    catalog = catalog if catalog is not None else load_catalog()
    options: dict[int, list[_Option]] = {}
    for count in COUNTS:
        plans = [(c, _plan(arch, c)) for c in _candidates(arch, scenario, count)]
        options[count] = [(c, p, max(stage.total for stage in p)) for c, p in plans]
    layout = model_layout(effective_architecture(arch, scenario), 1)
    share = layout.active / layout.total
    # A context longer than the model was trained for is no use, however much memory is free.
    limit = arch.max_positions or CONTEXT_LIMIT
    return tuple(_fit_one(scenario, gpu, options[count], share, limit) for gpu in catalog for count in COUNTS)


def fit_setup(arch: Architecture, scenario: Scenario, gpu: GPU, count: int) -> SetupFit:
    """One GPU kind on any number of GPUs, laid out and judged as ``fit_setups`` does its counts."""
    check_scenario(arch, scenario.model_copy(update={"tp": 1, "pp": 1, "gpus": 1}))
    options = [
        (c, p, max(stage.total for stage in p))
        for c in _candidates(arch, scenario, count)
        for p in [_plan(arch, c)]
    ]
    layout = model_layout(effective_architecture(arch, scenario), 1)
    limit = arch.max_positions or CONTEXT_LIMIT
    return _fit_one(scenario, gpu, options, layout.active / layout.total, limit)


def setup_layouts(arch: Architecture, scenario: Scenario, count: int) -> list[Scenario]:
    """The layouts ``fit_setup`` tries on ``count`` GPUs, in its order (inference: the one)."""
    return _candidates(arch, scenario, count)
