"""Zamba and Zamba2 (``ZambaForCausalLM``, ``Zamba2ForCausalLM``, transformers' ``modeling_zamba.py``
and ``modeling_zamba2.py``): Mamba layers, some of them hybrid — a shared transformer block, a
linear of their own, then their Mamba layer.

Every layer is a Mamba decoder layer (an RMSNorm and the mixer); a "hybrid" layer adds a use of a
shared transformer block (``SharedTransformer``): attention reading the hidden state beside the
embeddings (2h), a gated MLP, two norms, stored once per distinct block and tied to the later uses;
each use has its own h × h linear. Quirks, as the config classes and modules build them:

Zamba (``ZambaConfig``): Mamba-1 mixers split into ``n_mamba_heads`` (``ZambaMambaMixer``: the
per-head x_proj, dt_proj, A_log and D add up to Mamba-1's), inner width ``mamba_expand`` × h
(``intermediate_size`` is the MLP's), ``mamba_dt_rank`` "auto" ⌈h/16⌉; ``attention_hidden_size``
and ``attention_head_dim`` default to 2h and 2h / a; one shared block; hybrid layers at
``layers_block_type``, else layer 2 and every ``attn_layer_period``-th from ``attn_layer_offset``
+ 3. A file with a single hybrid layer cannot be built (the tie finds nothing to tie): refused.

Zamba2 (``Zamba2Config``): Mamba-2 mixers at ``mamba_expand`` × h in ``n_mamba_heads`` heads
(``mamba_headdim`` shapes no parameter), ``mamba_ngroups`` groups, the conv always biased, in/out
projections biased by ``add_bias_linear``; ``num_mem_blocks`` shared blocks used in turn (A, B, A,
B …); each use's own adapters of ``adapter_rank`` on the MLP's gate/up (``use_shared_mlp_adapter``
is not read: 5.24 always builds them) and, with ``use_shared_attention_adapter``, on q, k and v,
all kept in the adapter lists of the layer that stores the block; the attention's width and head
width are 2h and 2h / a unless the file sets ``attention_hidden_size`` / ``attention_head_dim``
(``__post_init__`` computes them, but a file's keys are set after it: measured);
``intermediate_size`` null is 4h; hybrid layers at ``layers_block_type``, else the class's 54-layer
layout; ``hybrid_layer_ids`` places no layer, but each block builds one adapter slot per entry of
it — derived from the layer types, yet a file's list wins (measured), stale or not.

Both tie the head by default.
"""

from __future__ import annotations

import math
from typing import Any

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import MAX_EXPANDED, groups_from_kinds
from paramtally.core.families.pieces import decoder_model
from paramtally.core.text import say

__all__ = ["FAMILY"]

_ZAMBA_DEFAULTS: dict[str, Any] = {
    "vocab_size": 32000,
    "tie_word_embeddings": True,
    "hidden_size": 3712,
    "attention_hidden_size": None,
    "intermediate_size": 14848,
    "num_hidden_layers": 76,
    "num_attention_heads": 16,
    "attention_head_dim": None,
    "num_key_value_heads": 16,
    "n_mamba_heads": 2,
    "hidden_act": "gelu",
    "max_position_embeddings": 4096,
    "attn_layer_period": 6,
    "attn_layer_offset": 4,
    "mamba_d_state": 16,
    "mamba_d_conv": 4,
    "mamba_expand": 2,
    "mamba_dt_rank": "auto",
    "mamba_conv_bias": True,
    "mamba_proj_bias": False,
    "layers_block_type": None,
}
_ZAMBA2_DEFAULTS: dict[str, Any] = {
    "vocab_size": 32000,
    "max_position_embeddings": 4096,
    "hidden_size": 2560,
    "num_hidden_layers": 54,
    "layers_block_type": None,
    "mamba_d_state": 64,
    "mamba_d_conv": 4,
    "mamba_expand": 2,
    "mamba_ngroups": 1,
    "n_mamba_heads": 8,
    "chunk_size": 256,
    "add_bias_linear": False,
    "intermediate_size": None,
    "hidden_act": "gelu",
    "num_attention_heads": 32,
    "num_key_value_heads": None,
    "num_mem_blocks": 1,
    "use_shared_attention_adapter": False,
    "adapter_rank": 128,
    "tie_word_embeddings": True,
}
# Zamba2Config's layers when the file names none: 54 layers, hybrid at 6, 12, … (its __post_init__).
_ZAMBA2_LAYOUT = (
    ["mamba"] + (["mamba"] * 5 + ["hybrid"]) * 7 + ["mamba"] * 4 + ["hybrid"] + ["mamba"] * 3 + ["hybrid"]
) + ["mamba"] * 2


def _hybrid(cfg: HFConfig, n: int, default: list[bool]) -> list[bool]:
    """Each layer: whether it is hybrid (``layers_block_type``, else the class's ``default``); the
    config's layer-type check refuses a list of another length than num_hidden_layers."""
    types = cfg.raw("layers_block_type")
    if types is None:
        hybrid = default
    elif (
        not isinstance(types, list) or not all(isinstance(t, str) for t in types) or len(types) > MAX_EXPANDED
    ):
        raise cfg.fail("layers_block_type", say("must be a list of 'mamba' and 'hybrid', one a layer"))
    else:
        hybrid = [t == "hybrid" for t in types]
    if len(hybrid) != n:
        said = (
            say("lists {n:,} layers, num_hidden_layers says {layers:,}", n=len(hybrid), layers=n)
            if types is not None
            else say(
                "is needed: the class's own layout has {n:,} layers, num_hidden_layers says {layers:,}",
                n=len(hybrid),
                layers=n,
            )
        )
        raise cfg.fail("layers_block_type", said)
    return hybrid


