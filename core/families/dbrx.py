"""DBRX (``DbrxForCausalLM``): its own key names (``d_model``, ``n_heads``, ``n_layers``,
``max_seq_len``) and two nested objects, ``attn_config`` (``kv_n_heads``, ``clip_qkv``) and
``ffn_config`` (``ffn_hidden_size``, ``moe_num_experts``, ``moe_top_k``, ``ffn_act_fn``).

Each block (``DbrxBlock``): ``norm_attn_norm.norm_1``, a fused ``attn.Wqkv [h + 2·g·d_h, h]``
and ``out_proj [h, h]`` without biases (d_h = h / n_heads), ``norm_2``, then every FFN a mixture
of experts: ``router.layer [E, h]`` without bias and ``DbrxExpertGLU``'s ``w1``, ``v1``, ``w2``,
each one 2-D tensor ``[E·f, h]`` (the numbers of E gated experts of width f). The LayerNorms have
no bias (``nn.LayerNorm(d_model, bias=False)``), the final ``norm_f`` too. ``clip_qkv`` clamps
activations and holds no parameters. ``DbrxConfig`` refuses ``tie_word_embeddings``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paramtally.core.errors import shown
from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import decoder_model, moe
from paramtally.core.text import say

__all__ = ["FAMILY"]

# DbrxAttentionConfig's and DbrxFFNConfig's defaults, under the nested key they are read from.
_NESTED_DEFAULTS: dict[str, Any] = {
    "attn_config.kv_n_heads": 1,
    "ffn_config.ffn_hidden_size": 3584,
    "ffn_config.moe_num_experts": 4,
    "ffn_config.moe_top_k": 1,
    "ffn_config.ffn_act_fn": None,
}


def _flattened(cfg: HFConfig) -> HFConfig:
    """``cfg`` with ``attn_config`` and ``ffn_config`` read as ``attn_config.<key>`` (errors name
    the key so)."""
    flat: dict[str, Any] = dict(cfg.data)
    for outer in ("attn_config", "ffn_config"):
        inner = cfg.raw(outer, None)
        if inner is None:
            continue
        if not isinstance(inner, Mapping):
            raise cfg.fail(outer, say("must be an object or null (got {got})", got=shown(inner)))
        flat.update({f"{outer}.{key}": value for key, value in inner.items()})
    return HFConfig(flat, cfg.model_type, cfg.origin, {**cfg.defaults, **_NESTED_DEFAULTS})


def _activation(cfg: HFConfig) -> str:
    act = cfg.raw("ffn_config.ffn_act_fn")
    if act is None:  # DbrxFFNConfig.__post_init__: {"name": "silu"}
        return "silu"
    if not isinstance(act, Mapping) or not isinstance(act.get("name", "silu"), str):
        raise cfg.fail(
            "ffn_config.ffn_act_fn",
            say('must be an object such as {{"name": "silu"}} (got {got})', got=shown(act)),
        )
    name: str = act.get("name", "silu")
    return name


def dbrx(file: HFConfig) -> Spec:
    if file.flag("tie_word_embeddings"):
        raise file.fail(
            "tie_word_embeddings", say("is true, which DbrxConfig refuses (DBRX's head is never tied)")
        )
    cfg = _flattened(file)
    h, a = cfg.integer("d_model"), cfg.integer("n_heads")
    if h % a:
        raise cfg.fail("n_heads", say("({a}) must divide d_model ({h})", a=a, h=h))
    kv = cfg.divisor("attn_config.kv_n_heads", a, "n_heads")
    mixer: Spec = {"kind": "attention", "num_heads": a, "num_kv_heads": kv}
    routed = moe(
        cfg.integer("ffn_config.moe_num_experts"),
        cfg.integer("ffn_config.moe_top_k"),
        cfg.integer("ffn_config.ffn_hidden_size"),
    )
    ffn: Spec = {"kind": "moe", "activation": _activation(cfg), **routed}
    block = {"mixer": mixer, "ffn": ffn, "norms": {"kind": "layernorm", "count": 2, "bias": False}}
    layers = [{"count": cfg.integer("n_layers")}]
    spec = decoder_model(
        h, cfg.integer("vocab_size"), block, layers, tied=False, max_positions=cfg.integer("max_seq_len")
    )
    file.used.update(key.split(".")[0] for key in cfg.used)
    return spec


FAMILY = Family(
    "DBRX",
    (
        ModelType(
            "dbrx",
            dbrx,
            {
                "d_model": 2048,
                "n_heads": 16,
                "n_layers": 24,
                "max_seq_len": 2048,
                "vocab_size": 32000,
                "tie_word_embeddings": False,
                "attn_config": None,
                "ffn_config": None,
            },
            dropout=(None, "resid_pdrop"),
        ),
    ),
)
