"""What a memory/FLOPs question is about: the run, its precision and how it is split over GPUs.

Every field carries a description and its limits, so the window builds its controls and
tooltips from this model and pydantic rejects impossible values (context 0, ZeRO 4). Rules that
need the architecture too (tp dividing the heads) are in ``check_scenario`` and name the field.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, ValidationError, model_validator

from paramtally.core.blocks.base import LENGTH
from paramtally.core.blocks.insertions import LoRATargets
from paramtally.core.errors import ParamTallyWarning, field_error, one_line
from paramtally.core.memory.activations_hf import sdpa_refusal
from paramtally.core.memory.gguf_types import GGUF_DEFAULT_TYPES, MAX_GGUF_LAYERS
from paramtally.core.memory.gpus import find_gpu
from paramtally.core.memory.quant import Dtype, KvDtype, QuantId
from paramtally.core.schema import Architecture
from paramtally.core.schema.hashed import HashedOnce
from paramtally.core.text import say
from paramtally.core.typed_numbers import GIB

__all__ = [
    "FROM_THE_MODEL",
    "INFERENCE_ONLY",
    "NEEDS_TEXT",
    "TRAINING_ONLY",
    "Scenario",
    "check_scenario",
    "data_parallel",
    "gpus_text",
    "has_experts",
    "mode_only_fields",
    "needs_text",
    "saved_scenario_data",
    "scenario_problem",
    "training_only_fields",
    "unused_fields",
    "valid_tp",
    "weights_format",
    "with_changes",
]


Mode = Literal["inference", "training"]
Optimizer = Literal["adamw", "adam8bit", "sgd", "none"]
Recompute = Literal["none", "selective", "full"]
ActivationProfile = Literal["megatron", "hf-eager", "hf-sdpa", "hf-eager-fallback"]


# Marks the fields that only matter in one mode: the window greys them out in the other, the CLI's
# help says so.
TRAINING_ONLY: dict[str, Any] = {"mode": "training"}
INFERENCE_ONLY: dict[str, Any] = {"mode": "inference"}
# Marks the fields that only matter for a model with some part: the window leaves them out for a
# model without, the CLI says it ignores them, the report leaves them out of its table.
# An encoder a decoder cross-attends to (an encoder alone, BERT, reads the context and has no use
# for its tokens):
ENCODER_ONLY: dict[str, Any] = {"needs": "encoder"}
# A vision tower:
VISION_ONLY: dict[str, Any] = {"needs": "vision"}
# A vision tower beside a language model (alone, the tower is the whole model: it always trains):
BESIDE_LANGUAGE: dict[str, Any] = {"needs": "vision beside language"}
# A decoder: it writes tokens one by one into a KV cache (an encoder or a vision tower alone reads
# its input once: no cache, no decode step; memory.kv_cache holds the decoder's layers alone):
DECODER_ONLY: dict[str, Any] = {"needs": "decoder"}
# A language model, which reads text tokens (a vision tower alone reads one image's patches: no
# context, no vocabulary, no serving figures; memory.estimate, memory.vision):
LANGUAGE_ONLY: dict[str, Any] = {"needs": "language"}
# What each such field needs, in words ("is for models with an encoder and a decoder"), and whether
# a model has it.
NEEDS_TEXT = {
    "encoder": "an encoder and a decoder",
    "vision": "a vision tower",
    "vision beside language": "a vision tower beside a language model",
    "decoder": "a decoder",
    "language": "a language model",
}
_HAS: dict[str, Callable[[Architecture], bool]] = {
    # the encoder's tokens are a decoder's cross-attention's
    "encoder": lambda arch: arch.encoder is not None and arch.decoder is not None,
    "vision": lambda arch: arch.vision is not None,
    "vision beside language": lambda arch: arch.vision is not None and not arch.tower_only,
    "decoder": lambda arch: arch.generates,
    "language": lambda arch: not arch.tower_only,
}
# The command line takes one of the fields in a group (``--dtype`` or ``--quant``).
WEIGHTS_FLAG: dict[str, Any] = {"cli_exclusive": "weights"}


def _extra(name: str) -> dict[str, Any]:
    extra = Scenario.model_fields[name].json_schema_extra
    return extra if isinstance(extra, dict) else {}


def mode_only_fields(mode: Mode) -> frozenset[str]:
    """The fields that matter only in ``mode``."""
    return frozenset(name for name in Scenario.model_fields if _extra(name).get("mode") == mode)


def unused_fields(arch: Architecture) -> frozenset[str]:
    """The fields ``arch`` has no use for in any mode (encoder tokens without an encoder, images
    without a vision tower, the KV cache's dtype without a decoder, the context for a vision tower
    alone)."""
    return frozenset(name for name, needs in _needing_fields() if not _HAS[needs](arch))


@lru_cache(maxsize=1)
def _needing_fields() -> tuple[tuple[str, str], ...]:
    """(field, the Architecture field it needs) of each field that needs a part of the model."""
    return tuple((name, _extra(name)["needs"]) for name in Scenario.model_fields if _extra(name).get("needs"))


def needs_text(name: str) -> str | None:
    """What the field ``name`` needs of a model, in words ('a vision tower'); None: nothing."""
    needs = _extra(name).get("needs")
    return NEEDS_TEXT[needs] if needs else None


def training_only_fields() -> frozenset[str]:
    return mode_only_fields("training")


class Scenario(HashedOnce):
    """One question: inference or training of an architecture at a precision on a GPU layout."""

    # strict: a saved scenario's ``true`` or ``"8"`` is not taken for a count (pydantic's lax mode
    # would read them as 1 and 8); the tuple opts back in to JSON's lists.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)

    mode: Mode = Field(
        "inference", title="Mode", description="Serve the model (weights + KV cache) or train it."
    )
    dtype: Dtype = Field(
        "bf16",
        title="Weight dtype",
        description="Storage type of the weights (training: of the trainable weights and activations).",
        json_schema_extra=WEIGHTS_FLAG,
    )
    quant: QuantId | None = Field(
        None,
        title="Quantization",
        description="A quantization format for the weights (its effective bits include scales); "
        "empty means plain dtype. MXFP4 keeps the routed experts alone (as gpt-oss ships), the rest at "
        "the dtype. In training only for a frozen LoRA base (QLoRA).",
        json_schema_extra=WEIGHTS_FLAG,
    )
    keep_embeddings_16bit: bool = Field(
        False,
        title="16-bit embeddings",
        description="Keep the token embedding and LM head at 16 bits when quantizing.",
        json_schema_extra=LANGUAGE_ONLY,
    )
    kv_dtype: KvDtype = Field(
        "bf16",
        title="KV cache dtype",
        description="Storage type of the KV cache.",
        json_schema_extra=DECODER_ONLY,
    )
    context: Annotated[int, Field(ge=1, le=100_000_000)] = Field(
        4096,
        title="Context (tokens)",
        description="Tokens per sequence (s): the context served or the training sequence length. A model "
        "opens at 4,096 or its maximum positions, whichever is fewer.",
        json_schema_extra={**LANGUAGE_ONLY, **LENGTH},
    )
    generated: Annotated[int, Field(ge=0, le=100_000_000)] = Field(
        0,
        title="Generated tokens",
        description="Tokens generated after the prompt (n): the KV cache holds context + generated "
        "tokens, and decoding reads all of them.",
        json_schema_extra={**INFERENCE_ONLY, **DECODER_ONLY, **LENGTH},
    )
    encoder_tokens: Annotated[int, Field(ge=1, le=100_000_000)] | None = Field(
        None,
        title="Encoder tokens",
        description="Tokens (or audio frames) the encoder reads per request or training sequence, "
        "which cross-attention caches; empty means the encoder's maximum positions.",
        json_schema_extra={**ENCODER_ONLY, **LENGTH},
    )
    images: Annotated[int, Field(ge=0, le=100_000)] = Field(
        1,
        title="Images per sequence",
        description="Images in each sequence (a vision-language model): each puts its image tokens in "
        "the context beside the text's — (image/p)² patches over the projector's merges, Gemma-3's "
        "256 — or, for Mllama, in its cross-attention's cache.",
        json_schema_extra=VISION_ONLY,
    )
    image_size: Annotated[int, Field(ge=1, le=1 << 16)] | None = Field(
        None,
        title="Image size (pixels)",
        description="Pixels per side of each image (or tile) given to the model's processor; empty "
        "means the size the vision tower is made for. The tokens follow the size the family's "
        "processor resizes it to: Qwen2-VL's to multiples of 28, Gemma-3's and "
        "LLaVA-1.5's to the tower's own.",
        json_schema_extra=VISION_ONLY,
    )
    train_vision: bool = Field(
        False,
        title="Train the vision tower",
        description="Train the vision tower too: its gradients, optimizer states and activations. Off: "
        "it is frozen, as LLaVA and most fine-tuning keep it; the projector and language model train.",
        json_schema_extra={**TRAINING_ONLY, **BESIDE_LANGUAGE},
    )
    batch: Annotated[int, Field(ge=1, le=1_000_000)] = Field(
        1,
        title="Batch",
        description="Sequences at once (b): concurrent requests, or the training micro-batch.",
    )
    optimizer: Optimizer = Field(
        "adamw",
        title="Optimizer",
        description="AdamW: fp32 master + m + v = 12 B/param; 8-bit Adam 6; SGD with momentum 8; "
        "none (Adafactor-like, no states).",
        json_schema_extra=TRAINING_ONLY,
    )
    grad_dtype: Literal["bf16", "fp32"] = Field(
        "bf16",
        title="Gradient dtype",
        description="Gradient storage: bf16 (ZeRO paper) or fp32 (Megatron, llm-analysis).",
        json_schema_extra=TRAINING_ONLY,
    )
    zero: Annotated[int, Field(ge=0, le=3)] = Field(
        0,
        title="ZeRO stage",
        description="ZeRO stage over the data-parallel GPUs: 1 shards optimizer states, 2 also "
        "gradients, 3 (FSDP) also weights.",
        json_schema_extra=TRAINING_ONLY,
    )
    tp: Annotated[int, Field(ge=1, le=1024)] = Field(
        1,
        title="Tensor parallel",
        description="Tensor-parallel size (t): matrices split over t GPUs; must divide the heads.",
    )
    pp: Annotated[int, Field(ge=1, le=1024)] = Field(
        1, title="Pipeline parallel", description="Pipeline-parallel size (p): layers split into p stages."
    )
    gpus: Annotated[int, Field(ge=1, le=1_000_000)] = Field(
        1,
        title="GPUs",
        description="Total GPUs; data-parallel size N_d = gpus / (tp · pp). Serving, a new count lays the "
        "model out as the GPU setups table does, keeping a TP, PP or EP set by hand that it takes.",
    )
    ep: Annotated[int, Field(ge=1, le=1024)] = Field(
        1,
        description="Expert-parallel size: the routed experts are spread over ep of the data-parallel "
        "GPUs, each holding E/ep whole experts with their gradients and optimizer states (Megatron-LM); "
        "must divide N_d and the experts.",
        title="Expert parallel",
    )
    virtual_stages: Annotated[int, Field(ge=1, le=64)] = Field(
        1,
        description="Interleaved pipeline (Megatron-LM virtual stages, v): each GPU holds v chunks of "
        "layers; the first stage keeps 1 + (p − 1)/(p·v) times the activations of plain 1F1B.",
        json_schema_extra=TRAINING_ONLY,
        title="Virtual stages",
    )
    micro_batches: Annotated[int, Field(ge=1, le=1_000_000)] | None = Field(
        None,
        description="Micro-batches per step (gradient accumulation): with fewer than p, a stage keeps "
        "at most that many in flight; empty means at least p.",
        json_schema_extra=TRAINING_ONLY,
        title="Micro-batches",
    )
    vocab_padding: bool = Field(
        False,
        description="Megatron-LM pads the vocabulary to a multiple of 128·t (make-vocab-size-divisible-"
        "by 128): extra embedding and LM-head rows, their gradients, optimizer states and logits.",
        json_schema_extra={**TRAINING_ONLY, **LANGUAGE_ONLY},
        title="Megatron vocab padding",
    )
    recompute: Recompute = Field(
        "none",
        title="Recompute",
        description="Activation recomputation: selective drops the attention scores, full keeps "
        "only each layer's input (Korthikanti et al. 2022).",
        json_schema_extra=TRAINING_ONLY,
    )
    activations: ActivationProfile = Field(
        "megatron",
        title="Activations",
        description="What backward keeps: megatron = Korthikanti et al. 2022's terms (16-bit, dropout "
        "masks always, scores unless FlashAttention); hf-eager / hf-sdpa = a Hugging Face model as "
        "PyTorch keeps it (fp32 norm copies, the model's own dropout; eager attention's fp32 scores and "
        "full-head K/V, or SDPA's log-sum-exp), measured with transformers 5.24; Mamba, Mamba-2 and "
        "gated-DeltaNet layers are estimates for their CUDA kernels; hf-eager-fallback = hf-eager with "
        "Mamba and Mamba-2 layers on transformers' PyTorch path (no mamba_ssm), as measured.",
        json_schema_extra={**TRAINING_ONLY, **LANGUAGE_ONLY},
    )
    use_cache: bool = Field(
        True,
        title="HF use_cache",
        description="Hugging Face's use_cache, on by default in its configs, runs in training too: K and V "
        "are copied into a cache. Under hf-sdpa GPT-2's query, a view of the fused c_attn output, then keeps "
        "all of it alive beside the copies: 2·B·g·d_h more per token and layer (measured). Off: "
        "model.config.use_cache = False (gradient checkpointing turns it off too).",
        json_schema_extra={**TRAINING_ONLY, **DECODER_ONLY},
    )
    flash_attention: bool = Field(
        True,
        title="FlashAttention",
        description="A fused attention kernel: no s×s scores are stored (the megatron activations; "
        "the hf profiles name their attention).",
    )
    sequence_parallel: bool = Field(
        False,
        title="Sequence parallel",
        description="Shard the norm and dropout activations over the TP group too.",
        json_schema_extra=TRAINING_ONLY,
    )
    lora_rank: Annotated[int, Field(ge=1, le=65536)] | None = Field(
        None,
        title="LoRA rank",
        description="Train LoRA adapters of this rank on every layer, base frozen; empty means "
        "the architecture's own adapters if any, otherwise full training.",
        json_schema_extra=TRAINING_ONLY,
    )
    lora_targets: LoRATargets = Field(
        ("q", "v"),
        title="LoRA targets",
        min_length=1,
        strict=False,
        description="Matrices that get LoRA adapters.",
        json_schema_extra=TRAINING_ONLY,
    )
    qlora: bool = Field(
        False,
        title="QLoRA",
        description="QLoRA: the frozen base in NF4 with double quantization unless a format is set.",
        json_schema_extra=TRAINING_ONLY,
    )
    tokens: Annotated[int, Field(ge=1, le=10**18)] | None = Field(
        None,
        title="Training tokens",
        description="Training tokens (D); empty means the Chinchilla-optimal 20·N.",
    )
    # At least 1 %: 1e-320 made the training time infinite (an OverflowError, or "Infinity" in JSON).
    mfu: Annotated[float, Field(ge=0.01, le=1)] = Field(
        0.4,
        title="MFU",
        description="Model FLOPs utilization: the share of the GPUs' peak bf16 FLOP/s reached. It turns "
        "FLOPs into time: a training run's (attention counted by the attention FLOPs convention), a "
        "prefill's and a compute-bound decode step's (0.3–0.5 is typical in training).",
    )
    bandwidth_efficiency: Annotated[float, Field(gt=0, le=1)] = Field(
        0.685,
        title="Bandwidth efficiency",
        description="Share of the GPU's peak HBM bandwidth a memory-bound step reaches: it sets decode "
        "tokens/s, the batch's throughput and the $ per million tokens (for an encoder, the time its "
        "prefill takes to read the weights). Default 0.685 as "
        "measured by PyTorch's gpt-fast (Llama-2-7B in bf16 at batch 1 on an A100-80GB: 1,397 of its "
        "2,039 GB/s); 1 is the roofline's upper bound.",
        json_schema_extra=LANGUAGE_ONLY,
    )
    attention_flops: Literal["full", "causal"] = Field(
        "full",
        title="Attention FLOPs",
        description="How training FLOPs count attention: full = each query over all s keys, as PaLM "
        "(Chowdhery et al. 2022, appendix B) and Megatron-LM (Narayanan et al. 2021) count the MFUs they "
        "publish, so a time at a published MFU is one; causal = the unmasked half a causal mask leaves "
        "(Kaplan et al. 2020). Both are reported; this one sets the run's FLOPs and its time.",
    )
    gpu: str = Field(
        "h100-sxm-80gb", title="GPU", min_length=1, description="GPU kind (catalog id) for time and capacity."
    )
    cuda_context_bytes: Annotated[int, Field(ge=0, le=1 << 40)] = Field(
        GIB,
        title="CUDA context (bytes)",
        description="Per-GPU runtime overhead: CUDA context and library workspaces (0.3–1 GiB).",
        json_schema_extra={"unit": "bytes"},
    )
    utilization_cap: Annotated[float, Field(gt=0, le=1)] = Field(
        0.9,
        title="Utilization cap",
        description="Share of a GPU's usable memory a run may fill (serving engines reserve ~90%).",
    )

    @model_validator(mode="after")
    def _check_self(self) -> Scenario:
        problem = _own_problem(self)
        if problem:
            loc, message, value = problem
            raise field_error(self.__class__.__name__, loc, message, value)
        return self

    @property
    def dp(self) -> int:
        return data_parallel(self)

    @property
    def lora_training(self) -> bool:
        return self.mode == "training" and self.lora_rank is not None


@lru_cache(maxsize=4096)
def with_changes(s: Scenario, changes: tuple[tuple[str, int], ...]) -> Scenario:
    """``s`` with ``changes`` (a copy, not validated again). Cached: the fit table lays the same
    scenario out on the same layouts again after every edit of the architecture, and a pydantic
    copy and its new hash cost more than the lookup (scenarios are immutable: one copy serves)."""
    return s.model_copy(update=dict(changes))


# The fields ``opening_scenario`` takes from the model: opening another model, they follow it
# unless the person set them (core.editing.scenario_carry).
FROM_THE_MODEL = frozenset({"context"})


def opening_scenario(arch: Architecture) -> Scenario:
    """The scenario a model opens with when none is saved: the default one, its context no longer
    than the model's positions (Whisper's 448, GPT-3's 2,048), so it opens without a hint against it."""
    default = Scenario.model_fields["context"].default
    positions = arch.max_positions
    return Scenario(context=positions) if 0 < positions < default else Scenario()


