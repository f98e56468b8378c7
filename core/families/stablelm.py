"""StableLM-2 (``StableLmForCausalLM``): Llama's layers with LayerNorms that have β (the final norm
too), q/k/v biases with ``use_qkv_bias`` (o has none), a rotated share ``partial_rotary_factor``
of each head, and heads of h / a whatever the file says (``StableLmAttention`` refuses an h that a
does not divide). ``qk_layernorm`` adds ``StableLmLayerNormPerHead``: one LayerNorm of d_h without
β per query head and per KV head (StableLM-2-12B: 32 + 8 of 160). ``use_parallel_residual`` feeds
attention and MLP from one norm: the layer has no ``post_attention_layernorm``."""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped

__all__ = ["FAMILY"]


def stablelm(cfg: HFConfig) -> Spec:
    h = cfg.integer("hidden_size")
    cfg.divisor("num_attention_heads", h, "hidden_size")
    shape = LlamaShape(
        bias_key="use_qkv_bias",
        biased=("q_bias", "k_bias", "v_bias"),
        qk_norm=cfg.flag("qk_layernorm"),
        qk_norm_span="heads",
        norm="layernorm",
        norms_per_block=1 if cfg.flag("use_parallel_residual") else 2,
        head_dim_key=None,
        rotary_fraction=True,
    )
    return llama_shaped(cfg, shape)


# StableLmAttention rotates part of each head and concatenates the rotated and passed parts: q and k
# reach SDPA contiguous, the reshape after it copies, and SDPA keeps its output beside the
# copy (measured: B·a·d_h more per layer under hf-sdpa).
_PARTIAL_ROTARY = ActivationQuirks(sdpa_output_copied=True)

FAMILY = Family(
    "StableLM-2",
    (
        ModelType(
            "stablelm",
            stablelm,
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 50304,
                "hidden_size": 2560,
                "intermediate_size": 6912,
                "max_position_embeddings": 4096,
                "partial_rotary_factor": 0.25,
                "use_qkv_bias": False,
                "qk_layernorm": False,
                "use_parallel_residual": False,
                "hidden_dropout": 0.0,
            },
            activations=_PARTIAL_ROTARY,
            dropout=("attention_dropout", "hidden_dropout"),
        ),
    ),
)
