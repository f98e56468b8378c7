"""Small randomized configs of the schema-v2 families (tools/measure_golden.py --v2 --random).

Each generator draws a valid, small config that exercises the keys deciding shapes: layer
patterns, optional biases, key spellings a published config may use, keys the class ignores
or overwrites, and sometimes a missing key so that the class default applies.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from measure_golden import _dtype, _heads, _kv, _maybe_tie, _rope, _vocab

Cfg = dict[str, Any]


def _maybe(r: random.Random, d: Cfg, key: str, choices: list[Any], p: float = 0.6) -> None:
    """Set ``key`` to a random choice with probability p; leave it out (class default) otherwise."""
    if r.random() < p:
        d[key] = r.choice(choices)


# --- encoder-decoders ---------------------------------------------------------------------------


def _t5_like(r: random.Random, model_type: str, arch: str) -> Cfg:
    heads = r.choice([2, 4, 6, 8])
    d: Cfg = {
        "model_type": model_type,
        "architectures": [arch],
        "vocab_size": _vocab(r),
        "d_model": r.choice([32, 48, 64, 96]),
        "d_kv": r.choice([8, 16, 24]),  # heads * d_kv need not equal d_model
        "d_ff": r.choice([64, 100, 128]),
        "num_layers": r.randint(1, 4),
        "num_heads": heads,
        "feed_forward_proj": r.choice(["relu", "gated-gelu", "gated-silu"]),
        "relative_attention_num_buckets": r.choice([8, 32]),
    }
    _maybe(r, d, "num_decoder_layers", [1, 2, 3, 5])
    _maybe(r, d, "tie_word_embeddings", [True, False], p=0.7)
    return d


def gen_t5(r: random.Random) -> Cfg:
    return _t5_like(r, "t5", "T5ForConditionalGeneration")


def gen_mt5(r: random.Random) -> Cfg:
    return _t5_like(r, "mt5", "MT5ForConditionalGeneration")


def gen_bart(r: random.Random) -> Cfg:
    h, a, _ = _heads(r, 128)
    d: Cfg = {
        "model_type": "bart",
        "architectures": ["BartForConditionalGeneration"],
        "vocab_size": _vocab(r),
        "d_model": h,
        "encoder_layers": r.randint(1, 3),
        "decoder_layers": r.randint(1, 3),
        "encoder_attention_heads": a,
        "decoder_attention_heads": a,
        "encoder_ffn_dim": r.choice([64, 100, 4 * h]),
        "decoder_ffn_dim": r.choice([64, 100, 4 * h]),
        "max_position_embeddings": r.choice([64, 128, 1024]),
        "scale_embedding": r.random() < 0.5,
    }
    # no tie_word_embeddings: false here: transformers 5 then also unties the encoder and decoder
    # embed_tokens from `shared` (4 vocabulary-sized tensors), a state no published BART has
    return d


def gen_whisper(r: random.Random) -> Cfg:
    h, a, _ = _heads(r, 128)
    d: Cfg = {
        "model_type": "whisper",
        "architectures": ["WhisperForConditionalGeneration"],
        "vocab_size": _vocab(r),
        "d_model": h,
        "encoder_layers": r.randint(1, 3),
        "decoder_layers": r.randint(1, 3),
        "encoder_attention_heads": a,
        "decoder_attention_heads": a,
        "encoder_ffn_dim": r.choice([64, 4 * h]),
        "decoder_ffn_dim": r.choice([64, 4 * h]),
        "num_mel_bins": r.choice([80, 128]),
        "max_source_positions": r.choice([50, 100, 1500]),
        "max_target_positions": r.choice([32, 448]),
        "pad_token_id": 0,
        "bos_token_id": 1,
        "eos_token_id": 2,
        "decoder_start_token_id": 3,
    }
    _maybe_tie(r, d)
    return d


# --- state-space families ------------------------------------------------------------------------


def gen_mamba(r: random.Random) -> Cfg:
    h = r.choice([32, 48, 64, 96])
    d: Cfg = {
        "model_type": "mamba",
        "architectures": ["MambaForCausalLM"],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "num_hidden_layers": r.randint(1, 4),
        "state_size": r.choice([4, 8, 16]),
        "expand": r.choice([1, 2, 3]),
        "conv_kernel": r.choice([2, 4]),
    }
    _maybe(r, d, "time_step_rank", ["auto", 4, 7])
    _maybe(r, d, "use_bias", [True, False])
    _maybe(r, d, "use_conv_bias", [True, False])
    if r.random() < 0.3:
        d["intermediate_size"] = 3 * h + 5  # wins over expand * hidden_size (set after __post_init__)
    _maybe_tie(r, d)
    return d


def gen_mamba2(r: random.Random) -> Cfg:
    h = r.choice([32, 64, 96])
    expand = r.choice([1, 2])
    head_dim = r.choice([8, 16])
    heads = expand * h // head_dim
    d: Cfg = {
        "model_type": "mamba2",
        "architectures": ["Mamba2ForCausalLM"],
        "vocab_size": _vocab(r),
        "hidden_size": h,
        "num_hidden_layers": r.randint(1, 4),
        "expand": expand,
        "head_dim": head_dim,
        "num_heads": heads,
        "n_groups": r.choice([g for g in (1, 2, 4) if heads % g == 0]),
        "state_size": r.choice([8, 16, 32]),
        "conv_kernel": r.choice([2, 4]),
    }
    _maybe(r, d, "use_bias", [True, False])
    _maybe(r, d, "use_conv_bias", [True, False])
    _maybe(r, d, "rms_norm", [False, True])  # not read: the gated norm is always built
    _maybe_tie(r, d)
    return d


def _attention_keys(r: random.Random, d: Cfg, max_hidden: int = 128) -> int:
    """hidden_size, num_attention_heads and num_key_value_heads; returns hidden_size."""
    h, a, _ = _heads(r, max_hidden)
    d.update({"hidden_size": h, "num_attention_heads": a, "num_key_value_heads": _kv(r, a)})
    return h


def gen_jamba(r: random.Random) -> Cfg:
    d: Cfg = {"model_type": "jamba", "architectures": ["JambaForCausalLM"], "vocab_size": _vocab(r)}
    _attention_keys(r, d)
    n = r.randint(2, 8)
    a_period = r.choice([2, 3, 4, 8])
    e_period = r.choice([1, 2, 3])
    experts = r.choice([1, 2, 4, 8])
    d.update(
        {
            "num_hidden_layers": n,
            "intermediate_size": r.choice([32, 64, 100]),
            "attn_layer_period": a_period,
            "attn_layer_offset": r.randrange(a_period),
            "expert_layer_period": e_period,
            "expert_layer_offset": r.randrange(e_period),
            "num_experts": experts,
            "num_experts_per_tok": r.randint(1, min(experts, 2)),
            "mamba_d_state": r.choice([4, 8, 16]),
            "mamba_d_conv": r.choice([2, 4]),
            "mamba_expand": r.choice([1, 2]),
            "use_mamba_kernels": False,
        }
    )
    _maybe(r, d, "mamba_dt_rank", ["auto", 4, 9])
    _maybe(r, d, "mamba_proj_bias", [True, False])
    _maybe(r, d, "mamba_conv_bias", [True, False])
    _maybe_tie(r, d)
    return d


def _mamba2_keys(r: random.Random, d: Cfg, inner: int) -> None:
    head = r.choice([8, 16])
    heads = inner // head
    d.update(
        {
            "mamba_n_heads": heads,
            "mamba_d_state": r.choice([8, 16]),
            "mamba_d_conv": r.choice([2, 4]),
            "mamba_n_groups": r.choice([g for g in (1, 2) if heads % g == 0]),
            "mamba_chunk_size": 16,
        }
    )
    d["mamba_d_head"] = head if r.random() < 0.6 else "auto"
    _maybe(r, d, "mamba_proj_bias", [True, False])
    _maybe(r, d, "mamba_conv_bias", [True, False])


def gen_falcon_h1(r: random.Random) -> Cfg:
    d: Cfg = {"model_type": "falcon_h1", "architectures": ["FalconH1ForCausalLM"], "vocab_size": _vocab(r)}
    h = _attention_keys(r, d)
    expand = r.choice([1, 2])
    d_ssm = r.choice([None, 64, 128])
    inner = expand * h if d_ssm is None else d_ssm
    d.update(
        {
            "num_hidden_layers": r.randint(1, 4),
            "intermediate_size": r.choice([32, 64, 100]),
            "mamba_expand": expand,
            "mamba_d_ssm": d_ssm,
        }
    )
    _mamba2_keys(r, d, inner)
    _maybe(r, d, "mamba_rms_norm", [True, False])
    _maybe(r, d, "projectors_bias", [True, False])
    _maybe(r, d, "attention_bias", [True, False])
    _maybe(r, d, "mlp_bias", [True, False])
    _maybe(r, d, "head_dim", [8, 16, 24], p=0.4)  # honoured through getattr although not a class field
    _maybe_tie(r, d)
    return d


def gen_bamba(r: random.Random) -> Cfg:
    d: Cfg = {"model_type": "bamba", "architectures": ["BambaForCausalLM"], "vocab_size": _vocab(r)}
    h = _attention_keys(r, d)
    n = r.randint(2, 6)
    expand = r.choice([1, 2])
    d.update(
        {
            "num_hidden_layers": n,
            "intermediate_size": r.choice([32, 64, 100]),
            "mamba_expand": expand,
            "attn_layer_indices": sorted(r.sample(range(n), r.randint(0, n))),
        }
    )
    _mamba2_keys(r, d, expand * h)
    _maybe(r, d, "attention_bias", [True, False])
    _maybe(r, d, "mlp_bias", [True, False])
    _maybe_tie(r, d)
    return d


def gen_granitemoehybrid(r: random.Random) -> Cfg:
    d: Cfg = {
        "model_type": "granitemoehybrid",
        "architectures": ["GraniteMoeHybridForCausalLM"],
        "vocab_size": _vocab(r),
    }
    h = _attention_keys(r, d)
    n = r.randint(2, 6)
    expand = r.choice([1, 2])
    spell = r.choice([("mamba", "attention"), ("linear_attention", "full_attention")])
    experts = r.choice([0, 2, 4, 8])
    d.update(
        {
            "num_hidden_layers": n,
            "layer_types": [spell[1] if r.random() < 0.3 else spell[0] for _ in range(n)],
            "intermediate_size": r.choice([16, 32, 48]),
            "shared_intermediate_size": r.choice([32, 64, 100]),
            "num_local_experts": experts,
            "num_experts_per_tok": r.randint(1, min(max(experts, 1), 2)),
            "mamba_expand": expand,
            "position_embedding_type": r.choice(["rope", "nope"]),
        }
    )
    _mamba2_keys(r, d, expand * h)
    _maybe(r, d, "attention_bias", [True, False])
    _maybe_tie(r, d)
    return d


def gen_qwen3_next(r: random.Random) -> Cfg:
    d: Cfg = {"model_type": "qwen3_next", "architectures": ["Qwen3NextForCausalLM"], "vocab_size": _vocab(r)}
    _attention_keys(r, d)
    n = r.randint(2, 8)
    experts = r.choice([0, 4, 8, 16])
    d.update(
        {
            "num_hidden_layers": n,
            "head_dim": r.choice([8, 16, 32]),
            "intermediate_size": r.choice([32, 64, 100]),
            "linear_num_key_heads": r.choice([1, 2, 4]),
            "linear_key_head_dim": r.choice([8, 16]),
            "linear_value_head_dim": r.choice([8, 16]),
            "linear_conv_kernel_dim": r.choice([2, 4]),
            "num_experts": experts,
            "num_experts_per_tok": r.randint(1, max(1, min(experts, 3))),
            "moe_intermediate_size": r.choice([8, 16, 24]),
            "shared_expert_intermediate_size": r.choice([16, 32]),
            "decoder_sparse_step": r.choice([1, 1, 2]),
        }
    )
    d["linear_num_value_heads"] = d["linear_num_key_heads"] * r.choice([1, 2])
    if r.random() < 0.5:
        d["full_attention_interval"] = r.choice([2, 3, 4])
    else:
        d["layer_types"] = [r.choice(["linear_attention", "full_attention"]) for _ in range(n)]
    _maybe(r, d, "mlp_only_layers", [sorted(r.sample(range(n), r.randint(0, n)))], p=0.4)
    _maybe(r, d, "attention_bias", [True, False])
    _rope(r, d, partial=0.25)
    _maybe_tie(r, d)
    return d


# --- attention-only families --------------------------------------------------------------------


def gen_gemma3_text(r: random.Random) -> Cfg:
    d: Cfg = {"model_type": "gemma3_text", "architectures": ["Gemma3ForCausalLM"], "vocab_size": _vocab(r)}
    _attention_keys(r, d)
    n = r.randint(1, 8)
    d.update(
        {
            "num_hidden_layers": n,
            "head_dim": r.choice([8, 16, 32]),
            "intermediate_size": r.choice([32, 64, 100]),
            "sliding_window": r.choice([16, 512]),
            "query_pre_attn_scalar": 16,
        }
    )
    if r.random() < 0.4:
        d["sliding_window_pattern"] = r.choice([2, 6])
    _maybe(r, d, "attention_bias", [True, False])
    _dtype(r, d)
    _maybe_tie(r, d)
    return d


def gen_llama4_text(r: random.Random) -> Cfg:
    d: Cfg = {"model_type": "llama4_text", "architectures": ["Llama4ForCausalLM"], "vocab_size": _vocab(r)}
    _attention_keys(r, d)
    n = r.randint(1, 6)
    experts = r.choice([2, 4, 8, 16])
    d.update(
        {
            "num_hidden_layers": n,
            "head_dim": r.choice([8, 16, 32]),
            "intermediate_size": r.choice([16, 32, 48]),
            "intermediate_size_mlp": r.choice([32, 64, 100]),
            "num_local_experts": experts,
            "num_experts_per_tok": r.randint(1, 2),
            "use_qk_norm": r.random() < 0.7,
            "attention_chunk_size": r.choice([16, 8192]),
        }
    )
    if r.random() < 0.3:
        d["moe_layers"] = sorted(r.sample(range(n), r.randint(0, n)))
    else:
        d["interleave_moe_layer_step"] = r.choice([1, 2])
    _maybe(r, d, "attention_bias", [True, False])
    _maybe_tie(r, d)
    return d


def gen_gpt_oss(r: random.Random) -> Cfg:
    d: Cfg = {"model_type": "gpt_oss", "architectures": ["GptOssForCausalLM"], "vocab_size": _vocab(r)}
    _attention_keys(r, d)
    n = r.randint(1, 6)
    experts = r.choice([2, 4, 8, 32])
    d.update(
        {
            "num_hidden_layers": n,
            "head_dim": r.choice([8, 16, 64]),
            "intermediate_size": r.choice([16, 32, 48]),
            "num_local_experts": experts,
            "num_experts_per_tok": r.randint(1, min(experts, 4)),
            "sliding_window": r.choice([16, 128]),
            "layer_types": [r.choice(["sliding_attention", "full_attention"]) for _ in range(n)],
        }
    )
    _maybe(r, d, "attention_bias", [True, False])
    _maybe_tie(r, d)
    return d


def gen_cohere2(r: random.Random) -> Cfg:
    d: Cfg = {"model_type": "cohere2", "architectures": ["Cohere2ForCausalLM"], "vocab_size": _vocab(r)}
    _attention_keys(r, d)
    d.update(
        {
            "num_hidden_layers": r.randint(1, 8),
            "intermediate_size": r.choice([32, 64, 100]),
            "sliding_window": r.choice([16, 4096]),
            "sliding_window_pattern": r.choice([2, 4]),
        }
    )
    _maybe(r, d, "head_dim", [8, 16, 40], p=0.4)  # wins over hidden_size // num_attention_heads
    _maybe(r, d, "attention_bias", [True, False])
    _maybe_tie(r, d)
    return d


GENERATORS_V2: dict[str, Callable[[random.Random], Cfg]] = {
    "bamba": gen_bamba,
    "bart": gen_bart,
    "cohere2": gen_cohere2,
    "falcon_h1": gen_falcon_h1,
    "gemma3_text": gen_gemma3_text,
    "gpt_oss": gen_gpt_oss,
    "granitemoehybrid": gen_granitemoehybrid,
    "jamba": gen_jamba,
    "llama4_text": gen_llama4_text,
    "mamba": gen_mamba,
    "mamba2": gen_mamba2,
    "mt5": gen_mt5,
    "qwen3_next": gen_qwen3_next,
    "t5": gen_t5,
    "whisper": gen_whisper,
}