def saved_scenario_data(data: dict[str, Any] | None, origin: str) -> Scenario | None:
    """The scenario a preset file keeps (the window's Save writes the memory tab's), as the window
    and the CLI read it back; None without one, or, with a warning naming ``origin``, when it is
    not a scenario this version reads (the model's opening scenario is then used)."""
    if data is None:
        return None
    try:
        scenario = Scenario.model_validate(data)
        find_gpu(scenario.gpu)  # a GPU this catalog lacks is no scenario to open either
        return scenario
    except ValidationError as exc:
        warnings.warn(
            say(
                "{origin}: the saved scenario was skipped (scenario.{reason})",
                origin=origin,
                reason=one_line(exc),
            ),
            ParamTallyWarning,
            stacklevel=3,
        )
        return None


def fitted_scenario(arch: Architecture, s: Scenario) -> tuple[Scenario, list[str]]:
    """``s`` with each field that does not fit ``arch`` (an expert parallel size for a model without
    experts, a TP size its heads refuse) back at the value ``arch`` opens with, and what changed
    ('Expert parallel 8 → 1'); ``s`` itself when it fits."""
    opening = opening_scenario(arch)
    changed: list[str] = []
    for _ in Scenario.model_fields:  # each round puts one field back: a bound, never reached
        problem = scenario_problem(arch, s)
        if problem is None:
            return s, changed
        name = problem[0][0]
        old, new = getattr(s, name), getattr(opening, name)
        try:
            s = with_changes(s, ((name, new),))
        except ValidationError:  # the field's own default breaks another rule: start afresh
            return opening, [*changed, "the rest as the model opens"]
        changed.append(f"{Scenario.model_fields[name].title or name} {old} → {new}")
    return opening, changed


