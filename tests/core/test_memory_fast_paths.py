"""The memory engine's shortcuts give the very terms a plain computation gives (hypothesis).

``stage_terms`` shares terms between stages that hold alike, and the fit table reads shared stage
plans once; here every stage's terms are made again from their own parts, one stage at a time,
and compared with what the engine returns, over presets and scenarios drawn at random.
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from paramtally.core.blocks.base import Replicated
from paramtally.core.count.parameters import block_parts, count_parameters
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory import fit, gguf_types
from paramtally.core.memory import stages as stages_module
from paramtally.core.memory.activations import activation_terms, training_view
from paramtally.core.memory.estimate import (
    Scenario,
    Term,
    effective_architecture,
    estimate_memory,
    stage_terms,
)
from paramtally.core.memory.fit import COUNTS, fit_setups, setup_layouts
from paramtally.core.memory.gpus import load_catalog
from paramtally.core.memory.kv_cache import kv_terms
from paramtally.core.memory.model_states import model_state_terms
from paramtally.core.memory.scenario import scenario_problem, with_changes
from paramtally.core.memory.stage_plans import StagePlan, busiest_plans, stage_plans
from paramtally.core.memory.stages import Stage, model_layout
from paramtally.core.schema import Architecture
from tests.hypothesis_budget import examples


def _bench_script(name: str) -> Any:
    """A bench/ script, loaded from its file: ``bench`` is no package, and the folder above a
    clone (on the path while the repository root is a package) may hold anything named so."""
    path = Path(__file__).resolve().parents[2] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"paramtally_bench_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hybrid_stack = _bench_script("gui_latency").hybrid_stack

SETTINGS = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
PRESETS = ("deepseek-v3", "jamba-v0.1", "gemma-2-9b", "mixtral-8x7b", "llama-2-70b", "t5-base", "gpt2")


def _own_terms(arch: Architecture, s: Scenario) -> list[list[Term]]:
    """Each stage's terms from its own parts, nothing shared (as the engine did before it shared)."""
    arch = effective_architecture(arch, s)
    layout = model_layout(arch, s.pp)
    adapters = s.mode == "training" and (s.lora_rank is not None or layout.adapters > 0)
    stages = []
    for stage in layout.stages:
        weights, states = model_state_terms(arch, s, stage, adapters)
        last = stage.index == s.pp - 1
        overhead = Term.of("CUDA context and workspaces", "overhead", "c", "", c=s.cuda_context_bytes)
        stages.append(
            weights + kv_terms(arch, s, stage) + activation_terms(arch, s, stage, last) + states + [overhead]
        )
    return stages


def _shown(term: Term) -> tuple[Any, ...]:
    return (term.name, term.part, term.expr, dict(term.values), term.value, term.growth, term.whole)


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[str, Scenario]:
    preset = draw(st.sampled_from(PRESETS))
    tp, pp = draw(st.sampled_from([1, 2, 4, 8])), draw(st.sampled_from([1, 2, 3, 4, 8]))
    dp = draw(st.sampled_from([1, 2, 4]))
    fields: dict[str, Any] = {
        "mode": draw(st.sampled_from(["inference", "training"])),
        "tp": tp,
        "pp": pp,
        "gpus": tp * pp * dp,
        "context": draw(st.integers(1, 40_000)),
        "batch": draw(st.integers(1, 16)),
    }
    if fields["mode"] == "inference":
        fields["quant"] = draw(st.none() | st.sampled_from(["q4_k_m", "q8_0", "nf4", "gptq-4bit-g128"]))
        fields["kv_dtype"] = draw(st.sampled_from(["bf16", "fp8", "q8_0", "q4_0", "fp32"]))
        fields["generated"] = draw(st.sampled_from([0, 0, 100]))
    else:
        fields["zero"] = draw(st.integers(0, 3))
        fields["ep"] = draw(st.sampled_from([1, 1, 2]))
        fields["vocab_padding"] = draw(st.booleans())
        fields["activations"] = draw(st.sampled_from(["megatron", "hf-eager", "hf-sdpa"]))
        fields["recompute"] = draw(st.sampled_from(["none", "selective", "full"]))
        fields["virtual_stages"] = draw(st.sampled_from([1, 1, 2])) if pp > 1 else 1
    fields["dtype"] = draw(st.sampled_from(["bf16", "fp32"]))
    try:
        return preset, Scenario(**fields)
    except ValidationError:
        assume(False)
        raise


