"""GLM-4.5 and GLM-4.5-Air (``Glm4MoeForCausalLM``): Llama-shaped attention with q/k/v biases
(``attention_bias``; o has none), per-head q/k RMSNorms only with ``use_qk_norm``, rotating half
of each head; the first ``first_k_dense_replace`` layers dense, the rest MoE (``Glm4MoeMoE``:
``n_routed_experts`` of ``moe_intermediate_size``, one shared MLP of ``n_shared_experts`` times
that width) as DeepSeek-V3's. The router's ``e_score_correction_bias`` is a buffer, not a
parameter; the checkpoint's ``num_nextn_predict_layers`` MTP layer, which transformers does not
build, is not counted here.
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


def glm4_moe(cfg: HFConfig) -> Spec:
    shape = LlamaShape(
        biased=("q_bias", "k_bias", "v_bias"),
        qk_norm=cfg.flag("use_qk_norm"),
        rotary_fraction=True,
        layers=_first_k_dense,
    )
    return llama_shaped(cfg, shape)


FAMILY = Family(
    "GLM-4.5",
    (
        ModelType(
            "glm4_moe",
            glm4_moe,
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 151552,
                "hidden_size": 4096,
                "intermediate_size": 10944,
                "num_hidden_layers": 46,
                "num_attention_heads": 96,
                "num_key_value_heads": 8,
                "max_position_embeddings": 131072,
                "partial_rotary_factor": 0.5,
                "moe_intermediate_size": 1408,
                "num_experts_per_tok": 8,
                "n_shared_experts": 1,
                "n_routed_experts": 128,
                "first_k_dense_replace": 1,
                "use_qk_norm": False,
            },
            # Glm4MoeTopkRouter: F.linear(hidden_states.type(torch.float32), …) as DeepSeek-V3's
            # (read from the source; not measured by tools/measure_activations.py).
            activations=ActivationQuirks(fp32_router_input=True),
        ),
    ),
)
