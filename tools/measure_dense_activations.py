"""Activation bytes PyTorch keeps for backward in one layer of each dense decoder of issue 33, as
tools/measure_activations.py measures them (its ``measure``: a tiny model of one and of two layers,
bf16, training mode, s 256, b 2, the difference), under SDPA and eager attention.

    python tools/measure_dense_activations.py           # tests/golden/activations_dense_v3.json

Needs torch and transformers (the golden venv). The configs are the Llama-style tiny sizes of that
tool (h 512, 8 heads, 2 KV heads, f 1376) in each family's own keys, dropout off.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import measure_activations as ma
import measure_golden as mg

OUT = mg.ROOT / "tests" / "golden" / "activations_dense_v3.json"
_L = {**ma._LLAMA_LIKE, "pad_token_id": 0}
_GPT = {"n_embd": 512, "n_head": 8, "n_inner": 1376, "vocab_size": ma.VOCAB, "n_positions": 512}
_NO_DROPOUT = {"resid_pdrop": 0.0, "embd_pdrop": 0.0, "attn_pdrop": 0.0}
_FAIRSEQ = {
    "d_model": 512,
    "attention_heads": 8,
    "ffn_dim": 1376,
    "vocab_size": ma.VOCAB,
    "max_position_embeddings": 512,
}

CONFIGS: dict[str, dict[str, Any]] = {
    "glm4": {"model_type": "glm4", **_L, "head_dim": 64, "attention_dropout": 0.0},
    "olmo2": {"model_type": "olmo2", **_L},
    "stablelm": {"model_type": "stablelm", **_L},
    "starcoder2": {
        "model_type": "starcoder2",
        **_L,
        "attention_dropout": 0.0,
        "residual_dropout": 0.0,
        "embedding_dropout": 0.0,
    },
    "nemotron": {"model_type": "nemotron", **_L, "head_dim": 64},
    "exaone4": {"model_type": "exaone4", **_L, "sliding_window": None, "layer_types": ["full_attention"] * 2},
    "smollm3": {"model_type": "smollm3", **_L},
    "ernie4_5": {"model_type": "ernie4_5", **_L, "head_dim": 64},
    "seed_oss": {
        "model_type": "seed_oss",
        **_L,
        "head_dim": 64,
        "attention_dropout": 0.0,
        "residual_dropout": 0.0,
    },
    "apertus": {"model_type": "apertus", **_L},
    "arcee": {"model_type": "arcee", **_L},
    "helium": {"model_type": "helium", **_L, "head_dim": 64},
    "cohere": {"model_type": "cohere", **_L},
    "granite": {"model_type": "granite", **_L},
    "bitnet": {"model_type": "bitnet", **_L},
    "hunyuan_v1_dense": {"model_type": "hunyuan_v1_dense", **_L, "head_dim": 64},
    "glm": {"model_type": "glm", **_L, "head_dim": 64, "attention_dropout": 0.0},
    "olmo": {"model_type": "olmo", **_L},
    "persimmon": {"model_type": "persimmon", **_L, "hidden_dropout": 0.0},
    # MptConfig reads the common names through its attribute_map (d_model, n_heads, n_layers)
    "mpt": {
        "model_type": "mpt",
        **{key: _L[key] for key in ("hidden_size", "num_attention_heads", "vocab_size")},
        "max_seq_len": 512,
        "attn_config": {"attn_pdrop": 0},
    },
    "gptj": {"model_type": "gptj", **_GPT, **_NO_DROPOUT, "rotary_dim": 32},
    "gpt_bigcode": {"model_type": "gpt_bigcode", **_GPT, **_NO_DROPOUT},
    "codegen": {"model_type": "codegen", **_GPT, **_NO_DROPOUT, "rotary_dim": 32},
    "gpt_neo": {
        "model_type": "gpt_neo",
        "hidden_size": 512,
        "num_heads": 8,
        "intermediate_size": 1376,
        "vocab_size": ma.VOCAB,
        "max_position_embeddings": 512,
        "attention_layers": ["global", "local"],  # cut to the layers measured (ma.layered)
    },  # its class defaults drop nothing out
    "xglm": {**_FAIRSEQ, "model_type": "xglm", "dropout": 0.0, "attention_dropout": 0.0},
    "biogpt": {
        "model_type": "biogpt",
        "hidden_size": 512,
        "num_attention_heads": 8,
        "intermediate_size": 1376,
        "vocab_size": ma.VOCAB,
        "max_position_embeddings": 512,
        "hidden_dropout_prob": 0.0,
        "attention_probs_dropout_prob": 0.0,
    },
    # GPT-1's MLP is 4·h wide whatever the config says (Block builds MLP(4 * nx))
    "openai-gpt": {
        "model_type": "openai-gpt",
        **{key: _GPT[key] for key in ("n_embd", "n_head", "vocab_size", "n_positions")},
        **_NO_DROPOUT,
    },
}


def main() -> int:
    cases = []
    for name in CONFIGS:
        # GPT-Neo, XGLM, MPT and GPT-1 refuse SDPA (ma.EAGER_ONLY)
        for attention in [a for a in ("sdpa", "eager") if a in ma.attentions(CONFIGS[name])]:
            case = ma.measure(name, attention, CONFIGS)
            cases.append(case)
            print(f"{case['name']:28s} {case['per_layer']:>12,}")
    out = {"_generated_by": mg.versions("python tools/measure_dense_activations.py"), "cases": cases}
    OUT.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
