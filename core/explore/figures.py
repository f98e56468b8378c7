"""The figures a goal-seek aims at and a sweep draws, each read from the one calculator.

Every figure's ``value`` is what ``count``/``memory`` report for a variant. ``terms`` gives the
same figure as the calculator's own terms (per pipeline stage), with ``combine`` saying how the
terms make the figure — the sweep evaluates those terms over a whole grid (``core.explore.sweep``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from paramtally.core.count import count_parameters
from paramtally.core.errors import ParamTallyError, unknown_name
from paramtally.core.flops import estimate_flops
from paramtally.core.memory import estimate_memory, stage_terms
from paramtally.core.scenario import Scenario, check_scenario
from paramtally.core.schema import Architecture
from paramtally.core.terms import Term

__all__ = ["FIGURES", "SECONDS_PER_DAY", "Combine", "Figure", "find_figure", "parse_quantity"]

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
    Figure("time", "Training time", "days", "days to train on the scenario's tokens and GPUs", True, "days"),
)
_BY_NAME = {figure.name: figure for figure in FIGURES}

# Suffixes a target may carry: counts (7B), bytes (80GB, 80GiB) and durations (30d, 720h).
_SCALE: dict[str, dict[str, Fraction]] = {
    "params": {"": Fraction(1), "k": Fraction(10**3), "m": Fraction(10**6), "b": Fraction(10**9),
               "g": Fraction(10**9), "t": Fraction(10**12)},
    "bytes": {"": Fraction(1), "b": Fraction(1), "kb": Fraction(10**3), "mb": Fraction(10**6),
              "gb": Fraction(10**9), "tb": Fraction(10**12), "kib": Fraction(2**10),
              "mib": Fraction(2**20), "gib": Fraction(2**30), "tib": Fraction(2**40)},
    "FLOP": {"": Fraction(1), "k": Fraction(10**3), "m": Fraction(10**6), "g": Fraction(10**9),
             "t": Fraction(10**12), "p": Fraction(10**15)},
    "days": {"": Fraction(1), "d": Fraction(1), "h": Fraction(1, 24), "s": Fraction(1, SECONDS_PER_DAY)},
}  # fmt: skip


def find_figure(name: str) -> Figure:
    if name not in _BY_NAME:
        raise ParamTallyError(unknown_name("figure", name, list(_BY_NAME), "one of " + ", ".join(_BY_NAME)))
    return _BY_NAME[name]


# A target beyond 10³⁰ (parameters, bytes, FLOPs or days) is no design goal; below, every figure
# compared with it is finite. Fraction('1e999999999') would compute 10⁹⁹⁹⁹⁹⁹⁹⁹⁹ first.
MAX_QUANTITY = 10**30
_NUMBER = re.compile(r"(?:\d{1,40}(?:\.\d{0,40})?|\.\d{1,40})(?:e[+-]?\d{1,3})?", re.IGNORECASE)


def parse_quantity(text: str, unit: str, what: str) -> Fraction:
    """``7e9``, ``7B``, ``80GB``, ``80GiB``, ``30d``: the exact number, in the figure's unit, at
    most ``MAX_QUANTITY``."""
    stripped = text.strip().replace("_", "").replace(",", "")
    digits = stripped.rstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    suffix = stripped[len(digits) :].lower()
    scale = _SCALE[unit].get(suffix)
    number = Fraction(digits) if _NUMBER.fullmatch(digits) else None
    if number is None or scale is None:
        units = ", ".join(key for key in _SCALE[unit] if key) or "none"
        raise ParamTallyError(f"{what}: '{text[:60]}' is not a number of {unit} (suffixes: {units})")
    if number * scale > MAX_QUANTITY:
        raise ParamTallyError(f"{what}: '{text[:60]}' is more than 10^30 {unit}, beyond any model")
    return number * scale
