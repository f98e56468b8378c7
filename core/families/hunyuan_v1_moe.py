"""Hunyuan-A13B (``HunYuanMoEV1ForCausalLM``): Llama's attention with per-head q/k RMSNorms built
whatever ``use_qk_norm`` says (``query_layernorm``, ``key_layernorm`` of ``head_dim``), and every
MLP ``HunYuanMoEV1Moe``: a bias-free router ``gate.wg [E, h]`` (kept in float32), ``num_experts``
fused experts *and* one ``shared_mlp``, all of ``intermediate_size``. The published
``moe_intermediate_size`` and ``num_shared_expert`` lists are not read by transformers 5.24, nor
``use_cla`` / ``cla_share_factor`` (cross-layer attention: every layer builds its own k and v).
``moe_topk`` may be one number or one per layer (``num_experts_per_tok`` maps to it).

``HunYuanMoEV1Attention`` reads ``config.head_dim``, which defaults to None: a file without it
cannot be built (``None ** -0.5``), and is refused here.
"""

from __future__ import annotations

from typing import Any

from paramtally.core.errors import shown
from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import groups_from_kinds
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped
from paramtally.core.families.pieces import moe
from paramtally.core.text import say

__all__ = ["FAMILY"]


def _top_k(cfg: HFConfig, n: int) -> list[int]:
    """``moe_topk`` per layer (HunYuanMoEV1Gate: the number, or the list's entry for its layer)."""
    value = cfg.raw("moe_topk")
    if isinstance(value, list):
        if len(value) < n or not all(isinstance(k, int) and not isinstance(k, bool) and k > 0 for k in value):
            said = say(
                "must be a positive integer or a list of one per layer ({n}); got {got}",
                n=n,
                got=shown(value),
            )
            raise cfg.fail("moe_topk", said)
        return value[:n]
    return [cfg.integer("moe_topk")] * n


def _experts(cfg: HFConfig, dense: Spec) -> list[Spec]:
    n, width = cfg.integer("num_hidden_layers"), dense["width"]
    experts = cfg.integer("num_experts")

    def changes(k: Any) -> Spec:
        routed = moe(experts, k, width, shared_experts=1)
        return {"ffn": {"kind": "moe", "activation": dense["activation"], **routed}}

    return groups_from_kinds(_top_k(cfg, n), changes)


_HUNYUAN_MOE = LlamaShape(qk_norm=True, layers=_experts)


def hunyuan_v1_moe(cfg: HFConfig) -> Spec:
    if cfg.opt_integer("head_dim") is None:
        raise cfg.fail(
            "head_dim", say("is missing: HunYuanMoEV1Attention reads it and cannot be built without it")
        )
    return llama_shaped(cfg, _HUNYUAN_MOE)


FAMILY = Family(
    "Hunyuan-A13B (HunYuan MoE)",
    (
        ModelType(
            "hunyuan_v1_moe",
            hunyuan_v1_moe,
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 290943,
                "num_experts": 1,
                "moe_topk": 1,
            },
            # HunYuanMoEV1Gate: wg is built in float32 and reads hidden_states.float() (read from the
            # source; not measured by tools/measure_activations.py).
            activations=ActivationQuirks(fp32_router_input=True),
            renamed_keys={"num_experts_per_tok": "moe_topk"},
        ),
    ),
)
