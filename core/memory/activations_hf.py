"""Activations as PyTorch keeps them for a Hugging Face model (transformers 5.24), per token and layer.

What autograd saves for backward in bf16 training, measured tensor by tensor on tiny models
(``tools/measure_activations.py``, goldens in ``tests/golden/activations.json``), with B bytes per
activation (2 for bf16/fp16, 4 for fp32):

- RMSNorm (Llama's): the fp32 copy of its input 4h, the normalized value in the activation dtype
  B·h and the fp32 1/rms 4 — Gemma's and gpt-oss's norms multiply their weight in fp32, so they
  keep 4h + 4h + 4; T5's multiplies its input, not the fp32 copy, by 1/rms: its input B·h as well;
  LayerNorm: its input B·h and fp32 mean and 1/σ, 8.
- The inputs of the mixer's and the FFN's first matrices, B·h each (the norm's output).
- Attention: q (after RoPE) B·a·d_h, k and v B·g·d_h each — eager attention's ``repeat_kv`` stores
  them at all a heads —, the output-projection input B·a·d_h; q/k norms (Qwen3) keep what RMSNorm
  keeps over a and g heads of d_h. Eager keeps the softmax per score, c·a·s per token: the fp32
  softmax 4 and its copy in the activation dtype B (GPT-2-style families take the softmax in the
  activation dtype: B alone); with attention dropout the mask 1 and the dropped copy B instead of the
  copy. Gemma-2 soft-caps its logits first: the tanh output is one more B (c = 4 + 2B). gpt-oss
  appends a sink column and takes the softmax in the activation dtype: c = B, and per token its sink
  column B·a and the int64 position of each row's maximum 8a (``GptOss``'s
  ``eager_attention_forward``). SDPA (flash or memory-efficient kernels) keeps a log-sum-exp, 4·a,
  and no scores, and in Whisper its output beside the output projection's copy, B·a·d_h
  (the family's ``sdpa_output_copied``); transformers refuses it for some classes (``sdpa_refused_by``).
- FFN: the activation's own saved tensors (u of them: silu 1, tanh-GELU written out in Python 4,
  ReLU 0, measured per ``ACT2FN`` name) plus its output; gated FFNs also keep the up projection and
  the product: (u + 3)·B·f gated, (u + 1)·B·f plain. T5 drops out inside the FFN as well, before
  wo: its mask f (a GPU's bool) and, where the activation keeps its own output (ReLU's), that
  output B·f beside the dropped copy wo keeps.
- MoE (fused experts, grouped matmuls): per routed token the permuted input and the expert output
  B·h each and a gated expert (u + 3)·B·f_e; per token the router's fp32 softmax 4E and its top-k
  bookkeeping (indices, weights, sort order: 40 bytes per routed token, plus 4). gpt-oss's experts
  clamp and gate in Python, 7·B·f_e; its router takes the softmax of the k chosen logits alone in the
  activation dtype; expert biases add the int64 expert id gathering them, 8 per routed token.
  DeepSeek's routers (V2, V3) take their logits from an fp32 copy of the layer's input, 4h; V3's
  group selection keeps nothing (the nodes die in the forward, their outputs being integer
  indices); V2's router does not renormalize the chosen weights, keeping 4 bytes per routed token
  and 4 per token less.
- Dropout on the attention and FFN outputs: two masks of h bytes (a GPU's fused dropout keeps
  bool masks; the CPU keeps them in the activation dtype). A decoder layer's cross-attention adds
  a third mask and its query projection's input B·h (its K and V: ``activations.cross_widths``).
- MLA (``DeepseekV3Attention``, ``DeepseekV2Attention``): q, K and V at all a heads and the output
  projection's input as attention's, q and K over d_nope + d_rope, V and the o input over d_v; each
  latent's RMSNorm (r_q where there is one — V2-Lite has none —, r_kv) keeps what RMSNorm keeps and
  the up projection its input B·r. The rope halves are rotated by products with the cos/sin tables
  and concatenated: nothing kept. Measured eager; SDPA adds its log-sum-exp, 4·a, but the CPU cannot
  measure it (q and v head dims differ, so it runs the fp32 math fallback).

Where a family's modules keep otherwise than this rule says (the softmax's dtype, fp32 norms,
routers, copies around SDPA), its module in ``core/io/importers/families/`` declares it
(``ActivationQuirks``), and the figures here ask the architecture's family.

Mixers other than attention and MLA (Mamba, Mamba-2, gated DeltaNet) keep Korthikanti's projection
widths at B bytes — not measured: an estimate of what the fused CUDA kernels (mamba_ssm, fla) keep;
transformers' PyTorch path without them keeps 2–16× more, measured (``KERNEL_PATH``). Parallel
attention + MLP blocks are counted as sequential ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from paramtally.core.blocks import MLA, Attention, DenseFFN, Mamba, Mamba2, MoE
from paramtally.core.blocks.base import Context
from paramtally.core.io.importers.families import activation_quirks
from paramtally.core.schema import Architecture, Block

__all__ = [
    "ACTIVATION_SAVES",
    "HF_SOURCE",
    "KERNEL_PATH",
    "HFWidths",
    "KernelPath",
    "cache_copies",
    "hf_score_bytes",
    "hf_widths",
    "mamba2_fallback_bytes",
    "mamba_fallback_bytes",
    "norm_bytes",
    "sdpa_kept",
    "sdpa_refusal",
]

HF_SOURCE = (
    "bytes PyTorch saves for backward in Hugging Face transformers 5.24 modules, measured per tensor "
    "(tools/measure_activations.py; saved_tensors_hooks, distinct storages held, L=2 − L=1): R = norms "
    "(RMSNorm 4h fp32 copy + B·h + 4) + mixer and FFN inputs B·h + dropout masks; S = q, k, v, o "
    "inputs (eager: K, V at all heads; SDPA: + 4·a log-sum-exp) + q/k norms + MLA's latent norms + "
    "FFN (u + 3)·B·f gated (u: the activation's saved tensors; T5's inner dropout + f) + MoE routing; "
    "eager scores c·a·s (fp32 softmax 4 + its B copy; with attention dropout + 1 mask; Gemma-2's "
    "soft-capping tanh + B; gpt-oss's softmax in B over a sink column); recompute and parallelism "
    "as Korthikanti"
)

# Tensors of its input's size an ACT2FN activation saves for backward, its output not counted
# (tools/measure_activations.py, transformers 5.24 / torch 2.13; the goldens hold the same table).
# The functions PyTorch fuses keep their input (silu, gelu) or their output (relu, tanh: 0 more);
# the ones transformers writes out in Python keep every intermediate.
ACTIVATION_SAVES: dict[str, float] = {
    "gelu": 1.0, "gelu_10": 2.0, "gelu_accurate": 4.0, "gelu_fast": 7.0, "gelu_new": 4.0,
    "gelu_python": 3.0, "gelu_python_tanh": 4.0, "gelu_pytorch_tanh": 1.0, "hardswish": 1.0,
    "laplace": 1.0, "leaky_relu": 1.0, "linear": 0.0, "mish": 1.0, "quick_gelu": 2.0, "relu": 0.0,
    "relu2": 1.0, "relu6": 1.0, "sigmoid": 0.0, "silu": 1.0, "sqrtsoftplus": 1.0, "swish": 1.0,
    "tanh": 0.0, "xielu": 4.5,
}  # fmt: skip
# Activations whose backward reads their output (ReLU, tanh, sigmoid): where dropout follows them,
# the output is kept beside the dropped copy the next matrix keeps (measured on torch 2.13).
KEEPS_OUTPUT = frozenset({"relu", "tanh", "sigmoid"})


class KernelPath(NamedTuple):
    """A mixer whose hf widths estimate what fused CUDA kernels keep: its name, the kernels, and how
    many times the figure transformers' PyTorch fallback kept in the measured ``case``."""

    name: str
    kernels: str
    fallback_ratio: float
    case: str


