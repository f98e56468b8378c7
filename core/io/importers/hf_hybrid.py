"""Builders for the decoder families whose layers differ: state-space, hybrid and patterned models.

Mamba and Mamba-2 (state-space only), Jamba, Bamba, Granite-4-H and Falcon-H1 (Mamba with
attention), Qwen3-Next (gated DeltaNet with gated attention), Gemma-3, gpt-oss and Cohere2 (sliding
and global layers), Llama-4 (MoE and dense, chunked and NoPE layers). Each reads the keys its
transformers class reads (the shapes are in tools/TRANSFORMERS_FINDINGS.md) and describes the
stack as a base block plus what differs per layer, with ``layer_pattern`` keeping it compact.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from paramtally.core.errors import shown
from paramtally.core.io.importers.hf_reader import HFConfig
from paramtally.core.io.importers.layer_pattern import MAX_EXPANDED, groups_from_kinds, periodic_groups

__all__ = ["HYBRID_BUILDERS"]

Spec = dict[str, Any]


def _model(cfg: HFConfig, h: int, block: Spec, layers: list[Spec], *, positions: str = "rope") -> Spec:
    return {
        "hidden_size": h,
        "embeddings": {"vocab_size": cfg.integer("vocab_size")},
        "blocks": {"default": block},
        "decoder": {
            "layers": layers,
            "positions": positions,
            "max_positions": cfg.integer("max_position_embeddings", default=0, minimum=0),
        },
        "head": {"tied": cfg.flag("tie_word_embeddings")},
    }


def _attention(cfg: HFConfig, h: int, *, bias_key: str | None = "attention_bias", **extra: Any) -> Spec:
    a = cfg.integer("num_attention_heads")
    g = cfg.opt_integer("num_key_value_heads") or a
    head_dim = cfg.opt_integer("head_dim", default=None)
    bias = cfg.flag(bias_key) if bias_key else False
    mixer: Spec = {
        "kind": "attention",
        "num_heads": a,
        "num_kv_heads": cfg.divisor("num_key_value_heads", a, "num_attention_heads", g),
    }
    if head_dim is not None and head_dim * a != h:
        mixer["head_dim"] = head_dim
    elif h % a:
        mixer["head_dim"] = h // a
    mixer.update(dict.fromkeys(("q_bias", "k_bias", "v_bias", "o_bias"), bias))
    return {**mixer, **extra}


def _gated(width: int, bias: bool = False, activation: str = "silu") -> Spec:
    return {"kind": "dense", "width": width, "gated": True, "bias": bias, "activation": activation}


def _activation(cfg: HFConfig, key: str = "hidden_act") -> str:
    return cfg.text(key, "silu")


def _moe(experts: int, top_k: int, width: int, **extra: Any) -> Spec:
    return {"kind": "moe", "num_experts": experts, "top_k": top_k, "expert_width": width, **extra}


def _mamba2(cfg: HFConfig, h: int, inner: int, *, out_bias_key: str, gated_norm: bool) -> Spec:
    heads = cfg.integer("mamba_n_heads")
    head = cfg.raw("mamba_d_head", "auto")
    if head != "auto" and cfg.integer("mamba_d_head") * heads != inner:
        raise cfg.fail("mamba_d_head", f"× mamba_n_heads must equal the Mamba width {inner}")
    return {
        "kind": "mamba2",
        "inner": inner,
        "num_heads": heads,
        "groups": cfg.integer("mamba_n_groups"),
        "state": cfg.integer("mamba_d_state"),
        "conv_kernel": cfg.integer("mamba_d_conv"),
        "in_proj_bias": cfg.flag("mamba_proj_bias"),
        "out_proj_bias": cfg.flag(out_bias_key),
        "conv_bias": cfg.flag("mamba_conv_bias"),
        "gated_norm": gated_norm,
        "chunk_size": cfg.integer("mamba_chunk_size"),
    }


def _changes_from(table: Mapping[Any, Spec]) -> Any:
    return lambda kind: table.get(kind, {})


# --- state-space only ------------------------------------------------------------------------


def mamba(cfg: HFConfig) -> Spec:
    h = cfg.integer("hidden_size")
    inner = cfg.opt_integer("intermediate_size", default=None)  # an explicit width beats expand·h
    rank = cfg.raw("time_step_rank", "auto")
    mixer: Spec = {
        "kind": "mamba",
        "inner": inner or cfg.integer("expand") * h,
        "state": cfg.integer("state_size"),
        "conv_kernel": cfg.integer("conv_kernel"),
        "dt_rank": math.ceil(h / 16) if rank == "auto" else cfg.integer("time_step_rank"),
        "proj_bias": cfg.flag("use_bias"),
        "conv_bias": cfg.flag("use_conv_bias"),
    }
    block = {"mixer": mixer, "ffn": {"kind": "none"}, "norms": {"kind": "rmsnorm", "count": 1}}
    return _model(cfg, h, block, [{"count": cfg.integer("num_hidden_layers")}], positions="none")


def mamba2(cfg: HFConfig) -> Spec:
    h = cfg.integer("hidden_size")
    inner = cfg.integer("expand") * h
    heads = cfg.integer("num_heads")
    if cfg.has("head_dim") and cfg.integer("head_dim") * heads != inner:
        raise cfg.fail("head_dim", f"× num_heads must equal expand × hidden_size ({inner})")
    mixer: Spec = {
        "kind": "mamba2",
        "inner": inner,
        "num_heads": heads,
        "groups": cfg.integer("n_groups"),
        "state": cfg.integer("state_size"),
        "conv_kernel": cfg.integer("conv_kernel"),
        "in_proj_bias": cfg.flag("use_bias"),
        "out_proj_bias": cfg.flag("use_bias"),
        "conv_bias": cfg.flag("use_conv_bias"),
        "gated_norm": True,  # built whatever `rms_norm` says
        "chunk_size": cfg.integer("chunk_size"),
    }
    block = {"mixer": mixer, "ffn": {"kind": "none"}, "norms": {"kind": "rmsnorm", "count": 1}}
    return _model(cfg, h, block, [{"count": cfg.integer("num_hidden_layers")}], positions="none")


# --- Mamba with attention --------------------------------------------------------------------


def jamba(cfg: HFConfig) -> Spec:
    """Layer i attends iff i % attn_layer_period == attn_layer_offset; its FFN is MoE iff
    i % expert_layer_period == expert_layer_offset (and there is more than one expert)."""
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    rank = cfg.raw("mamba_dt_rank", "auto")
    mixer: Spec = {
        "kind": "mamba",
        "inner": cfg.integer("mamba_expand") * h,
        "state": cfg.integer("mamba_d_state"),
        "conv_kernel": cfg.integer("mamba_d_conv"),
        "dt_rank": math.ceil(h / 16) if rank == "auto" else cfg.integer("mamba_dt_rank"),
        "proj_bias": cfg.flag("mamba_proj_bias"),
        "conv_bias": cfg.flag("mamba_conv_bias"),
        "inner_norms": True,
    }
    f = cfg.integer("intermediate_size")
    experts = cfg.integer("num_experts")
    a_period, a_offset = cfg.integer("attn_layer_period"), cfg.integer("attn_layer_offset", minimum=0)
    e_period, e_offset = cfg.integer("expert_layer_period"), cfg.integer("expert_layer_offset", minimum=0)
    table = {
        (True, False): {"mixer": _attention(cfg, h, bias_key=None)},
        (False, True): {"ffn": _moe(experts, cfg.integer("num_experts_per_tok"), f)},
    }
    table[(True, True)] = {**table[(True, False)], **table[(False, True)]}
    block = {
        "mixer": mixer,
        "ffn": _gated(f, activation=_activation(cfg)),
        "norms": {"kind": "rmsnorm", "count": 2},
    }

    def kind(i: int) -> tuple[bool, bool]:
        return i % a_period == a_offset, experts > 1 and i % e_period == e_offset

    layers = periodic_groups(n, math.lcm(a_period, e_period), kind, _changes_from(table))
    return _model(cfg, h, block, layers, positions="none")


def bamba(cfg: HFConfig) -> Spec:
    """Mamba-2 layers, attention at ``attn_layer_indices``, a gated MLP in every layer."""
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    mixer = _mamba2(cfg, h, cfg.integer("mamba_expand") * h, out_bias_key="mamba_proj_bias", gated_norm=True)
    block = {
        "mixer": mixer,
        "ffn": _gated(cfg.integer("intermediate_size"), cfg.flag("mlp_bias"), _activation(cfg)),
        "norms": {"kind": "rmsnorm", "count": 2},
    }
    attention = dict.fromkeys(cfg.int_list("attn_layer_indices"), "attention")
    changes = _changes_from({"attention": {"mixer": _attention(cfg, h)}})
    return _model(cfg, h, block, periodic_groups(n, 1, lambda i: "mamba", changes, attention))


def granitemoehybrid(cfg: HFConfig) -> Spec:
    """``layer_types`` (mamba / attention) pick the mixer; every layer has the MoE FFN and the
    shared MLP, Mamba layers included."""
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    mixer = _mamba2(cfg, h, cfg.integer("mamba_expand") * h, out_bias_key="mamba_proj_bias", gated_norm=True)
    experts = cfg.integer("num_local_experts", minimum=0)
    shared = cfg.integer("shared_intermediate_size")
    if experts:
        ffn = _moe(
            experts,
            cfg.integer("num_experts_per_tok"),
            cfg.integer("intermediate_size"),
            shared_experts=1,
            shared_expert_width=shared,
        )
    else:
        ffn = _gated(shared)
    block = {"mixer": mixer, "ffn": ffn, "norms": {"kind": "rmsnorm", "count": 2}}
    positions = "none" if cfg.raw("position_embedding_type", None) == "nope" else "rope"
    if cfg.raw("layer_types", None) is None:  # every layer Mamba
        return _model(cfg, h, block, [{"count": n}], positions=positions)
    types = _layer_types(cfg, n, "linear_attention", _LINEAR_OR_FULL)
    kinds = ["attention" if kind == "full_attention" else "mamba" for kind in types]
    changes = _changes_from({"attention": {"mixer": _attention(cfg, h)}})
    return _model(cfg, h, block, groups_from_kinds(kinds, changes), positions=positions)


def falcon_h1(cfg: HFConfig) -> Spec:
    """Every layer runs a Mamba-2 mixer and attention in parallel, then a gated MLP."""
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    d_ssm = cfg.raw("mamba_d_ssm")
    inner = cfg.integer("mamba_expand") * h if d_ssm is None else cfg.integer("mamba_d_ssm")
    block = {
        "mixer": _attention(cfg, h),
        "parallel_mixer": _mamba2(
            cfg, h, inner, out_bias_key="projectors_bias", gated_norm=cfg.flag("mamba_rms_norm")
        ),
        "ffn": _gated(cfg.integer("intermediate_size"), cfg.flag("mlp_bias"), _activation(cfg)),
        "norms": {"kind": "rmsnorm", "count": 2},
    }
    return _model(cfg, h, block, [{"count": n}])


# --- linear attention ------------------------------------------------------------------------


def qwen3_next(cfg: HFConfig) -> Spec:
    """Gated DeltaNet layers with full (gated) attention every ``full_attention_interval``-th
    layer (or as ``layer_types`` say); MoE FFN on every ``decoder_sparse_step``-th layer."""
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    mixer: Spec = {
        "kind": "gated_deltanet",
        "key_heads": cfg.integer("linear_num_key_heads"),
        "value_heads": cfg.integer("linear_num_value_heads"),
        "key_dim": cfg.integer("linear_key_head_dim"),
        "value_dim": cfg.integer("linear_value_head_dim"),
        "conv_kernel": cfg.integer("linear_conv_kernel_dim"),
    }
    experts = cfg.integer("num_experts", minimum=0)
    moe = _moe(
        experts,
        cfg.integer("num_experts_per_tok"),
        cfg.integer("moe_intermediate_size"),
        shared_experts=1,
        shared_expert_width=cfg.integer("shared_expert_intermediate_size"),
        shared_expert_gate=True,
    )
    dense = _gated(cfg.integer("intermediate_size"), activation=_activation(cfg))
    block = {"mixer": mixer, "ffn": moe if experts else dense, "norms": {"kind": "rmsnorm", "count": 2}}
    attention = _attention(cfg, h, qk_norm=True, output_gate=True, head_dim=cfg.integer("head_dim"))
    step = cfg.integer("decoder_sparse_step")
    dense_only = set(cfg.int_list("mlp_only_layers"))
    table = {
        ("attention", True): {"mixer": attention},
        ("deltanet", False): {"ffn": dense},
        ("attention", False): {"mixer": attention, "ffn": dense},
    }

    def is_moe(i: int) -> bool:
        return experts > 0 and (i + 1) % step == 0

    if cfg.has("layer_types"):
        types = _layer_types(cfg, n, "linear_attention", _LINEAR_OR_FULL)
        kinds = [
            ("attention" if t == "full_attention" else "deltanet", is_moe(i) and i not in dense_only)
            for i, t in enumerate(types)
        ]
        return _model(cfg, h, block, groups_from_kinds(kinds, _changes_from(table)))
    interval = cfg.integer("full_attention_interval")

    def kind(i: int) -> tuple[str, bool]:
        return ("attention" if (i + 1) % interval == 0 else "deltanet"), is_moe(i)

    exceptions = {i: (kind(i)[0], False) for i in dense_only}
    return _model(
        cfg, h, block, periodic_groups(n, math.lcm(interval, step), kind, _changes_from(table), exceptions)
    )


# --- sliding, chunked and global attention ----------------------------------------------------


# The layer types a family's transformers model runs, by the name a file may give them: those its
# causal_mask_mapping holds (Qwen3NextModel, GraniteMoeHybridModel: full and linear attention;
# GptOssModel, Cohere2Model, Gemma3TextModel: full and sliding), and the older names the config
# maps onto them (configuration_utils._LEGACY_LAYER_TYPE_REMAP). The config class accepts any of
# ALLOWED_ATTN_LAYER_TYPES, but a model with another type fails on its first forward (a KeyError
# in that mapping; Gemma 3 already when built), and a name outside that list is refused.
_LINEAR_OR_FULL = {
    "full_attention": "full_attention",
    "linear_attention": "linear_attention",
    "attention": "full_attention",
    "mamba": "linear_attention",
}
_CHUNKED_OR_FULL = {
    "full_attention": "full_attention",
    "chunked_attention": "chunked_attention",
    "attention": "full_attention",
}
_SLIDING_OR_FULL = {
    "full_attention": "full_attention",
    "sliding_attention": "sliding_attention",
    "attention": "full_attention",
}


def _layer_types(cfg: HFConfig, n: int, default: str, known: Mapping[str, str]) -> list[str]:
    """``layer_types`` by the names of ``known`` (the file's older names mapped onto them); a
    type the family's model cannot run is refused, naming the layer."""
    types = cfg.raw("layer_types", None)
    if n > MAX_EXPANDED:  # a per-layer list is written out layer by layer
        raise cfg.fail(
            "num_hidden_layers", f"({n:,}) is more layers than a layer list may hold ({MAX_EXPANDED:,})"
        )
    if types is None:
        return [default] * n
    if not isinstance(types, list) or len(types) != n or not all(isinstance(t, str) for t in types):
        raise cfg.fail("layer_types", f"must be a list of {n} layer-type names")
    for index, kind in enumerate(types):
        if kind not in known:
            names = sorted(set(known.values()))
            older = sorted(set(known) - set(names))
            said = " or ".join(names) + (f" (or the older {', '.join(older)})" if older else "")
            raise cfg.fail(
                f"layer_types[{index}]", f"is {shown(kind, 40)}; a {cfg.model_type} layer is {said}"
            )
    return [known[kind] for kind in types]


def _global_layers(cfg: HFConfig, n: int, every: int, changes: Any) -> list[Spec]:
    """Groups of sliding and global layers: as ``layer_types`` lists them, else every
    ``every``-th layer global (kinds: True for a global layer)."""
    if cfg.has("layer_types"):
        types = _layer_types(cfg, n, "sliding_attention", _SLIDING_OR_FULL)
        return groups_from_kinds([t == "full_attention" for t in types], changes)
    return periodic_groups(n, every, lambda i: (i + 1) % every == 0, changes)


def gemma3_text(cfg: HFConfig) -> Spec:
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    window = cfg.integer("sliding_window")
    block = {
        "mixer": _attention(cfg, h, qk_norm=True, sliding_window=window, head_dim=cfg.integer("head_dim")),
        "ffn": _gated(
            cfg.integer("intermediate_size"), activation=cfg.text("hidden_activation", "gelu_pytorch_tanh")
        ),
        "norms": {"kind": "rmsnorm", "count": 4},
    }
    changes = _changes_from({True: {"mixer": {"sliding_window": None}}})
    return _model(cfg, h, block, _global_layers(cfg, n, cfg.integer("sliding_window_pattern"), changes))


def cohere2(cfg: HFConfig) -> Spec:
    """One weight-only LayerNorm feeds attention and MLP in parallel; every n-th layer is a
    global layer without RoPE, the others slide."""
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    block = {
        "mixer": _attention(cfg, h, sliding_window=cfg.integer("sliding_window")),
        "ffn": _gated(cfg.integer("intermediate_size"), activation=_activation(cfg)),
        "norms": {"kind": "layernorm", "bias": False, "count": 1},
    }
    changes = _changes_from({True: {"mixer": {"sliding_window": None, "rope": False}}})
    return _model(cfg, h, block, _global_layers(cfg, n, cfg.integer("sliding_window_pattern"), changes))


def gpt_oss(cfg: HFConfig) -> Spec:
    """Every layer MoE with biased router and experts; attention with sinks, sliding on the
    even layers and global on the odd ones unless ``layer_types`` says otherwise."""
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    f = cfg.integer("intermediate_size")
    block = {
        "mixer": _attention(
            cfg, h, sinks=True, sliding_window=cfg.integer("sliding_window"), head_dim=cfg.integer("head_dim")
        ),
        "ffn": _moe(
            cfg.integer("num_local_experts"),
            cfg.integer("num_experts_per_tok"),
            f,
            router_bias=True,
            expert_bias=True,
        ),
        "norms": {"kind": "rmsnorm", "count": 2},
    }
    changes = _changes_from({True: {"mixer": {"sliding_window": None}}})
    return _model(cfg, h, block, _global_layers(cfg, n, 2, changes))


def llama4_text(cfg: HFConfig) -> Spec:
    """MoE layers (routed + one shared expert of the same width) every ``interleave_moe_layer_step``-th
    layer or at ``moe_layers``, dense ones of ``intermediate_size_mlp``; RoPE layers attend in
    chunks of ``attention_chunk_size``, the NoPE ones (``no_rope_layers`` 0) globally."""
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    f = cfg.integer("intermediate_size")
    moe = _moe(cfg.integer("num_local_experts"), cfg.integer("num_experts_per_tok"), f, shared_experts=1)
    chunk = cfg.opt_integer("attention_chunk_size", default=None)
    block = {
        "mixer": _attention(cfg, h, sliding_window=chunk),
        "ffn": moe,
        "norms": {"kind": "rmsnorm", "count": 2},
    }
    dense = _gated(cfg.integer("intermediate_size_mlp"), activation=_activation(cfg))

    def changes(kind: tuple[bool, bool, bool]) -> Spec:
        is_moe, has_rope, chunked = kind
        change: Spec = {} if is_moe else {"ffn": dense}
        mixer: Spec = {} if chunked else {"sliding_window": None}
        if not has_rope:
            mixer["rope"] = False
        if mixer:
            change["mixer"] = mixer
        return change

    step = cfg.integer("interleave_moe_layer_step")
    explicit_moe = cfg.raw("moe_layers", None) is not None
    no_rope = cfg.raw("no_rope_layers", None)
    types = cfg.raw("layer_types", None)
    if not explicit_moe and no_rope is None and types is None:  # all by rule: one period describes the stack
        # every 4th layer is NoPE, and attends globally (transformers' layer_types default)
        rule = lambda i: ((i + 1) % step == 0, (i + 1) % 4 != 0, (i + 1) % 4 != 0)  # noqa: E731
        return _model(cfg, h, block, periodic_groups(n, math.lcm(step, 4), rule, changes))
    if n > MAX_EXPANDED:  # per-layer lists are written out layer by layer
        raise cfg.fail(
            "num_hidden_layers", f"({n:,}) is more layers than a layer list may hold ({MAX_EXPANDED:,})"
        )
    moe_at = set(cfg.int_list("moe_layers")) if explicit_moe else set(range(step - 1, n, step))
    rope = (
        [(i + 1) % 4 != 0 for i in range(n)]
        if no_rope is None
        else [bool(x) for x in cfg.int_list("no_rope_layers")]
    )
    if len(rope) != n:
        raise cfg.fail("no_rope_layers", f"must hold one 0/1 per layer ({n})")
    # Llama4TextModel masks a layer by its type: chunks where layer_types says chunked_attention
    # (by default the RoPE layers), the whole context where it says full_attention.
    chunked = (
        rope
        if types is None
        else [kind == "chunked_attention" for kind in _layer_types(cfg, n, "", _CHUNKED_OR_FULL)]
    )
    if chunk is None:  # no chunks to drop: every layer keeps the base block's attention
        chunked = [True] * n
    kinds = [(i in moe_at, rope[i], chunked[i]) for i in range(n)]
    return _model(cfg, h, block, groups_from_kinds(kinds, changes))


HYBRID_BUILDERS = {
    "mamba": mamba,
    "mamba2": mamba2,
    "jamba": jamba,
    "bamba": bamba,
    "granitemoehybrid": granitemoehybrid,
    "falcon_h1": falcon_h1,
    "qwen3_next": qwen3_next,
    "gemma3_text": gemma3_text,
    "cohere2": cohere2,
    "gpt_oss": gpt_oss,
    "llama4_text": llama4_text,
}
