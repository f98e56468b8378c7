#!/usr/bin/env python3
"""Measure which parameters transformers 5.24 builds frozen (``requires_grad`` false) in every
published config the importer reads (tests/golden/frozen_params.json, read by
tests/core/test_frozen_params.py).

A frozen parameter is in ``model.parameters()`` — in the count and the weights — but an optimizer
built the usual way (``p for p in model.parameters() if p.requires_grad``) keeps no gradient or
state for it: Marian's and Pegasus's sinusoidal position tables (``nn.Embedding(..., _freeze=True)``),
Whisper's encoder positions (``embed_positions.requires_grad_(False)``). Each config is built as
the golden scripts build it (tools/measure_v3.py's class choice) on the meta device; the entry
lists the frozen tensors by name and shape, and only configs with some are written. Needs torch
and transformers; the test suite only reads the file.

    python tools/measure_frozen_params.py           # write tests/golden/frozen_params.json
    python tools/measure_frozen_params.py --check   # measure again, exit 1 where an entry differs
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import measure_v3 as v3
from measure_golden import versions

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "frozen_params.json"
DIRS = ("hf_configs", "hf_configs_v2", "hf_configs_v3")


def _configs() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for folder in DIRS:
        for path in sorted((ROOT / "tests" / "data" / folder).glob("*.json")):
            found.append((f"{folder}/{path.stem}", json.loads(path.read_text())))
    return found


def _measure(d: dict[str, Any]) -> dict[str, Any] | None:
    model = v3.build(d)
    frozen = {name: list(p.shape) for name, p in model.named_parameters() if not p.requires_grad}
    if not frozen:
        return None
    total = sum(p.numel() for p in model.parameters())
    return {
        "model_class": type(model).__name__,
        "total": total,
        "frozen": sum(p.numel() for p in model.parameters() if not p.requires_grad),
        "tensors": frozen,
    }


def run() -> dict[str, Any]:
    result: dict[str, Any] = {"_generated_by": versions("python tools/measure_frozen_params.py")}
    for name, d in _configs():
        try:
            entry = _measure(d)
        except Exception as exc:  # a config no Auto class builds alone is measured elsewhere
            print(f"{name:50s} not built: {type(exc).__name__}: {str(exc)[:80]}")
            continue
        if entry is not None:
            result[name] = entry
            print(
                f"{name:50s} {entry['model_class']:32s} frozen {entry['frozen']:>12,d} of {entry['total']:,}"
            )
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="measure again, write nothing")
    args = parser.parse_args()
    result = run()
    if args.check:
        stored = json.loads(OUT.read_text())
        wrong = [name for name in result if name[0] != "_" and stored.get(name) != result[name]]
        print("differs: " + ", ".join(wrong) if wrong else "all entries match")
        return 1 if wrong else 0
    OUT.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
