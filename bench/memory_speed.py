"""How fast is the full memory table (per-GPU terms, FLOPs, every GPU kind × count) for DeepSeek-V3?

    python bench/memory_speed.py [--preset deepseek-v3] [--repeat 200]

Target: ≤ 2 ms in-process. Prints the median of three cases:
- new scenario: the memory caches are cleared (the parameter count of the architecture stays
  cached, as it does in the window while only the scenario is edited);
- new architecture: the parameter count is cleared too;
- repeat: the same question again (a redraw).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

from paramtally.core import count, fit, flops, memory, plans, stages
from paramtally.core.gpus import load_catalog
from paramtally.core.memory import Scenario, estimate_memory
from paramtally.core.presets import load_builtin

TARGET_MS = 2.0


def _clear_memory() -> None:
    for cached in (
        memory._estimate,
        plans.stage_plans,
        flops._estimate,
        flops.forward_per_token,
        stages.model_layout,
    ):
        cached.cache_clear()


def _clear_all() -> None:
    _clear_memory()
    count.count_parameters.cache_clear()


def _median_ms(work: Callable[[], object], before: Callable[[], None], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        before()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="deepseek-v3")
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    arch = load_builtin(args.preset)
    scenario = Scenario()
    catalog = load_catalog()

    def table() -> object:
        return (
            estimate_memory(arch, scenario),
            flops.estimate_flops(arch, scenario, catalog),
            fit.fit_setups(arch, scenario, catalog),
        )

    table()
    setups = len(fit.fit_setups(arch, scenario, catalog))
    cases = {
        "new scenario": _median_ms(table, _clear_memory, args.repeat),
        "new architecture": _median_ms(table, _clear_all, max(args.repeat // 4, 5)),
        "repeat": _median_ms(table, lambda: None, args.repeat),
    }
    print(
        f"{arch.name}: memory terms + FLOPs + {setups} setups ({len(catalog)} GPU kinds × {len(fit.COUNTS)})"
    )
    for name, ms in cases.items():
        verdict = "within" if ms <= TARGET_MS else "OVER"
        print(f"  {name:<17} {ms:7.3f} ms  ({ms / TARGET_MS:.2f}× the {TARGET_MS:g} ms target: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
