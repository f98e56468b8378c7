#!/usr/bin/env python3
"""Measure what T5Gemma's encoder and decoder layers keep for backward, per layer.

A development tool (torch and transformers 5.24; the product never imports either), run with
``tools/measure_activations.py``'s method: tiny T5GemmaForConditionalGeneration models built from
config dicts, bf16, training mode, eager (the class refuses SDPA), s token ids on both sides; per
layer = the model with two layers in one stack (one in the other) − the model with one in each.
The layer counts sit in the nested ``encoder`` and ``decoder`` configs, which
``measure_activations.build`` does not reach: this tool builds the models itself.

    python tools/measure_t5gemma_activations.py    # tests/golden/t5gemma_activations.json
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

import measure_activations as ma
import torch
import transformers
from transformers import T5GemmaConfig, T5GemmaForConditionalGeneration

OUT = ma.ROOT / "tests" / "golden" / "t5gemma_activations.json"


def _stack(kind: str, window: int) -> dict[str, Any]:
    return {
        "hidden_size": 512,
        "intermediate_size": 1376,
        "num_attention_heads": 8,
        "num_key_value_heads": 2,
        "head_dim": 64,
        "vocab_size": ma.VOCAB,
        "max_position_embeddings": 512,
        "sliding_window": window,
        "layer_types": [kind] * 2,
    }


# Full layers, and sliding ones of a window far inside s (eager attention still scores all s keys).
CASES: dict[str, dict[str, Any]] = {
    "full": {
        "model_type": "t5gemma",
        "encoder": _stack("full_attention", 4096),
        "decoder": _stack("full_attention", 4096),
    },
    "sliding-16": {
        "model_type": "t5gemma",
        "encoder": _stack("sliding_attention", 16),
        "decoder": _stack("sliding_attention", 16),
    },
}


def layered(config: dict[str, Any], grown: str, layers: int) -> dict[str, Any]:
    """``config`` with ``layers`` layers in the ``grown`` stack and one in the other."""
    out = copy.deepcopy(config)
    for side in ("encoder", "decoder"):
        n = layers if side == grown else 1
        out[side]["num_hidden_layers"] = n
        out[side]["layer_types"] = out[side]["layer_types"][:n]
    return out


def _build(
    config: dict[str, Any], layers: int, key: str | tuple[str, ...], attention: str
) -> torch.nn.Module:
    assert isinstance(key, str)
    values = layered(config, key, layers)
    cfg = T5GemmaConfig(encoder=values["encoder"], decoder=values["decoder"])
    torch.manual_seed(0)
    model = T5GemmaForConditionalGeneration._from_config(cfg, attn_implementation=attention)
    return model.to(torch.bfloat16).train()


def main() -> int:
    ma.build = _build  # saved_bytes builds through it; the stack's name is the layer key here
    ma.SEQ2SEQ = ma.SEQ2SEQ | {"t5gemma"}  # token ids on both sides
    entries = []
    for name, config in CASES.items():
        for grown in ("encoder", "decoder"):
            one, _ = ma.saved_bytes(config, 1, grown, "eager")
            two, _ = ma.saved_bytes(config, 2, grown, "eager")
            entries.append(
                {
                    "name": f"{name}-{grown}-eager",
                    "config": config,
                    "stack": grown,
                    "attention": "eager",
                    "dtype": "bf16",
                    "seq": ma.SEQ,
                    "batch": ma.BATCH,
                    "per_layer": two - one,
                }
            )
            print(f"{entries[-1]['name']:<28} per layer {two - one:>12,} B")
    data = {
        "_generated_by": "tools/measure_t5gemma_activations.py",
        "_versions": {"torch": torch.__version__, "transformers": transformers.__version__},
        "_method": "measure_activations.py's: saved_tensors_hooks, distinct storages, per layer = L2 − L1",
        "cases": entries,
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ma.ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