def weights_format(s: Scenario) -> str | None:
    """The quantization format the weights are kept in: the scenario's, else NF4 with double
    quantization for a QLoRA base — in training only, QLoRA's mode: a QLoRA tick left on when
    switching to inference (the window hides it) made the served weights NF4 under a bf16 label."""
    return s.quant or ("nf4-dq" if s.qlora and s.mode == "training" else None)


def gpus_text(count: int, kind: str = "GPU") -> str:
    """'1 GPU', '8 GPUs' ('4 data-parallel GPUs'): every count of GPUs said in words."""
    if kind == "GPU":
        return say("1 GPU") if count == 1 else say("{n:,} GPUs", n=count)
    if kind == "data-parallel GPU":
        return say("1 data-parallel GPU") if count == 1 else say("{n:,} data-parallel GPUs", n=count)
    return f"{count:,} {kind}{'s' if count != 1 else ''}"


def data_parallel(scenario: Scenario) -> int:
    return scenario.gpus // (scenario.tp * scenario.pp)


def _own_problem(s: Scenario) -> tuple[tuple[str, ...], str, object] | None:
    if s.gpus % (s.tp * s.pp):
        message = say("{gpus} cannot be split into tp·pp = {n} groups", gpus=gpus_text(s.gpus), n=s.tp * s.pp)
        return ("gpus",), message, s.gpus
    if s.dp % s.ep:
        dp = gpus_text(s.dp, "data-parallel GPU")
        message = say("expert parallel size {ep} must divide the {dp} (gpus / (tp·pp))", ep=s.ep, dp=dp)
        return ("ep",), message, s.ep
    # Training's fields are judged in training only: left from it, they change nothing in serving.
    if s.mode == "training" and s.virtual_stages > 1 and s.pp == 1:
        message = say("an interleaved pipeline needs pipeline stages (pp > 1)")
        return ("virtual_stages",), message, s.virtual_stages
    if (
        s.mode == "training"
        and s.virtual_stages > 1
        and s.micro_batches is not None
        and s.micro_batches % s.pp
    ):
        message = say("the interleaved schedule needs a multiple of p = {p} micro-batches", p=s.pp)
        return ("micro_batches",), message, s.micro_batches
    if s.mode == "training" and s.qlora and s.lora_rank is None:
        return ("lora_rank",), say("QLoRA needs a LoRA rank"), None
    if s.mode == "training" and s.quant is not None and s.lora_rank is None:
        message = say("quantized weights are trained only as a frozen LoRA base (set lora_rank)")
        return ("quant",), message, s.quant
    if s.mode == "training" and s.lora_rank is None and s.dtype not in ("fp32", "bf16", "fp16"):
        message = say("training keeps trainable weights in fp32, bf16 or fp16, not {dtype}", dtype=s.dtype)
        return ("dtype",), message, s.dtype
    return None


