"""The figures a goal-seek aims at and a sweep draws, each read from the one calculator.

Every figure's ``value`` is what ``count``/``memory`` report for a variant. ``terms`` gives the
same figure as the calculator's own terms (per pipeline stage), with ``combine`` saying how the
terms make the figure — the sweep evaluates those terms over a whole grid (``core.explore.sweep``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError, unknown_name
from paramtally.core.memory.estimate import estimate_memory, stage_terms
from paramtally.core.memory.flops import estimate_flops
from paramtally.core.memory.scenario import Scenario, check_scenario
from paramtally.core.schema import Architecture
from paramtally.core.terms.term import Term
from paramtally.core.text import say

__all__ = ["FIGURES", "SECONDS_PER_DAY", "Combine", "Figure", "find_figure"]

SECONDS_PER_DAY = 86_400
# How a figure comes out of its terms: the one term there is; the busiest stage's total (or its
# KV-cache part); the FLOPs term named; or the run's FLOPs over the GPUs' rate, in days.
Combine = Literal["only", "busiest", "busiest_kv", "forward", "days"]


@dataclass(frozen=True, slots=True)
class Figure:
    name: str
    title: str
    unit: Literal["params", "bytes", "FLOP", "days"]
    description: str
    budget: bool  # a target is a ceiling (≤) rather than a size to reach (≥)
    combine: Combine

    @property
    def parallel(self) -> bool:
        """Whether the scenario's parallel layout must fit the variant (memory per GPU does)."""
        return self.combine in ("busiest", "busiest_kv")

    def value(self, arch: Architecture, scenario: Scenario) -> int | float:
        """The figure for this variant, as ``count``/``memory`` report it."""
        if self.name in ("total", "active"):
            report = count_parameters(arch)
            return report.total if self.name == "total" else report.active
        if self.name in ("memory", "kv"):
            memory = estimate_memory(arch, scenario)
            return memory.total_bytes if self.name == "memory" else memory.kv_cache_bytes
        flops = estimate_flops(arch, scenario)
        return flops.forward_per_token if self.name == "flops" else flops.days

    def terms(self, arch: Architecture, scenario: Scenario) -> tuple[tuple[Term, ...], ...]:
        """The calculator's terms behind the figure, per pipeline stage."""
        if self.combine == "only":
            params = int(self.value(arch, scenario))
            return ((Term.of(self.name, "params", "N", "count_parameters", N=params),),)
        if self.combine in ("busiest", "busiest_kv"):
            if scenario.pp == 1:  # one stage: the report's own terms (and its cache)
                return (estimate_memory(arch, scenario).terms,)
            check_scenario(arch, scenario)
            return stage_terms(arch, scenario)
        return (estimate_flops(arch, scenario).terms,)


FIGURES: tuple[Figure, ...] = (
    Figure("total", "Total parameters", "params", "sum(p.numel()) of the model", False, "only"),
    Figure("active", "Active parameters", "params", "parameters one token uses (MoE)", False, "only"),
    Figure(
        "memory", "Memory per GPU", "bytes", "bytes on the busiest GPU under the scenario", True, "busiest"
    ),
    Figure("kv", "KV cache per GPU", "bytes", "KV cache and recurrent state on that GPU", True, "busiest_kv"),
    Figure(
        "flops",
        "FLOPs per token",
        "FLOP",
        "forward FLOPs per token (2·N_ne + 2·e·V + attention)",
        False,
        "forward",
    ),
    Figure(
        "time",
        "Training time",
        "days",
        "days to train on the scenario's tokens and GPUs at its MFU, attention counted as its "
        "Attention FLOPs say",
        True,
        "days",
    ),
)
_BY_NAME = {figure.name: figure for figure in FIGURES}


def find_figure(name: str) -> Figure:
    if name not in _BY_NAME:
        raise ParamTallyError(
            unknown_name(
                say("figure"), name, list(_BY_NAME), say("one of {names}", names=", ".join(_BY_NAME))
            )
        )
    return _BY_NAME[name]
