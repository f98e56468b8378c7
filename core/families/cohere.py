"""Command-R and Command R+ (``CohereForCausalLM``): one norm a layer feeds attention and the MLP
in parallel (``input_layernorm``), and ``CohereLayerNorm`` has no β; ``use_qk_norm`` adds q/k
norms with a weight per head, ``[a, d_h]`` and ``[g, d_h]`` (Command R+: ``[96, 128]``,
``[8, 128]``). Tied by default (``CohereConfig``); ``logit_scale`` is a constant."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped

__all__ = ["FAMILY"]


def cohere(cfg: HFConfig) -> Spec:
    shape = LlamaShape(
        qk_norm=cfg.flag("use_qk_norm"),
        qk_norm_span="heads",
        norm="layernorm",
        norm_bias=False,
        norms_per_block=1,
    )
    return llama_shaped(cfg, shape)


FAMILY = Family(
    "Command-R (Cohere)",
    (
        ModelType(
            "cohere",
            cohere,
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 256000,
                "hidden_size": 8192,
                "intermediate_size": 22528,
                "num_hidden_layers": 40,
                "num_attention_heads": 64,
                "max_position_embeddings": 8192,
                "tie_word_embeddings": True,
                "use_qk_norm": False,
            },
        ),
    ),
)
