"""Which part of the breakdown a checkpoint tensor belongs to, from its name alone.

One small ordered table covers Hugging Face names (``model.layers.3.self_attn.q_proj.weight``)
and llama.cpp GGUF names (``blk.3.attn_q.weight``): the first matching pattern wins, so the
specific ones (shared expert, q/k norms, buffers) come before the general ones.
"""

from __future__ import annotations

import re

__all__ = ["BUFFER", "QUANT", "UNKNOWN", "layer_index", "part_of"]

BUFFER = "buffer"  # saved, but not a Parameter of the transformers model (no numel in the count)
QUANT = "quantization"  # scales and zero points of a quantized checkpoint
UNKNOWN = ""

_RULES: tuple[tuple[str, str], ...] = (
    (BUFFER, r"rotary_emb|inv_freq|rope_freqs|e_score_correction_bias|\.attn\.(masked_)?bias$"),
    (QUANT, r"(_scale_inv|weight_scale|input_scale|\.scales|\.qzeros|\.g_idx|\.absmax)$"),
    ("router", r"shared_expert_gate|(mlp|block_sparse_moe)\.gate\.weight$|\.router\.|ffn_gate_inp"),
    ("shared_experts", r"shared_expert|_shexp"),
    ("moe_experts", r"experts|_exps\."),
    ("attention", r"[qk]_norm|[qk]_layernorm|q_a_layernorm|kv_a_layernorm|attn_[qk]_norm|attn_(q|kv)_a_norm"),
    ("lm_head", r"cls\.predictions|lm_head|embed_out|^output\.|pooler"),
    ("norms", r"norm|ln_|layernorm|LayerNorm"),
    ("attention", r"attn|attention|[qkvo]_proj|query_key_value|qkv"),
    ("ffn", r"mlp|ffn|fc1|fc2|feed_forward|intermediate|output\.dense|dense_h_to_4h|dense_4h_to_h|c_fc"),
    ("embeddings", r"embed|token_embd|wte|wpe|token_type|project_(in|out)"),
)  # fmt: skip
_COMPILED = tuple((part, re.compile(pattern)) for part, pattern in _RULES)
# At most 18 digits: a longer "index" is no layer of any model (and int() of it would be slow).
_LAYER = re.compile(r"(?:^|\.)(?:layers|h|blk|layer|block|blocks)\.(\d{1,18})\.")


def part_of(name: str) -> str:
    """The breakdown part (``core.breakdown.PARTS``), ``BUFFER``, ``QUANT`` or ``UNKNOWN``."""
    for part, pattern in _COMPILED:
        if pattern.search(name):
            return part
    return UNKNOWN


def layer_index(name: str) -> int | None:
    """The block a tensor sits in (``None`` outside the stack)."""
    found = _LAYER.search(name)
    return int(found.group(1)) if found else None
