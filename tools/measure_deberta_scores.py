#!/usr/bin/env python3
"""Measure what DeBERTa-v2's relative-position scores cost beyond plain attention: the FLOPs and
the activation bytes of ``DisentangledSelfAttention.disentangled_attention_bias`` (transformers
5.24, ``models/deberta_v2/modeling_deberta_v2.py``) for each ``pos_att_type`` (tests/golden/
deberta_scores.json, read by tests/core/test_deberta_scores.py).

A tiny ``DebertaV2Model`` is built on the CPU from its config alone (nothing downloaded) and run
forward once on random ids, at 1 and at 2 layers: per layer = measured(L=2) − measured(L=1). Beside
that, whole forward passes (``forward``: FLOPs by operator) of each case at 1 and 2 layers, 1 and 2
sequences of 32, 128 and 256 tokens, with and without ``share_att_key``: the relative table's
projections run once per layer and pass, whatever the tokens and the batch.

* FLOPs: ``torch.utils.flop_counter.FlopCounterMode`` (matmuls: 2 per multiply-add), by operator.
* Activations: in bf16 and training mode, every tensor autograd saves for backward passes through
  ``torch.autograd.graph.saved_tensors_hooks``; the bytes are those of the distinct storages
  saved (parameters excluded), as tools/measure_activations.py counts them. Each case also lists
  the saved tensors the plain case (``pos_att_type`` empty) does not have.

Needs torch and transformers; the test suite only reads the file.

    python tools/measure_deberta_scores.py           # write tests/golden/deberta_scores.json
    python tools/measure_deberta_scores.py --check   # measure again, exit 1 where a number differs
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import torch
from measure_golden import versions
from torch.utils.flop_counter import FlopCounterMode
from transformers import DebertaV2Config, DebertaV2Model

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "deberta_scores.json"
SEQ, BATCH = 128, 2
BASE: dict[str, Any] = {
    "model_type": "deberta-v2",
    "hidden_size": 64,
    "num_attention_heads": 4,
    "intermediate_size": 128,
    "vocab_size": 100,
    "max_position_embeddings": 512,
    "relative_attention": True,
    "position_buckets": 16,
    "max_relative_positions": -1,
    "position_biased_input": False,
    "norm_rel_ebd": "layer_norm",
    "hidden_dropout_prob": 0.0,
    "attention_probs_dropout_prob": 0.0,
}
CASES: dict[str, dict[str, Any]] = {
    "none": {"pos_att_type": [], "share_att_key": True},
    "c2p": {"pos_att_type": ["c2p"], "share_att_key": True},
    "p2c": {"pos_att_type": ["p2c"], "share_att_key": True},
    "c2p-p2c": {"pos_att_type": ["p2c", "c2p"], "share_att_key": True},
    "c2p-p2c-own-projections": {"pos_att_type": ["p2c", "c2p"], "share_att_key": False},
    "c2p-own-projection": {"pos_att_type": ["c2p"], "share_att_key": False},
    "p2c-own-projection": {"pos_att_type": ["p2c"], "share_att_key": False},
}
SAVED_CASES = ("none", "c2p", "p2c", "c2p-p2c", "c2p-p2c-own-projections")  # per layer, at SEQ and BATCH


# Whole forward passes, for the FLOPs per forward: each case at a few lengths and batches, at 1 and
# 2 layers (what runs once per layer and pass, per token and outside the layers, apart).
FORWARD_CASES = (
    "none",
    "c2p",
    "c2p-p2c",
    "c2p-own-projection",
    "p2c-own-projection",
    "c2p-p2c-own-projections",
)
FORWARD_SEQS, FORWARD_BATCHES, FORWARD_LAYERS = (32, 128, 256), (1, 2), (1, 2)


def _model(config: dict[str, Any], layers: int) -> DebertaV2Model:
    torch.manual_seed(0)
    clean = {k: v for k, v in config.items() if k != "model_type"}
    return DebertaV2Model(DebertaV2Config(**clean, num_hidden_layers=layers))


def _ids(batch: int = BATCH, seq: int = SEQ) -> torch.Tensor:
    torch.manual_seed(1)
    return torch.randint(0, BASE["vocab_size"], (batch, seq))


def _flops(config: dict[str, Any], layers: int, batch: int = BATCH, seq: int = SEQ) -> dict[str, int]:
    model = _model(config, layers)
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        model(_ids(batch, seq))
    return {str(op): int(n) for op, n in counter.get_flop_counts()["Global"].items()}


def _forward_flops() -> dict[str, Any]:
    """Each case's whole forward pass: FLOPs by operator, by layers, batch and length."""
    found: dict[str, Any] = {}
    for name in FORWARD_CASES:
        config = {**BASE, **CASES[name]}
        runs = []
        for layers in FORWARD_LAYERS:
            for batch in FORWARD_BATCHES:
                for seq in FORWARD_SEQS:
                    flops = _flops(config, layers, batch, seq)
                    runs.append({"layers": layers, "batch": batch, "seq": seq, "flops": flops})
                    print(f"{name:26s} L={layers} b={batch} s={seq:3d} {flops} total {sum(flops.values()):,}")
        found[name] = {"config": CASES[name], "runs": runs}
    return found


def _saved(config: dict[str, Any], layers: int) -> tuple[int, Counter[tuple[Any, ...]]]:
    model = _model(config, layers).to(torch.bfloat16).train()
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    storages: dict[int, tuple[Any, ...]] = {}
    held: list[torch.Tensor] = []  # keep every saved tensor alive: no storage address is reused

    def pack(t: torch.Tensor) -> torch.Tensor:
        storage = t.untyped_storage()
        if storage.data_ptr() not in params:
            node = t.grad_fn.name() if t.grad_fn is not None else None
            storages[storage.data_ptr()] = (storage.nbytes(), list(t.shape), str(t.dtype), node)
            held.append(t)
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        model(_ids())
    return sum(v[0] for v in storages.values()), Counter(json.dumps(v) for v in storages.values())


def run() -> dict[str, Any]:
    result: dict[str, Any] = {
        "_generated_by": versions("python tools/measure_deberta_scores.py"),
        "seq": SEQ,
        "batch": BATCH,
        "base": BASE,
        "cases": {},
    }
    plain_tensors = _saved({**BASE, **CASES["none"]}, 1)[1]
    for name, case in CASES.items():
        if name not in SAVED_CASES:
            continue
        config = {**BASE, **case}
        one, two = _flops(config, 1), _flops(config, 2)
        saved_one, tensors = _saved(config, 1)
        saved_two, _ = _saved(config, 2)
        extra = sorted((tensors - plain_tensors).elements())
        result["cases"][name] = {
            "config": case,
            "flops_per_layer": {op: two.get(op, 0) - one.get(op, 0) for op in sorted(two)},
            "activation_bytes_per_layer": saved_two - saved_one,
            "extra_saved_tensors": [json.loads(one_tensor) for one_tensor in extra],
        }
        flops = result["cases"][name]["flops_per_layer"]
        print(f"{name:26s} flops/layer {flops} bytes/layer {saved_two - saved_one:,}")
    result["forward"] = _forward_flops()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="measure again, write nothing")
    args = parser.parse_args()
    result = run()
    if args.check:
        stored = json.loads(OUT.read_text())
        wrong = [name for name, case in result["cases"].items() if stored["cases"].get(name) != case]
        forward = stored.get("forward", {})
        wrong += [f"forward {name}" for name, case in result["forward"].items() if forward.get(name) != case]
        print("differs: " + ", ".join(wrong) if wrong else "all cases match")
        return 1 if wrong else 0
    OUT.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
