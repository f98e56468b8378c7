"""MiniMax-M2 (``MiniMaxM2ForCausalLM``): bias-free attention of ``head_dim`` (128 by default,
not h / a) with q/k RMSNorms over the whole projection (``q_norm [a·d_h]``, ``k_norm [g·d_h]``,
built whatever ``use_qk_norm`` says), and every MLP a mixture of ``num_local_experts`` experts of
``intermediate_size`` (fused 3-D) under a bias-free router. The router's
``e_score_correction_bias`` is a buffer on the block (not counted); ``shared_intermediate_size``
is not read (no shared expert is built), nor ``rotary_dim``. The checkpoint's ``num_mtp_modules``
prediction modules are not built by transformers, nor counted here.
"""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped
from paramtally.core.families.olmoe import every_layer_moe

__all__ = ["FAMILY"]

MINIMAX_M2 = LlamaShape(
    biased=(), qk_norm=True, qk_norm_span="projection", layers=every_layer_moe("num_local_experts")
)

FAMILY = Family(
    "MiniMax-M2",
    (
        ModelType(
            "minimax_m2",
            lambda cfg: llama_shaped(cfg, MINIMAX_M2),
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 200064,
                "hidden_size": 3072,
                "intermediate_size": 1536,
                "num_hidden_layers": 62,
                "num_attention_heads": 48,
                "num_key_value_heads": 8,
                "head_dim": 128,
                "max_position_embeddings": 196608,
                "num_experts_per_tok": 8,
                "num_local_experts": 256,
            },
        ),
    ),
)
