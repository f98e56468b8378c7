"""How fast are a full parameter breakdown and the memory terms, against building the real model?

    python bench/core_speed.py            # calculator only
    /path/to/torch-venv/bin/python bench/core_speed.py   # also transformers on the meta device

Prints medians with every cache cleared (as after an edit that changes every block): the full
breakdown, and the breakdown plus the memory per GPU of the default scenario (target ≤ 1 ms);
when torch and transformers are importable, also the meta-device instantiation time, the ratio
and whether the totals agree.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from paramtally.core.count import parameters as count  # noqa: E402
from paramtally.core.count.parameters import count_parameters  # noqa: E402
from paramtally.core.io.presets import load_builtin  # noqa: E402
from paramtally.core.memory import activations, kv_cache, stages  # noqa: E402
from paramtally.core.memory import estimate as memory  # noqa: E402
from paramtally.core.memory.estimate import Scenario, estimate_memory  # noqa: E402
from paramtally.core.schema import block, stack  # noqa: E402

MODELS = ("deepseek-v3", "qwen3-next-80b-a3b", "jamba-v0.1", "llama-3.1-405b")
CONFIGS = {
    "qwen3-next-80b-a3b": "hf_configs_v2/qwen3-next-80b-a3b-instruct",
    "jamba-v0.1": "hf_configs_v2/jamba-v0.1",
}
TARGET_MS = 1.0
_ = (activations, kv_cache)


def clear_caches() -> None:
    """Everything cached by value: the report, each block's terms, resolved overrides, the layout."""
    for cached in (
        count.count_parameters,
        count.block_parts,
        block.block_node,
        stack.resolve_block,
        stages.model_layout,
        memory._estimate,
    ):
        cached.cache_clear()


def median_seconds(function, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _cold(work: object, repeats: int = 200) -> float:
    times = []
    for _ in range(repeats):
        clear_caches()
        start = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def breakdown_time(preset_id: str) -> tuple[float, float, int]:
    arch = load_builtin(preset_id)
    scenario = Scenario()
    alone = _cold(lambda: count_parameters(arch))
    both = _cold(lambda: (count_parameters(arch), estimate_memory(arch, scenario)))
    return alone, both, count_parameters(arch).total


def meta_time(preset_id: str) -> tuple[float, int] | None:
    try:
        import torch
        import transformers
    except ImportError:
        return None
    name = CONFIGS.get(preset_id, f"hf_configs/{preset_id}")
    config = json.loads((ROOT / "tests" / "data" / f"{name}.json").read_text())
    model_type = config.pop("model_type")

    def build() -> int:
        cfg = transformers.AutoConfig.for_model(model_type, **config)
        with torch.device("meta"):
            model = transformers.AutoModelForCausalLM.from_config(cfg)
        return sum(p.numel() for p in model.parameters())

    total = build()
    return median_seconds(build, 3), total


def main() -> None:
    for preset_id in MODELS:
        ours, both, total = breakdown_time(preset_id)
        verdict = "within" if both * 1e3 <= TARGET_MS else "OVER"
        line = (
            f"{preset_id:20} breakdown {ours * 1e3:6.3f} ms, + memory {both * 1e3:6.3f} ms "
            f"({both * 1e3 / TARGET_MS:.2f}× the {TARGET_MS:g} ms target: {verdict})  total {total:,}"
        )
        measured = meta_time(preset_id)
        if measured:
            theirs, their_total = measured
            same = "identical" if their_total == total else f"DIFFERENT ({their_total:,})"
            line += f" | meta-device {theirs:7.2f} s  ratio {theirs / ours:,.0f}×  totals {same}"
        print(line)


if __name__ == "__main__":
    main()
