"""RecurrentGemma (``RecurrentGemmaForCausalLM``, transformers' ``modeling_recurrent_gemma.py``):
Griffin's RG-LRU recurrent blocks and local-attention blocks in the repeating order of
``block_types`` (recurrent, recurrent, attention), each followed by a gated GELU MLP.

Quirks, as ``RecurrentGemmaConfig`` and the modules build them:
- the MLP is ``intermediate_size // 2`` wide per branch (gate and up), with biases on gate, up and
  down (``RecurrentGemmaMlp``): 15,360 → 7,680 in RecurrentGemma-2B;
- attention's o_proj always has a bias (``bias=True``), q/k/v only with ``attention_bias``; every
  attention block slides over ``attention_window_size`` tokens; head_dim is h / a unless the file
  sets ``head_dim`` (``__post_init__`` sets h / a, the file's key is set after it: measured);
- ``lru_width`` null means the hidden size; the gates' blocks are the attention heads;
- a layer is recurrent where ``block_types`` (repeated) says "recurrent", attention otherwise;
- tied by the class default; ``logits_soft_cap`` and the embedding's √h ``normalizer`` (a buffer)
  cost nothing.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import groups_from_kinds
from paramtally.core.families.pieces import changes_from, decoder_model, gated
from paramtally.core.text import say

__all__ = ["FAMILY"]

# RecurrentGemmaConfig's defaults (transformers 5.24) for the keys read here.
_DEFAULTS: dict[str, Any] = {
    "num_hidden_layers": 26,
    "vocab_size": 256000,
    "hidden_size": 2560,
    "intermediate_size": 3 * 2560,
    "num_attention_heads": 10,
    "num_key_value_heads": None,
    "lru_width": None,
    "attention_window_size": 2048,
    "conv1d_width": 4,
    "hidden_activation": "gelu_pytorch_tanh",
    "block_types": ["recurrent", "recurrent", "attention"],
    "attention_bias": False,
    "tie_word_embeddings": True,
}


def _block_types(cfg: HFConfig, n: int) -> list[bool]:
    """Each layer: True where it is recurrent (``layers_block_type``: block_types repeated)."""
    types = cfg.raw("block_types")
    if not isinstance(types, list | tuple) or not types or not all(isinstance(t, str) for t in types):
        raise cfg.fail("block_types", say("must be a non-empty list of 'recurrent' and 'attention'"))
    return [types[i % len(types)] == "recurrent" for i in range(n)]


def recurrent_gemma(cfg: HFConfig) -> Spec:
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    a = cfg.integer("num_attention_heads")
    g = cfg.opt_integer("num_key_value_heads") or a
    bias = cfg.flag("attention_bias")
    lru = cfg.opt_integer("lru_width") or h
    if lru % a:
        raise cfg.fail(
            "lru_width",
            say("({lru}) must split into the {a} attention heads (the RG-LRU's gate blocks)", lru=lru, a=a),
        )
    attention: Spec = {
        "kind": "attention",
        "num_heads": a,
        "num_kv_heads": cfg.divisor("num_key_value_heads", a, "num_attention_heads", g),
        # __post_init__ sets h / a, but a file's head_dim is set after it and wins (measured)
        "head_dim": cfg.opt_integer("head_dim", default=None) or h // a,
        "q_bias": bias,
        "k_bias": bias,
        "v_bias": bias,
        "o_bias": True,
        "sliding_window": cfg.integer("attention_window_size"),
    }
    fraction = cfg.rope("partial_rotary_factor")
    attention["rotary_fraction"] = (
        0.5 if fraction is None else cfg.as_number("partial_rotary_factor", fraction)
    )
    recurrent: Spec = {"kind": "rg_lru", "num_heads": a, "conv_kernel": cfg.integer("conv1d_width")}
    if lru != h:
        recurrent["width"] = lru
    ffn = gated(cfg.integer("intermediate_size") // 2, bias=True, activation=cfg.text("hidden_activation"))
    block = {"mixer": recurrent, "ffn": ffn, "norms": {"kind": "rmsnorm", "count": 2}}
    layers = groups_from_kinds(_block_types(cfg, n), changes_from({False: {"mixer": attention}}))
    return decoder_model(
        h,
        cfg.integer("vocab_size"),
        block,
        layers,
        tied=cfg.flag("tie_word_embeddings"),
        positions="rope",
        max_positions=0,
    )


FAMILY = Family(
    "RecurrentGemma",
    (
        ModelType(
            "recurrent_gemma",
            recurrent_gemma,
            _DEFAULTS,
            # RecurrentGemmaRMSNorm scales by (1 + weight) in fp32, as Gemma's does.
            activations=ActivationQuirks(fp32_norm=True),
            tokenizer="sentencepiece",
            derived_layer_types=("layer_types", "layers_block_type"),
        ),
    ),
)
