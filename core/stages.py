"""Where parameters sit: pipeline stages, layer kinds and sliding-window layers.

Stages split the layers as evenly as possible (the first stages take one more when they do not
divide). Stage 0 holds the embeddings, the last stage the final norm and LM head, and with a
tied head split over stages the last stage keeps its own copy of the embedding (Megatron-LM).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from paramtally.core.params import count_parameters
from paramtally.core.schema import Architecture, LoRA

__all__ = ["ModelLayout", "Stage", "model_layout", "window_layers", "with_lora"]


@dataclass(frozen=True, slots=True)
class Stage:
    index: int
    first: int  # index of the stage's first layer
    count: int  # layers in the stage
    params: int  # parameters held (before tensor-parallel split), adapters included
    adapters: int  # trainable adapter parameters among them (LoRA, bottleneck adapters)
    embed16: int  # token embedding / LM head parameters that may stay at 16 bits
    dense_layers: int
    moe_layers: int
    window_layers: int  # layers with a sliding window


@dataclass(frozen=True, slots=True)
class ModelLayout:
    total: int
    active: int
    adapters: int
    stages: tuple[Stage, ...]


def with_lora(arch: Architecture, rank: int, targets: tuple[str, ...]) -> Architecture:
    """``arch`` with LoRA of ``rank`` on ``targets`` in every layer group (replacing any)."""
    lora = LoRA.model_validate({"rank": rank, "targets": targets})
    layers = tuple(group.model_copy(update={"lora": lora}) for group in arch.layers)
    return arch.model_copy(update={"layers": layers})


def window_layers(arch: Architecture, first: int = 0, count: int | None = None) -> int:
    """Sliding-window layers among ``count`` layers from ``first`` (all layers by default).

    Every layer slides unless ``global_every`` = n makes each n-th one global; counted, not listed,
    so 10⁹ layers cost what 10 do.
    """
    att = arch.attention
    count = arch.num_layers - first if count is None else count
    if att.sliding_window is None:
        return 0
    every = att.global_every
    if not every:
        return count
    # layer i is global when (i + 1) % every == 0: multiples of ``every`` in [first + 1, first + count]
    globals_ = (first + count) // every - first // every
    return count - globals_


@lru_cache(maxsize=256)
def model_layout(arch: Architecture, pp: int) -> ModelLayout:
    report = count_parameters(arch)
    embeddings = report.tree.children[0].params
    layer_total = sum(group.params * group.count for group in report.groups)
    tail = report.total - embeddings - layer_total  # final norm, LM head, pooler, vocab growth
    head = arch.head
    tied_copy = arch.embeddings.vocab_size * arch.embed_dim if head.present and head.tied and pp > 1 else 0
    emb16 = report.by_part.get("embeddings", 0)
    head16 = report.by_part.get("lm_head", 0) + report.by_part.get("vocab_growth", 0)
    size, extra = divmod(arch.num_layers, pp)
    stages: list[Stage] = []
    first = 0
    groups = report.groups
    at = 0  # the first group that may still reach into this stage: stages and groups are walked once
    for index in range(pp):
        count = size + (1 if index < extra else 0)
        params = adapters = moe = 0
        while at < len(groups) and groups[at].start + groups[at].count <= first:
            at += 1
        for group in groups[at:]:  # layers of each group that fall in this stage
            if group.start >= first + count:
                break
            n = min(first + count, group.start + group.count) - max(first, group.start)
            params += n * group.params
            adapters += n * (group.by_part.get("lora", 0) + group.by_part.get("adapters", 0))
            moe += n if group.kind == "moe" else 0
        embed16 = 0
        if index == 0:
            params += embeddings
            embed16 += emb16
        if index == pp - 1:
            params += tail + tied_copy
            embed16 += head16 + tied_copy
        window = window_layers(arch, first, count)
        stages.append(Stage(index, first, count, params, adapters, embed16, count - moe, moe, window))
        first += count
    adapters_total = sum(stage.adapters for stage in stages)
    return ModelLayout(report.total, report.active, adapters_total, tuple(stages))
