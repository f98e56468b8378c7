"""The transformers config-class defaults that decide parameter shapes, per supported model_type.

A published ``config.json`` leaves out every key that equals its class default, so an importer
must know those defaults exactly. Values copied from the config classes of transformers 5
(``<Model>Config()``); ``None`` means the class derives the value (e.g. KV heads = query heads).
Only keys that change a parameter shape, the position table or a fact the schema keeps are listed.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["ALIASES", "DEFAULTS", "SUPPORTED_MODEL_TYPES"]

_LLAMA: dict[str, Any] = {
    "vocab_size": 32000,
    "hidden_size": 4096,
    "intermediate_size": 11008,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": None,
    "head_dim": None,
    "hidden_act": "silu",
    "max_position_embeddings": 2048,
    "tie_word_embeddings": False,
    "attention_bias": False,
    "mlp_bias": False,
}

_QWEN: dict[str, Any] = {
    **_LLAMA,
    "vocab_size": 151936,
    "intermediate_size": 22016,
    "max_position_embeddings": 32768,
    "use_sliding_window": False,
    "sliding_window": None,
    "max_window_layers": 28,
}

_DEEPSEEK: dict[str, Any] = {
    **_LLAMA,
    "attention_bias": False,
    "mlp_bias": False,
    "kv_lora_rank": 512,
    "q_lora_rank": 1536,
    "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "v_head_dim": 128,
}

_RAW: dict[str, dict[str, Any]] = {
    "gpt2": {
        "vocab_size": 50257,
        "n_positions": 1024,
        "n_embd": 768,
        "n_layer": 12,
        "n_head": 12,
        "n_inner": None,
        "activation_function": "gelu_new",
        "tie_word_embeddings": True,
        "add_cross_attention": False,
    },
    "opt": {
        "vocab_size": 50272,
        "hidden_size": 768,
        "num_hidden_layers": 12,
        "ffn_dim": 3072,
        "max_position_embeddings": 2048,
        "do_layer_norm_before": True,
        "_remove_final_layer_norm": False,
        "word_embed_proj_dim": None,
        "num_attention_heads": 12,
        "activation_function": "relu",
        "enable_bias": True,
        "layer_norm_elementwise_affine": True,
        "tie_word_embeddings": True,
    },
    "llama": _LLAMA,
    "mistral": {
        **_LLAMA,
        "intermediate_size": 14336,
        "num_key_value_heads": 8,
        "max_position_embeddings": 131072,
        "sliding_window": 4096,
    },
    "mixtral": {
        **_LLAMA,
        "intermediate_size": 14336,
        "num_key_value_heads": 8,
        "max_position_embeddings": 131072,
        "sliding_window": None,
        "num_local_experts": 8,
        "num_experts_per_tok": 2,
    },
    "qwen2": _QWEN,
    "qwen2_moe": {
        **_QWEN,
        "hidden_size": 2048,
        "intermediate_size": 5632,
        "num_hidden_layers": 24,
        "num_attention_heads": 16,
        "decoder_sparse_step": 1,
        "moe_intermediate_size": 1408,
        "shared_expert_intermediate_size": 5632,
        "num_experts_per_tok": 4,
        "num_experts": 60,
        "mlp_only_layers": [],
        "qkv_bias": True,
    },
    "qwen3": {**_QWEN, "head_dim": 128},
    "qwen3_moe": {
        **_QWEN,
        "hidden_size": 2048,
        "intermediate_size": 6144,
        "num_hidden_layers": 24,
        "num_attention_heads": 32,
        "num_key_value_heads": 4,
        "decoder_sparse_step": 1,
        "moe_intermediate_size": 768,
        "num_experts_per_tok": 8,
        "num_local_experts": 128,
        "mlp_only_layers": [],
    },
    "gemma": {
        **_LLAMA,
        "vocab_size": 256000,
        "hidden_size": 3072,
        "intermediate_size": 24576,
        "num_hidden_layers": 28,
        "num_attention_heads": 16,
        "head_dim": 256,
        "hidden_act": "gelu_pytorch_tanh",
        "max_position_embeddings": 8192,
        "tie_word_embeddings": True,
    },
    "gemma2": {
        **_LLAMA,
        "vocab_size": 256000,
        "hidden_size": 2304,
        "intermediate_size": 9216,
        "num_hidden_layers": 26,
        "num_attention_heads": 8,
        "num_key_value_heads": 4,
        "head_dim": 256,
        "hidden_activation": "gelu_pytorch_tanh",
        "max_position_embeddings": 8192,
        "tie_word_embeddings": True,
        "sliding_window": 4096,
    },
    "phi": {
        **_LLAMA,
        "vocab_size": 51200,
        "hidden_size": 2048,
        "intermediate_size": 8192,
        "num_hidden_layers": 24,
        "hidden_act": "gelu_new",
        "qk_layernorm": False,
        "partial_rotary_factor": 0.5,
    },
    "phi3": {
        **_LLAMA,
        "vocab_size": 32064,
        "hidden_size": 3072,
        "intermediate_size": 8192,
        "max_position_embeddings": 4096,
        "sliding_window": None,
    },
    "falcon": {
        "vocab_size": 65024,
        "hidden_size": 4544,
        "num_hidden_layers": 32,
        "num_attention_heads": 71,
        "num_kv_heads": None,
        "num_ln_in_parallel_attn": None,
        "alibi": False,
        "new_decoder_architecture": False,
        "multi_query": True,
        "parallel_attn": True,
        "bias": False,
        "max_position_embeddings": 2048,
        "ffn_hidden_size": None,
        "activation": "gelu",
        "tie_word_embeddings": True,
    },
    "bloom": {
        "vocab_size": 250880,
        "hidden_size": 64,
        "n_layer": 2,
        "n_head": 8,
        "tie_word_embeddings": True,
    },
    "gpt_neox": {
        "vocab_size": 50432,
        "hidden_size": 6144,
        "num_hidden_layers": 44,
        "num_attention_heads": 64,
        "intermediate_size": 24576,
        "hidden_act": "gelu",
        "max_position_embeddings": 2048,
        "tie_word_embeddings": False,
        "attention_bias": True,
        "rotary_pct": 0.25,
    },
    "deepseek_v2": {
        **_DEEPSEEK,
        "vocab_size": 102400,
        "first_k_dense_replace": 0,
        "n_routed_experts": 64,
        "n_shared_experts": 2,
        "num_experts_per_tok": None,
        "moe_intermediate_size": 1407,
    },
    "deepseek_v3": {
        **_DEEPSEEK,
        "vocab_size": 129280,
        "hidden_size": 7168,
        "intermediate_size": 18432,
        "num_hidden_layers": 61,
        "num_attention_heads": 128,
        "max_position_embeddings": 4096,
        "first_k_dense_replace": 3,
        "n_routed_experts": 256,
        "n_shared_experts": 1,
        "num_experts_per_tok": 8,
        "moe_intermediate_size": 2048,
    },
    "bert": {
        "vocab_size": 30522,
        "hidden_size": 768,
        "num_hidden_layers": 12,
        "num_attention_heads": 12,
        "intermediate_size": 3072,
        "hidden_act": "gelu",
        "max_position_embeddings": 512,
        "type_vocab_size": 2,
        "tie_word_embeddings": True,
        "add_cross_attention": False,
        "is_decoder": False,
    },
}

DEFAULTS: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {name: MappingProxyType(values) for name, values in _RAW.items()}
)
SUPPORTED_MODEL_TYPES: tuple[str, ...] = tuple(sorted(_RAW))

# Other spellings of the same key in circulation (transformers' attribute_map and renamed keys):
# canonical name -> alternatives, tried in order when the canonical key is absent.
ALIASES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "n_embd": ("hidden_size",),
        "n_layer": ("num_hidden_layers",),
        "n_head": ("num_attention_heads",),
        "n_positions": ("max_position_embeddings",),
        "hidden_size": ("n_embed", "n_embd"),
        "num_hidden_layers": ("n_layer",),
        "num_attention_heads": ("n_head",),
        "num_local_experts": ("num_experts",),
        "num_experts": ("num_local_experts",),
        "n_routed_experts": ("num_experts", "num_local_experts"),
        "sliding_window": ("sliding_window_size",),
    }
)
