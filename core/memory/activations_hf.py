"""Activations as PyTorch keeps them for a Hugging Face model (transformers 5.24), per token and layer.

What autograd saves for backward in bf16 training, measured tensor by tensor on tiny models
(``tools/measure_activations.py``, goldens in ``tests/golden/activations.json``), with B bytes per
activation (2 for bf16/fp16, 4 for fp32):

- RMSNorm (Llama's): the fp32 copy of its input 4h, the normalized value in the activation dtype
  B·h and the fp32 1/rms 4 — Gemma's and gpt-oss's norms multiply their weight in fp32, so they
  keep 4h + 4h + 4; T5's multiplies its input, not the fp32 copy, by 1/rms: its input B·h as well;
  LayerNorm: its input B·h and fp32 mean and 1/σ, 8 — OLMo's normalizes an fp32 copy of its
  input, which it keeps: 4h + 8.
- The inputs of the mixer's and the FFN's first matrices, B·h each (the norm's output).
- Each mixer and FFN keeps what its kind says (``hf_bytes`` in ``core.blocks``, with the rules
  measured for it): attention's q, K and V, SDPA's log-sum-exp, eager's scores (below); MLA's
  latents; a dense FFN's activation tensors; a MoE's routed copies and router. The family's quirks
  reach a kind as an ``HFProfile`` (``hf_profile``).
- Eager attention keeps the softmax per score, c·a·s per token: the fp32 softmax 4 and its copy in
  the activation dtype B (GPT-2-style families take the softmax in the activation dtype: B alone);
  with attention dropout the mask 1 and the dropped copy B instead of the copy. Gemma-2 soft-caps its
  logits first: the tanh output is one more B (c = 4 + 2B). gpt-oss appends a sink column and takes
  the softmax in the activation dtype: c = B. XGLM clamps the masked scores with torch.max, which
  keeps them, before a softmax in the activation dtype: c = 2B. transformers refuses SDPA for some classes
  (the family's ``sdpa_refused_by``).
- Dropout on the attention and FFN outputs: two masks of h bytes (a GPU's fused dropout keeps
  bool masks; the CPU keeps them in the activation dtype). A decoder layer's cross-attention adds
  a third mask and its query projection's input B·h (its K and V: ``activations.cross_widths``).

Where a family's modules keep otherwise than this rule says (the softmax's dtype, fp32 norms,
routers, copies around SDPA), its module in ``core/families/`` declares it
(``ActivationQuirks``), and the figures here ask the architecture's family.

Recurrent mixers (Mamba, Mamba-2, gated DeltaNet) keep Korthikanti's projection widths at B bytes —
not measured: an estimate of what the fused CUDA kernels (mamba_ssm, fla) keep; transformers'
PyTorch path without them keeps 2–16× more, measured (``KERNEL_PATH``). Parallel attention + MLP
blocks are counted as sequential ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from paramtally.core.blocks import MIXERS, HFProfile, KernelPath
from paramtally.core.blocks.activation_profiles import ACTIVATION_SAVES
from paramtally.core.families import activation_quirks
from paramtally.core.schema import Architecture, Block

__all__ = [
    "ACTIVATION_SAVES",
    "HF_SOURCE",
    "KERNEL_PATH",
    "HFWidths",
    "KernelPath",
    "cache_copies",
    "hf_profile",
    "hf_score_bytes",
    "hf_widths",
    "norm_bytes",
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

# transformers 5.24 calls the recurrent mixers' kernels when mamba_ssm, causal-conv1d or fla (or
# their Hub kernels) are installed; without them it runs a PyTorch reference of the same functions
# (the hf-eager-fallback profile counts it where the kind has measured it), which keeps fp32 per-step
# (Mamba) or per-chunk (Mamba-2, DeltaNet) tensors. Each kind names its kernels (``KERNELS``); the
# ratios are measured by tools/measure_activations.py (``kernel_fallback_cases`` in
# tests/golden/activations.json: s 256, b 2, bf16, per layer) against the hf-eager figure.
KERNEL_PATH: dict[str, KernelPath] = {
    tag: kind.KERNELS for tag, kind in MIXERS.items() if kind.KERNELS is not None
}


@dataclass(frozen=True, slots=True)
class HFWidths:
    """Bytes per token of one layer: ``r`` kept whole by TP, ``s`` split by it, ``scores`` the
    coefficient c of c·a·s (eager attention's per-score bytes; 0 for SDPA)."""

    r: int
    s: int
    scores: int


@lru_cache(maxsize=256)
def hf_profile(
    arch: Architecture, b: int, eager: bool, cache: bool = False, fallback: bool = False
) -> HFProfile:
    """The profile ``arch``'s kinds count their bytes in: ``b`` bytes per activation, eager or SDPA
    attention, Hugging Face's use_cache (``cache``), recurrent mixers on transformers' PyTorch path
    (``fallback``), and the family's quirks."""
    quirks = activation_quirks(arch.family)
    return HFProfile(
        b=b,
        eager=eager,
        fallback=fallback,
        cache_copies=cache_copies(arch, eager, cache),
        fp32_norm=quirks.fp32_norm,
        norm_keeps_input=quirks.norm_keeps_input,
        fp32_layer_norm=quirks.fp32_layer_norm,
        qk_norm_reads_fused_qkv=quirks.qk_norm_reads_fused_qkv,
        sdpa_output_copied=quirks.sdpa_output_copied,
        inner_dropout=quirks.ffn_inner_dropout and arch.dropout.hidden > 0,
        expert_glu_saves=quirks.expert_glu_saves,
        top_k_softmax_router=quirks.top_k_softmax_router,
        fp32_router_input=quirks.fp32_router_input,
        unnormalized_top_k=quirks.unnormalized_top_k,
    )


def norm_bytes(block: Block, h: int, b: int, family: str) -> int:
    """Bytes per token one of ``block``'s norms keeps, activations at ``b`` bytes."""
    quirks = activation_quirks(family)
    profile = HFProfile(
        b,
        eager=False,
        fp32_norm=quirks.fp32_norm,
        norm_keeps_input=quirks.norm_keeps_input,
        fp32_layer_norm=quirks.fp32_layer_norm,
    )
    return _norm_bytes(block, h, profile)


def _norm_bytes(block: Block, h: int, hf: HFProfile) -> int:
    # LayerNorm: its input and fp32 mean and 1/σ; RMSNorm: as the profile's family keeps it.
    return hf.layer_norm(h) if block.norms.kind == "layernorm" else hf.rms_norm(h)


def cache_copies(arch: Architecture, eager: bool, cache: bool) -> bool:
    """Whether SDPA keeps the KV cache's copies of K and V beside a fused q, k, v output (the
    family's ``fused_qkv_views``)."""
    views = activation_quirks(arch.family).fused_qkv_views
    fused = views == "always" or (views == "alibi" and arch.main_stack.positions == "alibi")
    return cache and not eager and fused


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
    clamped = b if quirks.clamped_scores else 0  # the masked scores torch.max reads
    kept = capped + clamped
    if arch.dropout.attention > 0:
        return kept + softmax + 1 + b  # the mask and the dropped probabilities the A·V product keeps
    return kept + softmax + (b if softmax != b else 0)  # the copy cast back to the activation dtype


def hf_widths(
    arch: Architecture, block: Block, b: int, eager: bool, cache: bool = False, fallback: bool = False
) -> HFWidths:
    """Bytes per token one layer of ``block`` keeps, activations at ``b`` bytes (``cache``: with
    Hugging Face's use_cache; ``fallback``: Mamba layers on transformers' PyTorch path)."""
    h = arch.hidden_size
    ctx = block.context(h)
    hf = hf_profile(arch, b, eager, cache, fallback)
    # A cross-attention reads the encoder's tokens: counted apart (``activations.cross_widths``).
    mixers = [m for m in (block.mixer, block.parallel_mixer) if m is not None]
    router, ffn = block.ffn.hf_bytes(ctx, hf)
    has_ffn = block.ffn.active_width() > 0
    # A decoder's cross-attention is a third sublayer: its query projection keeps its input (the
    # norm's output) and its output is dropped out like the other two.
    crossed = block.cross_attention is not None
    masks = (3 if crossed else 2) * h if arch.dropout.hidden > 0 else 0
    inputs = b * h * (1 + (1 if has_ffn else 0) + (1 if crossed else 0))
    r = block.norms.count * _norm_bytes(block, h, hf) + inputs
    s = sum(m.hf_bytes(ctx, hf) for m in mixers) + ffn
    scores = hf_score_bytes(arch, b) if eager and any(m.score_heads() for m in mixers) else 0
    return HFWidths(r + masks + router, s, scores)