def _groups(hybrid: list[bool], blocks: int, shared: Spec, slots: int = 0) -> list[Spec]:
    """Layer groups: the first ``blocks`` hybrid layers own their shared block (Zamba2: with the
    adapters of the ``slots`` i ≡ block mod ``blocks``), later ones reuse it."""
    kinds: list[tuple[str, int]] = []
    seen = 0
    for is_hybrid in hybrid:
        if not is_hybrid:
            kinds.append(("mamba", 0))
        elif seen < blocks:
            held = len(range(seen, slots, blocks))
            kinds.append(("owner", held))
        else:
            kinds.append(("use", 0))
        seen += is_hybrid

    def change(kind: tuple[str, int]) -> Spec:
        role, held = kind
        if role == "mamba":
            return {}
        if role == "use":
            return {"parallel_mixer": {**shared, "owner": False}}
        return {"parallel_mixer": {**shared, "adapters": held} if held else shared}

    return groups_from_kinds(kinds, change)


def _model(cfg: HFConfig, h: int, mixer: Spec, layers: list[Spec]) -> Spec:
    block = {"mixer": mixer, "ffn": {"kind": "none"}, "norms": {"kind": "rmsnorm", "count": 1}}
    return decoder_model(
        h,
        cfg.integer("vocab_size"),
        block,
        layers,
        tied=cfg.flag("tie_word_embeddings"),
        positions="none",
        max_positions=cfg.integer("max_position_embeddings", default=0, minimum=0),
    )


def zamba(cfg: HFConfig) -> Spec:
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    inner = cfg.integer("mamba_expand") * h
    heads = cfg.integer("n_mamba_heads")
    if inner % heads:
        raise cfg.fail(
            "n_mamba_heads",
            say("({heads}) must divide mamba_expand × hidden_size ({inner})", heads=heads, inner=inner),
        )
    rank = cfg.raw("mamba_dt_rank")
    mamba: Spec = {
        "kind": "mamba",
        "inner": inner,
        "state": cfg.integer("mamba_d_state"),
        "conv_kernel": cfg.integer("mamba_d_conv"),
        "dt_rank": math.ceil(h / 16) if rank == "auto" else cfg.integer("mamba_dt_rank"),
        "proj_bias": cfg.flag("mamba_proj_bias"),
        "conv_bias": cfg.flag("mamba_conv_bias"),
    }
    a = cfg.integer("num_attention_heads")
    width = cfg.opt_integer("attention_hidden_size") or 2 * h
    shared: Spec = {
        "kind": "shared_transformer",
        "num_heads": a,
        "num_kv_heads": cfg.divisor("num_key_value_heads", a, "num_attention_heads"),
        "head_dim": cfg.opt_integer("attention_head_dim") or 2 * h // a,
        "input_width": width,
        "ffn_width": cfg.integer("intermediate_size"),
    }
    period, offset = cfg.integer("attn_layer_period"), cfg.integer("attn_layer_offset", minimum=0)
    default = [False, False, True] + [i % period == offset for i in range(n - 3)]
    hybrid = _hybrid(cfg, n, default)
    if sum(hybrid) == 1:
        raise cfg.fail(
            "layers_block_type",
            say(
                "gives one hybrid layer: transformers cannot build a Zamba whose shared block has no "
                "layer to tie to"
            ),
        )
    return _model(cfg, h, mamba, _groups(hybrid, 1, shared))


def zamba2(cfg: HFConfig) -> Spec:
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    inner = cfg.integer("mamba_expand") * h
    heads = cfg.integer("n_mamba_heads")
    bias = cfg.flag("add_bias_linear")
    mamba: Spec = {
        "kind": "mamba2",
        "inner": inner,
        "num_heads": heads,
        "groups": cfg.integer("mamba_ngroups"),
        "state": cfg.integer("mamba_d_state"),
        "conv_kernel": cfg.integer("mamba_d_conv"),
        "in_proj_bias": bias,
        "out_proj_bias": bias,
        "conv_bias": True,  # Zamba2MambaMixer: bias=True whatever use_conv_bias says
        "gated_norm": True,
        "chunk_size": cfg.integer("chunk_size"),
    }
    a = cfg.integer("num_attention_heads")
    g = cfg.opt_integer("num_key_value_heads") or a
    shared: Spec = {
        "kind": "shared_transformer",
        "num_heads": a,
        "num_kv_heads": cfg.divisor("num_key_value_heads", a, "num_attention_heads", g),
        # __post_init__ sets 2h // a and 2h, but a file's keys are set after it and win (measured)
        "head_dim": cfg.opt_integer("attention_head_dim", default=None) or 2 * h // a,
        "input_width": cfg.opt_integer("attention_hidden_size", default=None) or 2 * h,
        "ffn_width": cfg.opt_integer("intermediate_size") or 4 * h,
        "ffn_bias": bias,
        "adapter_rank": cfg.integer("adapter_rank"),
        "attention_adapters": cfg.flag("use_shared_attention_adapter"),
    }
    hybrid = _hybrid(cfg, n, [t == "hybrid" for t in _ZAMBA2_LAYOUT])
    # Each block builds an adapter slot per entry of hybrid_layer_ids: derived from the layer types,
    # but a file's list is set after __post_init__ and wins (measured).
    listed = cfg.raw("hybrid_layer_ids", None)
    if listed is not None:
        slots = len(cfg.int_list("hybrid_layer_ids"))
    else:
        slots = sum(hybrid)
    return _model(cfg, h, mamba, _groups(hybrid, cfg.integer("num_mem_blocks"), shared, slots))


FAMILY = Family(
    "Zamba, Zamba2",
    (
        ModelType("zamba", zamba, _ZAMBA_DEFAULTS),
        ModelType("zamba2", zamba2, _ZAMBA2_DEFAULTS),
    ),
)