# transformers 5.24 calls these mixers' kernels when mamba_ssm, causal-conv1d or fla (or their Hub
# kernels) are installed; without them it runs a PyTorch reference of the same functions (the
# hf-eager-fallback profile counts it for Mamba and Mamba-2: ``mamba_fallback_bytes``), which
# keeps fp32 per-step (Mamba) or per-chunk (Mamba-2, DeltaNet) tensors. The ratios are measured by
# tools/measure_activations.py (``kernel_fallback_cases`` in tests/golden/activations.json: s 256,
# b 2, bf16, per layer) against the hf-eager figure.
KERNEL_PATH: dict[str, KernelPath] = {
    "mamba": KernelPath("Mamba", "mamba_ssm and causal-conv1d", 15.8, "a layer of Mamba-2.8B's widths"),
    "mamba2": KernelPath(
        "Mamba-2", "mamba_ssm and causal-conv1d", 6.5, "a small Mamba-2 layer, chunks of 128"
    ),
    "gated_deltanet": KernelPath("gated DeltaNet", "fla and causal-conv1d", 2.1, "a small Qwen3-Next layer"),
}
# Per routed token: top-k indices (int64) 8, normalized top-k weights (fp32) 4, three int64 index
# tensors that sort tokens by expert 24, the weight column multiplying each expert output 4.
_ROUTED_BOOKKEEPING = 40
_NORMALIZED_WEIGHT, _NORMALIZING_SUM = 4, 4  # the division's input (per routed token) and divisor (per token)
# Per routed token with expert biases: the sorted expert ids that gather each row's biases (int64;
# transformers' grouped_mm_experts_forward).
_BIAS_IDS = 8


