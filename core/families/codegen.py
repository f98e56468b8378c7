"""CodeGen (``CodeGenForCausalLM``): GPT-J's model with q, k and v fused into one ``qkv_proj``
(3·h × h, no bias; the same parameters as three h × h projections). One LayerNorm ``ln_1`` feeds
attention and the MLP ``fc_in``/``fc_out`` (biased, ``n_inner`` or 4·h) in parallel; ``ln_f`` at
the end; RoPE on ``rotary_dim`` of each head (its table a non-persistent buffer); an
``lm_head`` with a bias of V, untied by default (``CodeGenConfig``). The keys are GPT-J's, read
by GPT-J's builder."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType
from paramtally.core.families.gptj import gptj

__all__ = ["FAMILY"]

FAMILY = Family(
    "CodeGen",
    (
        ModelType(
            "codegen",
            gptj,
            {
                "vocab_size": 50400,
                "n_positions": 2048,
                "n_embd": 4096,
                "n_layer": 28,
                "n_head": 16,
                "rotary_dim": 64,
                "n_inner": None,
                "activation_function": "gelu_new",
                "tie_word_embeddings": False,
                "attn_pdrop": 0.0,
                "resid_pdrop": 0.0,
            },
            dropout=("attn_pdrop", "resid_pdrop"),
        ),
    ),
)
