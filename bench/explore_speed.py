"""How fast are the design-space sweep, compare and goal-seek, after an edit?

    python bench/explore_speed.py

The sweep: a 64 × 64 grid recomputed right after the architecture was edited (every cache keyed
by the architecture misses; target ≤ 50 ms), the last case with the fits boundary of a setup too
(DeepSeek-V3 on 16 H200: memory per GPU at that setup's layout as well), by its model
(interpolated terms, exact) and, once, by evaluating every cell with the full calculator
("direct", what a plain loop costs), with the ratio of the two measured in the same run.
Compare and solve: medians after an edit too.
Timings on a shared machine are noisy; the ratios within one run are what to read.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from paramtally.core.editing.edits import with_value
from paramtally.core.explore.compare import Column, compare
from paramtally.core.explore.solve import solve
from paramtally.core.explore.sweep import sweep
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.estimate import Scenario
from paramtally.core.schema import Architecture

TARGET_MS = 50.0
EDITS = 7
# (preset, x axis, y axis, figure, scenario, fits setup or None): each 64 × 64.
SWEEPS = (
    ("llama-3-8b", "hidden_size=1024:9088:128", "num_layers=1:64", "total", Scenario(), None),
    ("llama-3-8b", "hidden_size=1024:9088:128", "num_layers=1:64", "memory", Scenario(), None),
    ("llama-3-8b", "context=2048:131072:2048", "batch=1:64", "memory", Scenario(), None),
    ("mixtral-8x7b", "num_experts=1:64", "top_k=1:64", "active", Scenario(), None),
    ("mistral-7b-v0.1", "context=1024:65536:1024", "num_layers=1:64", "flops", Scenario(), None),
    ("llama-3-8b", "gpus=8:512:8", "num_layers=1:64", "time", Scenario(mode="training", tokens=10**12), None),
    ("jamba-v0.1", "hidden_size=1024:9088:128", "num_layers=8:512:8", "total", Scenario(), None),
    ("deepseek-v3", "num_experts=8:512:8", "top_k=1:64", "memory", Scenario(), None),
    ("deepseek-v3", "num_experts=8:512:8", "top_k=1:64", "memory", Scenario(), "h200-141gb:16"),
)


def edited(arch: Architecture, step: int) -> Architecture:
    """The architecture after an edit: a wider vocabulary each time (every cached figure misses)."""
    return with_value(arch, ("embeddings", "vocab_size"), arch.embeddings.vocab_size + 64 * step)


def median_ms(work: Callable[[Architecture], object], arch: Architecture, repeats: int = EDITS) -> float:
    times = []
    for step in range(1, repeats + 1):
        variant = edited(arch, step)
        start = time.perf_counter()
        work(variant)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def bench_sweeps() -> None:
    print(f"64 × 64 sweep recomputed after an edit (median of {EDITS}; target {TARGET_MS:g} ms):")
    for preset, x, y, figure, scenario, setup in SWEEPS:
        arch = load_builtin(preset)
        first = sweep(arch, scenario, x, y, figure, setup)  # warm: imports, compiled formulas
        model = median_ms(lambda a, s=scenario, x=x, y=y, f=figure, g=setup: sweep(a, s, x, y, f, g), arch)
        start = time.perf_counter()
        direct = sweep(edited(arch, EDITS + 1), scenario, x, y, figure, setup, direct=True)
        direct_ms = (time.perf_counter() - start) * 1e3
        verdict = "within" if model <= TARGET_MS else "OVER"
        how = f"{first.method}, {first.pieces} piece(s), {first.evaluations} evaluations; {verdict}"
        print(
            f"  {preset:16} {x.split('=')[0]:>11} × {y.split('=')[0]:<10} {figure:6} "
            f"{'fits ' + setup if setup else '':19} "
            f"model {model:7.1f} ms ({how})  every cell {direct_ms:7.0f} ms "
            f"({direct.evaluations} evaluations)  ratio {direct_ms / model:5.0f}×"
        )


def bench_compare_and_solve() -> None:
    llama, big, mixtral = (load_builtin(p) for p in ("llama-3-8b", "llama-3-70b", "mixtral-8x7b"))
    scenario = Scenario()

    def three(arch: Architecture) -> object:
        return compare([Column("a", arch), Column("b", big), Column("c", mixtral)], scenario)

    print("compare and solve after an edit (median):")
    print(f"  compare 3 columns (figures, parts, 98 setups each, diff)  {median_ms(three, llama):7.1f} ms")
    cases = (
        ("num_layers", "total=10e9", 1),
        ("hidden_size", "total=7e9", 128),
        ("context", "fits=h100-sxm-80gb:1", 1),
        ("batch", "memory=80GB", 1),
    )
    for field, target, multiple in cases:
        ms = median_ms(lambda a, f=field, t=target, m=multiple: solve(a, scenario, f, t, m), llama)
        flag = f" --multiple-of {multiple}" if multiple > 1 else ""
        print(f"  solve llama-3-8b --vary {field} --target {target}{flag}  {ms:7.1f} ms")


if __name__ == "__main__":
    bench_sweeps()
    bench_compare_and_solve()