@dataclass(frozen=True, slots=True)
class HFWidths:
    """Bytes per token of one layer: ``r`` kept whole by TP, ``s`` split by it, ``scores`` the
    coefficient c of c·a·s (eager attention's per-score bytes; 0 for SDPA)."""

    r: int
    s: int
    scores: int


def _saves(activation: str) -> float:
    return ACTIVATION_SAVES.get(activation, 1.0)


def _rms_norm_bytes(width: int, b: int, family: str) -> int:
    quirks = activation_quirks(family)
    kept_input = b * width if quirks.norm_keeps_input else 0
    return 4 * width + (4 if quirks.fp32_norm else b) * width + 4 + kept_input


def norm_bytes(block: Block, h: int, b: int, family: str) -> int:
    """Bytes per token one of ``block``'s norms keeps, activations at ``b`` bytes."""
    if block.norms.kind == "layernorm":
        return b * h + 8
    return _rms_norm_bytes(h, b, family)


def cache_copies(arch: Architecture, eager: bool, cache: bool) -> bool:
    """Whether SDPA keeps the KV cache's copies of K and V beside a fused q, k, v output (the
    family's ``fused_qkv_views``)."""
    views = activation_quirks(arch.family).fused_qkv_views
    fused = views == "always" or (views == "alibi" and arch.main_stack.positions == "alibi")
    return cache and not eager and fused


def _attention(mixer: Attention, ctx: Context, b: int, eager: bool, family: str, copies: bool) -> int:
    a, g, d_h = mixer.heads(ctx)
    kv = a if eager else g
    width = b * (2 * a * d_h + 2 * kv * d_h)
    if copies:  # the KV cache's copies beside a fused q, k, v output (``cache_copies``)
        width += b * 2 * g * d_h
    if mixer.qk_norm:
        normed = 4 if activation_quirks(family).fp32_norm else b
        width += (4 + normed) * (a + g) * d_h + 4 * (a + g)
    if mixer.output_gate:
        width += 2 * b * a * d_h  # the sigmoid gate and the gated product (not measured: an estimate)
    if eager and mixer.sinks:
        width += b * a + 8 * a  # the softmax's sink column and each row's argmax (int64)
    return width + (0 if eager else sdpa_kept(a, d_h, b, family))


def sdpa_kept(a: int, d_h: int, b: int, family: str) -> int:
    """What SDPA keeps per token beyond q, K, V and the output projection's input: its fp32
    log-sum-exp per head, and its output where the reshape after it copies (``sdpa_output_copied``)."""
    return 4 * a + (b * a * d_h if activation_quirks(family).sdpa_output_copied else 0)


