"""Goldens for the dense decoders' quirks that no published config of issue 33 switches on: a
published config (tests/data/hf_configs_v3) with one or two keys changed, built with transformers
5.24 on the meta device and counted as tools/measure_v3.py counts (``measure``), or the error
transformers raises where it cannot build the model.

    python tools/measure_dense_quirks.py           # tests/golden/dense_quirks_v3.json
    python tools/measure_dense_quirks.py --check   # measure again and compare, write nothing

Needs torch and transformers (the golden venv); the test suite reads only the JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import measure_golden as mg
from measure_v3 import V3_DIR, measure

OUT = mg.ROOT / "tests" / "golden" / "dense_quirks_v3.json"

# name → (published config stem, keys changed, why)
VARIANTS: dict[str, tuple[str, dict[str, Any], str]] = {
    "seed-oss-o-bias": (
        "seed-oss-36b-instruct",
        {"attention_out_bias": True},
        "attention_out_bias biases o apart from q/k/v (SeedOssAttention)",
    ),
    "seed-oss-no-qkv-bias": (
        "seed-oss-36b-instruct",
        {"attention_bias": False, "attention_out_bias": True},
        "o keeps its bias where q/k/v have none",
    ),
    "starcoder-multi-head": (
        "starcoder",
        {"multi_query": False},
        "GPTBigCodeAttention without multi_query: c_attn is h + 2·h, one K/V head per query head",
    ),
    "ernie-4.5-biased": (
        "ernie-4.5-0.3b-pt",
        {"use_bias": True},
        "use_bias biases q/k/v/o and the MLP alike (Ernie4_5Attention, Ernie4_5MLP)",
    ),
    "helium-narrow-heads": (
        "helium-1-preview-2b",
        {"head_dim": 64},
        "HeliumAttention's o_proj is nn.Linear(h, h) whatever a·d_h (20·64 = 1280 on h = 2560)",
    ),
    "command-r-qk-norm": (
        "c4ai-command-r-v01",
        {"use_qk_norm": True},
        "CohereLayerNorm((heads, d_h)) on q and k: a weight per head, no bias",
    ),
    "stablelm-1.6b-parallel": (
        "stablelm-2-1_6b",
        {"use_parallel_residual": True},
        "one input_layernorm feeds attention and the MLP: no post_attention_layernorm",
    ),
    "gpt-j-rotary-null": (
        "gpt-j-6b",
        {"rotary_dim": None},
        "GPTJConfig is strict: rotary_dim must be an integer",
    ),
    "hunyuan-without-head-dim": (
        "hunyuan-7b-instruct",
        {"head_dim": None, "attention_head_dim": None},
        "HunYuanDenseV1Config leaves head_dim null and the model cannot be built",
    ),
    "glm-4-9b-without-biases": (
        "glm-4-9b-chat-hf",
        {"attention_bias": False},
        "attention_bias off drops the q/k/v biases (GlmAttention; o never has one)",
    ),
    "persimmon-without-qk-layernorm": (
        "persimmon-8b-base",
        {"qk_layernorm": False},
        "qk_layernorm off: no q_layernorm and k_layernorm, LayerNorm(d_h) with β each",
    ),
    "mpt-7b-untied": (
        "mpt-7b",
        {"tie_word_embeddings": False},
        "MptForCausalLM ties lm_head by default; untied it is a matrix of its own, without bias",
    ),
    "mpt-7b-common-names": (
        "mpt-7b",
        {"hidden_size": 2048, "num_attention_heads": 16, "num_hidden_layers": 24},
        "MptConfig.attribute_map: hidden_size, num_attention_heads and num_hidden_layers set d_model, "
        "n_heads and n_layers, over the file's own",
    ),
    "olmo-7b-attention-bias": (
        "olmo-7b-hf",
        {"attention_bias": True},
        "attention_bias biases q, k, v and o alike (OlmoAttention); the norms still hold nothing",
    ),
    "exaone-4.0-1.2b-windowed": (
        "exaone-4.0-1.2b",
        {"sliding_window": 4096, "sliding_window_pattern": 4, "layer_types": None},
        "sliding layers by the pattern; the global ones skip RoPE; no parameter changes",
    ),
    "gpt-neo-125m-untied": (
        "gpt-neo-125m",
        {"tie_word_embeddings": False},
        "GPTNeoForCausalLM.lm_head [V, h] without a bias, a tensor of its own",
    ),
    "gpt-neo-125m-narrow-mlp": (
        "gpt-neo-125m",
        {"intermediate_size": 1024},
        "GPTNeoBlock: c_fc/c_proj of intermediate_size where it is not null (4·h where it is)",
    ),
    "gpt-neo-attention-layers-short": (
        "gpt-neo-125m",
        {"attention_layers": ["global", "local"] * 5},
        "GPTNeoConfig.validate_architecture: the file's attention_layers (kept over attention_types) "
        "must list num_layers layers",
    ),
    "gpt-neo-attention-kind-unknown": (
        "gpt-neo-125m",
        {"attention_layers": ["global", "sparse"] * 6},
        "GPTNeoAttention: a layer is global or local",
    ),
    "gpt-neo-attention-types-overruled": (
        "gpt-neo-125m",
        {"attention_types": [[["global", "local"], 5]]},
        "GPTNeoConfig keeps the file's attention_layers over attention_types (10 layers here): "
        "built as published",
    ),
    "codegen-350m-tied": (
        "codegen-350m-mono",
        {"tie_word_embeddings": True},
        "CodeGenForCausalLM ties lm_head.weight to wte and keeps lm_head.bias [V]",
    ),
    "codegen-rotary-null": (
        "codegen-350m-mono",
        {"rotary_dim": None},
        "CodeGenConfig is strict: rotary_dim must be an integer",
    ),
    "xglm-564m-untied": (
        "xglm-564m",
        {"tie_word_embeddings": False},
        "XGLMForCausalLM.lm_head [V, d_model] without a bias, a tensor of its own",
    ),
    "biogpt-untied": (
        "biogpt",
        {"tie_word_embeddings": False},
        "BioGptForCausalLM.output_projection [V, h] without a bias, a tensor of its own",
    ),
}


def measure_all() -> dict[str, Any]:
    out: dict[str, Any] = {
        "_generated_by": {
            **mg.versions("python tools/measure_dense_quirks.py"),
            "configs": "a published config of tests/data/hf_configs_v3 with `changed` applied",
        }
    }
    for name, (stem, changed, why) in VARIANTS.items():
        d = {**json.loads((V3_DIR / f"{stem}.json").read_text()), **changed}
        entry: dict[str, Any] = {"config": stem, "changed": changed, "why": why}
        try:
            measured, _ = measure(d)
        except Exception as exc:  # transformers refuses the file: the golden is the refusal
            entry["error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
        else:
            entry.update({k: measured[k] for k in ("model_class", "total", "active", "tied", "parts")})
        out[name] = entry
        print(f"{name:32s} {entry.get('total', entry.get('error'))}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="compare with the file, write nothing")
    args = ap.parse_args(argv)
    text = json.dumps(measure_all(), indent=2, sort_keys=True) + "\n"
    if args.check:
        same = OUT.read_text() == text
        print("OK" if same else f"CHECK FAILED: {OUT} differs from a fresh measurement")
        return 0 if same else 1
    OUT.write_text(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
