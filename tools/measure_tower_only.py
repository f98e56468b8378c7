#!/usr/bin/env python3
"""Measure ``pixtral`` configs alone: ``PixtralVisionModel``, a vision tower with no language model
(tests/golden/tower_only.json, read by tests/core/test_tower_only.py).

The published Pixtral-12B vision encoder (tests/data/hf_configs_v3/pixtral-12b-vision-encoder.json)
and seeded random configs, each built with ``PixtralVisionModel`` on the meta device through
``measure_golden.measure`` (sum of ``p.numel()``). The parts are the module's own: ``patch_conv``,
``ln_pre`` and ``transformer.layers``. Some random configs set a ``head_dim`` other than
hidden_size / heads: 5.24's ``PixtralAttention`` builds its projections e×e whatever ``head_dim``
says (only the 2-D rotary table reads it). Needs torch and transformers; the test suite only reads
the file.

    python tools/measure_tower_only.py           # write tests/golden/tower_only.json
    python tools/measure_tower_only.py --check   # measure again, exit 1 where a total differs
    python tools/measure_tower_only.py --attention-flops  # a tiny tower's forward FLOPs (eager)

``--attention-flops`` runs a small tower forward under torch's FlopCounterMode with eager attention:
what its matmuls do beyond 2 FLOPs per weight and patch is the attention's, 4·L·n²·E over n patches
(QKᵀ and A·V over the whole score matrix, no causal half), which core/memory/flops.py counts.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from measure_golden import build, measure, numel, versions

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "tower_only.json"
PUBLISHED = ROOT / "tests" / "data" / "hf_configs_v3" / "pixtral-12b-vision-encoder.json"
CLASS = "PixtralVisionModel"
SEED, CASES = 37, 8


def _random(r: random.Random) -> dict[str, Any]:
    heads = r.choice([1, 2, 4])
    e = heads * r.choice([8, 16, 24])
    d: dict[str, Any] = {
        "model_type": "pixtral",
        "hidden_size": e,
        "num_attention_heads": heads,
        "num_hidden_layers": r.randint(1, 4),
        "intermediate_size": r.choice([2 * e, 4 * e, 100]),
        "patch_size": r.choice([2, 4, 14, 16]),
        "num_channels": r.choice([1, 3, 4]),
        "hidden_act": r.choice(["silu", "gelu"]),
        "head_dim": e // heads,
    }
    d["image_size"] = d["patch_size"] * r.choice([2, 4, 8])
    return d


def _cases() -> dict[str, dict[str, Any]]:
    r = random.Random(SEED)
    cases = {"pixtral-12b-vision-encoder": json.loads(PUBLISHED.read_text())}
    cases.update({f"pixtral-alone-{i:02d}": _random(r) for i in range(CASES)})
    # head_dim twice hidden_size / heads: the projections stay e×e.
    cases["pixtral-head-dim-apart"] = {**cases["pixtral-alone-00"], "head_dim": 2 * 24}
    return cases


def _parts(d: dict[str, Any]) -> dict[str, int]:
    model = build(d, CLASS)
    return {
        "patch_conv": numel(model.patch_conv),
        "ln_pre": numel(model.ln_pre),
        "layers": numel(model.transformer.layers),
    }


def run() -> dict[str, Any]:
    """As the randomized goldens are laid out (tests/core/test_hf_import.py reads them too)."""
    configs = []
    for name, d in _cases().items():
        entry = {"name": name, "config": d, **measure(d, CLASS), "parts": _parts(d)}
        configs.append(entry)
        print(f"{name:28s} {entry['model_class']:20s} {entry['total']:>14,d}")
    return {"_generated_by": versions("python tools/measure_tower_only.py"), "configs": configs}


def attention_flops() -> int:
    """Measured attention FLOPs of a tiny tower against 4·L·n²·E; 0 when they agree."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode
    from transformers import PixtralVisionConfig, PixtralVisionModel

    layers, width, side, patch = 2, 64, 64, 16
    config = PixtralVisionConfig(
        hidden_size=width, intermediate_size=2 * width, num_hidden_layers=layers, num_attention_heads=4,
        head_dim=width // 4, image_size=side, patch_size=patch,
    )  # fmt: skip
    config._attn_implementation = "eager"
    model = PixtralVisionModel(config).eval()
    with FlopCounterMode(display=False) as counter, torch.no_grad():
        model(pixel_values=torch.randn(1, 3, side, side), image_sizes=torch.tensor([[side, side]]))
    n = (side // patch) ** 2
    weights = sum(p.numel() for p in model.parameters() if p.dim() >= 2)  # the matmuls' (and the conv's)
    measured = counter.get_total_flops() - 2 * n * weights
    expected = 4 * layers * n * n * width
    print(f"attention FLOPs over {n} patches: measured {measured:,d}, 4·L·n²·E = {expected:,d}")
    return 0 if measured == expected else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="measure again, write nothing")
    parser.add_argument("--attention-flops", action="store_true", help="a tiny tower's attention FLOPs")
    args = parser.parse_args()
    if args.attention_flops:
        return attention_flops()
    result = run()
    if args.check:
        stored = {entry["name"]: entry["total"] for entry in json.loads(OUT.read_text())["configs"]}
        wrong = [entry["name"] for entry in result["configs"] if stored.get(entry["name"]) != entry["total"]]
        print("differs: " + ", ".join(wrong) if wrong else "all totals match")
        return 1 if wrong else 0
    OUT.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
