#!/usr/bin/env python3
"""Measure what MiniMax-01's lightning-attention layer keeps for backward, per layer.

A development tool (torch and transformers 5.24; the product never imports either), run with
``tools/measure_activations.py``'s method: tiny MiniMaxForCausalLM models built from config dicts,
bf16, training mode, eager; per layer = the two-layer model's saved bytes − the one-layer model's.
Every layer of a case is lightning attention (``layer_types``), with MoE FFNs as MiniMax's; the
block size varies, since MiniMaxLightningAttention's PyTorch loop keeps per-block products.
The softmax case is the same model with full-attention layers (the FFN and norms ParamTally
already models exactly).

    python tools/measure_lightning_activations.py    # tests/golden/lightning_activations.json
"""

from __future__ import annotations

import json
import sys
from typing import Any

import measure_activations as ma
import torch
import transformers

OUT = ma.ROOT / "tests" / "golden" / "lightning_activations.json"

_BASE: dict[str, Any] = {
    "model_type": "minimax",
    "hidden_size": 512,
    "num_attention_heads": 8,
    "num_key_value_heads": 2,
    "head_dim": 64,
    "intermediate_size": 1376,
    "vocab_size": ma.VOCAB,
    "max_position_embeddings": 512,
    "num_local_experts": 4,
    "num_experts_per_tok": 2,
}
CASES: dict[str, dict[str, Any]] = {
    "lightning-block-64": {**_BASE, "block_size": 64, "layer_types": ["linear_attention"] * 2},
    "lightning-block-32": {**_BASE, "block_size": 32, "layer_types": ["linear_attention"] * 2},
    # a·d (4 × 96 = 384) other than h, two blocks of 128
    "lightning-wide-heads": {
        **_BASE,
        "num_attention_heads": 4,
        "head_dim": 96,
        "block_size": 128,
        "layer_types": ["linear_attention"] * 2,
    },
    "softmax": {**_BASE, "layer_types": ["full_attention"] * 2},
}


def main() -> int:
    entries = [ma.measure(name, "eager", CASES) for name in CASES]
    for entry in entries:
        print(f"{entry['name']:<28} per layer {entry['per_layer']:>12,} B")
    data = {
        "_generated_by": "tools/measure_lightning_activations.py",
        "_versions": {"torch": torch.__version__, "transformers": transformers.__version__},
        "_method": "measure_activations.py's: saved_tensors_hooks, distinct storages, per layer = L2 − L1",
        "cases": entries,
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ma.ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
