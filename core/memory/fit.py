"""Will it fit: every GPU kind × count (1 … 64) with a parallel layout chosen for it.

Layouts: tensor parallel stays within a node of 8 and must divide the heads; beyond a node the
model is split into pipeline stages. Inference uses all the GPUs for one model copy (the most
memory per request). Training tries layouts from the cheapest in communication: data parallel
with ZeRO stages from the one asked (FSDP ≈ ZeRO-3), then more TP, then PP, and takes the first
that fits; when none does, the one with the least per-GPU memory. Prefill time, decode speed and
the largest batch are ``core.memory.serving``'s, from the same stage plans (``core.memory.stage_plans``).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, NamedTuple

from paramtally.core.memory.gpus import GPU, find_gpu, load_catalog
from paramtally.core.memory.scenario import Scenario, check_scenario, gpus_text, valid_tp, with_changes
from paramtally.core.memory.serving import LayoutSpeed, ModelSpeed, largest_batch, layout_speed, model_speed
from paramtally.core.memory.stage_plans import StagePlan, busiest_plans
from paramtally.core.schema import Architecture
from paramtally.core.terms.term import Piece
from paramtally.core.text import say

__all__ = [
    "COUNTS",
    "LAYOUT_FIELDS",
    "NODE_SIZE",
    "CountLayout",
    "SetupFit",
    "chosen_layout",
    "column_description",
    "count_layout",
    "fit_setup",
    "fit_setups",
    "layout_changes",
    "layout_text",
    "setup_layouts",
    "smallest_fit",
]

COUNTS = (1, 2, 4, 8, 16, 32, 64)
NODE_SIZE = 8
CONTEXT_LIMIT = 100_000_000  # Scenario.context's upper bound


_ONE_GPU = (("tp", 1), ("pp", 1), ("gpus", 1))  # the scenario's own checks, whatever its layout


def _about(text: str, default: object = MISSING) -> Any:
    """A dataclass field carrying its description (Any: it stands in for the field's value)."""
    return field(default=default, metadata={"description": text})


@dataclass(slots=True)
class SetupFit:
    """One GPU kind × count; each field's description is the window's column tooltip.

    Not frozen: a frozen dataclass takes six times as long to make, and a table is 98 of them per
    edit; nothing caches or hashes a table's rows (``fit_setups`` makes them afresh each call).
    """

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
        "and activations still fit beside the weights, up to the model's maximum positions or the "
        "scenario's context where that is longer (so a setup fits exactly when it reaches the context); "
        "0: not even one token fits.",
    )
    prefill_seconds: float | None = _about(
        default=None,
        text="Inference: seconds to read the batch's prompts (b·s tokens) at the scenario's MFU on the GPUs "
        "of each pipeline stage in turn, at least one read of the weights.",
    )
    decode_tokens_per_second: float | None = _about(
        default=None,
        text="Inference: generated tokens per second for the whole batch, a roofline bound: each step "
        "reads the active weights and the KV cache (context + generated tokens) once, or computes the "
        "batch's tokens, whichever is longer; kernels and scheduling make real servers slower.",
    )
    max_batch: int | None = _about(
        default=None,
        text="Inference, when asked for: the most sequences at the scenario's context (and generated "
        "tokens) whose KV cache and activations still fit beside the weights; 0: not even one.",
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


def _laid_out(arch: Architecture, s: Scenario, tp: int, pp: int, count: int, zero: int) -> dict[str, int]:
    """What changes in ``s`` on a layout: expert parallelism over as many of the data-parallel GPUs
    as it can take, interleaving only with pipeline stages and at most one chunk per layer."""
    update: dict[str, int] = {"tp": tp, "pp": pp, "gpus": count, "zero": zero}
    if s.ep > 1:
        update["ep"] = math.gcd(s.ep, count // (tp * pp))
    if s.virtual_stages > 1:
        update["virtual_stages"] = 1 if pp == 1 else min(s.virtual_stages, arch.num_layers // pp)
    return update


def _tps(arch: Architecture, count: int) -> list[int]:
    if arch.tower_only:  # a vision tower alone is not split (memory.vision): data parallelism only
        return [1]
    return [t for t in (1, 2, 4, 8) if t <= min(count, NODE_SIZE) and count % t == 0 and valid_tp(arch, t)]


def _candidates(arch: Architecture, s: Scenario, count: int) -> list[dict[str, int]]:
    """The layouts tried on ``count`` GPUs, in order, as changes to ``s``."""
    tps = _tps(arch, count)
    if s.mode == "inference":
        tp = tps[-1]
        pp = min(count // tp, max(arch.num_layers, 1))
        while (count // tp) % pp:
            pp -= 1
        return [_laid_out(arch, s, tp, pp, count, 0)]  # ZeRO shards training's states only
    result: list[dict[str, int]] = []
    pps = [p for p in COUNTS if p <= max(arch.num_layers, 1)]  # a tower alone: one stage
    for pp in pps:
        for tp in tps:
            if count % (tp * pp):
                continue
            # Without data parallelism ZeRO shards nothing: the later stages would be the same
            # bytes, never chosen before the first (the first that fits; the first least).
            zeros = range(s.zero, 4) if count > tp * pp else (s.zero,)
            result.extend(_laid_out(arch, s, tp, pp, count, zero) for zero in zeros)
    return result


def _cost(pieces: tuple[Piece, ...], s: int) -> int:
    total = 0
    for p, q, m, cap, o in pieces:
        tokens = m * (s + o)
        if cap is not None and cap < tokens:
            tokens = cap
        total += -(-p * tokens // q)
    return total


def _longest_estimates(frees: list[int], plan: StagePlan, limit: int) -> list[float]:
    """For each of ``frees`` (ascending), the largest real s with Σ c·min(s, cap) ≤ free (floats:
    exact enough to be checked after); one walk along the plan's caps serves them all."""
    found: list[float] = []
    slope, events = plan.slope, plan.events
    position, cost, at = 0.0, plan.start, 0
    for free in frees:
        if free < plan.start:
            found.append(0.0)
            continue
        while at < len(events):
            cap, c = events[at]
            reach = cost + slope * (cap - position)
            if reach > free:
                break
            position, cost, slope, at = cap, reach, slope - c, at + 1
        if at < len(events) or slope > 0:
            found.append(position + (free - cost) / slope)
        else:
            found.append(float(limit))
    return found


def _max_contexts(plans: tuple[StagePlan, ...], fixed: int, capacities: list[int], limit: int) -> list[int]:
    """For each of ``capacities`` (ascending), the longest context (tokens per sequence, at most
    ``limit``) whose busiest stage fits; ``plans``: the layout's distinct stage plans that may bind
    it, ``fixed``: the largest fixed bytes of all its stages."""
    # Where every stage fits at the limit the limit is the answer: a model's maximum positions
    # leave most GPU kinds nothing to search for.
    at_limit = max(fixed, *(plan.fixed + _cost(plan.pieces, limit) for plan in plans))
    short = [capacity for capacity in capacities if capacity < at_limit]
    return _searched_contexts(plans, fixed, short, limit) + [limit] * (len(capacities) - len(short))


def _searched_contexts(
    plans: tuple[StagePlan, ...], fixed: int, capacities: list[int], limit: int
) -> list[int]:
    """``_max_contexts`` found by walking each plan's caps (floats) and checking the binding plan's
    bytes exactly."""
    estimates = [
        _longest_estimates([capacity - plan.fixed for capacity in capacities], plan, limit) for plan in plans
    ]
    contexts = []
    for column, capacity in enumerate(capacities):
        if fixed > capacity:
            contexts.append(0)
            continue
        row = [estimate[column] for estimate in estimates]
        least = min(row)
        binding = plans[row.index(least)]
        free = capacity - binding.fixed
        s = max(min(math.floor(least), limit), 0)
        while s > 0 and _cost(binding.pieces, s) > free:  # float rounding: step back
            s -= 1
        while s < limit and _cost(binding.pieces, s + 1) <= free:
            s += 1
        contexts.append(s)
    return contexts


def _max_context(plans: tuple[StagePlan, ...], fixed: int, capacity: int, limit: int) -> int:
    """``_max_contexts`` at one capacity."""
    return _max_contexts(plans, fixed, [capacity], limit)[0]


def _contenders(plans: tuple[StagePlan, ...]) -> tuple[StagePlan, ...]:
    """The plans that may bind the longest context: of plans that grow alike, an earlier one with as
    many fixed bytes or more reaches the capacity first (or at once, and is taken first)."""
    most: dict[tuple[Piece, ...], int] = {}
    kept = []
    for plan in plans:
        if plan.pieces not in most or most[plan.pieces] < plan.fixed:
            most[plan.pieces] = plan.fixed
            kept.append(plan)
    return tuple(kept)


@dataclass(frozen=True, slots=True)
class _Plans:
    plans: tuple[StagePlan, ...]
    distinct: tuple[StagePlan, ...]  # stages that hold alike share a plan: each once
    total: int  # the busiest GPU's bytes
    fixed: int  # the largest bytes of a stage that do not grow with the context
    contenders: tuple[StagePlan, ...]  # the distinct plans that may bind the longest context


@dataclass(slots=True)
class _Option:
    """A layout tried on a count: the scenario on it, its stage plans and the busiest GPU's bytes
    (each made when first asked), and (made once, when a GPU kind first takes it) what every GPU
    kind on it shares."""

    arch: Architecture
    scenario: Scenario
    update: dict[str, int]  # the layout's changes to the scenario
    speed: LayoutSpeed | None = None
    made: _Plans | None = None
    laid_out: Scenario | None = None
    contexts: dict[int, int] | None = None  # inference: the longest context by capacity
    shown: tuple[int, str, int, int, int, int] | None = None  # GPUs, layout text, TP, PP, DP, ZeRO

    def describe(self) -> tuple[int, str, int, int, int, int]:
        """What every row on this layout shows of it, made once."""
        if self.shown is None:
            layout = self.layout
            text = layout_text(layout.tp, layout.pp, layout.dp, layout.zero, layout.ep)
            self.shown = (layout.gpus, text, layout.tp, layout.pp, layout.dp, layout.zero)
        return self.shown

    @property
    def layout(self) -> Scenario:
        if self.laid_out is None:
            self.laid_out = with_changes(self.scenario, tuple(self.update.items()))
        return self.laid_out

    @property
    def planned(self) -> _Plans:
        if self.made is None:
            plans = busiest_plans(self.arch, self.layout)
            distinct = tuple({id(plan): plan for plan in plans}.values())
            total, fixed = max(plan.total for plan in distinct), max(plan.fixed for plan in distinct)
            self.made = _Plans(plans, distinct, total, fixed, _contenders(distinct))
        return self.made

    @property
    def total(self) -> int:
        return self.planned.total


# Layouts that differ only in their ZeRO stage, from the one asked up to 3, in that order: a later
# stage shards more and so never needs more bytes on a GPU than an earlier one (the test suite
# checks it), which lets the fit table skip the earlier stages of a layout that does not fit anyway.
_Group = list[_Option]


def _choose(groups: list[_Group], capacity: int) -> tuple[_Option, bool]:
    """The first layout that fits (groups come cheapest in communication first), else the least
    memory (the first of the least), the same as trying every layout in turn."""
    if len(groups) == 1 and len(groups[0]) == 1:  # inference: the one layout
        return groups[0][0], groups[0][0].total <= capacity
    for group in groups:
        if group[-1].total <= capacity:  # the group's least; else none of it fits
            return next(option for option in group if option.total <= capacity), True
    least = min(group[-1].total for group in groups)
    group = next(group for group in groups if group[-1].total == least)
    return next(option for option in group if option.total == least), False


def _options(arch: Architecture, scenario: Scenario, count: int) -> list[_Group]:
    groups: list[_Group] = []
    for update in _candidates(arch, scenario, count):
        option = _Option(arch, scenario, update)
        previous = groups[-1][-1].update if groups else None
        if previous is not None and (previous["tp"], previous["pp"]) == (update["tp"], update["pp"]):
            groups[-1].append(option)
        else:
            groups.append([option])
    return groups


@dataclass(frozen=True, slots=True)
class _Serving:
    """What every setup's serving figures share."""

    model: ModelSpeed
    limit: int  # the longest context worth fitting
    max_batch: bool  # whether to search the largest batch
    capacities: list[int]  # every capacity of the table, ascending: a layout's contexts are found at once
    generates: bool = True  # False for an encoder or a vision tower alone: no decode speed
    reads_context: bool = True  # False for a vision tower alone: no context to stretch, no prefill


def _serving(arch: Architecture, s: Scenario, max_batch: bool, capacities: list[int]) -> _Serving:
    limit = _context_limit(arch, s)
    speed = model_speed(arch, s)
    return _Serving(speed, limit, max_batch, sorted(set(capacities)), arch.generates, not arch.tower_only)


# The SetupFit fields from count to max_context, in order.
_Row = tuple[int, bool, int, int, int, str, int, int, int, int, int | None]


class _Verdict(NamedTuple):
    """What a count of GPUs of one capacity gives, whatever their kind: GPU kinds of the same
    usable memory share it (only their speeds differ)."""

    chosen: _Option
    fits: bool
    max_batch: int | None
    row: _Row


def _verdict(s: Scenario, options: list[_Group], serving: _Serving, capacity: int) -> _Verdict:
    chosen, fits = _choose(options, capacity)
    return _judged(s, chosen, fits, serving, capacity)


def _verdicts(s: Scenario, options: list[_Group], serving: _Serving) -> dict[int, _Verdict]:
    """``_verdict`` at each capacity of the table; the one layout of inference is chosen once for all."""
    if s.mode != "inference" or len(options) != 1 or len(options[0]) != 1:
        return {capacity: _verdict(s, options, serving, capacity) for capacity in serving.capacities}
    chosen = options[0][0]
    total = chosen.total
    return {
        capacity: _judged(s, chosen, total <= capacity, serving, capacity) for capacity in serving.capacities
    }


def _judged(s: Scenario, chosen: _Option, fits: bool, serving: _Serving, capacity: int) -> _Verdict:
    """What a row shows of the layout ``chosen`` at ``capacity``."""
    gpus, text, tp, pp, dp, zero = chosen.describe()
    max_context = batch = None
    planned = chosen.planned
    if s.mode == "inference" and serving.reads_context:
        if chosen.contexts is None:
            found = _max_contexts(planned.contenders, planned.fixed, serving.capacities, serving.limit)
            chosen.contexts = dict(zip(serving.capacities, found, strict=True))
        max_context = chosen.contexts[capacity]
        batch = largest_batch(planned.distinct, capacity) if serving.max_batch else None
    total = planned.total
    row = (gpus, fits, total, capacity, capacity - total, text, tp, pp, dp, zero, max_context)
    return _Verdict(chosen, fits, batch, row)


def _fit_one(s: Scenario, gpu: GPU, serving: _Serving, verdict: _Verdict) -> SetupFit:
    chosen = verdict.chosen
    prefill = decode = None
    if s.mode == "inference" and verdict.fits and serving.reads_context:
        if chosen.speed is None:
            chosen.speed = layout_speed(chosen.planned.plans, chosen.layout, serving.model)
        speed = chosen.speed.on(gpu)
        prefill = speed.prefill_seconds
        decode = speed.decode_tokens_per_second if serving.generates else None  # an encoder generates none
    # In the order of SetupFit's fields (a table of many setups: positional is the quicker).
    return SetupFit(gpu.id, gpu.name, *verdict.row, prefill, decode, verdict.max_batch)


def _context_limit(arch: Architecture, s: Scenario) -> int:
    """A context longer than the model was trained for is no use, however much memory is free; the
    generated tokens take their positions after the prompt (a model that generates none, an encoder
    alone, has the positions whole: its generated tokens are no field of its). A scenario's context
    past the positions (stretched, as RoPE scaling does) is the person's to set: the limit is then
    that context, so a row that fits reaches it and one that does not falls short (a fitting row at
    32,768 said 8,192)."""
    generated = s.generated if arch.generates else 0
    return max((arch.max_positions or CONTEXT_LIMIT) - generated, s.context, 0)


def fit_setups(
    arch: Architecture,
    scenario: Scenario,
    catalog: tuple[GPU, ...] | None = None,
    max_batch: bool = False,
) -> tuple[SetupFit, ...]:
    """Each GPU kind × count with its layout, per-GPU bytes and verdict, in catalog order; with
    ``max_batch`` (inference) also the largest batch each one holds."""
    check_scenario(arch, with_changes(scenario, _ONE_GPU))
    catalog = catalog if catalog is not None else load_catalog()
    options = {count: _options(arch, scenario, count) for count in COUNTS}
    capacities = [gpu.capacity_bytes(scenario.utilization_cap) for gpu in catalog]
    serving = _serving(arch, scenario, max_batch, capacities)
    # What a count gives at a capacity, whatever the GPU kind: kinds of the same memory share it.
    verdicts = {count: _verdicts(scenario, options[count], serving) for count in COUNTS}
    return tuple(
        _fit_one(scenario, gpu, serving, verdicts[count][capacity])
        for gpu, capacity in zip(catalog, capacities, strict=True)
        for count in COUNTS
    )


def chosen_layout(arch: Architecture, scenario: Scenario, gpus: int) -> Scenario:
    """``scenario`` on ``gpus`` GPUs of its kind with the layout the setups table gives them.

    Inference: one model copy over all the GPUs (TP within a node, then pipeline stages), the
    most memory per request. Training: the first layout, cheapest in communication, that fits
    the scenario's GPU, else the one with the least memory per GPU.
    """
    check_scenario(arch, with_changes(scenario, _ONE_GPU))
    options = _options(arch, scenario, gpus)
    capacity = find_gpu(scenario.gpu).capacity_bytes(scenario.utilization_cap)
    return _choose(options, capacity)[0].layout


# The fields that say how one model is split over GPUs: a GPU count typed while serving chooses
# those the person has not set (the window remembers which; on the command line, the flags given).
LAYOUT_FIELDS = frozenset({"tp", "pp", "ep"})
_SHAPE = ("tp", "pp")  # one copy's split; the GPUs beyond it are data-parallel copies


@dataclass(frozen=True, slots=True)
class CountLayout:
    """What a GPU count (or an expert-parallel size) set while serving does to the layout."""

    changes: dict[str, int]  # the layout fields it sets: TP, PP and EP (a value given, or lowered)
    chosen: frozenset[str]  # the layout fields it chose: not (or no longer) the person's own
    note: str  # what it did, in words


def count_layout(
    arch: Architecture, scenario: Scenario, values: Mapping[str, Any], typed: Collection[str] = ()
) -> CountLayout | None:
    """The layout ``values`` (fields being set on ``scenario``) give the model while serving.

    The rule, the window's and the command line's alike: the layout is chosen afresh from the GPU
    count and the layout fields set by hand (``typed``, the person's earlier ones, and those in
    ``values``) alone, never from what earlier counts chose, so any sequence of edits ends where
    ``paramtally memory MODEL --gpus N`` with a flag for each field set by hand does. A field set by
    hand stays the person's until it is changed or the count refuses it.

    - No TP or PP set: the setups table's one copy over the GPUs (the memory per GPU shrinks); with
      an EP set, over count / EP GPUs, that many copies holding the experts split between them
      (Mixtral at EP 2 on 2 GPUs: TP 1 × EP 2, as ``--ep 2 --gpus 2``).
    - A TP set that the count takes: kept, with the PP set or 1, the GPUs beyond them copies (TP 1
      on 4 GPUs: four copies). A PP set alone: kept, TP filling a node over the stages as the
      table does. A TP or PP the count does not take is given up for the table's layout.
    - An EP not set is 1; one set that the copies cannot take falls to the largest part of it that
      they can, the person's from then on.

    It lays out again when a GPU count is set (the one shown, typed again, too), a TP, PP or EP
    (a size the count cannot take is refused at its field instead, while another count may come),
    or the mode switches to serving. None otherwise, in training (the GPUs are data parallel there,
    with ZeRO, the sizes as set) and for values that are no counts (the scenario's checks say why).
    """
    if values.get("mode", scenario.mode) != "inference" or not _lays_out(scenario, values):
        return None
    typed = (set(typed) | values.keys()) & LAYOUT_FIELDS
    order = ("gpus", *_SHAPE, "ep")  # the words name TP before PP
    sizes = {name: values.get(name, getattr(scenario, name)) for name in order if name in {"gpus", *typed}}
    if not all(isinstance(size, int) and not isinstance(size, bool) and size >= 1 for size in sizes.values()):
        return None
    given = {name: size for name, size in sizes.items() if name != "gpus"}
    gpus, ep = sizes.pop("gpus"), sizes.pop("ep", None)
    counted = "gpus" in values or scenario.mode != "inference"
    if sizes and gpus % math.prod(sizes.values()) == 0:
        layout = _kept_layout(arch, gpus, sizes, ep)
    elif counted or not (sizes or gpus % (ep or 1)):
        layout = _table_layout(arch, scenario, gpus, sizes, ep, counted)
    else:
        return None
    # Only a count gives up (or lowers) a size set by hand: a size typed that the GPUs cannot take
    # beside the others is refused at its field, the layout as it is, while another count may come.
    lowered = any(layout.changes[name] != size for name, size in given.items())
    return None if not counted and (lowered or layout.chosen & typed) else layout


def _lays_out(scenario: Scenario, values: Mapping[str, Any]) -> bool:
    return bool({"gpus", *LAYOUT_FIELDS} & values.keys()) or scenario.mode != "inference"


def _kept_layout(arch: Architecture, gpus: int, own: dict[str, int], ep: int | None) -> CountLayout:
    """A TP or PP set by hand that the count takes: kept. A TP set: the PP set or 1, the GPUs
    beyond them copies of the model (TP 1 on 4 GPUs: four copies). A PP set alone: TP fills a node
    over the stages as the table does, on count / EP GPUs for an EP set (each copy's share)."""
    pp = own.get("pp", 1)
    tp = own["tp"] if "tp" in own else _tps(arch, _copy_share(gpus, ep, pp) // pp)[-1]
    dp = gpus // (tp * pp)
    fitted_ep = _fitted_ep(ep, dp)
    said = " × ".join(f"{name.upper()} {size}" for name, size in own.items())
    note = say(
        "{gpus} with {said} as set: {words}{more}",
        gpus=gpus_text(gpus),
        said=said,
        words=_layout_words(tp, pp, dp, fitted_ep),
        more=_ep_words(ep, fitted_ep, dp),
    )
    return _result(tp, pp, fitted_ep, own, ep, note)


def _copy_share(gpus: int, ep: int | None, pp: int = 1) -> int:
    """The GPUs one copy is laid out on: count / EP for an EP set that they take (with the stages
    ``pp``), else all of them."""
    return gpus // ep if ep is not None and gpus % (ep * pp) == 0 else gpus


def _table_layout(
    arch: Architecture, s: Scenario, gpus: int, own: dict[str, int], ep: int | None, counted: bool
) -> CountLayout:
    """The setups table's one copy over the GPUs, or over count / EP of them for an EP set by hand."""
    share = _copy_share(gpus, ep)
    expert_share = gpus // share
    update = _candidates(arch, with_changes(s, (("mode", "inference"), ("ep", 1))), share)[0]
    tp, pp = update["tp"], update["pp"]
    dp = gpus // (tp * pp)
    fitted_ep = _fitted_ep(ep, dp)
    words = _layout_words(tp, pp, dp, fitted_ep)
    if own:
        said = " × ".join(f"{name.upper()} {size}" for name, size in own.items())
        head = say(
            "{said} does not fit {gpus}: laid out as {words}", said=said, gpus=gpus_text(gpus), words=words
        )
    elif counted:
        head = say("{gpus}: laid out as {words}", gpus=gpus_text(gpus), words=words)
    else:
        head = say("EP {ep} on {gpus}: laid out as {words}", ep=ep, gpus=gpus_text(gpus), words=words)
    if expert_share > 1:
        how = say(
            " (EP {ep} as set, each copy as the GPU table lays out {gpus})", ep=ep, gpus=gpus_text(share)
        )
    else:
        how = say(", as the GPU table does")
    more: str
    if ep is not None and ep > 1 and expert_share == 1:
        more = say(
            "; EP {ep} does not fit {gpus}: EP {fitted}", ep=ep, gpus=gpus_text(gpus), fitted=fitted_ep
        )
    else:
        more = _ep_words(ep, fitted_ep, dp)
    return _result(tp, pp, fitted_ep, {}, ep, say("{head}{how}{more}", head=head, how=how, more=more))


def _fitted_ep(ep: int | None, dp: int) -> int:
    """An EP set by hand, or the largest part of it the data-parallel GPUs take; 1 when not set."""
    return 1 if ep is None else ep if dp % ep == 0 else math.gcd(ep, dp)


def _result(tp: int, pp: int, fitted_ep: int, own: dict[str, int], ep: int | None, note: str) -> CountLayout:
    """Every layout field set (those not the person's at the rule's choice, not left as they were).
    A TP or PP set by hand that the layout does not keep is chosen, no longer the person's; an EP
    set stays the person's at the size the copies take (EP 8 on 4 of them: EP 4 from then on, as
    the field shows: what is typed is what is kept)."""
    changes = {"tp": tp, "pp": pp, "ep": fitted_ep}
    kept = set(own) | ({"ep"} if ep is not None else set())
    return CountLayout(changes, frozenset(LAYOUT_FIELDS - kept), note)


def _layout_words(tp: int, pp: int, dp: int, ep: int) -> str:
    """'TP 4', 'TP 8 × PP 2', 'TP 1 × EP 2' (two copies, the experts split over them), 'TP 1 × DP 4'."""
    parts = [f"TP {tp}", *([f"PP {pp}"] if pp > 1 else [])]
    if dp > 1:
        parts.append(f"EP {ep}" if ep == dp else f"DP {dp}")
    text = " × ".join(parts)
    return f"{text} (EP {ep})" if 1 < ep != dp else text


def _ep_words(asked: int | None, fitted: int, dp: int) -> str:
    if asked is None or fitted == asked:
        return ""
    return say(
        "; EP {asked} does not divide the {dp}: EP {fitted}",
        asked=asked,
        dp=gpus_text(dp, "data-parallel GPU"),
        fitted=fitted,
    )


def smallest_fit(setups: Iterable[SetupFit], gpu: str | None = None) -> SetupFit | None:
    """The setup (of kind ``gpu`` if given) that fits with the fewest GPUs, then the least memory per
    GPU (the cheaper kind as a rule), then the most room left; None when none of them fits."""
    fitting = [fit for fit in setups if fit.fits and gpu in (None, fit.gpu)]
    if not fitting:
        return None
    return min(fitting, key=lambda fit: (fit.count, fit.capacity_bytes, -fit.free_bytes))


def fit_setup(arch: Architecture, scenario: Scenario, gpu: GPU, count: int) -> SetupFit:
    """One GPU kind on any number of GPUs, laid out and judged as ``fit_setups`` does its counts."""
    check_scenario(arch, with_changes(scenario, _ONE_GPU))
    options = _options(arch, scenario, count)
    capacity = gpu.capacity_bytes(scenario.utilization_cap)
    serving = _serving(arch, scenario, False, [capacity])
    return _fit_one(scenario, gpu, serving, _verdict(scenario, options, serving, capacity))


def setup_layouts(arch: Architecture, scenario: Scenario, count: int) -> list[Scenario]:
    """The layouts ``fit_setup`` tries on ``count`` GPUs, in its order (inference: the one)."""
    return [with_changes(scenario, changes) for changes in layout_changes(arch, scenario, count)]


def layout_changes(arch: Architecture, scenario: Scenario, count: int) -> list[tuple[tuple[str, int], ...]]:
    """What each layout of ``setup_layouts`` changes in ``scenario`` (TP, PP, GPUs, ZeRO, and EP or
    virtual stages where it has them), without building the scenarios: a sweep asks it of every cell."""
    return [tuple(update.items()) for update in _candidates(arch, scenario, count)]