def _mla(mixer: MLA, ctx: Context, b: int, eager: bool, family: str) -> int:
    """q, K, V, the o input (``projection_widths``) and each latent's RMSNorm with its up projection's
    input (q_a_layernorm → q_b_proj, kv_a_layernorm → kv_b_proj)."""
    latents = [r for r in (mixer.q_lora_rank, mixer.kv_lora_rank) if r]
    width = b * mixer.projection_widths(ctx) + sum(_rms_norm_bytes(r, b, family) + b * r for r in latents)
    return width + (0 if eager else 4 * mixer.num_heads)


def mamba_fallback_bytes(mixer: Mamba, ctx: Context, b: int) -> int:
    """Bytes per token transformers' PyTorch path of a Mamba layer keeps (``MambaMixer.slow_forward``,
    no mamba_ssm kernels), measured on two widths (``kernel_fallback_cases``): the fp32 discretized
    A and B·u and every step's fp32 state, 12·I·N, and each step's state in B for the C product,
    B·I·N; fp32 dt and D-skip products 8·I; in_proj's output (x and the gate) 2·B·I, the conv's
    output, x_proj's and out_proj's inputs, the softplus, gate and skip inputs, 7·B·I; x_proj's
    output B·(R + 2·N) and C in fp32 4·N. Left out: what is per layer (A in fp32 twice, D: 8·I·N +
    4·I) and the conv's K − 1 extra positions (under 0.1 %)."""
    d = mixer.dims(ctx)
    i, n, r = d["I"], d["N"], d["R"]
    return (12 + b) * i * n + (8 + 9 * b) * i + b * (r + 2 * n) + 4 * n


