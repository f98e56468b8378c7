"""StarCoder2 (``Starcoder2ForCausalLM``): Llama's layers with LayerNorms that have β, a plain
MLP ``c_fc``/``c_proj``, and ``use_bias`` biasing q, k, v, o and the MLP alike; tied by default
(``Starcoder2Config``). A ``sliding_window`` on every layer where the file sets one."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, Window, llama_shaped

__all__ = ["FAMILY"]

STARCODER2 = LlamaShape(
    bias_key="use_bias", mlp_bias_key="use_bias", gated=False, norm="layernorm", window=Window()
)

FAMILY = Family(
    "StarCoder2",
    (
        ModelType(
            "starcoder2",
            lambda cfg: llama_shaped(cfg, STARCODER2),
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 49152,
                "hidden_size": 3072,
                "intermediate_size": 12288,
                "num_hidden_layers": 30,
                "num_attention_heads": 24,
                "num_key_value_heads": 2,
                "hidden_act": "gelu_pytorch_tanh",
                "max_position_embeddings": 4096,
                "sliding_window": None,
                "use_bias": True,
                "tie_word_embeddings": True,
                "residual_dropout": 0.0,
            },
            dropout=("attention_dropout", "residual_dropout"),
        ),
    ),
)
