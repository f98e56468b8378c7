"""GPT-J (``GPTJForCausalLM``): one LayerNorm feeds attention and the MLP in parallel (``ln_1``);
q, k, v and ``out_proj`` without biases, heads of h / a; a plain MLP ``fc_in``/``fc_out`` of
``n_inner`` (4·h when null) with biases; ``ln_f`` at the end and an ``lm_head`` with a bias of V.
RoPE on ``rotary_dim`` of each head (its table is a non-persistent buffer)."""

from __future__ import annotations

from paramtally.core.families.base import Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig
from paramtally.core.families.pieces import all_biases, decoder_model, plain_ffn

__all__ = ["FAMILY", "gptj"]


def gptj(cfg: HFConfig) -> Spec:
    """GPT-J's model from its keys, which CodeGen's config shares (``codegen``)."""
    h = cfg.integer("n_embd")
    a = cfg.divisor("n_head", h, "n_embd")
    mixer = {"kind": "attention", "num_heads": a, **all_biases(False)}
    rotary = cfg.integer("rotary_dim")  # GPTJConfig refuses a null one
    if rotary < h // a:  # GPTJAttention rotates rotary_dim of each head
        mixer["rotary_fraction"] = rotary / (h // a)
    block = {
        "mixer": mixer,
        "ffn": plain_ffn(cfg.opt_integer("n_inner") or 4 * h, cfg.text("activation_function")),
        "norms": {"kind": "layernorm", "count": 1},
    }
    layers = [{"count": cfg.integer("n_layer")}]
    spec = decoder_model(
        h,
        cfg.integer("vocab_size"),
        block,
        layers,
        tied=cfg.flag("tie_word_embeddings"),
        max_positions=cfg.integer("n_positions"),
    )
    spec["head"]["bias"] = True  # GPTJForCausalLM.lm_head = nn.Linear(n_embd, vocab_size)
    return spec


FAMILY = Family(
    "GPT-J",
    (
        ModelType(
            "gptj",
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