@SETTINGS
@given(drawn=scenarios())
def test_every_stage_has_the_terms_made_from_its_own_parts(drawn: tuple[str, Scenario]) -> None:
    preset, s = drawn
    arch = load_builtin(preset)
    assume(scenario_problem(arch, s) is None)
    engine = stage_terms(arch, s)
    own = _own_terms(arch, s)
    assert [[_shown(t) for t in stage] for stage in engine] == [[_shown(t) for t in stage] for stage in own]
    for plan, terms in zip(stage_plans(arch, s), own, strict=True):
        assert plan.total == sum(term.value for term in terms)
        assert plan.fixed == sum(term.value for term in terms if term.growth is None)
        if s.mode == "inference":
            assert plan.pieces == tuple(term.growth for term in terms if term.growth is not None)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_deep_pipeline_shares_plans_only_between_equal_stages(preset: str) -> None:
    arch = load_builtin(preset)
    pp = min(8, arch.num_layers)
    s = Scenario(tp=1, pp=pp, gpus=pp, context=8192)
    plans = stage_plans(arch, s)
    own = _own_terms(arch, s)
    for i, plan in enumerate(plans):
        for j, other in enumerate(plans):
            if plan is other:
                assert [_shown(t) for t in own[i]] == [_shown(t) for t in own[j]]


@pytest.mark.parametrize(
    ("preset", "scenario"),
    [
        ("deepseek-v3", Scenario()),
        ("deepseek-v3", Scenario(mode="training", tp=8, gpus=64, ep=8, vocab_padding=True)),
        ("jamba-v0.1", Scenario(quant="q4_k_m", generated=64)),
        ("mixtral-8x7b", Scenario(mode="training", activations="hf-sdpa", zero=1, ep=2, tp=1, gpus=2)),
        ("t5-base", Scenario(kv_dtype="q8_0", batch=3)),
    ],
)
def test_after_the_fit_table_every_layout_has_its_own_terms(preset: str, scenario: Scenario) -> None:
    # The fit table fills the caches shared across layouts (training activations whatever ZeRO
    # and data parallelism, serving KV and activation terms whatever the stage): each layout it
    # tried must still read exactly the terms made from its own parts.
    arch = load_builtin(preset)
    fit_setups(arch, scenario)
    for count in COUNTS:
        for layout in setup_layouts(arch, scenario, count):
            engine = stage_terms(arch, layout)
            own = _own_terms(arch, layout)
            assert [[_shown(t) for t in stage] for stage in engine] == [
                [_shown(t) for t in stage] for stage in own
            ]


def test_copies_with_changes_hash_afresh() -> None:
    # Architecture, Block and Scenario keep their hash once made; a changed copy must not keep it.
    s = Scenario()
    hash(s)
    changed = s.model_copy(update={"tp": 2, "gpus": 2})
    assert changed == Scenario(tp=2, gpus=2) and hash(changed) == hash(Scenario(tp=2, gpus=2))
    assert changed != s
    block = next(iter(load_builtin("llama-3-8b").layers_by_block()))
    hash(block)
    norms = block.norms.model_copy(update={"count": 3})
    other = block.model_copy(update={"norms": norms})
    twin = type(block).model_validate({**block.model_dump(), "norms": norms.model_dump()})
    assert other == twin and hash(other) == hash(twin) and other != block


@SETTINGS
@given(
    drawn=scenarios(), tp=st.sampled_from([1, 2, 4, 8]), pp=st.sampled_from([1, 2, 4]), zero=st.integers(0, 3)
)
def test_a_cached_layout_is_the_scenario_copied_with_its_changes(
    drawn: tuple[str, Scenario], tp: int, pp: int, zero: int
) -> None:
    # The fit table's layouts and the training view are copies made once per scenario and changes.
    _, s = drawn
    changes = (("tp", tp), ("pp", pp), ("gpus", tp * pp * 2), ("zero", zero))
    made = with_changes(s, changes)
    fresh = s.model_copy(update=dict(changes))
    assert made == fresh and hash(made) == hash(fresh) and made.model_dump() == fresh.model_dump()
    assert with_changes(s.model_copy(), changes) is made  # an equal scenario shares the copy
    assert training_view(made) == made.model_copy(
        update={"zero": 0, "gpus": tp * pp * (2 if made.ep > 1 else 1), "ep": 2 if made.ep > 1 else 1}
    )


