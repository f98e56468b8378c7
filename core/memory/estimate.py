"""Memory per GPU for serving or training an architecture: a sum of named terms with formulas.

The figure is for the busiest GPU: with pipeline stages, the stage whose total is largest
(the first one in training, which holds p micro-batches of activations under 1F1B). Each term
says its formula with the numbers filled in and where it comes from.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from paramtally.core.memory.activations import (
    activation_terms,
    kernel_path_omissions,
    shared_training_terms,
    training_view,
)
from paramtally.core.memory.gguf_file import gguf_file_terms
from paramtally.core.memory.gguf_types import GGUF_DEFAULT_TYPES
from paramtally.core.memory.kv_cache import RECURRENT_STATE, KvStages
from paramtally.core.memory.model_states import model_state_terms, state_key
from paramtally.core.memory.scenario import Scenario, check_scenario, weights_format, with_changes
from paramtally.core.memory.stages import ModelLayout, Stage, model_layout, with_lora
from paramtally.core.memory.vision import image_tokens, language_scenario, tower_trains, vision_terms
from paramtally.core.schema import Architecture
from paramtally.core.terms.term import Term
from paramtally.core.text import say

__all__ = [
    "PARTS",
    "PART_TITLES",
    "MemoryReport",
    "Scenario",
    "Term",
    "busiest_candidates",
    "effective_architecture",
    "estimate_memory",
    "omissions",
    "stage_terms",
]

PARTS = ("weights", "kv_cache", "activations", "gradients", "optimizer", "overhead")
PART_TITLES = {
    "weights": "Weights",
    "kv_cache": "KV cache",
    "activations": "Activations",
    "gradients": "Gradients",
    "optimizer": "Optimizer states",
    "overhead": "Runtime overhead",
}


@dataclass(frozen=True, slots=True)
class MemoryReport:
    """Exact bytes on one GPU (the busiest pipeline stage), by part, with the terms behind them."""

    weights_bytes: int
    kv_cache_bytes: int
    activations_bytes: int
    gradients_bytes: int
    optimizer_bytes: int
    overhead_bytes: int
    total_bytes: int
    terms: tuple[Term, ...]
    stage: int = 0  # index of the pipeline stage shown
    layers_on_gpu: int = 0
    params: int = 0  # parameters of the whole model (with adapters)
    trainable_params: int = 0
    omissions: tuple[str, ...] = ()  # what the scenario needs that the figure leaves out
    # Serving from a GGUF file: its size (tensor data, metadata estimate, sum), not on the GPU.
    file_terms: tuple[Term, ...] = ()
    image_tokens: int = 0  # tokens the images add to each sequence's context (a vision-language model)

    def by_part(self) -> dict[str, int]:
        return {part: getattr(self, f"{part}_bytes") for part in PARTS}

    def part_titles(self) -> dict[str, str]:
        """Each part's title. The per-sequence part is named after its terms: a model whose layers
        all keep a recurrent state (Mamba, linear attention) has no KV cache, a hybrid both."""
        names = {term.name for term in self.terms if term.part == "kv_cache"}
        state = RECURRENT_STATE in names
        kv = bool(names - {RECURRENT_STATE})
        cache = "KV cache + recurrent state" if state and kv else "Recurrent state" if state else "KV cache"
        return {**PART_TITLES, "kv_cache": cache}


def effective_architecture(arch: Architecture, s: Scenario) -> Architecture:
    """The architecture as trained or served: with the scenario's LoRA adapters when it trains them
    (the LoRA fields are training's: serving leaves them, as it leaves the optimizer)."""
    if s.lora_rank is None or s.mode != "training":
        return arch
    return with_lora(arch, s.lora_rank, s.lora_targets)


def _adapter_training(layout: ModelLayout, s: Scenario) -> bool:
    return s.mode == "training" and (s.lora_rank is not None or layout.adapters > 0)


@lru_cache(maxsize=1024)
def stage_terms(arch: Architecture, s: Scenario) -> tuple[tuple[Term, ...], ...]:
    """The terms of every pipeline stage on one of its GPUs (cached: the report, the fit table's
    stage plans and a sweep's samples all read them)."""
    return _stage_terms(arch, s, every=True)


@lru_cache(maxsize=1024)
def busiest_candidates(arch: Architecture, s: Scenario) -> tuple[tuple[Term, ...], ...]:
    """The terms of the stages that may be the busiest: in inference every stage; in training not a
    stage that holds what an earlier one holds (not the last): it keeps as many parameters and no
    more micro-batches of activations in flight (1F1B: p − i on stage i; interleaved and with
    few micro-batches too), so it never needs more bytes. The fit table tries many deep layouts."""
    return stage_terms(arch, s) if s.mode == "inference" else _stage_terms(arch, s, every=False)


def _stage_terms(arch: Architecture, s: Scenario, every: bool) -> tuple[tuple[Term, ...], ...]:
    arch = effective_architecture(arch, s)
    layout = model_layout(arch, s.pp)
    adapters = _adapter_training(layout, s)
    images = vision_terms(arch, s)  # on the first stage, with the tower
    model_s, s = s, language_scenario(arch, s)  # the language model's context holds the image tokens
    overhead = Term.of(
        "CUDA context and workspaces",
        "overhead",
        "c",
        "runtime overhead per GPU, editable (CUDA context ≈ 0.3–1 GiB)",
        c=s.cuda_context_bytes,
    )
    result = []
    # Stages that hold alike (the middle ones, mostly) share their model-state terms; in inference,
    # where a stage's KV cache and working set depend only on the blocks it holds (those of its
    # decoder layers for the cache) and whether it is the last, such stages share all their terms.
    held: dict[object, tuple[list[Term], list[Term]]] = {}
    alike: dict[object, tuple[Term, ...]] = {}
    view = training_view(s) if s.mode == "training" else None
    kv = KvStages(arch, s) if s.mode == "inference" else None  # what the stages' KV terms share
    for stage in layout.stages:
        last = stage.index == s.pp - 1
        key = state_key(s, stage, adapters)
        if not every and not last and key in held:
            continue  # training: an earlier stage holds the same, with more micro-batches in flight
        whole = (key, last, _decoder_key(stage)) if s.mode == "inference" and key is not stage else None
        if whole is not None and whole in alike:
            result.append(alike[whole])
            continue
        if key not in held:
            held[key] = model_state_terms(arch, model_s, stage, adapters)
        weights, states = held[key]
        if arch.tower_only:  # no language model: no context, no KV cache; the images' terms follow
            activations, kv = [], None
        elif view is not None:  # training: layouts that differ only in ZeRO or data parallelism share them
            activations = list(shared_training_terms(arch, view, stage, last))
        else:
            activations = activation_terms(arch, s, stage, last)
        terms = weights + (kv.terms(stage) if kv is not None else []) + activations + states
        if stage.index == 0:
            terms += images
        terms.append(overhead)
        result.append(tuple(terms))
        if whole is not None:
            alike[whole] = result[-1]
    return tuple(result)


def _decoder_key(stage: Stage) -> object:
    """What of a stage's decoder layers its KV terms depend on, beyond what its model-state key says:
    nothing when all its layers are a decoder's."""
    if stage.decoder_blocks is stage.blocks:
        return None
    return tuple((id(block), n) for block, n in stage.decoder_blocks)


def estimate_memory(arch: Architecture, scenario: Scenario) -> MemoryReport:
    """Bytes per GPU; raises a ValidationError naming the Scenario field that does not fit ``arch``."""
    check_scenario(arch, scenario)
    return _estimate(arch, scenario)


@lru_cache(maxsize=256)
def _estimate(arch: Architecture, s: Scenario) -> MemoryReport:
    stages = stage_terms(arch, s)
    totals = [sum(term.value for term in terms) for terms in stages]
    index = max(range(len(totals)), key=totals.__getitem__)
    terms = stages[index]
    parts = dict.fromkeys(PARTS, 0)
    for one in terms:
        parts[one.part] += one.value
    layout = model_layout(effective_architecture(arch, s), s.pp)
    trainable = 0
    if s.mode == "training":
        frozen = 0 if tower_trains(arch, s) else layout.stages[0].vision
        frozen += sum(stage.frozen for stage in layout.stages)  # frozen position tables
        trainable = layout.adapters if _adapter_training(layout, s) else layout.total - frozen
    return MemoryReport(
        weights_bytes=parts["weights"],
        kv_cache_bytes=parts["kv_cache"],
        activations_bytes=parts["activations"],
        gradients_bytes=parts["gradients"],
        optimizer_bytes=parts["optimizer"],
        overhead_bytes=parts["overhead"],
        total_bytes=sum(parts.values()),
        terms=terms,
        stage=index,
        layers_on_gpu=layout.stages[index].count,
        params=layout.total,
        trainable_params=trainable,
        omissions=omissions(s) + kernel_path_omissions(arch, s),
        file_terms=_file_terms(arch, s, parts["weights"]),
        image_tokens=image_tokens(arch, s),
    )


def _file_terms(arch: Architecture, s: Scenario, weights: int) -> tuple[Term, ...]:
    """A GGUF file's size when serving from one (``core.memory.gguf_file``): the whole model's weights —
    this GPU's when one GPU holds them all — and the metadata."""
    if s.mode != "inference" or weights_format(s) not in GGUF_DEFAULT_TYPES:
        return ()
    whole = with_changes(s, (("tp", 1), ("pp", 1), ("ep", 1), ("gpus", 1)))
    tensors = weights if whole == s else _estimate(arch, whole).weights_bytes
    return gguf_file_terms(arch, tensors)


def omissions(s: Scenario) -> tuple[str, ...]:
    """What memory the scenario needs that the terms do not model, each named in a few words."""
    found = []
    if s.ep > 1:
        found.append(
            say(
                "expert parallelism's all-to-all dispatch and combine buffers (the tokens each GPU sends to "
                "and receives from the others, per MoE layer)"
            )
        )
    return tuple(found)
