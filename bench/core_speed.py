"""How fast is a full parameter breakdown, against instantiating the real model on the meta device?

    python bench/core_speed.py            # calculator only
    /path/to/torch-venv/bin/python bench/core_speed.py   # also transformers on the meta device

Prints the median time per full breakdown (cache bypassed) and, when torch and transformers are
importable, the median meta-device instantiation time, the ratio, and whether the totals agree.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from paramtally.core.count import count_parameters  # noqa: E402
from paramtally.core.presets import load_builtin  # noqa: E402

MODELS = ("deepseek-v3", "llama-3.1-405b")


def median_seconds(function, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def breakdown_time(preset_id: str) -> tuple[float, int]:
    arch = load_builtin(preset_id)
    uncached = count_parameters.__wrapped__  # type: ignore[attr-defined]
    return median_seconds(lambda: uncached(arch), 200), uncached(arch).total


def meta_time(preset_id: str) -> tuple[float, int] | None:
    try:
        import torch
        import transformers
    except ImportError:
        return None
    config = json.loads((ROOT / "tests" / "data" / "hf_configs" / f"{preset_id}.json").read_text())
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
        ours, total = breakdown_time(preset_id)
        line = f"{preset_id:16} breakdown {ours * 1e3:8.3f} ms  total {total:,}"
        measured = meta_time(preset_id)
        if measured:
            theirs, their_total = measured
            same = "identical" if their_total == total else f"DIFFERENT ({their_total:,})"
            line += f" | meta-device {theirs:7.2f} s  ratio {theirs / ours:,.0f}×  totals {same}"
        print(line)


if __name__ == "__main__":
    main()
