"""Which part of the breakdown a checkpoint tensor belongs to, from its name alone.

One ordered table covers Hugging Face names (``model.layers.3.self_attn.q_proj.weight``) and
llama.cpp GGUF names (``blk.3.attn_q.weight``): the first matching pattern wins. Buffers and
quantization scales come first, then a vision-language model's vision tower and projector (every
tensor under them, whatever its own kind), then each mixer and FFN kind's own rules
(``TENSOR_RULES`` in ``core.blocks``: Mamba's ``A_log``, an MoE's router), then the names every
family shares.

Which saved tensors are buffers follows transformers 5.24 (``tests/data/param_names_v3.json``
marks each one persistent or not): rotary ``inv_freq``, GPT-2's causal mask, the router
correction bias of DeepSeek-V3, GLM-4.5, dots1 and MiniMax-M2 (but ERNIE-4.5 keeps it as a
parameter under ``moe_statics``), LFM2-MoE's ``expert_bias``, Apertus's xIELU ``beta``/``eps``,
MiniMax-01's lightning-attention decay tables (``slope_rate``, ``query_decay``, ``key_decay``,
``diagonal_decay``: persistent buffers of MiniMaxLightningAttention), and
what older checkpoints saved (BERT's ``position_ids``, fairseq's ``_float_tensor``, batch-norm
statistics).
"""

from __future__ import annotations

import re

from paramtally.core.blocks import FFN_KINDS, MIXER_KINDS

__all__ = ["BUFFER", "MTP", "PROJECTOR", "QUANT", "UNKNOWN", "VISION_TOWER", "layer_of", "part_of"]

BUFFER = "buffer"  # saved, but not a Parameter of the transformers model (no numel in the count)
QUANT = "quantization"  # scales and zero points of a quantized checkpoint
MTP = "mtp"  # a multi-token-prediction module (DeepSeek-V3's model.layers.61), counted apart
VISION_TOWER = "vision_tower"  # a vision-language model's image encoder (ViT blocks, patch embedding)
PROJECTOR = "projector"  # what maps its output into the language model (patch merger, MLP)
UNKNOWN = ""

_FIRST: tuple[tuple[str, str], ...] = (
    (
        BUFFER,
        r"rotary_emb|inv_freq|rope_freqs|(?<!moe_statics\.)e_score_correction_bias|\.attn\.(masked_)?bias$"
        r"|final_logits_bias|expert_bias$|act_fn\.(beta|eps)$|(position|token_type)_ids$|_float_tensor$"
        r"|(running_mean|running_var|num_batches_tracked)$"
        r"|self_attn\.(slope_rate|query_decay|key_decay|diagonal_decay)$",
    ),
    (
        QUANT,
        r"(_scale_inv|weight_scale|input_scale|\.scales|\.qzeros|\.g_idx|\.absmax|\.quant_map"
        r"|\.nested_absmax|\.nested_quant_map|\.quant_state\.[\w.]+)$",
    ),
)
# Hugging Face names as transformers 5 builds them (``model.visual.``, ``model.vision_tower.``) and
# as published checkpoints store them (``visual.``, ``vision_tower.``, Mistral's ``vision_encoder.``),
# and llama.cpp's multimodal projector files (``v.blk.0.``, ``mm.0.``). The patch mergers kept
# inside the vision module (Qwen-VL, GLM-4V) and Llama-4's vision adapter map into the language
# model's width: the projector.
_VISION: tuple[tuple[str, str], ...] = (
    (
        PROJECTOR,
        r"(^|\.)(multi_modal_projector|mm_projector|connector|vision_language_adapter|patch_merger"
        r"|pre_mm_projector_norm)\.|(^|\.)visual\.(merger|deepstack_merger_list|downsample)\."
        r"|(^|\.)vision_model\.vision_adapter\.|(^|\.)image_newline$|^(mlp1|mm|resampler)\.",
    ),
    (VISION_TOWER, r"(^|\.)(vision_tower|vision_model|visual|vision_encoder)\.|^v\."),
)
_SHARED: tuple[tuple[str, str], ...] = (
    ("frontend", r"encoder\.conv[12]\."),
    ("embeddings", r"relative_attention_bias"),
    ("cross_attention", r"EncDecAttention|encoder_attn\.|cross_attn\."),
    ("shared_experts", r"shared_mlp"),
    (
        "lm_head",
        r"cls\.predictions|lm_head|embed_out|^output\.|pooler|proj_out|vocab_(projector|transform|layer_norm)\."
        r"|discriminator_predictions|^head\.|^decoder\.(weight|bias)$|contact_head\.",
    ),
    ("attention", r"\.attn\.(Wqkv|out_proj)\."),  # DBRX's norm_attn_norm.attn: before "norm"
    # Megatron-BERT's attention.ln and ln; RWKV's blocks.0.pre_ln, ln1 and ln2
    ("norms", r"norm|ln_|(^|\.)ln\.|layernorm|LayerNorm|\.(pre_ln|ln[12])\."),
    ("attention", r"attn|attention|Attention|[qkvo]_proj|query_key_value|qkv"),
    ("ffn", r"mlp|ffn|fc[12]|feed_forward|intermediate|output\.dense|dense_(h|4h)_to|c_fc|DenseReluDense"),
    ("embeddings", r"embed|token_embd|wte|wpe|token_type|project_(in|out)|^shared\.|\.shared\."),
)  # fmt: skip
# Mllama's cross-attention layers: their q/k norms sit with the cross-attention, their two scalar
# gates (cross_attn_attn_gate, cross_attn_mlp_gate) with the norms, as the breakdown counts them.
_CROSS: tuple[tuple[str, str], ...] = (
    ("norms", r"\.cross_attn_(attn|mlp)_gate$"),
    ("cross_attention", r"(^|\.)cross_attn\."),
)
_KINDS = tuple(rule for kind in (*MIXER_KINDS, *FFN_KINDS) for rule in kind.TENSOR_RULES)
_COMPILED = tuple(
    (part, re.compile(pattern)) for part, pattern in (*_FIRST, *_VISION, *_CROSS, *_KINDS, *_SHARED)
)
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
