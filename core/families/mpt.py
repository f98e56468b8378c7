"""MPT (``MptForCausalLM``, mosaicml/mpt-7b and mpt-30b) as transformers 5.24 builds it: q, k and v
fused in one ``Wqkv`` [3h, h] and ``out_proj``, a plain GELU MLP ``up_proj``/``down_proj`` of 4·h,
LayerNorms with a weight and no bias (``norm_1``, ``norm_2``, ``norm_f``: ``bias = None`` after
construction), ALiBi and no position table, the head tied by default. No linear has a bias.

``MptAttention``, ``MptMLP`` and ``MptBlock`` build these shapes whatever ``no_bias``,
``expansion_ratio``, ``attn_config.alibi`` and ``attn_config.qk_ln`` say (measured: the same
total); a file that sets them otherwise describes a checkpoint whose tensors the module does not
hold, so it is refused rather than counted as something else."""

from __future__ import annotations

from paramtally.core.errors import shown
from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import all_biases, decoder_model, plain_ffn
from paramtally.core.text import say

__all__ = ["FAMILY"]

# MptMLP: nn.Linear(h, 4 * h) and nn.Linear(4 * h, h), whatever the config's expansion_ratio.
_EXPANSION = 4


def mpt(cfg: HFConfig) -> Spec:
    _refuse_what_transformers_ignores(cfg)
    h_key, heads_key, layers_key = (_named(cfg, *names) for names in _NAMES)
    h = cfg.integer(h_key)
    block = {
        "mixer": {
            "kind": "attention",
            "num_heads": cfg.divisor(heads_key, h, h_key),
            **all_biases(False),
        },
        "ffn": plain_ffn(_EXPANSION * h, "gelu", bias=False),
        "norms": {"kind": "layernorm", "bias": False},
    }
    return decoder_model(
        h,
        cfg.integer("vocab_size"),
        block,
        [{"count": cfg.integer(layers_key)}],
        tied=cfg.flag("tie_word_embeddings"),
        positions="alibi",
        max_positions=cfg.integer("max_seq_len"),
    )


# MptConfig.attribute_map: each common name sets the MPT key, after the MPT key's own value.
_NAMES = (("d_model", "hidden_size"), ("n_heads", "num_attention_heads"), ("n_layers", "num_hidden_layers"))


def _named(cfg: HFConfig, key: str, common: str) -> str:
    """The key a size is read from: the common name where the file has it (it wins), else MPT's."""
    return common if cfg.has(common) else key


def _refuse_what_transformers_ignores(cfg: HFConfig) -> None:
    """A file whose shapes differ from the only ones transformers 5.24 builds (module docstring)."""
    ratio = cfg.raw("expansion_ratio")
    if ratio != _EXPANSION:
        raise cfg.fail(
            "expansion_ratio",
            say("is {ratio}; transformers' MptMLP is always 4·d_model wide", ratio=shown(ratio)),
        )
    if not cfg.flag("no_bias"):
        raise cfg.fail("no_bias", say("is false; transformers' MPT layers never have biases"))
    attention = cfg.raw("attn_config", None)
    if isinstance(attention, dict) and attention.get("alibi", True) is not True:
        raise cfg.fail(
            "attn_config",
            say("turns ALiBi off; transformers' MPT always uses ALiBi and has no position table"),
        )
    if isinstance(attention, dict) and attention.get("qk_ln", False) is not False:
        raise cfg.fail(
            "attn_config",
            say("turns qk_ln on; transformers' MPT builds no q/k LayerNorms"),
        )


FAMILY = Family(
    "MPT",
    (
        ModelType(
            "mpt",
            mpt,
            {
                "vocab_size": 50368,
                "d_model": 2048,
                "n_heads": 16,
                "n_layers": 24,
                "expansion_ratio": 4,
                "max_seq_len": 2048,
                "no_bias": True,
                "attn_config": None,
                "tie_word_embeddings": True,
            },
            # MptPreTrainedModel does not set _supports_sdpa: MptAttention is eager only.
            activations=ActivationQuirks(sdpa_refused_by="MptForCausalLM"),
            dropout=(None, None),
        ),
    ),
)
