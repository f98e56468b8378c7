"""Properties of the memory and fit engine over many small architectures (hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paramtally.core.memory.estimate import PARTS, Scenario, estimate_memory
from paramtally.core.memory.fit import CONTEXT_LIMIT, fit_setups
from paramtally.core.memory.gpus import GPU
from paramtally.core.schema import Architecture, thaw
from tests.core.strategies import architectures
from tests.hypothesis_budget import examples

SETTINGS = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _windowed(arch: Architecture, window: int) -> Architecture:
    """Every attention mixer (base blocks and group changes alike) slides over ``window`` tokens."""

    def slide(node: Any) -> Any:
        if isinstance(node, dict):
            if node.get("kind") == "attention" and "sliding_window" in node:
                return {**node, "sliding_window": window}
            return {key: slide(value) for key, value in node.items()}
        if isinstance(node, list | tuple):
            return [slide(item) for item in node]
        return node

    return Architecture.model_validate(slide(thaw(arch.model_dump())))


@SETTINGS
@given(arch=architectures(), zero=st.integers(0, 3), gpus=st.sampled_from([1, 2, 4, 8, 16]))
def test_more_gpus_never_raise_per_gpu_bytes(arch: Architecture, zero: int, gpus: int) -> None:
    few = estimate_memory(arch, Scenario(mode="training", zero=zero, gpus=gpus))
    many = estimate_memory(arch, Scenario(mode="training", zero=zero, gpus=2 * gpus))
    assert many.total_bytes <= few.total_bytes
    if zero == 3:
        assert many.weights_bytes <= few.weights_bytes
    if zero == 0:
        assert many.total_bytes == few.total_bytes


@SETTINGS
@given(arch=architectures(kinds=("attention",), encoders=False), window=st.integers(2, 4096), data=st.data())
def test_kv_is_linear_in_context_below_the_window(
    arch: Architecture, window: int, data: st.DataObject
) -> None:
    arch = _windowed(arch, window)
    s1 = data.draw(st.integers(1, window - 1))
    s2 = data.draw(st.integers(1, window - s1))

    def kv(context: int) -> int:
        return estimate_memory(arch, Scenario(context=context)).kv_cache_bytes

    assert kv(s1 + s2) == kv(s1) + kv(s2)
    assert kv(window + s1) == kv(window)  # every layer is windowed: no growth past it


@SETTINGS
@given(
    arch=architectures(),
    mode=st.sampled_from(["inference", "training"]),
    context=st.integers(1, 8192),
    batch=st.integers(1, 8),
    recompute=st.sampled_from(["none", "selective", "full"]),
    flash=st.booleans(),
)
def test_terms_add_up_and_grow_with_batch(
    arch: Architecture, mode: str, context: int, batch: int, recompute: str, flash: bool
) -> None:
    s = Scenario.model_validate(
        {"mode": mode, "context": context, "batch": batch, "recompute": recompute, "flash_attention": flash}
    )
    report = estimate_memory(arch, s)
    assert report.total_bytes == sum(term.value for term in report.terms)
    for term in report.terms:
        if term.growth is not None:
            p, q, per, cap, offset = term.growth
            grown = per * (context + offset) if cap is None else min(per * (context + offset), cap)
            assert term.value == -(-p * grown // q)  # the growth is the formula's own number
    assert all(report.by_part()[part] >= 0 for part in PARTS)
    bigger = estimate_memory(arch, s.model_copy(update={"batch": batch + 1}))
    assert bigger.total_bytes >= report.total_bytes


@SETTINGS
@given(
    arch=architectures(),
    memory=st.integers(10**6, 10**10),
    kv_dtype=st.sampled_from(["bf16", "fp8", "q8_0", "q4_0"]),
    batch=st.integers(1, 4),
)
def test_max_context_is_the_largest_that_fits(
    arch: Architecture, memory: int, kv_dtype: str, batch: int
) -> None:
    gpu = GPU(id="test", name="Test", memory_bytes=memory, bf16_tflops=1, bandwidth_gbs=1)
    s = Scenario.model_validate(
        {"kv_dtype": kv_dtype, "batch": batch, "cuda_context_bytes": 0, "utilization_cap": 1}
    )
    for fit in fit_setups(arch, s, catalog=(gpu,)):
        assert fit.max_context is not None
        # up to the positions, or the scenario's context where it is longer (issue 31, bug 10)
        limit = max(arch.max_positions or CONTEXT_LIMIT, s.context)
        assert fit.max_context <= limit
        assert (fit.max_context >= s.context) == fit.fits  # a row fits exactly when it reaches it
        if not 0 < fit.max_context < limit:
            continue
        layout = {"tp": fit.tp, "pp": fit.pp, "gpus": fit.count}
        at = estimate_memory(arch, s.model_copy(update={"context": fit.max_context, **layout}))
        past = estimate_memory(arch, s.model_copy(update={"context": fit.max_context + 1, **layout}))
        assert at.total_bytes <= fit.capacity_bytes < past.total_bytes