@SETTINGS
@given(drawn=scenarios(), count=st.sampled_from(COUNTS), max_batch=st.booleans())
def test_a_counts_verdicts_are_each_capacitys_own(
    drawn: tuple[str, Scenario], count: int, max_batch: bool
) -> None:
    # In inference the fit table reads its one layout once for every capacity of the table: each
    # verdict must be the one judged at that capacity alone.
    preset, s = drawn
    arch = load_builtin(preset)
    assume(scenario_problem(arch, s.model_copy(update={"tp": 1, "pp": 1, "gpus": 1})) is None)
    catalog = load_catalog()
    serving = fit._serving(arch, s, max_batch, [gpu.capacity_bytes(s.utilization_cap) for gpu in catalog])
    together = fit._verdicts(s, fit._options(arch, s, count), serving)
    alone = {c: fit._verdict(s, fit._options(arch, s, count), serving, c) for c in serving.capacities}
    assert {c: (v.chosen.layout, v.fits, v.max_batch, v.row) for c, v in together.items()} == {
        c: (v.chosen.layout, v.fits, v.max_batch, v.row) for c, v in alone.items()
    }


def _own_held(arch: Architecture, first: int, stop: int) -> tuple[tuple[object, int], ...]:
    """The blocks of layers [first, stop) and their layers, asking every run (as stages did)."""
    offsets, start = {}, 0
    for role, stack in arch.stacks:
        offsets[role] = start
        start += stack.num_layers
    held: dict[object, int] = {}
    for run in arch.runs:
        n = run.layers_in(first - offsets[run.stack], stop - offsets[run.stack])
        if n:
            held[run.block] = held.get(run.block, 0) + n
    return tuple(held.items())


@settings(max_examples=examples(30), deadline=None)
@given(preset=st.sampled_from(PRESETS), pp=st.integers(1, 64))
def test_each_stage_holds_the_blocks_its_runs_put_there(preset: str, pp: int) -> None:
    arch = load_builtin(preset)
    assume(pp <= arch.num_layers)
    for stage in model_layout(arch, pp).stages:
        assert stage.blocks == _own_held(arch, stage.first, stage.first + stage.count)


@lru_cache(maxsize=1)
def _hybrid() -> Architecture:
    """``bench/gui_latency.py``'s hybrid in 24 groups of two layers, mixers and FFNs in turn: many
    runs, each stage holding a new mix of blocks."""
    arch = hybrid_stack(24)
    assert isinstance(arch, Architecture)
    return arch


def _own_replicated(stage: Stage, h: int) -> tuple[Replicated, ...]:
    """What TP keeps whole on the stage, asking every block's mixers (as stages did before each
    block's were cached and summed)."""
    found: dict[tuple[str, int], Replicated] = {}
    for block, n in stage.blocks:
        ctx = block.context(h)
        for mixer in (block.mixer, block.parallel_mixer, block.cross_attention):
            one = mixer.tp_replicated(ctx) if mixer is not None else None
            if one is not None and one.numbers:
                key = one.what, one.g
                held = found[key].numbers if key in found else 0
                found[key] = one._replace(numbers=held + n * one.numbers)
    return tuple(sorted(found.values(), key=lambda r: (r.what, r.g)))


def _own_sizes(arch: Architecture, stage: Stage) -> tuple[int, int, int]:
    """The stage's layer parameters, adapters and routed experts, block by block."""
    parts = [(block_parts(block, arch.hidden_size), n) for block, n in stage.blocks]
    params = sum(n * sum(p.values()) for p, n in parts)
    adapters = sum(n * (p.get("lora", 0) + p.get("adapters", 0)) for p, n in parts)
    return params, adapters, sum(n * p.get("moe_experts", 0) for p, n in parts)


