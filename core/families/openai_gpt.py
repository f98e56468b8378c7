"""GPT-1 (``OpenAIGPTLMHeadModel``, or the bare ``OpenAIGPTModel``): learned positions of
``n_positions`` rows beside the token embedding, no embedding norm and no final norm; post-norm
``Block``s (``ln_1`` after the attention's residual add, ``ln_2`` after the MLP's), a fused biased
q/k/v ``Conv1D`` and a biased output, a plain biased MLP of 4·h; the head tied to the token
embedding by ``tie_word_embeddings``, without a bias.

``afn`` names the MLP's activation through modeling_openai's own ``ACT_FNS``, where "gelu" is
``NewGELUActivation`` (the tanh approximation). Token types, when given, are looked up in the token
embedding itself (``OpenAIGPTModel.forward``): no table of their own.
"""

from __future__ import annotations

from paramtally.core.errors import shown
from paramtally.core.families.base import ActivationQuirks, Family, ModelType, Spec
from paramtally.core.families.hf_reader import HFConfig, display_name
from paramtally.core.families.pieces import all_biases, decoder_model, plain_ffn
from paramtally.core.text import say

__all__ = ["FAMILY"]

# modeling_openai.ACT_FNS: afn → the activation it runs.
_ACTIVATIONS = {"gelu": "gelu_new", "relu": "relu", "silu": "silu", "swish": "silu"}
# The classes whose parameters are the model's and its LM head's, or the model's alone.
_CLASSES = {"OpenAIGPTLMHeadModel": True, "OpenAIGPTModel": False}


def openai_gpt(cfg: HFConfig) -> Spec:
    lm = _with_head(cfg)
    h = cfg.integer("n_embd")
    afn = cfg.raw("afn")
    if afn not in _ACTIVATIONS:
        reason = say(
            "is {afn}; GPT-1's activations: {known}", afn=shown(afn, 40), known=", ".join(_ACTIVATIONS)
        )
        raise cfg.fail("afn", reason)
    block = {
        "mixer": {"kind": "attention", "num_heads": cfg.divisor("n_head", h, "n_embd"), **all_biases(True)},
        "ffn": plain_ffn(4 * h, _ACTIVATIONS[afn]),  # Block builds MLP(4 * nx): no key sets the width
        "norms": {"kind": "layernorm"},
    }
    spec = decoder_model(
        h,
        cfg.integer("vocab_size"),
        block,
        [{"count": cfg.integer("n_layer")}],
        tied=cfg.flag("tie_word_embeddings"),
        positions="learned",
        max_positions=cfg.integer("n_positions"),
        final_norm=False,
    )
    if not lm:
        spec["head"] = {"present": False}
        spec["name"] = display_name(cfg.data, cfg.origin) + " (OpenAIGPTModel)"
    return spec


def _with_head(cfg: HFConfig) -> bool:
    """Whether the class ``architectures`` names has the LM head (the first where it names none);
    another class (the double-heads model's multiple-choice summary) is refused."""
    classes = cfg.raw("architectures", None) or ["OpenAIGPTLMHeadModel"]
    found = [name for name in _CLASSES if isinstance(classes, list) and name in classes]
    if not found:
        reason = say("names {classes}; supported: {known}", classes=shown(classes), known=", ".join(_CLASSES))
        raise cfg.fail("architectures", reason)
    return _CLASSES[found[0]]


FAMILY = Family(
    "GPT-1",
    (
        ModelType(
            "openai-gpt",
            openai_gpt,
            {
                "vocab_size": 40478,
                "n_positions": 512,
                "n_embd": 768,
                "n_layer": 12,
                "n_head": 12,
                "afn": "gelu",
                "tie_word_embeddings": True,
                "attn_pdrop": 0.1,
                "resid_pdrop": 0.1,
            },
            # Attention._attn takes the softmax in the activation dtype, and OpenAIGPTPreTrainedModel
            # has no SDPA path (_supports_sdpa False); OpenAIGPTModel.drop drops out the embeddings.
            activations=ActivationQuirks(
                softmax_in_activation_dtype=True,
                sdpa_refused_by="OpenAIGPTLMHeadModel",
                embedding_dropout=True,
            ),
            dropout=("attn_pdrop", "resid_pdrop"),
        ),
    ),
)
