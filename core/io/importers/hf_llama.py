"""Builders for the Llama-shaped families (RMSNorm, gated MLP, RoPE) and DeepSeek's MLA stacks.

Llama, Mistral, Mixtral, Qwen2/3 (dense and MoE), Gemma 1/2 and Phi-3 differ only in bias flags,
q/k norms, norms per block, the default head width and which layers hold experts; those facts
are data (``_BIASES``, ``_FLAGS``) rather than branches.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.io.importers.hf_reader import HFConfig
from paramtally.core.io.importers.layer_pattern import periodic_groups

__all__ = ["deepseek", "llama_like"]

Spec = dict[str, Any]
_BIAS_KEYS = ("q_bias", "k_bias", "v_bias", "o_bias")

# model_type -> (config key switching the biases, which projections it switches);
# a key of None means the biases are hard-wired on.
_BIASES: dict[str, tuple[str | None, tuple[str, ...]]] = {
    "llama": ("attention_bias", _BIAS_KEYS),
    "qwen3": ("attention_bias", _BIAS_KEYS),
    "qwen3_moe": ("attention_bias", _BIAS_KEYS),
    "gemma": ("attention_bias", _BIAS_KEYS),
    "gemma2": ("attention_bias", _BIAS_KEYS),
    "qwen2": (None, ("q_bias", "k_bias", "v_bias")),
    "qwen2_moe": ("qkv_bias", ("q_bias", "k_bias", "v_bias")),
}
_QK_NORM = {"qwen3", "qwen3_moe"}
_MLP_BIAS = {"llama"}
_NORMS_PER_BLOCK = {"gemma2": 4}


def llama_like(cfg: HFConfig, *, biases: Spec | None = None, mlp_bias: bool | None = None) -> Spec:
    kind = cfg.model_type
    h, a = cfg.integer("hidden_size"), cfg.integer("num_attention_heads")
    kv = cfg.divisor(
        "num_key_value_heads", a, "num_attention_heads", cfg.opt_integer("num_key_value_heads") or a
    )
    attention: Spec = {"num_heads": a, "num_kv_heads": kv}
    head_dim = cfg.opt_integer("head_dim")
    if head_dim is not None and (head_dim != h // a or h % a):
        attention["head_dim"] = head_dim
    elif h % a:
        attention["head_dim"] = h // a  # transformers floors h / a
    attention.update(biases if biases is not None else _bias_flags(cfg))
    if kind in _QK_NORM:
        attention["qk_norm"] = True
    attention.update(_checked_window(cfg))
    fraction = cfg.rope("partial_rotary_factor")
    if fraction is not None and kind in ("phi", "phi3"):
        attention["rotary_fraction"] = cfg.as_number("partial_rotary_factor", fraction)
    if mlp_bias is None:
        mlp_bias = kind in _MLP_BIAS and cfg.flag("mlp_bias")
    return {
        "hidden_size": h,
        "embeddings": {
            "vocab_size": cfg.integer("vocab_size"),
            "max_positions": cfg.integer("max_position_embeddings"),
        },
        "attention": attention,
        "ffn": {"width": cfg.integer("intermediate_size"), "bias": mlp_bias, "activation": _activation(cfg)},
        "norms": {"kind": "rmsnorm", "per_block": _NORMS_PER_BLOCK.get(kind, 2)},
        "head": {"tied": cfg.flag("tie_word_embeddings")},
        "layers": _llama_layers(cfg),
    }


def deepseek(cfg: HFConfig) -> Spec:
    """DeepSeek-V2/V3: MLA attention; the first ``first_k_dense_replace`` layers dense, the rest MoE.

    ``num_key_value_heads`` and ``head_dim`` do not shape MLA (newer files write head_dim =
    qk_rope_head_dim); ``moe_layer_freq`` is ignored by transformers, and so here.
    """
    bias = cfg.flag("attention_bias")
    q_rank = cfg.opt_integer("q_lora_rank")
    mlp_bias = cfg.model_type == "deepseek_v2" and cfg.flag("mlp_bias")
    attention: Spec = {
        "kind": "mla",
        "num_heads": cfg.integer("num_attention_heads"),
        "q_lora_rank": q_rank,
        "q_bias": bias and q_rank is not None,
        "k_bias": bias,
        "o_bias": bias,
        **{
            key: cfg.integer(key)
            for key in ("kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim")
        },
    }
    n = cfg.integer("num_hidden_layers")
    dense = min(cfg.integer("first_k_dense_replace", minimum=0), n)
    moe: Spec = {
        "num_experts": cfg.integer("n_routed_experts"),
        "top_k": cfg.integer("num_experts_per_tok"),
        "expert_width": cfg.integer("moe_intermediate_size"),
        "shared_experts": cfg.integer("n_shared_experts", minimum=0),
        "shared_expert_bias": mlp_bias,
    }
    spec: Spec = {
        "hidden_size": cfg.integer("hidden_size"),
        "embeddings": {
            "vocab_size": cfg.integer("vocab_size"),
            "max_positions": cfg.integer("max_position_embeddings"),
        },
        "attention": attention,
        "ffn": {"width": cfg.integer("intermediate_size"), "bias": mlp_bias, "activation": _activation(cfg)},
        "norms": {"kind": "rmsnorm"},
        "head": {"tied": cfg.flag("tie_word_embeddings")},
        "layers": [group for group in ({"count": dense}, {"count": n - dense, "moe": moe}) if group["count"]],
    }
    # DeepSeek-V3's checkpoint holds num_nextn_predict_layers MoE prediction modules, which
    # transformers does not build: counted apart (ParamReport.mtp).
    predict = cfg.integer("num_nextn_predict_layers", minimum=0, default=0)
    if predict:
        spec["mtp"] = {
            "count": predict,
            "override": {"ffn": {"kind": "moe", "activation": _activation(cfg), **moe}},
        }
    return spec


# --- helpers ---------------------------------------------------------------------------------


def _bias_flags(cfg: HFConfig) -> Spec:
    if cfg.model_type not in _BIASES:
        return dict.fromkeys(_BIAS_KEYS, False)
    key, switched = _BIASES[cfg.model_type]
    on = key is None or cfg.flag(key)
    return {name: on and name in switched for name in _BIAS_KEYS}


def _activation(cfg: HFConfig) -> str:
    """The MLP activation (no parameters): Gemma-2 names it ``hidden_activation``."""
    if cfg.model_type == "gemma2" and not cfg.has("hidden_activation") and cfg.has("hidden_act"):
        return cfg.text("hidden_act")
    return cfg.text("hidden_activation" if cfg.model_type == "gemma2" else "hidden_act", "silu")


def _window(cfg: HFConfig) -> Spec:
    """Sliding-window facts (no parameters; they drive the KV cache later)."""
    kind = cfg.model_type
    if kind.startswith("qwen"):
        # Qwen slides only on layers >= max_window_layers; only the all-layers case fits the schema.
        if not cfg.flag("use_sliding_window") or cfg.integer("max_window_layers", minimum=0) > 0:
            return {}
    elif kind not in ("mistral", "mixtral", "gemma2", "phi3"):
        return {}
    window = cfg.raw("sliding_window", None)
    if not window:
        return {}
    window = cfg.integer("sliding_window")
    return {"sliding_window": window, "global_every": 2} if kind == "gemma2" else {"sliding_window": window}


# The families whose model reads layer_types (Qwen2/Qwen3/Qwen2-MoE/Gemma-2 modeling: a layer
# slides where it says sliding_attention, by config.sliding_window, which the Qwen configs set to
# nothing without use_sliding_window); the others' models never look at it.
_READ_LAYER_TYPES = {"qwen2", "qwen2_moe", "qwen3", "gemma2"}


def _checked_window(cfg: HFConfig) -> Spec:
    """``_window``, or a file's own ``layer_types`` (the config checked their names): every layer
    sliding or none is read as it says; a mix is held to the window rule, and a layer that
    slides where the rule says it does not (or the other way) is refused, not guessed."""
    window = _window(cfg)
    types = cfg.raw("layer_types", None)
    if types is None or cfg.model_type not in _READ_LAYER_TYPES:
        return window
    for index, kind in enumerate(types):
        if kind not in ("full_attention", "sliding_attention"):
            raise cfg.fail(
                f"layer_types[{index}]",
                f"is {kind}; a {cfg.model_type} layer is full_attention or sliding_attention",
            )
    size = cfg.raw("sliding_window", None)
    if cfg.model_type.startswith("qwen") and not cfg.flag("use_sliding_window"):
        size = None
    if set(types) == {"full_attention"} or (set(types) == {"sliding_attention"} and not size):
        return {}
    if set(types) == {"sliding_attention"}:
        return {"sliding_window": cfg.integer("sliding_window")}
    slides = window.get("sliding_window") is not None
    every = window.get("global_every", 0)
    for index, kind in enumerate(types):
        ruled = (
            "sliding_attention" if slides and not (every and (index + 1) % every == 0) else "full_attention"
        )
        if kind != ruled:
            raise cfg.fail(
                f"layer_types[{index}]",
                f"is {kind}, but use_sliding_window, sliding_window and max_window_layers make it {ruled}: "
                "a stack whose layers slide otherwise is not read",
            )
    return window


def _llama_layers(cfg: HFConfig) -> list[Spec]:
    kind, n = cfg.model_type, cfg.integer("num_hidden_layers")
    if kind == "mixtral":
        experts: Spec = {
            "num_experts": cfg.integer("num_local_experts"),
            "top_k": cfg.integer("num_experts_per_tok"),
            "expert_width": cfg.integer("intermediate_size"),
        }
        return [{"count": n, "moe": experts}]
    if kind not in ("qwen2_moe", "qwen3_moe"):
        return [{"count": n}]
    experts_key = "num_experts" if kind == "qwen2_moe" else "num_local_experts"
    num_experts = cfg.integer(experts_key, minimum=0)
    step = cfg.integer("decoder_sparse_step")
    dense_only = set(cfg.int_list("mlp_only_layers"))
    if num_experts == 0:
        return [{"count": n}]
    moe: Spec = {
        "kind": "moe",
        "activation": _activation(cfg),
        "num_experts": num_experts,
        "top_k": cfg.integer("num_experts_per_tok"),
        "expert_width": cfg.integer("moe_intermediate_size"),
    }
    if kind == "qwen2_moe":
        moe.update(
            shared_experts=1,
            shared_expert_width=cfg.integer("shared_expert_intermediate_size"),
            shared_expert_gate=True,
        )
    # Layer i is MoE when (i + 1) % step == 0, unless mlp_only_layers names it.
    changes = {True: {"ffn": moe}}
    return periodic_groups(
        n,
        step,
        lambda i: (i + 1) % step == 0,
        lambda kind: changes.get(kind, {}),
        dict.fromkeys(dense_only, False),
    )