@lru_cache(maxsize=1024)
def _tp_problem(arch: Architecture, tp: int) -> str | None:
    h = arch.hidden_size
    for block in arch.layers_by_block():
        problem = block.tp_problem(h, tp)
        if problem:
            return problem
    return None


def valid_tp(arch: Architecture, tp: int) -> bool:
    """TP splits whole query heads; KV heads are split too, or replicated when tp exceeds them."""
    return _tp_problem(arch, tp) is None


def scenario_problem(arch: Architecture, s: Scenario) -> tuple[tuple[str, ...], str, object] | None:
    """The first rule ``s`` breaks for ``arch``, as (field path, message, value)."""
    problem = _tp_problem(arch, s.tp)
    if problem:
        return ("tp",), problem, s.tp
    if arch.tower_only and s.pp > 1:  # the tower sits on the first stage, unsplit (memory.stages)
        return ("pp",), say("a vision tower alone is not split into pipeline stages: set pp to 1"), s.pp
    if arch.tower_only and s.mode == "training" and s.lora_rank is not None:
        # memory.stages counts adapters in the language model's layers only.
        message = say("LoRA on a vision tower alone is not estimated: train it whole (no LoRA rank)")
        return ("lora_rank",), message, s.lora_rank
    if s.pp > arch.num_layers and not arch.tower_only:
        return ("pp",), say("pipeline size {pp} exceeds the {n} layers", pp=s.pp, n=arch.num_layers), s.pp
    if s.pp * s.virtual_stages > max(arch.num_layers, arch.tower_only):
        message = say(
            "{pp}·{v} pipeline chunks exceed the {n} layers", pp=s.pp, v=s.virtual_stages, n=arch.num_layers
        )
        return ("virtual_stages",), message, s.virtual_stages
    if s.ep > 1:
        problem = _ep_problem(arch, s.ep)
        if problem:
            return ("ep",), problem, s.ep
    if s.mode == "training" and s.activations == "hf-sdpa":
        refused = sdpa_refusal(arch)
        if refused:
            return ("activations",), refused, s.activations
    if s.quant in GGUF_DEFAULT_TYPES and arch.num_layers > MAX_GGUF_LAYERS:
        message = say(
            "GGUF formats type tensors layer by layer (llama.cpp): at most {most:,} layers, "
            "this model has {n:,}",
            most=MAX_GGUF_LAYERS,
            n=arch.num_layers,
        )
        return ("quant",), message, s.quant
    return None


def has_experts(arch: Architecture) -> bool:
    """Whether any layer is MoE: expert parallelism means nothing to a model without."""
    return any(block.ffn.ROUTED for block in arch.layers_by_block())


def _ep_problem(arch: Architecture, ep: int) -> str | None:
    if not has_experts(arch):
        return say("expert parallelism needs MoE layers; this model has none")
    experts = {block.ffn.routing()[0] for block in arch.layers_by_block() if block.ffn.ROUTED}
    for count in sorted(experts):
        if count % ep:
            return say("expert parallel size {ep} does not divide the {n} experts", ep=ep, n=count)
    return None


def check_scenario(arch: Architecture, s: Scenario) -> None:
    """Raise a ValidationError naming the Scenario field that does not fit ``arch``."""
    problem = scenario_problem(arch, s)
    if problem:
        loc, message, value = problem
        raise field_error("Scenario", loc, message, value)
