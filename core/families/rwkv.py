"""RWKV-4 (``RwkvForCausalLM``, transformers' ``modeling_rwkv.py``; Peng et al. 2023): blocks of a
time mix (``RwkvSelfAttention``: the ``rwkv`` mixer) and a channel mix (``RwkvFeedForward``: the
``rwkv_channel_mix`` FFN), each after a LayerNorm (ln1, ln2), no positions.

Quirks, as ``RwkvConfig`` and the modules build them:
- ``attention_hidden_size`` null means the hidden size, ``intermediate_size`` null 4·h
  (``RwkvConfig.__post_init__``);
- the first block also normalizes the embeddings (``RwkvBlock.pre_ln``): a third norm in layer 0,
  where the checkpoint keeps it (``rwkv.blocks.0.pre_ln``); ``ln_out`` is the final norm;
- no linear has a bias; the head is untied by the class default (``tie_word_embeddings`` false);
- ``context_length`` is the context the CUDA kernel is built for, no table (the memory's context);
- ``rescale_every`` halves weights in place at fp16 inference: no parameter.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import decoder_model

__all__ = ["FAMILY"]

# RwkvConfig's defaults (transformers 5.24) for the keys read here.
_DEFAULTS: dict[str, Any] = {
    "vocab_size": 50277,
    "context_length": 1024,
    "hidden_size": 4096,
    "num_hidden_layers": 32,
    "attention_hidden_size": None,
    "intermediate_size": None,
    "tie_word_embeddings": False,
}


def rwkv(cfg: HFConfig) -> Spec:
    h = cfg.integer("hidden_size")
    width = cfg.opt_integer("attention_hidden_size")
    block: Spec = {
        "mixer": {"kind": "rwkv", **({"width": width} if width not in (None, h) else {})},
        "ffn": {"kind": "rwkv_channel_mix", "width": cfg.opt_integer("intermediate_size") or 4 * h},
        "norms": {"kind": "layernorm", "count": 2},
    }
    rest = cfg.integer("num_hidden_layers") - 1
    first = {"count": 1, "override": {"norms": {"count": 3}}}  # and pre_ln, before ln1
    return decoder_model(
        h,
        cfg.integer("vocab_size"),
        block,
        [first, *([{"count": rest}] if rest else [])],
        tied=cfg.flag("tie_word_embeddings"),
        positions="none",
        max_positions=cfg.integer("context_length"),
    )


FAMILY = Family(
    "RWKV",
    (
        ModelType(
            "rwkv",
            rwkv,
            _DEFAULTS,
            # RwkvPreTrainedModel keeps _supports_sdpa False; it has no attention to give SDPA.
            activations=ActivationQuirks(sdpa_refused_by="RwkvForCausalLM"),
            dropout=(None, None),
        ),
    ),
)
