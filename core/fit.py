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
from collections.abc import Iterable
from dataclasses import MISSING, dataclass, field, fields
from functools import lru_cache
from typing import Any

from paramtally.core.gpus import GPU, find_gpu, load_catalog
from paramtally.core.memory import effective_architecture, stage_terms
from paramtally.core.scenario import Scenario, check_scenario, valid_tp
from paramtally.core.schema import Architecture
from paramtally.core.stages import model_layout
from paramtally.core.terms import Piece

__all__ = [
    "COUNTS",
    "NODE_SIZE",
    "SetupFit",
    "chosen_layout",
    "column_description",
    "fit_setup",
    "fit_setups",
    "layout_text",
    "setup_layouts",
    "smallest_fit",
]

COUNTS = (1, 2, 4, 8, 16, 32, 64)
NODE_SIZE = 8
CONTEXT_LIMIT = 100_000_000  # Scenario.context's upper bound


def _about(text: str, default: object = MISSING) -> Any:
    """A dataclass field carrying its description (Any: it stands in for the field's value)."""
    return field(default=default, metadata={"description": text})


@dataclass(frozen=True, slots=True)
class SetupFit:
    """One GPU kind × count; each field's description is the window's column tooltip."""

    gpu: str = _about("GPU kind (catalog id).")
    gpu_name: str = _about("GPU kind, as the catalog names it.")
    count: int = _about("How many GPUs of this kind.")
    fits: bool = _about(
        "Whether the busiest GPU's memory stays within its usable capacity (memory × usable share "
        "× the scenario's utilization cap)."
    )
    per_gpu_bytes: int = _about(
        "Memory the busiest GPU needs in this layout (weights, KV cache, activations, training states, "
        "runtime overhead)."
    )
    capacity_bytes: int = _about("Usable bytes per GPU: memory × usable share × utilization cap.")
    free_bytes: int = _about("Usable capacity minus the memory needed, per GPU; negative: the shortfall.")
    layout: str = _about(
        "How the model is split: TP tensor parallel (within a node of 8, dividing the heads), PP "
        "pipeline stages, DP data-parallel copies with their ZeRO stage. Inference puts one copy over "
        "all the GPUs; training takes the cheapest layout in communication that fits."
    )
    tp: int = _about("Tensor-parallel size of the layout.")
    pp: int = _about("Pipeline-parallel size of the layout.")
    dp: int = _about("Data-parallel size of the layout.")
    zero: int = _about("ZeRO stage of the layout (training).")
    max_context: int | None = _about(
        default=None,
        text="Inference: the longest context (tokens per sequence, at the scenario's batch) whose KV cache "
        "and activations still fit beside the weights, up to the model's maximum positions; 0: not even "
        "one token fits.",
    )
    decode_tokens_per_s: float | None = _about(
        default=None,
        text="Inference: an upper bound on generated tokens per second for the whole batch, from memory "
        "bandwidth (each step reads the active weights and the KV cache once); kernels and scheduling "
        "make real servers slower.",
    )


def column_description(name: str) -> str:
    """The description of a SetupFit field (the GPU table's tooltips, the CSV's columns)."""
    for one in fields(SetupFit):
        if one.name == name:
            return str(one.metadata["description"])
    raise KeyError(name)


def layout_text(tp: int, pp: int, dp: int, zero: int, ep: int = 1) -> str:
    parts = [f"{name}={size}" for name, size in (("TP", tp), ("PP", pp), ("DP", dp)) if size > 1]
    text = " × ".join(parts) if parts else "single GPU"
    if ep > 1:
        text += f" (EP={ep})"
    return f"{text}, ZeRO-{zero}" if dp > 1 and zero else text


