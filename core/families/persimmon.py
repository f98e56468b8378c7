"""Persimmon (``PersimmonForCausalLM``, adept/persimmon-8b): q, k and v fused in one
``query_key_value`` [3h, h] with a bias and ``dense`` (o) with one, heads of h / a and no grouped
KV heads; with ``qk_layernorm`` one LayerNorm of d_h with β for q and one for k, shared by the
heads (``PersimmonAttention``); a plain MLP ``dense_h_to_4h``/``dense_4h_to_h`` with biases and
relu² by default; LayerNorms with β (the final one too); an untied ``lm_head`` without bias. RoPE
on ``partial_rotary_factor`` of each head."""

from __future__ import annotations

from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.llama import LLAMA_DEFAULTS, LlamaShape, llama_shaped
from paramtally.core.families.pieces import plain_ffn

__all__ = ["FAMILY"]


def persimmon(cfg: HFConfig) -> Spec:
    h = cfg.integer("hidden_size")
    cfg.divisor("num_attention_heads", h, "hidden_size")  # PersimmonAttention refuses the rest
    shape = LlamaShape(
        bias_key=None,  # query_key_value and dense always have biases
        qk_norm=cfg.flag("qk_layernorm"),
        norm="layernorm",
        head_dim_key=None,  # PersimmonAttention reads neither head_dim
        kv_heads_key=None,  # nor num_key_value_heads
        rotary_fraction=True,
    )
    spec = llama_shaped(cfg, shape)
    # PersimmonMLP: nn.Linear(h, f) and nn.Linear(f, h), biased, whatever the config says.
    spec["blocks"]["default"]["ffn"] = plain_ffn(cfg.integer("intermediate_size"), cfg.text("hidden_act"))
    return spec


# PersimmonAttention rotates part of each head and concatenates the rotated and passed parts: the
# reshape after SDPA copies its output, which SDPA keeps beside the copy (measured: B·a·d_h more per
# layer under hf-sdpa, tools/measure_dense_activations.py). Its q_layernorm and k_layernorm read
# views of the query_key_value output (_split_heads), so backward keeps that output whole: B·3h.
_QUIRKS = ActivationQuirks(sdpa_output_copied=True, qk_norm_reads_fused_qkv=True)

FAMILY = Family(
    "Persimmon",
    (
        ModelType(
            "persimmon",
            persimmon,
            {
                **LLAMA_DEFAULTS,
                "vocab_size": 262144,
                "hidden_size": 4096,
                "intermediate_size": 16384,
                "num_hidden_layers": 36,
                "num_attention_heads": 64,
                "hidden_act": "relu2",
                "max_position_embeddings": 16384,
                "qk_layernorm": True,
                "partial_rotary_factor": 0.5,
                "hidden_dropout": 0.0,
            },
            activations=_QUIRKS,
            tokenizer="sentencepiece",
            dropout=("attention_dropout", "hidden_dropout"),
        ),
    ),
)