@settings(max_examples=examples(30), deadline=None)
@given(preset=st.sampled_from([*PRESETS, "bamba-9b", "qwen3-next-80b-a3b", "hybrid"]), pp=st.integers(1, 64))
def test_each_stage_sums_its_blocks_own_figures(preset: str, pp: int) -> None:
    # Stages sum what TP keeps whole from each run's block, and count a run that lies within a
    # stage whole: both must be what asking every block and run of the stage gives.
    arch = _hybrid() if preset == "hybrid" else load_builtin(preset)
    assume(pp <= arch.num_layers)
    stages = model_layout(arch, pp).stages
    for stage in stages:
        assert stage.replicated == _own_replicated(stage, arch.hidden_size)
        assert stage.blocks == _own_held(arch, stage.first, stage.first + stage.count)
    layers = [_own_sizes(arch, stage) for stage in stages]
    assert sum(stage.experts for stage in stages) == sum(experts for _, _, experts in layers)
    assert [stage.adapters for stage in stages] == [adapters for _, adapters, _ in layers]
    report = count_parameters(arch)
    assert sum(params for params, _, _ in layers) == sum(row.params * row.layers for row in report.groups)
    for stage, (params, _, _) in zip(stages[1:-1], layers[1:-1], strict=True):
        assert stage.params == params  # a middle stage holds only its layers


@st.composite
def training_tables(draw: st.DrawFn) -> tuple[str, Scenario, int]:
    preset = draw(st.sampled_from(PRESETS))
    fields: dict[str, Any] = {
        "mode": "training",
        "zero": draw(st.integers(0, 3)),
        "ep": draw(st.sampled_from([1, 2, 8])),
        "vocab_padding": draw(st.booleans()),
        "optimizer": draw(st.sampled_from(["adamw", "adam8bit", "sgd", "none"])),
        "grad_dtype": draw(st.sampled_from(["bf16", "fp32"])),
        "dtype": draw(st.sampled_from(["bf16", "fp32"])),
        "context": draw(st.integers(1, 8192)),
        "recompute": draw(st.sampled_from(["none", "selective", "full"])),
    }
    if draw(st.booleans()):
        fields |= {"lora_rank": draw(st.sampled_from([8, 64])), "qlora": draw(st.booleans())}
    try:
        return preset, Scenario(**fields), draw(st.sampled_from(COUNTS))
    except ValidationError:
        assume(False)
        raise


@SETTINGS
@given(drawn=training_tables(), shift=st.integers(-2, 2))
def test_the_fit_table_chooses_as_if_it_tried_every_layout(
    drawn: tuple[str, Scenario, int], shift: int
) -> None:
    # The fit table skips the lower ZeRO stages of a layout whose highest does not fit: sound only
    # if sharding more never adds bytes. Check that, and that it chooses what trying every layout
    # in turn chooses (the first that fits, else the first of the least), at capacities around
    # every layout's total.
    preset, s, count = drawn
    arch = load_builtin(preset)
    assume(scenario_problem(arch, s.model_copy(update={"tp": 1, "pp": 1, "gpus": 1})) is None)
    groups = fit._options(arch, s, count)
    for group in groups:
        totals = [max(plan.total for plan in stage_plans(arch, option.layout)) for option in group]
        assert totals == sorted(totals, reverse=True)
    layouts = setup_layouts(arch, s, count)
    every = [max(plan.total for plan in stage_plans(arch, layout)) for layout in layouts]
    for capacity in sorted({total + shift for total in every}):
        fitting = [i for i, total in enumerate(every) if total <= capacity]
        expected = fitting[0] if fitting else every.index(min(every))
        chosen, fits = fit._choose(fit._options(arch, s, count), capacity)
        assert (chosen.layout, fits) == (layouts[expected], bool(fitting))


