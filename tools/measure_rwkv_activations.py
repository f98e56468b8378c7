"""Activation bytes PyTorch keeps for backward in one RWKV-4 layer (``RwkvBlock``), as
tools/measure_activations.py measures them (its ``saved_bytes``: a tiny bf16 model in training mode,
s 256, b 2), at three widths so that the h-, A- and f-wide tensors can be told apart.

    python tools/measure_rwkv_activations.py           # tests/golden/activations_rwkv.json

Needs torch and transformers (the golden venv); RWKV runs its PyTorch WKV loop on the CPU
(``rwkv_linear_attention_cpu``). One layer is the difference of three- and two-layer models, not of
two and one: ``RwkvPreTrainedModel._init_weights`` divides by num_hidden_layers − 1, so a one-layer
model cannot be built off the meta device; the first layer's pre_ln cancels as well.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import measure_activations as ma
import measure_golden as mg

OUT = mg.ROOT / "tests" / "golden" / "activations_rwkv.json"
# (hidden_size, attention_hidden_size, intermediate_size)
WIDTHS = ((512, 512, 2048), (512, 256, 2048), (512, 512, 1024), (256, 256, 1024))
LAYERS = (2, 3)


def config(h: int, a: int, f: int) -> dict[str, Any]:
    return {
        "model_type": "rwkv",
        "hidden_size": h,
        "attention_hidden_size": a,
        "intermediate_size": f,
        "vocab_size": ma.VOCAB,
        "context_length": 512,
    }


def measure(h: int, a: int, f: int) -> dict[str, Any]:
    cfg = config(h, a, f)
    fewer, more = (ma.saved_bytes(cfg, n, "num_hidden_layers", "eager")[0] for n in LAYERS)
    return {
        "name": f"rwkv-h{h}-a{a}-f{f}",
        "config": cfg,
        "layers": list(LAYERS),
        "attention": "eager",
        "dtype": "bf16",
        "seq": ma.SEQ,
        "batch": ma.BATCH,
        "per_layer": more - fewer,
    }


def main() -> int:
    cases = [measure(*widths) for widths in WIDTHS]
    for case in cases:
        print(f"{case['name']:24s} {case['per_layer']:>12,d}")
    out = {"_generated_by": mg.versions("python tools/measure_rwkv_activations.py"), "cases": cases}
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
