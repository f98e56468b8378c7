"""Activations as PyTorch keeps them for a Hugging Face model (transformers 5.24), per token and layer.

What autograd saves for backward in bf16 training, measured tensor by tensor on tiny models
(``tools/measure_activations.py``, goldens in ``tests/golden/activations.json``), with B bytes per
activation (2 for bf16/fp16, 4 for fp32):

- RMSNorm (Llama's): the fp32 copy of its input 4h, the normalized value in the activation dtype
  B·h and the fp32 1/rms 4 — Gemma's and gpt-oss's norms multiply their weight in fp32, so they
  keep 4h + 4h + 4; T5's multiplies its input, not the fp32 copy, by 1/rms: its input B·h as well;
  LayerNorm: its input B·h and fp32 mean and 1/σ, 8.
- The inputs of the mixer's and the FFN's first matrices, B·h each (the norm's output).
- Each mixer and FFN keeps what its kind says (``hf_bytes`` in ``core.blocks``, with the rules
  measured for it): attention's q, K and V, SDPA's log-sum-exp, eager's scores (below); MLA's
  latents; a dense FFN's activation tensors; a MoE's routed copies and router. The family's quirks
  reach a kind as an ``HFProfile`` (``hf_profile``), resolved from the model type sets here.
- Eager attention keeps the softmax per score, c·a·s per token: the fp32 softmax 4 and its copy in
  the activation dtype B (GPT-2-style families take the softmax in the activation dtype: B alone);
  with attention dropout the mask 1 and the dropped copy B instead of the copy. Gemma-2 soft-caps its
  logits first: the tanh output is one more B (c = 4 + 2B). gpt-oss appends a sink column and takes
  the softmax in the activation dtype: c = B. transformers refuses SDPA for some classes
  (``SDPA_REFUSED``).
- Dropout on the attention and FFN outputs: two masks of h bytes (a GPU's fused dropout keeps
  bool masks; the CPU keeps them in the activation dtype). A decoder layer's cross-attention adds
  a third mask and its query projection's input B·h (its K and V: ``activations.cross_widths``).

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
from paramtally.core.schema import Architecture, Block

__all__ = [
    "ACTIVATION_SAVES",
    "FUSED_QKV_VIEWS",
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

# Families whose eager attention takes the softmax in the activation dtype (no fp32 upcast), and
# families whose RMSNorm multiplies its (1 + weight) in fp32 (transformers 5.24's modeling files).
SOFTMAX_IN_ACTIVATION_DTYPE = frozenset(
    {"gpt2", "falcon", "t5", "mt5", "bart", "whisper", "bert", "llama4", "llama4_text", "gpt_oss"}
)
FP32_NORM = frozenset({"gemma", "gemma2", "gemma3", "gemma3_text", "qwen3_next", "gpt_oss"})
# Families whose attention makes q, k and v contiguous heads-first before SDPA (WhisperAttention:
# ``.transpose(1, 2).contiguous()``): the kernel's output comes in that layout, so the reshape before
# the output projection copies it and SDPA keeps the output beside the copy, B·a·d_h more per
# attention (self and cross). Elsewhere the output is laid out tokens-first and the reshape is a view.
SDPA_OUTPUT_COPIED = frozenset({"whisper"})
# Families whose attention takes q, k and v as views of one fused projection's output (GPT2Attention:
# c_attn(x).split(…); FalconAttention's query_key_value when ALiBi leaves q unrotated): SDPA reads the
# views as they are, so with Hugging Face's default use_cache the cache's copies of K and V are what
# it keeps while the query's view still holds the whole fused output: B·2·g·d_h more per token
# (eager attention's matmuls copy all three either way; a rotary q is a new tensor). Measured.
FUSED_QKV_VIEWS = frozenset({"gpt2"})
FUSED_QKV_VIEWS_WITH_ALIBI = frozenset({"falcon"})
# Eager attention soft-caps the logits, tanh(x/cap)·cap, before the softmax: tanh keeps its output
# (Gemma-2's attn_logit_softcapping, 50 by default in transformers' Gemma2Config).
LOGIT_SOFTCAP = frozenset({"gemma2"})
# RMSNorms that multiply their input in the activation dtype by the fp32 1/rms, keeping that input
# too (T5LayerNorm: hidden_states * torch.rsqrt(variance + eps); MT5LayerNorm is its copy).
NORM_KEEPS_INPUT = frozenset({"t5", "mt5"})
# Dense FFNs that drop out the activation (the gated product) before their output matrix, at the
# hidden dropout rate (T5DenseActDense, T5DenseGatedActDense: self.dropout before self.wo; mT5's
# copies).
FFN_INNER_DROPOUT = frozenset({"t5", "mt5"})
# Routers that compute their logits from an fp32 copy of the layer's input (DeepseekV3TopkRouter:
# F.linear(hidden_states.type(torch.float32), self.weight.type(torch.float32))); the fp32 copy of the
# router weight is per layer, not per token, and not counted.
FP32_ROUTER_INPUT = frozenset({"deepseek_v2", "deepseek_v3"})
# Routers that scale the chosen experts' softmax weights without dividing them by their sum
# (DeepseekV2TopkRouter: topk_weights * routed_scaling_factor, whatever norm_topk_prob says): the
# division's fp32 top-k weights and their per-token sum are not kept.
UNNORMALIZED_TOP_K = frozenset({"deepseek_v2"})
# Tensors of the expert width a gated expert keeps where transformers writes its GLU out in Python:
# gpt-oss's GptOssExperts._apply_gate clamps gate and up and returns (up + 1)·gate·σ(α·gate), which
# keeps gate_up (2, both clamps read it), the clamped gate, σ, up + 1 and the GLU, and the down
# projection its input (7; the measured gpt_oss case).
EXPERT_GLU_SAVES: dict[str, int] = {"gpt_oss": 7}
# Routers that take the softmax over the k chosen logits alone, in the activation dtype
# (GptOssTopKRouter), not an fp32 softmax over all E experts.
TOP_K_SOFTMAX_ROUTER = frozenset({"gpt_oss"})
# Classes transformers 5.24 will not build with attn_implementation="sdpa" (``_supports_sdpa`` is
# False: Gemma-2 for its soft-capping, gpt-oss for its sinks): ``from_config`` raises ValueError.
SDPA_REFUSED: dict[str, str] = {
    "gemma2": "Gemma2ForCausalLM",
    "gpt_oss": "GptOssForCausalLM",
    "bloom": "BloomForCausalLM",
    "mamba": "MambaForCausalLM",
    "mamba2": "Mamba2ForCausalLM",
}


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
    family = arch.family
    return HFProfile(
        b=b,
        eager=eager,
        fallback=fallback,
        cache_copies=cache_copies(arch, eager, cache),
        fp32_norm=family in FP32_NORM,
        norm_keeps_input=family in NORM_KEEPS_INPUT,
        sdpa_output_copied=family in SDPA_OUTPUT_COPIED,
        inner_dropout=family in FFN_INNER_DROPOUT and arch.dropout.hidden > 0,
        expert_glu_saves=EXPERT_GLU_SAVES.get(family),
        top_k_softmax_router=family in TOP_K_SOFTMAX_ROUTER,
        fp32_router_input=family in FP32_ROUTER_INPUT,
        unnormalized_top_k=family in UNNORMALIZED_TOP_K,
    )


def norm_bytes(block: Block, h: int, b: int, family: str) -> int:
    """Bytes per token one of ``block``'s norms keeps, activations at ``b`` bytes."""
    quirks = HFProfile(
        b, eager=False, fp32_norm=family in FP32_NORM, norm_keeps_input=family in NORM_KEEPS_INPUT
    )
    return _norm_bytes(block, h, quirks)


