#!/usr/bin/env python3
"""Measure each vision tower's layers one by one (tests/golden/vision_layers.json, read by
tests/core/test_vision_layer_rows.py).

Every published vision-language config in tests/data/hf_configs_v3/ (those with a ``vision_config``)
and the Pixtral-12B vision encoder alone (``PixtralVisionModel``), built on the meta device by
``measure_v3.build``. A tower's parameter belongs to a layer when its name, inside the tower
(``measure_v3.VISION_PREFIXES``, not a projector prefix), runs through a numbered layer list
(``….layers.N.``, ``….layer.N.``, ``….blocks.N.``: ``measure_v3._LAYER_RE``). The layer lists are
listed in the order the module registers them (Mllama's ``transformer`` 32 layers, then its
``global_transformer`` 8), each layer's ``sum(p.numel())``; ``outside`` is the tower's rest (patch
embedding, positions, norms). ``layer_lists`` holds (prefix, [each layer's parameters]) pairs.
Needs torch and transformers; the test suite only reads the file.

    python tools/measure_vision_layers.py           # write tests/golden/vision_layers.json
    python tools/measure_vision_layers.py --check   # measure again, exit 1 where anything differs
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
OUT = ROOT / "tests" / "golden" / "vision_layers.json"
TOWER_ALONE = "pixtral-12b-vision-encoder"  # PixtralVisionModel: the whole module is the tower


def _in_tower(name: str, alone: bool) -> bool:
    if alone:
        return True
    return name.startswith(v3.VISION_PREFIXES) and not name.startswith(v3.PROJECTOR_PREFIXES)


def tower_layers(d: dict[str, Any], alone: bool) -> dict[str, Any]:
    """The tower's layer lists (prefix → each layer's parameters, by index) and the rest."""
    model = v3.build(d)
    lists: dict[str, dict[int, int]] = {}
    outside = 0
    for name, param in model.named_parameters():  # tied tensors once, as parameters() does
        if not _in_tower(name, alone):
            continue
        match = v3._LAYER_RE.match(name)
        if match is None:
            outside += param.numel()
            continue
        layers = lists.setdefault(match.group(1), {})
        index = int(match.group(2))
        layers[index] = layers.get(index, 0) + param.numel()
    return {
        "model_class": type(model).__name__,
        # Pairs, not an object: the file's keys are sorted, and the lists' order is the module's.
        "layer_lists": [[prefix, [layers[i] for i in sorted(layers)]] for prefix, layers in lists.items()],
        "outside": outside,
    }


def measure_all() -> dict[str, Any]:
    result: dict[str, Any] = {}
    for stem, d in v3.published_configs():
        alone = stem == TOWER_ALONE
        if not (alone or v3.is_vlm(d)):
            continue
        entry = tower_layers(d, alone)
        result[stem] = entry
        counts = ", ".join(f"{prefix}: {len(layers)}" for prefix, layers in entry["layer_lists"])
        print(f"{stem:40s} {counts}")
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="measure again and compare, write nothing")
    args = ap.parse_args(argv)
    measured = measure_all()
    if args.check:
        stored = json.loads(OUT.read_text(encoding="utf-8"))
        differing = [name for name, entry in measured.items() if stored.get(name) != entry]
        for name in differing:
            print(f"differs: {name}", file=sys.stderr)
        return 1 if differing else 0
    data = {"_generated_by": versions("python tools/measure_vision_layers.py"), **measured}
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
