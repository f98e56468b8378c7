"""Which ``layer_types`` each supported family takes, as transformers builds and runs it.

    /tmp/tv/bin/python tools/measure_layer_types.py > tests/golden/layer_types.json

For every family whose config has ``layer_types`` (or refuses it), a two-layer model is made on
the CPU from a tiny config whose first layer has each type transformers names (its
``ALLOWED_ATTN_LAYER_TYPES``, the older names it maps onto them, two typos), and one forward pass
of four tokens is run. A type is *taken* when the config, the model and the forward all work;
``core.io.importers`` must take exactly those and refuse the rest in one line
(``tests/hostile/test_enumerations.py``). Needs torch and transformers (5.24.0).
"""

from __future__ import annotations

import json
import logging
import sys
import warnings
from typing import Any

TINY: dict[str, Any] = {
    "hidden_size": 64,
    "intermediate_size": 128,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "vocab_size": 128,
    "num_hidden_layers": 2,
}
FAMILIES: dict[str, dict[str, Any]] = {
    "qwen3_next": {
        "linear_num_key_heads": 2, "linear_num_value_heads": 4, "linear_key_head_dim": 16,
        "linear_value_head_dim": 16, "moe_intermediate_size": 32, "shared_expert_intermediate_size": 32,
        "num_experts": 4, "num_experts_per_tok": 2,
    },
    "gpt_oss": {"num_local_experts": 4, "num_experts_per_tok": 2, "sliding_window": 8},
    "gemma3_text": {"sliding_window": 8},
    "cohere2": {"sliding_window": 8},
    "granitemoehybrid": {
        "num_local_experts": 4, "num_experts_per_tok": 2, "shared_intermediate_size": 64, "mamba_n_heads": 4,
        "mamba_d_head": 32, "mamba_n_groups": 1, "mamba_d_state": 16,
    },
    "qwen2": {"use_sliding_window": True, "sliding_window": 8, "max_window_layers": 0},
    "qwen3": {"use_sliding_window": True, "sliding_window": 8, "max_window_layers": 0},
    "qwen2_moe": {
        "use_sliding_window": True, "sliding_window": 8, "max_window_layers": 2, "num_experts": 4,
        "num_experts_per_tok": 2, "moe_intermediate_size": 32, "shared_expert_intermediate_size": 32,
    },
    "gemma2": {"sliding_window": 8},
    "llama4_text": {"num_local_experts": 4, "num_experts_per_tok": 1, "intermediate_size_mlp": 128,
                    "attention_chunk_size": 8},
    "llama": {},
    "jamba": {"num_experts": 2, "num_experts_per_tok": 1, "mamba_d_state": 16},
    "bamba": {"mamba_n_heads": 4, "mamba_d_head": 32, "mamba_d_state": 16},
    "falcon_h1": {"mamba_n_heads": 4, "mamba_d_head": 32, "mamba_d_ssm": 128, "mamba_d_state": 16},
    "mamba": {},
    "mamba2": {"num_heads": 4, "head_dim": 32},
}  # fmt: skip
TYPOS = ["full_attn", "zz_attention"]


def _outcome(model_type: str, extra: dict[str, Any], kind: str) -> str:
    """'runs', or where it stops: 'config', 'model' or 'forward'."""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    try:
        config = AutoConfig.for_model(model_type, **{**TINY, **extra, "layer_types": [kind, kind]})
    except Exception:
        return "config"
    try:
        model = AutoModelForCausalLM.from_config(config)
    except Exception:
        return "model"
    try:
        with torch.no_grad():
            model(torch.arange(4)[None], use_cache=False)
    except Exception:
        return "forward"
    return "runs"


def main() -> None:
    warnings.filterwarnings("ignore")
    logging.disable(logging.CRITICAL)
    import transformers
    from transformers.configuration_utils import _LEGACY_LAYER_TYPE_REMAP, ALLOWED_ATTN_LAYER_TYPES

    kinds = [*ALLOWED_ATTN_LAYER_TYPES, *_LEGACY_LAYER_TYPE_REMAP, *TYPOS]
    result = {
        "transformers": transformers.__version__,
        "script": "tools/measure_layer_types.py",
        "families": {
            family: {kind: _outcome(family, extra, kind) for kind in kinds}
            for family, extra in FAMILIES.items()
        },
    }
    json.dump(result, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
