"""gpt-oss (``GptOssForCausalLM``): every layer MoE with a biased router and biased experts;
attention with sinks, sliding on the even layers and global on the odd ones unless
``layer_types`` says otherwise."""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS
from paramtally.core.families.pieces import attention, changes_from, global_layers, model, moe

__all__ = ["FAMILY"]


def gpt_oss(cfg: HFConfig) -> Spec:
    h, n = cfg.integer("hidden_size"), cfg.integer("num_hidden_layers")
    f = cfg.integer("intermediate_size")
    block = {
        "mixer": attention(
            cfg, h, sinks=True, sliding_window=cfg.integer("sliding_window"), head_dim=cfg.integer("head_dim")
        ),
        "ffn": moe(
            cfg.integer("num_local_experts"),
            cfg.integer("num_experts_per_tok"),
            f,
            router_bias=True,
            expert_bias=True,
        ),
        "norms": {"kind": "rmsnorm", "count": 2},
    }
    changes = changes_from({True: {"mixer": {"sliding_window": None}}})
    return model(cfg, h, block, global_layers(cfg, n, 2, changes))


# GptOss's eager_attention_forward appends a sink column and takes the softmax in the activation
# dtype; GptOssRMSNorm multiplies its weight in fp32; GptOssExperts._apply_gate clamps gate and
# up and returns (up + 1)·gate·σ(α·gate), which keeps gate_up (both clamps read it), the clamped
# gate, σ, up + 1 and the GLU, and the down projection its input (7); GptOssTopKRouter takes the
# softmax of the k chosen logits alone; GptOssForCausalLM refuses SDPA (for its sinks).
_QUIRKS = ActivationQuirks(
    softmax_in_activation_dtype=True,
    fp32_norm=True,
    expert_glu_saves=7,
    top_k_softmax_router=True,
    sdpa_refused_by="GptOssForCausalLM",
)

FAMILY = Family(
    "gpt-oss",
    (
        ModelType(
            "gpt_oss",
            gpt_oss,
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 201088,
                "hidden_size": 2880,
                "intermediate_size": 2880,
                "num_hidden_layers": 36,
                "num_attention_heads": 64,
                "num_key_value_heads": 8,
                "head_dim": 64,
                "num_local_experts": 128,
                "num_experts_per_tok": 4,
                "sliding_window": 128,
                "attention_bias": True,
                "max_position_embeddings": 131072,
                "layer_types": None,
            },
            activations=_QUIRKS,
        ),
    ),
)
