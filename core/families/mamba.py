"""Mamba and Mamba-2 (``MambaForCausalLM``, ``Mamba2ForCausalLM``): state-space layers only, one
RMSNorm each, no FFN and no positions; and the Mamba-2 mixer the hybrids (Bamba, Granite-4-H,
Falcon-H1) share, read from their ``mamba_*`` keys."""

from __future__ import annotations

import math

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import model
from paramtally.core.text import say

__all__ = ["FAMILY", "MAMBA2_HYBRID_DEFAULTS", "MAMBA_DEFAULTS", "hybrid_mamba2_mixer", "mamba"]


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
    return model(cfg, h, block, [{"count": cfg.integer("num_hidden_layers")}], positions="none")


def mamba2(cfg: HFConfig) -> Spec:
    h = cfg.integer("hidden_size")
    inner = cfg.integer("expand") * h
    heads = cfg.integer("num_heads")
    if cfg.has("head_dim") and cfg.integer("head_dim") * heads != inner:
        raise cfg.fail("head_dim", say("× num_heads must equal expand × hidden_size ({inner})", inner=inner))
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
    return model(cfg, h, block, [{"count": cfg.integer("num_hidden_layers")}], positions="none")


# MambaConfig's defaults (transformers 5.24) for the keys ``mamba`` reads; FalconMambaConfig's are
# the same.
MAMBA_DEFAULTS = {
    "vocab_size": 50280,
    "hidden_size": 768,
    "state_size": 16,
    "num_hidden_layers": 32,
    "conv_kernel": 4,
    "expand": 2,
    "intermediate_size": None,
    "time_step_rank": "auto",
    "use_bias": False,
    "use_conv_bias": True,
    "tie_word_embeddings": True,
    "max_position_embeddings": 0,
}


# The Mamba-2 keys of the hybrids' config classes (BambaConfig, GraniteMoeHybridConfig, FalconH1Config).
MAMBA2_HYBRID_DEFAULTS = {
    "mamba_n_heads": 128,
    "mamba_d_head": "auto",
    "mamba_n_groups": 1,
    "mamba_d_state": 256,
    "mamba_d_conv": 4,
    "mamba_expand": 2,
    "mamba_conv_bias": True,
    "mamba_proj_bias": False,
    "mamba_chunk_size": 256,
}


def hybrid_mamba2_mixer(cfg: HFConfig, h: int, inner: int, *, out_bias_key: str, gated_norm: bool) -> Spec:
    """A hybrid's Mamba-2 mixer of width ``inner``, its output projection biased by ``out_bias_key``."""
    heads = cfg.integer("mamba_n_heads")
    head = cfg.raw("mamba_d_head", "auto")
    if head != "auto" and cfg.integer("mamba_d_head") * heads != inner:
        raise cfg.fail("mamba_d_head", say("× mamba_n_heads must equal the Mamba width {inner}", inner=inner))
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


FAMILY = Family(
    "Mamba, Mamba-2",
    (
        ModelType(
            "mamba",
            mamba,
            MAMBA_DEFAULTS,
            activations=ActivationQuirks(sdpa_refused_by="MambaForCausalLM"),
            dropout=(None, None),
            derived_layer_types=("layer_types",),
        ),
        ModelType(
            "mamba2",
            mamba2,
            {
                "vocab_size": 32768,
                "hidden_size": 4096,
                "state_size": 128,
                "num_hidden_layers": 64,
                "conv_kernel": 4,
                "expand": 2,
                "num_heads": 128,
                "n_groups": 8,
                "chunk_size": 256,
                "use_bias": False,
                "use_conv_bias": True,
                "tie_word_embeddings": False,
                "max_position_embeddings": 0,
            },
            activations=ActivationQuirks(sdpa_refused_by="Mamba2ForCausalLM"),
            dropout=(None, None),
            derived_layer_types=("layer_types",),
        ),
    ),
)
