"""ERNIE-4.5-MoE (``Ernie4_5_MoeForCausalLM``): Llama's layers with ``use_bias`` on q/k/v/o and
on the dense MLPs, the shared experts and the head, tied or not (never on the routed experts,
fused 3-D). Layer i holds
experts when (i + 1) % ``moe_layer_interval`` == 0 and ``moe_layer_start_index`` <= i <=
``moe_layer_end_index`` (-1: the last layer); the others a dense MLP of ``intermediate_size``.
``moe_num_experts`` experts of ``moe_intermediate_size``, top ``moe_k``, and one shared MLP of
``moe_num_shared_experts`` times that width. Tied by default.

The router's ``e_score_correction_bias`` is a *parameter* here (``Ernie4_5_MoeStatics``:
``nn.Parameter(zeros(1, E), requires_grad=False)``), counted: E per MoE layer, beside the router's
``[E, h]``, as the MoE's frozen correction bias (no gradients or optimizer states). DeepSeek-V3,
GLM-4.5, dots1 and MiniMax-M2 keep the same bias as a buffer, not counted.
"""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.layer_pattern import groups_from_kinds
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped
from paramtally.core.families.pieces import changes_from, moe

__all__ = ["FAMILY"]


def _moe_layers(cfg: HFConfig, dense: Spec) -> list[Spec]:
    n = cfg.integer("num_hidden_layers")
    interval = cfg.integer("moe_layer_interval")
    start = cfg.integer("moe_layer_start_index", minimum=0)
    end = cfg.integer("moe_layer_end_index", minimum=-1)
    end = n - 1 if end == -1 else end  # Ernie4_5_MoeConfig.__post_init__
    routed = moe(cfg.integer("moe_num_experts"), cfg.integer("moe_k"), cfg.integer("moe_intermediate_size"))
    experts: Spec = {
        "kind": "moe",
        "activation": dense["activation"],
        **routed,
        "shared_experts": cfg.integer("moe_num_shared_experts", minimum=0),
        "shared_expert_bias": dense["bias"],
        "correction_bias": True,  # e_score_correction_bias: E numbers, a parameter that never trains
    }
    kinds = [(i + 1) % interval == 0 and start <= i <= end for i in range(n)]
    return groups_from_kinds(kinds, changes_from({True: {"ffn": experts}}))


ERNIE4_5_MOE = LlamaShape(bias_key="use_bias", mlp_bias_key="use_bias", layers=_moe_layers)


def ernie4_5_moe(cfg: HFConfig) -> Spec:
    spec = llama_shaped(cfg, ERNIE4_5_MOE)
    if cfg.flag("use_bias"):  # Ernie4_5_MoeForCausalLM: lm_head = nn.Linear(h, V, bias=config.use_bias)
        spec["head"]["bias"] = True
    return spec


FAMILY = Family(
    "ERNIE-4.5-MoE",
    (
        ModelType(
            "ernie4_5_moe",
            ernie4_5_moe,
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 103424,
                "hidden_size": 2560,
                "intermediate_size": 12288,
                "num_hidden_layers": 28,
                "num_attention_heads": 20,
                "num_key_value_heads": 4,
                "max_position_embeddings": 131072,
                "tie_word_embeddings": True,
                "use_bias": False,
                "moe_intermediate_size": 1536,
                "moe_k": 6,
                "moe_num_experts": 64,
                "moe_num_shared_experts": 2,
                "moe_layer_start_index": 1,
                "moe_layer_end_index": -1,
                "moe_layer_interval": 1,
            },
            # Ernie4_5_MoeTopKRouter: F.linear(hidden_states.float(), self.weight.float()).
            activations=ActivationQuirks(fp32_router_input=True),
            tokenizer="sentencepiece",
            # Ernie4_5_MoeConfig.attribute_map: num_experts → moe_num_experts, num_experts_per_tok → moe_k.
            renamed_keys={"num_experts": "moe_num_experts", "num_experts_per_tok": "moe_k"},
        ),
    ),
)