def _per_tensor(arch: Architecture, quant: str) -> list[list[list[tuple[str, int]]]]:
    """Running sums by type, tensor by tensor (as llama.cpp meets them), nothing made once per block."""
    t = gguf_types._traits(arch, quant)
    distinct, which = gguf_types._layer_blocks(arch)
    layouts = [gguf_types._block_layout(block, arch.hidden_size) for block in distinct]
    n_v = sum(m.category == "attn_v" for number in which for m in layouts[number][0])
    i_v = i_down = 0
    sums: list[list[list[tuple[str, int]]]] = [[[]], [[]], [[]]]
    every: dict[str, int] = {}
    routed: dict[str, int] = {}
    kv: dict[str, int] = {}
    for index, number in enumerate(which):
        matrices, unquantized, rest = layouts[number]
        every["F32"] = every.get("F32", 0) + unquantized
        every[t.default] = every.get(t.default, 0) + rest
        for m in matrices:
            if m.category == "attn_v":
                kind, i_v = gguf_types._attn_v_type(t, i_v, n_v), i_v + 1
            elif m.category == "ffn_down":
                i = index if t.n_expert > 1 else i_down
                kind, i_down = gguf_types._ffn_down_type(t, i, t.n_layer), i_down + 1
            elif m.category == "attn_k" and t.n_expert == 8:
                kind = "Q8_0"
            elif m.category == "attn_output":
                kind = gguf_types._attn_output_type(t)
            else:
                kind = t.default
            kind = gguf_types._fallback(kind, m.ncols)
            for total, counted in ((every, True), (routed, m.routed), (kv, m.kv)):
                if counted:
                    total[kind] = total.get(kind, 0) + m.numel
        for one, total in zip(sums, (every, routed, kv), strict=True):
            one.append(list(total.items()))
    return sums


@pytest.mark.parametrize(
    "preset", [*PRESETS, "llama-2-7b", "qwen3-30b-a3b", "qwen3-next-80b-a3b", "phi-3-mini-4k"]
)
def test_gguf_types_by_layer_are_those_summed_tensor_by_tensor(preset: str) -> None:
    arch = load_builtin(preset)
    for quant in gguf_types.GGUF_DEFAULT_TYPES:
        made = [[list(prefix.items()) for prefix in part] for part in gguf_types._per_layer(arch, quant)]
        assert made == _per_tensor(arch, quant)


def _serving_plans(drawn: tuple[str, Scenario], pp: int) -> tuple[tuple[StagePlan, ...], int, int]:
    """The distinct stage plans of an inference scenario on ``pp`` stages, the most fixed bytes of
    them, and the longest context worth fitting."""
    preset, s = drawn
    arch = load_builtin(preset)
    assume(s.mode == "inference" and pp <= arch.num_layers)
    s = s.model_copy(update={"tp": 1, "pp": pp, "gpus": pp})
    assume(scenario_problem(arch, s) is None)
    distinct = tuple({id(plan): plan for plan in stage_plans(arch, s)}.values())
    return distinct, max(plan.fixed for plan in distinct), fit._context_limit(arch, s)


@SETTINGS
@given(drawn=scenarios(), pp=st.sampled_from([1, 2, 4, 8, 16, 32]), spare=st.integers(0, 10**11))
def test_the_longest_context_is_found_among_the_plans_that_may_bind_it(
    drawn: tuple[str, Scenario], pp: int, spare: int
) -> None:
    # Of plans that grow alike only the earliest with the most fixed bytes is tried; the longest
    # context must be the one found by trying every distinct plan.
    distinct, fixed, limit = _serving_plans(drawn, pp)
    capacity = fixed + spare
    expected = fit._max_context(distinct, fixed, capacity, limit)
    assert fit._max_context(fit._contenders(distinct), fixed, capacity, limit) == expected


