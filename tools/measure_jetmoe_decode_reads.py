#!/usr/bin/env python3
"""Measure which of JetMoE's experts a decode step runs: its attention experts (``JetMoeMoA``: the
q projection ``experts.input_linear`` and the o projection ``experts.output_linear`` of k of E
experts per token, over one shared ``kv_proj``) and its MLP experts (``JetMoeMoE``), at several
batch sizes (transformers 5.24, ``models/jetmoe/modeling_jetmoe.py``; tests/golden/
jetmoe_decode_reads.json, read by tests/core/test_jetmoe_decode_reads.py).

A tiny ``JetMoeForCausalLM`` is built on the CPU from its config alone (nothing downloaded, random
weights). Each batch of b sequences is prefilled with a short random prompt, then one decode step
runs the b new tokens over the cache. A forward pre-hook on every ``JetMoeParallelExperts`` reads
its ``expert_size`` (the tokens routed to each expert) in that step: an expert given no token
multiplies an empty slice, reading none of its weights. Per layer and step it records how many
distinct experts got a token, for the attention's q and o (always the same set: ``reduce`` reuses
``map``'s routing) and for the MLP; the mean over layers and trials is set beside E·(1 − (1 − k/E)^b),
the expected distinct experts of uniform routing (ParamTally's decode reads,
``core/memory/decode_weight_reads.py``). At b = 1 a step runs exactly k of each; beyond, a random
router's mean over the 32 layer-steps falls near the uniform figure, on either side of it (a trained
router is skewed and runs fewer: the uniform figure is the most a batch reads on average).

Needs torch and transformers; the test suite only reads the file.

    python tools/measure_jetmoe_decode_reads.py           # write tests/golden/jetmoe_decode_reads.json
    python tools/measure_jetmoe_decode_reads.py --check   # measure again, exit 1 where a number differs
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import torch
from measure_golden import versions
from transformers import JetMoeConfig, JetMoeForCausalLM

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "jetmoe_decode_reads.json"
CONFIG: dict[str, Any] = {
    "model_type": "jetmoe",
    "vocab_size": 128,
    "hidden_size": 64,
    "num_hidden_layers": 4,
    "num_key_value_heads": 2,
    "kv_channels": 16,
    "intermediate_size": 96,
    "max_position_embeddings": 256,
    "num_local_experts": 8,
    "num_experts_per_tok": 2,
    "tie_word_embeddings": True,
}
BATCHES = (1, 2, 4, 8, 16, 64)
PROMPT, TRIALS = 8, 8


def _model(seed: int) -> JetMoeForCausalLM:
    torch.manual_seed(seed)
    clean = {k: v for k, v in CONFIG.items() if k != "model_type"}
    model = JetMoeForCausalLM(JetMoeConfig(**clean))
    model.eval()
    return model


def _step_experts(model: JetMoeForCausalLM, batch: int, seed: int) -> dict[str, list[int]]:
    """Distinct experts given a token in one decode step, per layer: attention q, attention o, MLP."""
    seen: dict[str, list[int]] = {"attention_q": [], "attention_o": [], "mlp_in": [], "mlp_out": []}
    recording = False

    def hook(name: str) -> Any:
        def record(_module: torch.nn.Module, args: tuple[Any, ...]) -> None:
            if recording:
                seen[name].append(sum(1 for n in args[1] if n > 0))

        return record

    handles = []
    for layer in model.model.layers:
        experts = layer.self_attention.experts
        handles.append(experts.input_linear.register_forward_pre_hook(hook("attention_q")))
        handles.append(experts.output_linear.register_forward_pre_hook(hook("attention_o")))
        handles.append(layer.mlp.input_linear.register_forward_pre_hook(hook("mlp_in")))
        handles.append(layer.mlp.output_linear.register_forward_pre_hook(hook("mlp_out")))
    generator = torch.Generator().manual_seed(seed)
    prompt = torch.randint(0, CONFIG["vocab_size"], (batch, PROMPT), generator=generator)
    new = torch.randint(0, CONFIG["vocab_size"], (batch, 1), generator=generator)
    with torch.no_grad():
        cache = model(prompt, use_cache=True).past_key_values
        recording = True
        model(new, past_key_values=cache, use_cache=True)
    for handle in handles:
        handle.remove()
    return seen


def run() -> dict[str, Any]:
    E, k = CONFIG["num_local_experts"], CONFIG["num_experts_per_tok"]
    result: dict[str, Any] = {
        "_generated_by": versions("python tools/measure_jetmoe_decode_reads.py"),
        "config": CONFIG,
        "prompt": PROMPT,
        "trials": TRIALS,
        "batches": {},
    }
    for batch in BATCHES:
        per_layer: dict[str, list[int]] = {"attention": [], "mlp": []}
        for trial in range(TRIALS):
            seen = _step_experts(_model(trial), batch, 1000 + trial)
            assert seen["attention_q"] == seen["attention_o"] and seen["mlp_in"] == seen["mlp_out"]
            per_layer["attention"] += seen["attention_q"]
            per_layer["mlp"] += seen["mlp_in"]
        entry = {
            part: {"min": min(counts), "max": max(counts), "mean": sum(counts) / len(counts)}
            for part, counts in per_layer.items()
        }
        entry["uniform_bound"] = E * (1 - (1 - k / E) ** batch)
        result["batches"][str(batch)] = entry
        print(
            f"b={batch:3d} attention experts/layer {entry['attention']} mlp {entry['mlp']} "
            f"uniform E·(1 − (1 − k/E)^b) = {entry['uniform_bound']:.3f}"
        )
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="measure again, write nothing")
    args = parser.parse_args()
    result = run()
    if args.check:
        stored = json.loads(OUT.read_text())
        wrong = [b for b, entry in result["batches"].items() if stored["batches"].get(b) != entry]
        print("differs at b = " + ", ".join(wrong) if wrong else "all batches match")
        return 1 if wrong else 0
    OUT.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
