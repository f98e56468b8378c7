"""Hunyuan dense (``HunYuanDenseV1ForCausalLM``): Llama's shapes with ``query_layernorm`` and
``key_layernorm`` RMSNorms over d_h built on every layer whatever ``use_qk_norm`` says. The
attention reads ``config.head_dim``, which ``HunYuanDenseV1Config`` leaves null: a file without it
cannot be built (``TypeError`` in the rotary embedding), so it is refused here too."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped
from paramtally.core.text import say

__all__ = ["FAMILY"]

HUNYUAN = LlamaShape(qk_norm=True, mlp_bias_key=None)


def hunyuan_v1_dense(cfg: HFConfig) -> Spec:
    if cfg.opt_integer("head_dim") is None:
        raise cfg.fail(
            "head_dim", say("is missing: HunYuanDenseV1Config leaves it null and the model cannot be built")
        )
    return llama_shaped(cfg, HUNYUAN)


FAMILY = Family(
    "Hunyuan",
    (
        ModelType(
            "hunyuan_v1_dense",
            hunyuan_v1_dense,
            {**LLAMA_DEFAULTS, "vocab_size": 290943, "head_dim": None},
        ),
    ),
)