@SETTINGS
@given(
    drawn=scenarios(),
    pp=st.sampled_from([1, 2, 4, 8, 16, 32]),
    spares=st.lists(st.integers(-(10**9), 10**11), min_size=1, max_size=12),
)
def test_the_longest_contexts_of_many_capacities_are_each_capacitys_own(
    drawn: tuple[str, Scenario], pp: int, spares: list[int]
) -> None:
    # The fit table walks each plan's caps once for every capacity of the table, carrying its place
    # from one capacity to the next; each context must be the one a walk from the start finds,
    # and fit where one token more does not.
    distinct, fixed, limit = _serving_plans(drawn, pp)
    capacities = sorted({fixed + spare for spare in spares if fixed + spare >= 0})
    assume(capacities)
    together = fit._max_contexts(distinct, fixed, capacities, limit)
    # Capacities where every stage fits at the limit skip the walk: the walk gives the limit too.
    assert together == fit._searched_contexts(distinct, fixed, capacities, limit)
    for capacity, context in zip(capacities, together, strict=True):
        assert context == fit._max_context(distinct, fixed, capacity, limit)
        busiest = max(plan.fixed + fit._cost(plan.pieces, context) for plan in distinct)
        assert context == 0 or busiest <= capacity
        if context < limit:
            assert any(plan.fixed + fit._cost(plan.pieces, context + 1) > capacity for plan in distinct)


@SETTINGS
@given(
    drawn=scenarios(),
    pp=st.sampled_from([2, 3, 5, 8, 16, 32]),
    micro_batches=st.none() | st.integers(1, 40),
    lora=st.booleans(),
)
def test_the_busiest_stage_is_among_those_the_fit_table_tries(
    drawn: tuple[str, Scenario], pp: int, micro_batches: int | None, lora: bool
) -> None:
    # In training the fit table skips a stage holding what an earlier one holds: it may never need
    # more bytes than every stage's own terms say the busiest needs.
    preset, s = drawn
    arch = load_builtin(preset)
    assume(s.mode == "training" and pp <= arch.num_layers)
    update: dict[str, Any] = {"pp": pp, "gpus": s.tp * pp * s.dp, "micro_batches": micro_batches}
    if lora:
        update |= {"lora_rank": 8, "quant": "nf4"}
    if s.virtual_stages > 1:
        update["virtual_stages"] = min(s.virtual_stages, arch.num_layers // pp)
    try:
        s = Scenario(**{**s.model_dump(), **update})
    except ValidationError:
        assume(False)
    assume(scenario_problem(arch, s) is None)
    every = [sum(term.value for term in terms) for terms in stage_terms(arch, s)]
    tried = busiest_plans(arch, s)
    assert len(tried) <= len(every)
    assert max(plan.total for plan in tried) == max(every) == estimate_memory(arch, s).total_bytes


def _held_run_by_run(
    on_stage: list[tuple[int, int]], sizes: tuple[Any, ...]
) -> tuple[tuple[tuple[object, int], ...], int, int, int, tuple[Replicated, ...], int]:
    """What a stage holds, summed run by run (as stages did before they counted layers by block)."""
    held: dict[int, tuple[object, int]] = {}
    kept: dict[tuple[str, int], tuple[Replicated, int]] = {}
    params = adapters = experts = frozen = 0
    for number, n in on_stage:
        block, block_params, block_adapters, block_experts, replicated, block_frozen = sizes[number]
        frozen += n * block_frozen
        known = held.get(id(block))
        held[id(block)] = (block, known[1] + n if known else n)
        params += n * block_params
        adapters += n * block_adapters
        experts += n * block_experts
        for one in replicated:
            first, numbers = kept.get((one.what, one.g), (one, 0))
            kept[one.what, one.g] = (first, numbers + n * one.numbers)
    found = sorted(
        (one._replace(numbers=numbers) for one, numbers in kept.values()), key=lambda r: (r.what, r.g)
    )
    return tuple(held.values()), params, adapters, experts, tuple(found), frozen


@settings(max_examples=examples(40), deadline=None)
@given(
    preset=st.sampled_from([*PRESETS, "bamba-9b", "qwen3-next-80b-a3b", "hybrid"]),
    picks=st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 40)), min_size=0, max_size=60),
)
def test_a_stage_counted_by_block_holds_what_its_runs_hold_run_by_run(
    preset: str, picks: list[tuple[int, int]]
) -> None:
    # ``_held`` counts a stage's layers block by block and multiplies each block's figures once;
    # any runs with any layers on the stage must give what adding them run by run gives.
    arch = _hybrid() if preset == "hybrid" else load_builtin(preset)
    sizes = stages_module._run_sizes(arch)
    on_stage = sorted({number % len(sizes): n for number, n in picks}.items())
    assert stages_module._held(on_stage, sizes) == _held_run_by_run(on_stage, sizes)