def _norm_bytes(block: Block, h: int, hf: HFProfile) -> int:
    # LayerNorm: its input B·h and fp32 mean and 1/σ; RMSNorm: as the profile's family keeps it.
    return hf.b * h + 8 if block.norms.kind == "layernorm" else hf.rms_norm(h)


def cache_copies(arch: Architecture, eager: bool, cache: bool) -> bool:
    """Whether SDPA keeps the KV cache's copies of K and V beside a fused q, k, v output
    (``FUSED_QKV_VIEWS``)."""
    fused = arch.family in FUSED_QKV_VIEWS or (
        arch.family in FUSED_QKV_VIEWS_WITH_ALIBI and arch.main_stack.positions == "alibi"
    )
    return cache and not eager and fused


def sdpa_refusal(arch: Architecture) -> str | None:
    """Why the hf-sdpa profile cannot describe ``arch`` (transformers will not run its class with
    SDPA), or None."""
    held = SDPA_REFUSED.get(arch.family)
    if held is None:
        return None
    return (
        f"hf-sdpa does not fit {arch.name}: transformers 5.24's {held} refuses SDPA attention; "
        "choose hf-eager"
    )


def hf_score_bytes(arch: Architecture, b: int) -> int:
    """Bytes eager attention keeps per score (the c of c·a·s)."""
    softmax = b if arch.family in SOFTMAX_IN_ACTIVATION_DTYPE else 4
    capped = b if arch.family in LOGIT_SOFTCAP else 0  # the tanh output
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