def mamba2_fallback_bytes(mixer: Mamba2, ctx: Context, b: int) -> int:
    """Bytes per token transformers' PyTorch path of a Mamba-2 layer keeps (``Mamba2Mixer.torch_forward``,
    the chunked SSD scan in fp32), measured on two shapes (``kernel_fallback_cases``): per head the
    fp32 Q × Q blocks of each chunk — scores, decay mask, their product — 12·H·Q; per head the fp32 B
    and C read at every head, 20·H·N; the chunk states 8·I·N/Q; fp32 copies of x, the gate, the
    normed output and the SSD's intermediates, 40·I; in_proj's output B·(2·I + 2·G·N + H), the
    conv's output B·(I + 2·G·N), out_proj's input B·I; dt and its softplus and clamp (16 + 2·B)·H;
    the gated norm's 1/rms per group 4·G. Left out: per-layer masks and the state of each sequence
    (under 0.1 %)."""
    d = mixer.dims(ctx)
    i, heads, groups, n, q = d["I"], d["H"], d["G"], d["N"], mixer.chunk_size
    per_head = 12 * heads * q + 20 * heads * n + (16 + 2 * b) * heads
    streams = b * (2 * i + 2 * groups * n + heads) + b * (i + 2 * groups * n) + b * i + 40 * i
    return per_head + streams + -(-8 * i * n // q) + 4 * groups


def _mixer_bytes(
    mixer: object, ctx: Context, b: int, eager: bool, family: str, copies: bool, fallback: bool = False
) -> int:
    if isinstance(mixer, Attention):
        return _attention(mixer, ctx, b, eager, family, copies)
    if isinstance(mixer, MLA):
        return _mla(mixer, ctx, b, eager, family)
    if fallback and isinstance(mixer, Mamba):
        return mamba_fallback_bytes(mixer, ctx, b)
    if fallback and isinstance(mixer, Mamba2):
        return mamba2_fallback_bytes(mixer, ctx, b)
    widths: int = mixer.projection_widths(ctx)  # type: ignore[attr-defined]
    return b * widths


def _router_bytes(ffn: MoE, h: int, b: int, family: str) -> int:
    k = ffn.top_k
    bias_ids = _BIAS_IDS if ffn.expert_bias else 0
    quirks = activation_quirks(family)
    if quirks.top_k_softmax_router:  # indices 8 and sort order 24; weights and their column B each
        return k * (32 + bias_ids + 2 * b)
    fp32_input = 4 * h if quirks.fp32_router_input else 0
    if quirks.unnormalized_top_k:
        return fp32_input + 4 * ffn.num_experts + (_ROUTED_BOOKKEEPING - _NORMALIZED_WEIGHT + bias_ids) * k
    return fp32_input + 4 * ffn.num_experts + (_ROUTED_BOOKKEEPING + bias_ids) * k + _NORMALIZING_SUM


def _inner_dropout_bytes(ffn: DenseFFN, b: int) -> int:
    """What dropout before the output matrix adds per token: its bool mask, and the activation's
    output where its backward reads it (the dropped copy takes the place of the one wo kept)."""
    kept_output = b if not ffn.gated and ffn.activation in KEEPS_OUTPUT else 0
    return ffn.width * (1 + kept_output)


def _ffn_bytes(arch: Architecture, block: Block, b: int) -> tuple[int, int]:
    """(kept whole, split by TP) bytes per token of the FFN."""
    ffn, h, family = block.ffn, arch.hidden_size, arch.family
    quirks = activation_quirks(family)
    if isinstance(ffn, DenseFFN):
        kept = b * ffn.width * (_saves(ffn.activation) + (3 if ffn.gated else 1))
        if quirks.ffn_inner_dropout and arch.dropout.hidden > 0:
            kept += _inner_dropout_bytes(ffn, b)
        return 0, round(kept)
    if isinstance(ffn, MoE):
        k = ffn.top_k
        kept = _saves(ffn.activation) + (3 if ffn.gated else 1)
        glu = kept if quirks.expert_glu_saves is None else quirks.expert_glu_saves
        per_expert = b * ffn.expert_width * (glu if ffn.gated else kept)
        shared = b * ffn.shared_width * kept
        return _router_bytes(ffn, h, b, family), round(k * (2 * b * h + per_expert) + shared)
    return 0, 0


def sdpa_refusal(arch: Architecture) -> str | None:
    """Why the hf-sdpa profile cannot describe ``arch`` (transformers will not run its class with
    SDPA), or None."""
    held = activation_quirks(arch.family).sdpa_refused_by
    if held is None:
        return None
    return (
        f"hf-sdpa does not fit {arch.name}: transformers 5.24's {held} refuses SDPA attention; "
        "choose hf-eager"
    )


def hf_score_bytes(arch: Architecture, b: int) -> int:
    """Bytes eager attention keeps per score (the c of c·a·s)."""
    quirks = activation_quirks(arch.family)
    softmax = b if quirks.softmax_in_activation_dtype else 4
    capped = b if quirks.logit_softcap else 0  # the tanh output
    if arch.dropout.attention > 0:
        return capped + softmax + 1 + b  # the mask and the dropped probabilities the A·V product keeps
    return capped + softmax + (b if softmax != b else 0)  # the copy cast back to the activation dtype


def hf_widths(
    arch: Architecture, block: Block, b: int, eager: bool, cache: bool = False, fallback: bool = False
) -> HFWidths:
    """Bytes per token one layer of ``block`` keeps, activations at ``b`` bytes (``cache``: with
    Hugging Face's use_cache; ``fallback``: Mamba layers on transformers' PyTorch path)."""
    h = arch.hidden_size
    ctx = block.context(h)
    family = arch.family
    # A cross-attention reads the encoder's tokens: counted apart (``activations.cross_widths``).
    mixers = [m for m in (block.mixer, block.parallel_mixer) if m is not None]
    router, ffn = _ffn_bytes(arch, block, b)
    has_ffn = block.ffn.active_width() > 0
    # A decoder's cross-attention is a third sublayer: its query projection keeps its input (the
    # norm's output) and its output is dropped out like the other two.
    crossed = block.cross_attention is not None
    masks = (3 if crossed else 2) * h if arch.dropout.hidden > 0 else 0
    inputs = b * h * (1 + (1 if has_ffn else 0) + (1 if crossed else 0))
    r = block.norms.count * norm_bytes(block, h, b, family) + inputs
    copies = cache_copies(arch, eager, cache)
    s = sum(_mixer_bytes(m, ctx, b, eager, family, copies, fallback) for m in mixers) + ffn
    scores = hf_score_bytes(arch, b) if eager and any(m.score_heads() for m in mixers) else 0
    return HFWidths(r + masks + router, s, scores)