def _laid_out(arch: Architecture, s: Scenario, tp: int, pp: int, count: int, zero: int) -> Scenario:
    """``s`` on a layout: expert parallelism over as many of the data-parallel GPUs as it can take,
    interleaving only with pipeline stages and at most one chunk per layer."""
    update: dict[str, int] = {"tp": tp, "pp": pp, "gpus": count, "zero": zero}
    if s.ep > 1:
        update["ep"] = math.gcd(s.ep, count // (tp * pp))
    if s.virtual_stages > 1:
        update["virtual_stages"] = 1 if pp == 1 else min(s.virtual_stages, arch.num_layers // pp)
    return s.model_copy(update=update)


def _tps(arch: Architecture, count: int) -> list[int]:
    return [t for t in (1, 2, 4, 8) if t <= min(count, NODE_SIZE) and count % t == 0 and valid_tp(arch, t)]


def _candidates(arch: Architecture, s: Scenario, count: int) -> list[Scenario]:
    tps = _tps(arch, count)
    if s.mode == "inference":
        tp = tps[-1]
        pp = min(count // tp, arch.num_layers)
        while (count // tp) % pp:
            pp -= 1
        return [_laid_out(arch, s, tp, pp, count, s.zero)]
    result = []
    pps = [p for p in COUNTS if p <= arch.num_layers]
    for pp in pps:
        for tp in tps:
            if count % (tp * pp):
                continue
            for zero in range(s.zero, 4):
                result.append(_laid_out(arch, s, tp, pp, count, zero))
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


def _choose(options: list[_Option], capacity: int) -> tuple[_Option, bool]:
    """The first layout that fits (options come cheapest in communication first), else the least memory."""
    chosen = next((option for option in options if option[2] <= capacity), None)
    if chosen is not None:
        return chosen, True
    return min(options, key=lambda option: option[2]), False


def _options(arch: Architecture, scenario: Scenario, count: int) -> list[_Option]:
    plans = [(c, _plan(arch, c)) for c in _candidates(arch, scenario, count)]
    return [(c, p, max(stage.total for stage in p)) for c, p in plans]


def _fit_one(s: Scenario, gpu: GPU, options: list[_Option], active_share: float, limit: int) -> SetupFit:
    capacity = gpu.capacity_bytes(s.utilization_cap)
    chosen, fits = _choose(options, capacity)
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
        layout=layout_text(layout.tp, layout.pp, layout.dp, layout.zero, layout.ep),
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
    options = {count: _options(arch, scenario, count) for count in COUNTS}
    layout = model_layout(effective_architecture(arch, scenario), 1)
    share = layout.active / layout.total
    # A context longer than the model was trained for is no use, however much memory is free.
    limit = arch.max_positions or CONTEXT_LIMIT
    return tuple(_fit_one(scenario, gpu, options[count], share, limit) for gpu in catalog for count in COUNTS)


def chosen_layout(arch: Architecture, scenario: Scenario, gpus: int) -> Scenario:
    """``scenario`` on ``gpus`` GPUs of its kind with the layout the setups table gives them.

    Inference: one model copy over all the GPUs (TP within a node, then pipeline stages), the
    most memory per request. Training: the first layout, cheapest in communication, that fits
    the scenario's GPU, else the one with the least memory per GPU.
    """
    check_scenario(arch, scenario.model_copy(update={"tp": 1, "pp": 1, "gpus": 1}))
    options = _options(arch, scenario, gpus)
    capacity = find_gpu(scenario.gpu).capacity_bytes(scenario.utilization_cap)
    return _choose(options, capacity)[0][0]


def smallest_fit(setups: Iterable[SetupFit], gpu: str | None = None) -> SetupFit | None:
    """The setup (of kind ``gpu`` if given) that fits with the fewest GPUs, then the least memory per
    GPU (the cheaper kind as a rule), then the most room left; None when none of them fits."""
    fitting = [fit for fit in setups if fit.fits and gpu in (None, fit.gpu)]
    if not fitting:
        return None
    return min(fitting, key=lambda fit: (fit.count, fit.capacity_bytes, -fit.free_bytes))


def fit_setup(arch: Architecture, scenario: Scenario, gpu: GPU, count: int) -> SetupFit:
    """One GPU kind on any number of GPUs, laid out and judged as ``fit_setups`` does its counts."""
    check_scenario(arch, scenario.model_copy(update={"tp": 1, "pp": 1, "gpus": 1}))
    options = _options(arch, scenario, count)
    layout = model_layout(effective_architecture(arch, scenario), 1)
    limit = arch.max_positions or CONTEXT_LIMIT
    return _fit_one(scenario, gpu, options, layout.active / layout.total, limit)


def setup_layouts(arch: Architecture, scenario: Scenario, count: int) -> list[Scenario]:
    """The layouts ``fit_setup`` tries on ``count`` GPUs, in its order (inference: the one)."""
    return _candidates(arch, scenario, count)
