"""JetMoE (``JetMoeForCausalLM``): experts in both sublayers, each with its own bias-free top-k
router (``router.layer [E, h]``) and one output bias of h.

- Attention is a mixture of attention heads (``JetMoeMoA`` at ``self_attention.experts``, the
  ``moa`` mixer): each of ``num_local_experts`` experts is a query projection h → g·d_h and an
  output projection back (``input_linear [E, g·d_h, h]``, ``output_linear [E, h, g·d_h]``), with
  g = ``num_key_value_heads`` and d_h = ``kv_channels``; one shared ``kv_proj [2·g·d_h, h]``.
  ``num_attention_heads`` is derived, g × ``num_experts_per_tok``.
- The MLP (``JetMoeMoE``) is ``num_local_experts`` gated experts of ``intermediate_size``
  (``input_linear [E, 2f, h]``, ``output_linear [E, h, f]``) and the same router and output bias.

Both route ``num_experts_per_tok`` of the experts per token: JetMoE-8B 8,522,237,952 in all,
2,331,445,248 active (MLP experts 34,603,008 each, attention experts 8,388,608 each, top 2 of 8).
Tied by default.
"""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import decoder_model, moe
from paramtally.core.text import say

__all__ = ["FAMILY"]


def jetmoe(cfg: HFConfig) -> Spec:
    experts, top_k = cfg.integer("num_local_experts"), cfg.integer("num_experts_per_tok")
    if top_k > experts:  # JetMoeConfig.validate_architecture
        raise cfg.fail(
            "num_experts_per_tok",
            say("({top_k}) must not exceed num_local_experts ({experts})", top_k=top_k, experts=experts),
        )
    mixer: Spec = {
        "kind": "moa",
        "num_experts": experts,
        "top_k": top_k,
        "num_kv_heads": cfg.integer("num_key_value_heads"),
        "head_dim": cfg.integer("kv_channels"),
    }
    act = cfg.text("activation_function")
    ffn: Spec = {"kind": "moe", "activation": act, **moe(experts, top_k, cfg.integer("intermediate_size"))}
    ffn["output_bias"] = True  # JetMoeMoE.bias
    block = {"mixer": mixer, "ffn": ffn, "norms": {"kind": "rmsnorm"}}
    return decoder_model(
        cfg.integer("hidden_size"),
        cfg.integer("vocab_size"),
        block,
        [{"count": cfg.integer("num_hidden_layers")}],
        tied=cfg.flag("tie_word_embeddings"),
        max_positions=cfg.integer("max_position_embeddings"),
    )


FAMILY = Family(
    "JetMoE",
    (
        ModelType(
            "jetmoe",
            jetmoe,
            {
                "vocab_size": 32000,
                "hidden_size": 2048,
                "num_hidden_layers": 12,
                "num_key_value_heads": 16,
                "kv_channels": 128,
                "intermediate_size": 5632,
                "max_position_embeddings": 4096,
                "activation_function": "silu",
                "num_local_experts": 8,
                "num_experts_per_tok": 2,
                "tie_word_embeddings": True,
            },
            # JetMoeConfig.attribute_map: head_dim → kv_channels
            renamed_keys={"head_dim": "kv_channels"},
        ),
    ),
)
