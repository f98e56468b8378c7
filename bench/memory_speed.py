"""How fast is the full memory table (per-GPU terms, FLOPs, every GPU kind × count) for DeepSeek-V3?

    python bench/memory_speed.py [--preset deepseek-v3] [--repeat 200]

Target: ≤ 2 ms in-process. Prints the median of three cases:
- new scenario: the memory caches are cleared (stage terms and plans, the KV and activation terms
  shared between alike stages, FLOPs, layouts; the parameter count and the per-block widths and
  caches of the architecture stay cached, as they do in the window while only the scenario is
  edited);
- new architecture: those are cleared too (an edit of the architecture);
- repeat: the same question again (a redraw);
and "new architecture" again for the scenarios issue 14 added terms to: a GGUF format (a type
per tensor, layer by layer), and training with expert parallelism and Megatron's vocabulary padding;
and for the 48-group hybrid stack of ``bench/gui_latency.py`` (Mamba-2, attention, gated DeltaNet and
MLA layers, some MoE: on 64 GPUs the fit table lays it out as TP 8 × PP 8, its Mamba-2 group
replicated on each TP rank).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

from gui_latency import hybrid_stack  # a sibling script (run from bench/, its folder is on the path)

from paramtally.core.count import parameters as count
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory import activations, fit, flops, gguf_types, kv_cache, stages
from paramtally.core.memory import estimate as memory
from paramtally.core.memory import stage_plans as plans
from paramtally.core.memory.estimate import Scenario, estimate_memory
from paramtally.core.memory.gpus import load_catalog
from paramtally.core.memory.scenario import with_changes
from paramtally.core.schema import Architecture, block

TARGET_MS = 2.0


def _clear_memory() -> None:
    for cached in (
        memory._estimate,
        memory.stage_terms,
        memory.busiest_candidates,
        activations.shared_training_terms,
        activations._inference_terms,
        kv_cache._kv_terms,
        plans.stage_plans,
        plans.busiest_plans,
        flops._estimate,
        flops.forward_per_token,
        flops.decode_per_token,
        flops._token_terms,
        stages.model_layout,
        gguf_types.stage_types,
        with_changes,  # the scenario's layouts: a new scenario has none made yet
    ):
        cached.cache_clear()


def _clear_all() -> None:
    _clear_memory()
    count.count_parameters.cache_clear()
    gguf_types._per_layer.cache_clear()
    activations._widest.cache_clear()
    activations._block_widths.cache_clear()
    activations._score_heads.cache_clear()
    kv_cache._caches.cache_clear()
    block._context.cache_clear()
    stages._run_spans.cache_clear()
    stages._run_sizes.cache_clear()
    stages._outside_layers.cache_clear()


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

    def table(s: Scenario = scenario, model: Architecture = arch) -> Callable[[], object]:
        def run() -> object:
            return (
                estimate_memory(model, s),
                flops.estimate_flops(model, s, catalog),
                fit.fit_setups(model, s, catalog),
            )

        run()
        return run

    hybrid = hybrid_stack()
    assert isinstance(hybrid, Architecture)
    gguf = Scenario(quant="q4_k_m")
    parallel = Scenario(mode="training", tp=8, gpus=64, ep=8, vocab_padding=True)
    setups = len(fit.fit_setups(arch, scenario, catalog))
    few = max(args.repeat // 4, 5)
    cases = {
        "new scenario": _median_ms(table(), _clear_memory, args.repeat),
        "new architecture": _median_ms(table(), _clear_all, few),
        "repeat": _median_ms(table(), lambda: None, args.repeat),
        "new arch, GGUF": _median_ms(table(gguf), _clear_all, few),
        "new arch, EP train": _median_ms(table(parallel), _clear_all, few),
        "hybrid, new arch": _median_ms(table(model=hybrid), _clear_all, few),
    }
    print(
        f"{arch.name}: memory terms + FLOPs + {setups} setups ({len(catalog)} GPU kinds × {len(fit.COUNTS)})"
    )
    for name, ms in cases.items():
        verdict = "within" if ms <= TARGET_MS else "OVER"
        print(f"  {name:<19} {ms:7.3f} ms  ({ms / TARGET_MS:.2f}× the {TARGET_MS:g} ms target: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
