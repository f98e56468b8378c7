"""Which part of the breakdown a checkpoint tensor belongs to, from its name alone.

One ordered table covers Hugging Face names (``model.layers.3.self_attn.q_proj.weight``) and
llama.cpp GGUF names (``blk.3.attn_q.weight``): the first matching pattern wins. Buffers and
quantization scales come first, then each mixer and FFN kind's own rules (``TENSOR_RULES`` in
``core.blocks``: Mamba's ``A_log``, an MoE's router), then the names every family shares.
"""

from __future__ import annotations

import re

from paramtally.core.blocks import FFN_KINDS, MIXER_KINDS

__all__ = ["BUFFER", "MTP", "QUANT", "UNKNOWN", "layer_of", "part_of"]

BUFFER = "buffer"  # saved, but not a Parameter of the transformers model (no numel in the count)
QUANT = "quantization"  # scales and zero points of a quantized checkpoint
MTP = "mtp"  # a multi-token-prediction module (DeepSeek-V3's model.layers.61), counted apart
UNKNOWN = ""

_FIRST: tuple[tuple[str, str], ...] = (
    (
        BUFFER,
        r"rotary_emb|inv_freq|rope_freqs|e_score_correction_bias|\.attn\.(masked_)?bias$|final_logits_bias",
    ),
    (QUANT, r"(_scale_inv|weight_scale|input_scale|\.scales|\.qzeros|\.g_idx|\.absmax)$"),
)
_SHARED: tuple[tuple[str, str], ...] = (
    ("frontend", r"encoder\.conv[12]\."),
    ("embeddings", r"relative_attention_bias"),
    ("cross_attention", r"EncDecAttention|encoder_attn\.|cross_attn\."),
    ("shared_experts", r"shared_mlp"),
    ("lm_head", r"cls\.predictions|lm_head|embed_out|^output\.|pooler|proj_out"),
    ("norms", r"norm|ln_|layernorm|LayerNorm"),
    ("attention", r"attn|attention|Attention|[qkvo]_proj|query_key_value|qkv"),
    ("ffn", r"mlp|ffn|fc[12]|feed_forward|intermediate|output\.dense|dense_(h|4h)_to|c_fc|DenseReluDense"),
    ("embeddings", r"embed|token_embd|wte|wpe|token_type|project_(in|out)|^shared\.|\.shared\."),
)  # fmt: skip
_KINDS = tuple(rule for kind in (*MIXER_KINDS, *FFN_KINDS) for rule in kind.TENSOR_RULES)
_COMPILED = tuple((part, re.compile(pattern)) for part, pattern in (*_FIRST, *_KINDS, *_SHARED))
# At most 18 digits: a longer "index" is no layer of any model (and int() of it would be slow).
_LAYER = re.compile(r"(?:^|\.)(?:layers|h|blk|layer|block|blocks)\.(\d{1,18})\.")
_ENCODER = re.compile(r"(?:^|\.)encoder\.")


def part_of(name: str) -> str:
    """The breakdown part (``core.count.breakdown.PARTS``), ``BUFFER``, ``QUANT`` or ``UNKNOWN``."""
    for part, pattern in _COMPILED:
        if pattern.search(name):
            return part
    return UNKNOWN


def layer_of(name: str) -> tuple[str, int] | None:
    """(stack, index) of the layer a tensor sits in, ``None`` outside the stacks."""
    found = _LAYER.search(name)
    if found is None:
        return None
    stack = "encoder" if _ENCODER.search(name[: found.start() + 1]) else "decoder"
    return stack, int(found.group(1))
