"""Nemotron-H (``NemotronHForCausalLM``, transformers' ``modeling_nemotron_h.py``): one RMSNorm and
one mixer a layer, the mixer by the layer's type — Mamba-2 ("M"), attention ("*"), an MLP ("-") or a
mixture of experts ("E").

Quirks, as ``NemotronHConfig`` and the modules build them:
- the layer types are ``layers_block_type`` (``layer_types``), else ``hybrid_override_pattern``
  one letter a layer, else [Mamba-2, MoE, attention, MLP]; ``num_hidden_layers`` is ignored when it
  disagrees (the config derives it from the types);
- the Mamba-2 width is ``mamba_num_heads`` × ``mamba_head_dim`` (not expand × hidden), in_proj and
  out_proj biased by ``use_bias``, the gated RMSNorm always built; older ``mamba_*`` keys
  (``mamba_n_groups``, ``mamba_d_conv``, ``mamba_conv_bias``, ``mamba_chunk_size``) win over the
  field names, as ``__post_init__`` pops them;
- attention has no biases whatever ``attention_bias`` says, no RoPE, ``head_dim`` from the config
  (128 by default);
- the MLP and the experts are plain two-matrix MLPs (up, relu², down), biased by ``mlp_bias`` (the
  MLP and the shared expert; never the routed experts); the router is an fp32 [E, h] weight, its
  ``e_score_correction_bias`` a buffer; a latent projection (``moe_latent_size``) is not read;
- never tied: ``_tied_weights_keys`` is empty whatever ``tie_word_embeddings`` says.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.errors import shown
from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import MAX_EXPANDED, groups_from_kinds
from paramtally.core.families.pieces import changes_from, decoder_model, moe, plain_ffn
from paramtally.core.text import say

__all__ = ["FAMILY"]

# NemotronHConfig's defaults (transformers 5.24) for the keys read here.
_DEFAULTS: dict[str, Any] = {
    "vocab_size": 131072,
    "hidden_size": 4096,
    "layers_block_type": None,
    "tie_word_embeddings": False,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "head_dim": 128,
    "max_position_embeddings": 4096,
    "intermediate_size": 21504,
    "mlp_hidden_act": "relu2",
    "mlp_bias": False,
    "ssm_state_size": 128,
    "mamba_num_heads": 128,
    "mamba_head_dim": 64,
    "n_groups": 8,
    "conv_kernel": 4,
    "use_conv_bias": True,
    "chunk_size": 128,
    "use_bias": False,
    "n_routed_experts": 8,
    "n_shared_experts": 1,
    "moe_intermediate_size": 7688,
    "moe_shared_expert_intermediate_size": 7688,
    "moe_latent_size": None,
    "num_experts_per_tok": 2,
}
_LETTERS = {"M": "linear_attention", "E": "moe", "*": "full_attention", "-": "mlp"}
_OLDER_NAMES = {"mamba": "linear_attention", "attention": "full_attention"}
_DEFAULT_TYPES = ["linear_attention", "moe", "full_attention", "mlp"]


def _layer_types(cfg: HFConfig) -> list[str]:
    for key in ("layers_block_type", "layer_types"):
        if cfg.has(key) and cfg.raw(key) is not None:
            types = cfg.raw(key)
            if not isinstance(types, list) or not types or len(types) > MAX_EXPANDED:
                raise cfg.fail(key, say("must be a list of layer types, one a layer"))
            named = [_OLDER_NAMES.get(t, t) if isinstance(t, str) else t for t in types]
            for index, kind in enumerate(named):
                if kind not in _LETTERS.values():
                    raise cfg.fail(
                        f"{key}[{index}]",
                        say(
                            "is {kind}; a nemotron_h layer is {types}",
                            kind=shown(kind, 40),
                            types=", ".join(_LETTERS.values()),
                        ),
                    )
            return named
    if cfg.has("hybrid_override_pattern"):
        pattern = cfg.text("hybrid_override_pattern")
        if not pattern or len(pattern) > MAX_EXPANDED:
            raise cfg.fail("hybrid_override_pattern", say("must hold one letter a layer (M, E, * or -)"))
        for index, letter in enumerate(pattern):
            if letter not in _LETTERS:
                raise cfg.fail(
                    "hybrid_override_pattern",
                    say(
                        "has {letter} at {index}; a layer is M (Mamba-2), E (MoE), * (attention) or - (MLP)",
                        letter=shown(letter),
                        index=index,
                    ),
                )
        return [_LETTERS[letter] for letter in pattern]
    return list(_DEFAULT_TYPES)


def _older(cfg: HFConfig, older: str, key: str) -> str:
    """The key ``__post_init__`` reads: the older ``mamba_*`` name where the file has it."""
    return older if cfg.has(older) else key


def nemotron_h(cfg: HFConfig) -> Spec:
    h = cfg.integer("hidden_size")
    types = _layer_types(cfg)
    heads, head_dim = cfg.integer("mamba_num_heads"), cfg.integer("mamba_head_dim")
    mamba: Spec = {
        "kind": "mamba2",
        "inner": heads * head_dim,
        "num_heads": heads,
        "groups": cfg.integer(_older(cfg, "mamba_n_groups", "n_groups")),
        "state": cfg.integer("ssm_state_size"),
        "conv_kernel": cfg.integer(_older(cfg, "mamba_d_conv", "conv_kernel")),
        "in_proj_bias": cfg.flag("use_bias"),
        "out_proj_bias": cfg.flag("use_bias"),
        "conv_bias": cfg.flag(_older(cfg, "mamba_conv_bias", "use_conv_bias")),
        "gated_norm": True,
        "chunk_size": cfg.integer(_older(cfg, "mamba_chunk_size", "chunk_size")),
    }
    a = cfg.integer("num_attention_heads")
    g = cfg.opt_integer("num_key_value_heads") or a
    attention: Spec = {
        "kind": "attention",
        "num_heads": a,
        "num_kv_heads": cfg.divisor("num_key_value_heads", a, "num_attention_heads", g),
        "head_dim": cfg.integer("head_dim"),
    }
    act, bias = cfg.text("mlp_hidden_act"), cfg.flag("mlp_bias")
    changes: dict[str, Spec] = {
        "full_attention": {"mixer": attention},
        "mlp": {"mixer": {"kind": "no_mixer"}, "ffn": plain_ffn(cfg.integer("intermediate_size"), act, bias)},
    }
    if "moe" in types:
        if cfg.raw("moe_latent_size") is not None:
            raise cfg.fail("moe_latent_size", say("(a latent projection around the experts) is not read yet"))
        experts = moe(
            cfg.integer("n_routed_experts"),
            cfg.integer("num_experts_per_tok"),
            cfg.integer("moe_intermediate_size"),
            gated=False,
            activation=act,
            shared_experts=1,
            shared_expert_width=cfg.integer("moe_shared_expert_intermediate_size"),
            shared_expert_bias=bias,
        )
        changes["moe"] = {"mixer": {"kind": "no_mixer"}, "ffn": experts}
    block = {"mixer": mamba, "ffn": {"kind": "none"}, "norms": {"kind": "rmsnorm", "count": 1}}
    return decoder_model(
        h,
        cfg.integer("vocab_size"),
        block,
        groups_from_kinds(types, changes_from(changes)),
        tied=False,  # NemotronHForCausalLM._tied_weights_keys is empty
        positions="none",
        max_positions=cfg.integer("max_position_embeddings", default=0, minimum=0),
    )


FAMILY = Family(
    "Nemotron-H",
    (
        ModelType(
            "nemotron_h",
            nemotron_h,
            _DEFAULTS,
            dropout=("attention_dropout", None),
        ),
    ),
)
