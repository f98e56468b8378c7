"""dots.llm1 (``Dots1ForCausalLM``): DeepSeek-V3's layout of experts on plain GQA attention. q/k/v/o
biased together by ``attention_bias``, per-head q/k RMSNorms of ``head_dim`` always; the first
``first_k_dense_replace`` layers a dense MLP of ``intermediate_size``, the rest ``Dots1MoE``:
``n_routed_experts`` fused experts of ``moe_intermediate_size``, top ``num_experts_per_tok``, and
one shared MLP of ``n_shared_experts`` times that width. The router (``mlp.gate.weight [E, h]``,
float32) keeps ``e_score_correction_bias`` as a buffer, not counted.

Layers from ``max_window_layers`` on slide over ``sliding_window`` (no parameters either way; the
class defaults, 4096 from layer 62, slide no layer of the published 62); not read here.
"""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped
from paramtally.core.families.pieces import first_k_dense, moe

__all__ = ["FAMILY"]


def _first_k_dense(cfg: HFConfig, dense: Spec) -> list[Spec]:
    routed = moe(
        cfg.integer("n_routed_experts"),
        cfg.integer("num_experts_per_tok"),
        cfg.integer("moe_intermediate_size"),
        shared_experts=cfg.integer("n_shared_experts", minimum=0),
    )
    return first_k_dense(cfg, {"kind": "moe", "activation": dense["activation"], **routed})


DOTS1 = LlamaShape(qk_norm=True, layers=_first_k_dense)

FAMILY = Family(
    "dots.llm1",
    (
        ModelType(
            "dots1",
            lambda cfg: llama_shaped(cfg, DOTS1),
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 152064,
                "hidden_size": 4608,
                "intermediate_size": 10944,
                "moe_intermediate_size": 1408,
                "num_hidden_layers": 62,
                "num_attention_heads": 32,
                "num_key_value_heads": 32,
                "n_shared_experts": None,
                "n_routed_experts": None,
                "num_experts_per_tok": None,
                "first_k_dense_replace": 0,
            },
            # Dots1TopkRouter: F.linear(hidden_states.type(torch.float32), …), as DeepSeek-V3's.
            activations=ActivationQuirks(fp32_router_input=True),
        ),
    ),
)
