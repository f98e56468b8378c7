"""Serving estimates: prefill time, decode speed per sequence and for the batch, the largest batch
that fits, and the cost per million tokens.

A roofline over the memory terms of every stage (``core.memory.stage_plans``) and the FLOPs per token
(``core.memory.flops``), each figure a formula shown with its numbers:

- Prefill: the batch's b prompts at F_p FLOPs each (the forward pass of the s prompt tokens at
  context s, the LM head for the last token alone: its logits sample the first generated token) on
  the t GPUs of a stage at the scenario's MFU u, the p stages one after another; at least one
  read of the weights, W at the bandwidth reached f_bw·BW (W: what a GPU of each stage holds,
  summed over the stages, which read theirs in turn).
- Decode step: every stage in turn reads the weights a step streams, R (``core.memory.decode_weight_reads``:
  the decoder's layers and the LM head, a routed expert (an MoE's, an attention expert of a mixture
  of attention heads) when a token of the batch picks it; not
  an encoder, nor the input embedding, looked up), and its KV cache K (summed over the stages as
  W is; context + generated tokens: the last step, the slowest) — or computes the batch's b·F_d
  FLOPs (F_d: one decode step at context s + n, the whole cache read), whichever takes longer.
  Memory is read at f_bw·BW: f_bw, the share of the peak bandwidth a decode step reaches, as the
  MFU u is of the peak FLOP/s (``Scenario.bandwidth_efficiency``; its default measured by gpt-fast).
  The batch makes b tokens per step, each sequence one. Stages do not overlap batches here: a
  pipeline that keeps several batches in flight does better.
- Cost: G = t·p·ep GPUs (one model copy: expert parallelism spreads its experts over ep of the
  data-parallel GPUs) at c dollars per GPU-hour (the catalog's, or the user's gpus.json).
- Largest batch: the largest b whose busiest stage still fits, every memory term that has b in its
  formula evaluated at b (KV cache, recurrent state, activations, logits).

The formulas are evaluated exactly for the scenario's own report and in floats, from the same
text, for every GPU setup of the fit table.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from fractions import Fraction
from types import CodeType
from typing import Any, NamedTuple

from paramtally.core.memory.decode_weight_reads import StageReads, stage_reads
from paramtally.core.memory.estimate import effective_architecture
from paramtally.core.memory.flops import decode_per_token, prefill_flops
from paramtally.core.memory.gpus import GPU, find_gpu
from paramtally.core.memory.kv_cache import encoder_tokens
from paramtally.core.memory.quant import QUANT_FORMATS, experts_only, format_bits
from paramtally.core.memory.scenario import Scenario, check_scenario, weights_format
from paramtally.core.memory.stage_plans import StagePlan, bytes_at_batch, stage_plans
from paramtally.core.memory.vision import language_scenario
from paramtally.core.schema import Architecture
from paramtally.core.terms.formula import Number, compiled
from paramtally.core.terms.term import Term
from paramtally.core.typed_numbers import GB

__all__ = [
    "BATCH_LIMIT",
    "LayoutSpeed",
    "ModelSpeed",
    "ServingReport",
    "SetupSpeed",
    "estimate_serving",
    "largest_batch",
    "layout_speed",
    "model_speed",
    "serving_report",
    "setup_speed",
]

BATCH_LIMIT = 1_000_000  # Scenario.batch's upper bound

PREFILL = (
    "max(b·F_p/(t·P·u), W/(f_bw·BW))"  # F_p: one prompt's FLOPs (core.memory.flops' prefill per request)
)
DECODE_MEMORY = "(W_s + K)/(f_bw·BW)"  # W_s: the weights a step streams (core.memory.decode_weight_reads)
DECODE_COMPUTE = "b·F_d/(t·P·u)"
# Where the bandwidth efficiency's default comes from (Scenario.bandwidth_efficiency).
BANDWIDTH_SOURCE = (
    "f_bw: the share of the peak HBM bandwidth BW a decode step reaches (--bandwidth-efficiency; the "
    "default 0.685 as PyTorch's gpt-fast measured Llama-2-7B in bf16 at batch 1 on an A100-80GB: "
    "1,397 of 2,039 GB/s, github.com/pytorch-labs/gpt-fast)"
)
SOURCE = (
    "roofline: prefill at the scenario's MFU u on the t GPUs of each of the p stages in turn, at least "
    "one read of every stage's weights W at the bandwidth reached, f_bw·BW; " + BANDWIDTH_SOURCE
)
_FLOAT_NAMESPACE: dict[str, object] = {
    "__builtins__": {},
    "_div": operator.truediv,
    "min": min,
    "max": max,
}


def _fast(code: CodeType, values: dict[str, Any]) -> float:
    """A formula (``compiled``) evaluated in floats (the fit table's many setups); the report's
    terms are exact."""
    result: float = eval(code, _FLOAT_NAMESPACE, values)  # the AST was checked when compiled
    return result


def _exact(value: float) -> Number:
    if isinstance(value, float):
        return int(value) if value.is_integer() else Fraction(str(value))
    return value


@dataclass(frozen=True, slots=True)
class ModelSpeed:
    """What the serving figures need from the model, whatever the setup."""

    flops: tuple[int, int]  # one prompt's prefill FLOPs at the context; a decode step at context + generated
    arch: Architecture  # as run (``effective_architecture``): what a decode step reads of each stage
    encoder: tuple[int, int] | None = None  # an encoder-decoder's F_e and s_enc


def model_speed(arch: Architecture, s: Scenario) -> ModelSpeed:
    run = effective_architecture(arch, s)
    s = language_scenario(run, s)  # a prompt's context holds its image tokens
    tokens = encoder_tokens(run, s)
    prefill = prefill_flops(run, s.context, tokens)
    flops = (prefill[0], decode_per_token(run, s.context + s.generated, tokens))
    return ModelSpeed(flops, run, (prefill[1], prefill[2]) if len(prefill) == 3 else None)


_STREAMED_SOURCE = (
    "a decode step reads the decoder's layers and the LM head, not an encoder nor the input embedding "
    "(looked up); a routed expert when one of the b tokens picks it, 1 − (1 − k/E)^b of them (uniform "
    "routing: the most a batch reads); P, S: a stage's parameters outside the routed FFN experts, held "
    "and streamed (attention experts, JetMoE's, streamed as the batch picks them); X, Y: its routed FFN "
    "experts, held and read (ep: expert parallelism); W: a GPU's weight bytes"
)


_STAGES_WRITTEN_OUT = 8  # a deeper pipeline's W_s is said as its sum alone


def _copy_gpus(s: Scenario) -> int:
    """The GPUs of one model copy: t·p, times the ep GPUs its experts are spread over."""
    return s.tp * s.pp * s.ep


def _streamed_term(plans: tuple[StagePlan, ...], s: Scenario, model: ModelSpeed) -> Term:
    """W_s as a term: one stage's formula with its numbers, or the sum over the stages."""
    reads = stage_reads(model.arch, s.pp, s.batch)
    name = "weights streamed per decode step (bytes)"
    if len(plans) > 1 or _keeps_16bit_embeddings(s):
        each = [_stage_streamed(plan, read, s) for plan, read in zip(plans, reads, strict=True)]
        apart = "; 16-bit embeddings at their own bytes" if _keeps_16bit_embeddings(s) else ""
        source = _STREAMED_SOURCE + apart
        if 1 < len(each) <= _STAGES_WRITTEN_OUT:  # W_i: what a GPU of stage i streams, in turn
            stages = {f"W_{i + 1}": share for i, share in enumerate(each)}
            return _quantity(name, " + ".join(stages), source + "; W_i: stage i's, summed", **stages)
        over = f"; summed over the {len(plans)} stages" if len(plans) > 1 else ""
        return _quantity(name, "W_s", source + over, W_s=sum(each))
    (read,) = reads
    values: dict[str, Number] = {"W": plans[0].weights, "S": read.streamed, "P": read.held}
    if experts_only(weights_format(s)) and read.experts:
        values |= {"W_X": _expert_bytes(read, s), "Y": read.experts_read, "X": read.experts}
        source = _STREAMED_SOURCE + "; W_X: the routed experts' bytes, in their own format"
        return _quantity(name, "(W − W_X)·S/P + W_X·Y/X", source, **values)
    if not read.experts:
        return _quantity(name, "W·S/P", _STREAMED_SOURCE, **values)
    values |= {"Y": read.experts_read, "X": read.experts}
    if s.ep == 1:
        return _quantity(name, "W·(S + Y)/(P + X)", _STREAMED_SOURCE, **values)
    return _quantity(name, "W·(S + Y/ep)/(P + X/ep)", _STREAMED_SOURCE, ep=s.ep, **values)


def _streamed(plans: tuple[StagePlan, ...], s: Scenario, model: ModelSpeed) -> float:
    """W_s: the bytes a decode step streams, each stage's share of a GPU's weights summed."""
    reads = stage_reads(model.arch, s.pp, s.batch)
    return float(sum(_stage_streamed(plan, read, s) for plan, read in zip(plans, reads, strict=True)))


def _stage_streamed(plan: StagePlan, read: StageReads, s: Scenario) -> Fraction:
    """One stage's streamed bytes: its share of a GPU's weights; embeddings kept at 16 bits beside
    quantized weights (the memory terms' E·16/8/t) at their own bytes, the head's read, the input
    embedding's not (Llama-3-8B at q4_k_m with 16-bit embeddings read 12 % too much, weighed alike)."""
    quant = weights_format(s)
    if experts_only(quant) and read.experts:  # the experts' bytes and the rest's, each weighed apart
        experts = _expert_bytes(read, s)
        rest = plan.weights - experts
        return rest * Fraction(read.streamed, read.held) + experts * Fraction(read.experts_read, read.experts)
    if not (read.embed16 and _keeps_16bit_embeddings(s)):
        return Fraction(plan.weights) * _exact(read.share(s.ep))
    kept = Fraction(read.embed16 * 16, 8 * s.tp)
    rest = (plan.weights - kept) * _exact(read.share(s.ep, without16=True))
    return rest + kept * Fraction(read.embed16_streamed, read.embed16)


def _expert_bytes(read: StageReads, s: Scenario) -> Fraction:
    """A GPU's bytes of the stage's routed experts in a format kept for them alone."""
    return Fraction(read.experts * QUANT_FORMATS[str(weights_format(s))].bits, 8 * s.tp * s.ep)


def _keeps_16bit_embeddings(s: Scenario) -> bool:
    """Whether the weights keep the embeddings at 16 bits (``model_states``; a GGUF types them F16):
    asked, beside weights below 16 bits."""
    quant = weights_format(s)
    return s.keep_embeddings_16bit and not experts_only(quant) and format_bits(s.dtype, quant)[0] < 16


class SetupSpeed(NamedTuple):
    """A setup's serving speed, from its busiest stage (one per fitting row of the fit table)."""

    prefill_seconds: float
    decode_tokens_per_second: float


def _layout_symbols(plans: tuple[StagePlan, ...], s: Scenario, model: ModelSpeed) -> dict[str, Any]:
    """The symbols of a layout's formulas; W and K summed over its stages (each plan a stage's)."""
    return {
        "b": s.batch,
        "F_p": model.flops[0],
        "F_d": model.flops[1],
        "t": s.tp,
        "p": s.pp,
        "u": s.mfu,
        "f_bw": s.bandwidth_efficiency,
        "W": sum(plan.weights for plan in plans),
        "W_s": _streamed(plans, s, model),
        "K": sum(plan.kv_cache for plan in plans),
    }


def _gpu_symbols(gpu: GPU) -> dict[str, Any]:
    return {"P": gpu.bf16_tflops * 10**12, "BW": gpu.bandwidth_gbs * GB}  # GB/s to bytes per second


def _symbols(plans: tuple[StagePlan, ...], s: Scenario, gpu: GPU, model: ModelSpeed) -> dict[str, Any]:
    return {**_layout_symbols(plans, s, model), **_gpu_symbols(gpu)}


@dataclass(frozen=True, slots=True)
class LayoutSpeed:
    """A layout's serving symbols (its busiest stage's), awaiting a GPU kind's rate and bandwidth:
    the fit table puts every GPU kind on the same few layouts."""

    values: dict[str, Any]
    formulas: tuple[CodeType, CodeType, CodeType]  # decode memory, decode compute, prefill: compiled
    batch: int

    def on(self, gpu: GPU) -> SetupSpeed:
        # The layout's own dict takes each GPU kind's rate and bandwidth in turn: the fit table puts
        # every kind of the catalog on a layout, and a merged copy for each costs more than a formula.
        values = self.values
        values.update(_gpu_symbols(gpu))
        memory, compute, prefill = self.formulas  # ints and floats: true division gives floats
        step = max(_fast(memory, values), _fast(compute, values))
        return SetupSpeed(_fast(prefill, values), self.batch / step)


def layout_speed(plans: tuple[StagePlan, ...], s: Scenario, model: ModelSpeed) -> LayoutSpeed:
    # Compiled once per layout, not looked up again for each GPU kind on it.
    formulas = compiled(DECODE_MEMORY), compiled(DECODE_COMPUTE), compiled(PREFILL)
    return LayoutSpeed(_layout_symbols(plans, s, model), formulas, s.batch)


def setup_speed(plans: tuple[StagePlan, ...], s: Scenario, gpu: GPU, model: ModelSpeed) -> SetupSpeed:
    """Prefill seconds and decode tokens per second of the batch on ``s``'s layout of ``gpu``."""
    return layout_speed(plans, s, model).on(gpu)


def largest_batch(plans: tuple[StagePlan, ...], capacity: int, limit: int = BATCH_LIMIT) -> int:
    """The largest batch whose busiest stage fits ``capacity`` (0: not even one sequence)."""

    def fits(batch: int) -> bool:
        return all(bytes_at_batch(plan, batch) <= capacity for plan in plans)

    if not fits(1):
        return 0
    low, high = 1, 2
    while high <= limit and fits(high):
        low, high = high, 2 * high
    high = min(high, limit + 1)
    while high - low > 1:  # fits(low), not fits(high)
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


@dataclass(frozen=True, slots=True)
class ServingReport:
    """The scenario's own setup (its GPU kind, tp and pp) serving its batch."""

    gpu: str
    gpu_name: str
    gpus: int  # t·p: one copy of the model
    fits: bool  # the busiest GPU fits its usable capacity (the figures are for it either way)
    tokens_per_sequence: int  # context + generated: what the KV cache holds
    kv_cache_bytes: int  # per GPU of the busiest stage
    prefill_seconds: float
    # The decode figures: None for a model that generates nothing (an encoder alone).
    decode_tokens_per_second: float | None  # the batch
    decode_tokens_per_second_per_sequence: float | None
    decode_bound: str | None  # "memory bandwidth" or "compute"
    bandwidth_efficiency: float  # the share of peak bandwidth the memory-bound figures assume
    max_batch: int
    usd_per_gpu_hour: float | None
    usd_per_million_output_tokens: float | None
    usd_per_million_prompt_tokens: float | None
    terms: tuple[Term, ...]


def _prompt_cost(model: ModelSpeed, note: str, **values: Number) -> Term:
    """Dollars per million prompt tokens: an encoder-decoder's prompt is the encoder's s_enc tokens
    and the decoder's s."""
    name, source = "$ per million prompt tokens", note + "; T_p: prefill time; M = 10⁶"
    if model.encoder is None:
        return _quantity(name, "G·c·T_p·M/(3600·b·s)", source, **values)
    return _quantity(name, "G·c·T_p·M/(3600·b·(s_enc + s))", source, s_enc=model.encoder[1], **values)


def _quantity(name: str, expr: str, source: str, **values: Number) -> Term:
    return Term.quantity(name, "serving", expr, source, **values)


def estimate_serving(
    arch: Architecture, scenario: Scenario, catalog: tuple[GPU, ...] | None = None
) -> ServingReport | None:
    """The scenario's serving figures on its own GPU kind and layout; None when it trains, or for a
    vision tower alone (it encodes images and generates no tokens)."""
    if scenario.mode != "inference" or arch.tower_only:
        return None
    check_scenario(arch, scenario)
    gpu = find_gpu(scenario.gpu, catalog)
    capacity = gpu.capacity_bytes(scenario.utilization_cap)
    return serving_report(stage_plans(arch, scenario), scenario, gpu, model_speed(arch, scenario), capacity)


def serving_report(
    plans: tuple[StagePlan, ...], s: Scenario, gpu: GPU, model: ModelSpeed, capacity: int
) -> ServingReport:
    """The serving figures of ``s`` on its own layout, each a term with its formula. A model that
    generates nothing (an encoder alone) has its prefill alone: no decode step, no generated tokens."""
    busiest = max(plans, key=lambda plan: plan.total)
    values = {key: _exact(value) for key, value in _symbols(plans, s, gpu, model).items()}
    pick = {key: values[key] for key in ("b", "F_p", "t", "P", "u", "W", "f_bw", "BW")}
    generates = model.arch.generates
    said = (
        "; F_p: one prompt's prefill FLOPs (the FLOPs report's 'prefill per request': "
        + ("the encoder over its s_enc tokens, then " if model.encoder is not None else "")
        + ("the s prompt tokens, the LM head for the last one alone)" if generates else "the s tokens)")
    )
    prefill = _quantity("prefill time (s)", PREFILL, SOURCE + said, **pick)
    decoding = _decoding(plans, s, model, values) if generates else None
    terms = [prefill, *(decoding[0] if decoding else ())]
    output_cost = prompt_cost = None
    if gpu.usd_per_hour is not None:
        c, g = _exact(gpu.usd_per_hour), _copy_gpus(s)
        note = f"G = t·p·ep GPUs of one model copy at c dollars per GPU-hour ({gpu.name}; gpus.json)"
        if decoding is not None:
            output = _quantity(
                "$ per million generated tokens",
                "G·c·M/(3600·R)",
                note + "; R: decode tokens/s of the batch; M = 10⁶",
                G=g,
                c=c,
                M=10**6,
                R=decoding[1].exact,
            )
            terms.append(output)
            output_cost = output.amount
        prompt = _prompt_cost(model, note, G=g, c=c, T_p=prefill.exact, M=10**6, b=s.batch, s=s.context)
        terms.append(prompt)
        prompt_cost = prompt.amount
    return ServingReport(
        gpu=gpu.id,
        gpu_name=gpu.name,
        gpus=_copy_gpus(s),
        fits=busiest.total <= capacity,
        tokens_per_sequence=s.context + (s.generated if generates else 0),
        kv_cache_bytes=busiest.kv_cache,
        prefill_seconds=prefill.amount,
        decode_tokens_per_second=decoding[1].amount if decoding else None,
        decode_tokens_per_second_per_sequence=decoding[2].amount if decoding else None,
        decode_bound=decoding[3] if decoding else None,
        bandwidth_efficiency=s.bandwidth_efficiency,
        max_batch=largest_batch(plans, capacity),
        usd_per_gpu_hour=gpu.usd_per_hour,
        usd_per_million_output_tokens=output_cost,
        usd_per_million_prompt_tokens=prompt_cost,
        terms=tuple(terms),
    )


def _decoding(
    plans: tuple[StagePlan, ...], s: Scenario, model: ModelSpeed, values: dict[str, Number]
) -> tuple[list[Term], Term, Term, str]:
    """A decode step's terms (weights streamed, its time by memory and by compute, the rates), the
    batch's rate, one sequence's, and what bounds a step."""
    streamed = _streamed_term(plans, s, model)
    values["W_s"] = streamed.exact
    memory = _quantity(
        "decode step, memory (s)",
        DECODE_MEMORY,
        "each step reads the weights it streams (W_s, bytes) and the KV cache of every stage once, the "
        "stages in turn (K: a GPU's of each stage, summed over the stages); K holds context + "
        "generated tokens; " + BANDWIDTH_SOURCE,
        **{key: values[key] for key in ("W_s", "K", "f_bw", "BW")},
    )
    compute = _quantity(
        "decode step, compute (s)",
        DECODE_COMPUTE,
        "the batch's tokens at F_d FLOPs each (a decode step at context + generated) at the MFU",
        **{key: values[key] for key in ("b", "F_d", "t", "P", "u")},
    )
    bound = "memory bandwidth" if memory.exact >= compute.exact else "compute"
    exact_step = max(memory.exact, compute.exact)
    rate = _quantity(
        "decode tokens/s (batch)",
        "b/T",
        f"b sequences make one token each per step of T seconds ({bound} bound)",
        b=s.batch,
        T=exact_step,
    )
    per_sequence = _quantity("decode tokens/s (per sequence)", "1/T", "one token per step", T=exact_step)
    return [streamed, memory, compute, rate, per_sequence], rate, per_sequence, bound
