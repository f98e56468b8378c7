"""Parameter formulas of the schema-v2 families, read from a raw config.json dict.

A development tool (no torch): the written form of tools/TRANSFORMERS_FINDINGS.md, section
"Schema-v2 families". ``tools/measure_golden.py --check-findings`` compares every number here
with the real transformers module built from the same dict, layer by layer, so the findings
cannot drift from the modules they describe.

``expected(d)`` returns ``{"outside": {name: numel}, "layers": {(stack, i): numel}}``: the
parameters outside the repeated layers (embeddings, final norms, heads, conv front-end, …) and
one number per layer, ``stack`` being "encoder" or "decoder" (decoder-only models use
"decoder"). Counts are as transformers 5 builds them (tied tensors once); the T5/mT5 published
head is handled by the caller (see ``t5_published_head``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

Cfg = dict[str, Any]
Result = dict[str, Any]


def _get(d: Cfg, key: str, default: Any) -> Any:
    """The value of ``key``; the class default when the key is absent or null."""
    value = d.get(key)
    return default if value is None else value


def _tied(d: Cfg, default: bool) -> bool:
    return bool(_get(d, "tie_word_embeddings", default))


def _linear(n_in: int, n_out: int, bias: bool) -> int:
    return n_in * n_out + (n_out if bias else 0)


def _gated_mlp(h: int, f: int, bias: bool = False) -> int:
    """gate_proj + up_proj (h→f) and down_proj (f→h)."""
    return 2 * _linear(h, f, bias) + _linear(f, h, bias)


def _attention(d: Cfg, h: int, d_h: int, bias: bool, q_mult: int = 1) -> int:
    """q (a·d_h·q_mult), k, v (g·d_h) and o (a·d_h → h), one bias flag for all four."""
    a = d["num_attention_heads"]
    g = _get(d, "num_key_value_heads", a)
    return _linear(h, a * d_h * q_mult, bias) + 2 * _linear(h, g * d_h, bias) + _linear(a * d_h, h, bias)


def _causal_outside(d: Cfg, h: int, tie_default: bool, norm: int) -> dict[str, int]:
    v = d["vocab_size"]
    out = {"embed_tokens": v * h, "final_norm": norm}
    if not _tied(d, tie_default):
        out["lm_head"] = v * h
    return out


def _mamba2_mixer(
    h: int,
    inner: int,
    heads: int,
    groups: int,
    state: int,
    kernel: int,
    *,
    in_bias: bool,
    out_bias: bool,
    conv_bias: bool,
    gated_norm: bool,
) -> int:
    """Mamba-2 mixer: in_proj h → (2·I + 2·G·N + H), depthwise conv over I + 2·G·N channels,
    dt_bias / A_log / D of H each, gated RMSNorm over I, out_proj I → h."""
    conv_dim = inner + 2 * groups * state
    return (
        _linear(h, inner + conv_dim + heads, in_bias)
        + conv_dim * kernel
        + (conv_dim if conv_bias else 0)
        + 3 * heads
        + (inner if gated_norm else 0)
        + _linear(inner, h, out_bias)
    )


def _mamba1_mixer(
    h: int, inner: int, rank: int, state: int, kernel: int, *, bias: bool, conv_bias: bool
) -> int:
    """Mamba-1 mixer: in_proj h → 2I, depthwise conv over I, x_proj I → R + 2N (no bias),
    dt_proj R → I (always biased), A_log I×N, D I, out_proj I → h."""
    return (
        _linear(h, 2 * inner, bias)
        + inner * kernel
        + (inner if conv_bias else 0)
        + inner * (rank + 2 * state)
        + _linear(rank, inner, True)
        + inner * state
        + inner
        + _linear(inner, h, bias)
    )


# --- state-space families ------------------------------------------------------------------------


def mamba(d: Cfg) -> Result:
    h = _get(d, "hidden_size", 768)
    # __post_init__ sets expand·h, but an explicit intermediate_size key is applied after it and wins
    inner = _get(d, "intermediate_size", _get(d, "expand", 2) * h)
    rank = _get(d, "time_step_rank", "auto")
    rank = math.ceil(h / 16) if rank == "auto" else int(rank)
    layer = h + _mamba1_mixer(
        h,
        inner,
        rank,
        _get(d, "state_size", 16),
        _get(d, "conv_kernel", 4),
        bias=_get(d, "use_bias", False),
        conv_bias=_get(d, "use_conv_bias", True),
    )
    n = _get(d, "num_hidden_layers", 32)
    return {"outside": _causal_outside(d, h, True, h), "layers": {("decoder", i): layer for i in range(n)}}


def mamba2(d: Cfg) -> Result:
    h = _get(d, "hidden_size", 4096)
    layer = h + _mamba2_mixer(
        h,
        _get(d, "expand", 2) * h,
        _get(d, "num_heads", 128),
        _get(d, "n_groups", 8),
        _get(d, "state_size", 128),
        _get(d, "conv_kernel", 4),
        in_bias=_get(d, "use_bias", False),
        out_bias=_get(d, "use_bias", False),
        conv_bias=_get(d, "use_conv_bias", True),
        gated_norm=True,  # rms_norm is not read
    )
    n = _get(d, "num_hidden_layers", 64)
    return {"outside": _causal_outside(d, h, False, h), "layers": {("decoder", i): layer for i in range(n)}}


def jamba(d: Cfg) -> Result:
    h = _get(d, "hidden_size", 4096)
    n = _get(d, "num_hidden_layers", 32)
    a = _get(d, "num_attention_heads", 32)
    d = {**d, "num_attention_heads": a, "num_key_value_heads": _get(d, "num_key_value_heads", 8)}
    f = _get(d, "intermediate_size", 14336)
    experts = _get(d, "num_experts", _get(d, "num_local_experts", 16))
    inner = _get(d, "mamba_expand", 2) * h
    rank = _get(d, "mamba_dt_rank", "auto")
    rank = math.ceil(h / 16) if rank == "auto" else int(rank)
    state = _get(d, "mamba_d_state", 16)
    mamba_mixer = (
        _mamba1_mixer(
            h,
            inner,
            rank,
            state,
            _get(d, "mamba_d_conv", 4),
            bias=_get(d, "mamba_proj_bias", False),
            conv_bias=_get(d, "mamba_conv_bias", True),
        )
        + rank
        + 2 * state
    )  # dt_layernorm, b_layernorm, c_layernorm (RMSNorm weights)
    attention = _attention(d, h, _get(d, "head_dim", h // a), False)
    a_period, a_offset = _get(d, "attn_layer_period", 8), _get(d, "attn_layer_offset", 4)
    e_period, e_offset = _get(d, "expert_layer_period", 2), _get(d, "expert_layer_offset", 1)
    layers = {}
    for i in range(n):
        mixer = attention if i % a_period == a_offset else mamba_mixer
        is_moe = i % e_period == e_offset and experts > 1
        ffn = experts * h + experts * 3 * h * f if is_moe else 3 * h * f
        layers[("decoder", i)] = 2 * h + mixer + ffn
    return {"outside": _causal_outside(d, h, False, h), "layers": layers}


def _mamba2_family_mixer(d: Cfg, h: int, inner: int, *, out_bias_key: str, gated_norm: bool) -> int:
    return _mamba2_mixer(
        h,
        inner,
        _get(d, "mamba_n_heads", 128),
        _get(d, "mamba_n_groups", 1),
        _get(d, "mamba_d_state", 256),
        _get(d, "mamba_d_conv", 4),
        in_bias=_get(d, "mamba_proj_bias", False),
        out_bias=_get(d, out_bias_key, False),
        conv_bias=_get(d, "mamba_conv_bias", True),
        gated_norm=gated_norm,
    )


def bamba(d: Cfg) -> Result:
    h = _get(d, "hidden_size", 4096)
    n = _get(d, "num_hidden_layers", 32)
    a = _get(d, "num_attention_heads", 32)
    d = {**d, "num_attention_heads": a, "num_key_value_heads": _get(d, "num_key_value_heads", 8)}
    attn_at = set(_get(d, "attn_layer_indices", []))
    mixer = {
        "mamba": _mamba2_family_mixer(
            d, h, _get(d, "mamba_expand", 2) * h, out_bias_key="mamba_proj_bias", gated_norm=True
        ),
        "attention": _attention(d, h, _get(d, "head_dim", h // a), _get(d, "attention_bias", False)),
    }
    ffn = _gated_mlp(h, _get(d, "intermediate_size", 14336), _get(d, "mlp_bias", False))
    layers = {("decoder", i): 2 * h + mixer["attention" if i in attn_at else "mamba"] + ffn for i in range(n)}
    return {"outside": _causal_outside(d, h, False, h), "layers": layers}


def falcon_h1(d: Cfg) -> Result:
    h = _get(d, "hidden_size", 4096)
    n = _get(d, "num_hidden_layers", 32)
    a = _get(d, "num_attention_heads", 32)
    d = {**d, "num_attention_heads": a, "num_key_value_heads": _get(d, "num_key_value_heads", 8)}
    d_ssm = d.get("mamba_d_ssm", 1024)  # an explicit null means mamba_expand · h
    inner = _get(d, "mamba_expand", 2) * h if d_ssm is None else d_ssm
    mixer = _mamba2_family_mixer(
        d, h, inner, out_bias_key="projectors_bias", gated_norm=_get(d, "mamba_rms_norm", False)
    )
    attention = _attention(d, h, _get(d, "head_dim", h // a), _get(d, "attention_bias", False))
    ffn = _gated_mlp(h, _get(d, "intermediate_size", 14336), _get(d, "mlp_bias", False))
    layer = 2 * h + mixer + attention + ffn  # Mamba and attention run in parallel in every layer
    return {"outside": _causal_outside(d, h, False, h), "layers": {("decoder", i): layer for i in range(n)}}


_GRANITE_TYPES = {"mamba": "linear_attention", "attention": "full_attention"}


def granitemoehybrid(d: Cfg) -> Result:
    h = _get(d, "hidden_size", 4096)
    n = _get(d, "num_hidden_layers", 32)
    a = _get(d, "num_attention_heads", 32)
    d = {**d, "num_attention_heads": a, "num_key_value_heads": _get(d, "num_key_value_heads", a)}
    types = [_GRANITE_TYPES.get(t, t) for t in _get(d, "layer_types", ["linear_attention"] * n)]
    mixer = {
        "linear_attention": _mamba2_family_mixer(
            d, h, _get(d, "mamba_expand", 2) * h, out_bias_key="mamba_proj_bias", gated_norm=True
        ),
        "full_attention": _attention(d, h, _get(d, "head_dim", h // a), _get(d, "attention_bias", False)),
    }
    experts = _get(d, "num_local_experts", 8)
    f = _get(d, "intermediate_size", 1024)
    moe = experts * h + experts * 3 * h * f if experts > 0 else 0
    shared = 3 * h * _get(d, "shared_intermediate_size", 1024)  # input_linear h→2f_s, output_linear f_s→h
    layers = {("decoder", i): 2 * h + mixer[types[i]] + moe + shared for i in range(n)}
    return {"outside": _causal_outside(d, h, False, h), "layers": layers}


def qwen3_next(d: Cfg) -> Result:
    h = _get(d, "hidden_size", 2048)
    n = _get(d, "num_hidden_layers", 48)
    d = {
        **d,
        "num_attention_heads": _get(d, "num_attention_heads", 16),
        "num_key_value_heads": _get(d, "num_key_value_heads", 2),
    }
    interval = _get(d, "full_attention_interval", 4)
    default_types = ["full_attention" if (i + 1) % interval == 0 else "linear_attention" for i in range(n)]
    types = _get(d, "layer_types", default_types)
    nk, nv = _get(d, "linear_num_key_heads", 16), _get(d, "linear_num_value_heads", 32)
    dk, dv = _get(d, "linear_key_head_dim", 128), _get(d, "linear_value_head_dim", 128)
    key_dim, value_dim = nk * dk, nv * dv
    conv_dim = 2 * key_dim + value_dim
    delta_net = (
        h * (2 * key_dim + 2 * value_dim)  # in_proj_qkvz
        + h * 2 * nv  # in_proj_ba
        + conv_dim * _get(d, "linear_conv_kernel_dim", 4)  # conv1d, no bias
        + 2 * nv  # dt_bias, A_log
        + dv  # gated RMSNorm over one value head
        + value_dim * h  # out_proj
    )
    d_h = _get(d, "head_dim", 256)
    attention = _attention(d, h, d_h, _get(d, "attention_bias", False), q_mult=2) + 2 * d_h  # q/k norm
    mixer = {"linear_attention": delta_net, "full_attention": attention}
    experts = _get(d, "num_experts", 512)
    step = _get(d, "decoder_sparse_step", 1)
    mlp_only = set(_get(d, "mlp_only_layers", []))
    moe = (
        experts * h
        + experts * 3 * h * _get(d, "moe_intermediate_size", 512)
        + 3 * h * _get(d, "shared_expert_intermediate_size", 512)
        + h  # shared expert + its gate
    )
    dense = 3 * h * _get(d, "intermediate_size", 5632)
    layers = {}
    for i in range(n):
        is_moe = i not in mlp_only and experts > 0 and (i + 1) % step == 0
        layers[("decoder", i)] = 2 * h + mixer[types[i]] + (moe if is_moe else dense)
    return {"outside": _causal_outside(d, h, False, h), "layers": layers}


# --- attention-only families --------------------------------------------------------------------


def gemma3_text(d: Cfg) -> Result:
    h = _get(d, "hidden_size", 2304)
    n = _get(d, "num_hidden_layers", 26)
    d = {
        **d,
        "num_attention_heads": _get(d, "num_attention_heads", 8),
        "num_key_value_heads": _get(d, "num_key_value_heads", 4),
    }
    d_h = _get(d, "head_dim", 256)
    layer = (
        _attention(d, h, d_h, _get(d, "attention_bias", False))
        + 2 * d_h  # q_norm, k_norm over d_h
        + 3 * h * _get(d, "intermediate_size", 9216)
        + 4 * h  # input, post_attention, pre_feedforward, post_feedforward RMSNorm
    )
    return {"outside": _causal_outside(d, h, True, h), "layers": {("decoder", i): layer for i in range(n)}}


def llama4_text(d: Cfg) -> Result:
    h = _get(d, "hidden_size", 5120)
    n = _get(d, "num_hidden_layers", 48)
    a = _get(d, "num_attention_heads", 40)
    d = {**d, "num_attention_heads": a, "num_key_value_heads": _get(d, "num_key_value_heads", 8)}
    d_h = _get(d, "head_dim", h // a)
    attention = _attention(d, h, d_h, _get(d, "attention_bias", False))  # L2 qk-norm: no weights
    step = _get(d, "interleave_moe_layer_step", 1)
    moe_layers = set(_get(d, "moe_layers", range(step - 1, n, step)))
    experts = _get(d, "num_local_experts", 16)
    f = _get(d, "intermediate_size", 8192)
    moe = experts * h + experts * 3 * h * f + 3 * h * f  # router, experts, shared expert (same width)
    dense = 3 * h * _get(d, "intermediate_size_mlp", 16384)
    layers = {("decoder", i): 2 * h + attention + (moe if i in moe_layers else dense) for i in range(n)}
    return {"outside": _causal_outside(d, h, False, h), "layers": layers}


def gpt_oss(d: Cfg) -> Result:
    h = _get(d, "hidden_size", 2880)
    n = _get(d, "num_hidden_layers", 36)
    a = _get(d, "num_attention_heads", 64)
    d = {**d, "num_attention_heads": a, "num_key_value_heads": _get(d, "num_key_value_heads", 8)}
    experts = _get(d, "num_local_experts", 128)
    f = _get(d, "intermediate_size", 2880)
    layer = (
        _attention(d, h, _get(d, "head_dim", 64), _get(d, "attention_bias", True))
        + a  # + sinks
        + experts * h
        + experts  # router weight and bias
        + experts * (h * 2 * f + 2 * f + f * h + h)  # experts with gate_up / down biases
        + 2 * h
    )
    return {"outside": _causal_outside(d, h, False, h), "layers": {("decoder", i): layer for i in range(n)}}


def cohere2(d: Cfg) -> Result:
    h = _get(d, "hidden_size", 8192)
    n = _get(d, "num_hidden_layers", 40)
    a = _get(d, "num_attention_heads", 64)
    d = {**d, "num_attention_heads": a, "num_key_value_heads": _get(d, "num_key_value_heads", a)}
    layer = (
        # __post_init__ sets head_dim = h/a, but an explicit head_dim key is applied after it and wins
        _attention(d, h, _get(d, "head_dim", h // a), _get(d, "attention_bias", False))
        + 3 * h * _get(d, "intermediate_size", 22528)
        + h  # one LayerNorm (weight only) feeds attention and MLP in parallel
    )
    return {"outside": _causal_outside(d, h, True, h), "layers": {("decoder", i): layer for i in range(n)}}


# --- encoder-decoders ---------------------------------------------------------------------------


def t5_published_head(d: Cfg) -> int:
    """Extra lm_head.weight a T5 v1.1 / Flan-T5 / mT5 checkpoint stores (tie_word_embeddings false)."""
    return d["vocab_size"] * d["d_model"] if d.get("tie_word_embeddings") is False else 0


def t5(d: Cfg) -> Result:
    h = _get(d, "d_model", 512)
    inner = _get(d, "num_heads", 8) * _get(d, "d_kv", 64)
    f = _get(d, "d_ff", 2048)
    gated = _get(d, "feed_forward_proj", "relu").startswith("gated-")
    attention = 2 * h * inner + 2 * inner * h  # q, k, v, o without biases
    ffn = (3 if gated else 2) * h * f + h  # wi(_0, _1), wo + layer_norm
    rel_bias = _get(d, "relative_attention_num_buckets", 32) * _get(d, "num_heads", 8)
    n_enc = _get(d, "num_layers", 6)
    n_dec = _get(d, "num_decoder_layers", n_enc)
    layers = {}
    for i in range(n_enc):
        layers[("encoder", i)] = attention + h + ffn + (rel_bias if i == 0 else 0)
    for i in range(n_dec):
        layers[("decoder", i)] = 2 * (attention + h) + ffn + (rel_bias if i == 0 else 0)
    # transformers 5 always ties lm_head to `shared` (T5Config forces tie_word_embeddings = True)
    outside = {"shared": d["vocab_size"] * h, "encoder.final_layer_norm": h, "decoder.final_layer_norm": h}
    return {"outside": outside, "layers": layers}


def _seq2seq_layer(h: int, f: int, bias_k: bool, cross: bool) -> int:
    attention = 3 * h * h + 3 * h + h * h + (h if bias_k else 0)
    ffn = h * f + f + f * h + h
    return (2 if cross else 1) * (attention + 2 * h) + ffn + 2 * h


def bart(d: Cfg) -> Result:
    h = _get(d, "d_model", 1024)
    v = d["vocab_size"]
    positions = _get(d, "max_position_embeddings", 1024) + 2  # learned, offset 2
    layers = {}
    for i in range(_get(d, "encoder_layers", 12)):
        layers[("encoder", i)] = _seq2seq_layer(h, _get(d, "encoder_ffn_dim", 4096), True, False)
    for i in range(_get(d, "decoder_layers", 12)):
        layers[("decoder", i)] = _seq2seq_layer(h, _get(d, "decoder_ffn_dim", 4096), True, True)
    outside = {
        "shared": v * h,  # encoder/decoder embed_tokens and lm_head are ties of it
        "encoder.embed_positions": positions * h,
        "decoder.embed_positions": positions * h,
        "encoder.layernorm_embedding": 2 * h,
        "decoder.layernorm_embedding": 2 * h,
    }  # final_logits_bias (1, V) is a buffer, not a parameter
    return {"outside": outside, "layers": layers}


def whisper(d: Cfg) -> Result:
    h = _get(d, "d_model", 384)
    mels = _get(d, "num_mel_bins", 80)
    layers = {}
    for i in range(_get(d, "encoder_layers", 4)):
        layers[("encoder", i)] = _seq2seq_layer(h, _get(d, "encoder_ffn_dim", 1536), False, False)
    for i in range(_get(d, "decoder_layers", 4)):
        layers[("decoder", i)] = _seq2seq_layer(h, _get(d, "decoder_ffn_dim", 1536), False, True)
    outside = {
        "encoder.conv1": mels * h * 3 + h,
        "encoder.conv2": h * h * 3 + h,
        "encoder.embed_positions": _get(d, "max_source_positions", 1500) * h,  # sinusoidal, but a Parameter
        "encoder.layer_norm": 2 * h,
        "decoder.embed_tokens": d["vocab_size"] * h,
        "decoder.embed_positions": _get(d, "max_target_positions", 448) * h,
        "decoder.layer_norm": 2 * h,
    }
    if not _tied(d, True):
        outside["proj_out"] = d["vocab_size"] * h  # tied to decoder.embed_tokens by default
    return {"outside": outside, "layers": layers}


FORMULAS: dict[str, Callable[[Cfg], Result]] = {
    "bamba": bamba,
    "bart": bart,
    "cohere2": cohere2,
    "falcon_h1": falcon_h1,
    "gemma3_text": gemma3_text,
    "gpt_oss": gpt_oss,
    "granitemoehybrid": granitemoehybrid,
    "jamba": jamba,
    "llama4_text": llama4_text,
    "mamba": mamba,
    "mamba2": mamba2,
    "mt5": t5,
    "qwen3_next": qwen3_next,
    "t5": t5,
    "whisper": whisper,
}


def expected(d: Cfg) -> Result:
    result = FORMULAS[d["model_type"]](d)
    result["total"] = sum(result["outside"].values()) + sum(result["layers"].values())
    return result
