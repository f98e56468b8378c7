"""Stage plans: each pipeline stage's memory on one GPU, and how it grows with the context and the batch.

A plan is read off the memory terms themselves (``core.memory.estimate.stage_terms``): the total, the fixed
part, the pieces that grow with the context (each term's ``growth``, written from the numbers of its
own formula) and the terms that grow with the batch (those whose formula has b). The fit table,
the longest context that fits and the largest batch all come from here, so what grows with the
context or the batch is said once, by the terms.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from paramtally.core.memory.estimate import busiest_candidates, stage_terms
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema import Architecture
from paramtally.core.terms.formula import evaluate
from paramtally.core.terms.term import Piece, Term

__all__ = ["StagePlan", "busiest_plans", "bytes_at_batch", "stage_plans"]


class StagePlan(NamedTuple):  # a named tuple: immutable, and quick to make for every stage of every layout
    total: int
    fixed: int  # bytes that do not grow with the context
    weights: int
    kv_cache: int
    pieces: tuple[Piece, ...]  # the rest, growing with the context
    slope: float  # Σ c at s = 0, the cost there, and the caps in order as (s, c), in floats for a
    start: float  # fast first guess
    events: tuple[tuple[float, float], ...]
    by_batch: tuple[Term, ...] = ()  # the terms whose formula has the batch b
    batch_fixed: int = 0  # the others


@lru_cache(maxsize=1024)
def stage_plans(arch: Architecture, s: Scenario) -> tuple[StagePlan, ...]:
    """Per stage: the total at the scenario and, for inference, how it grows with the context."""
    return _plans(stage_terms(arch, s), s.mode == "inference")


@lru_cache(maxsize=1024)
def busiest_plans(arch: Architecture, s: Scenario) -> tuple[StagePlan, ...]:
    """The plans of the stages that may be the busiest (``busiest_candidates``): what the fit table
    needs of a layout — every stage in inference, where any may bind the context."""
    if s.mode == "inference":
        return stage_plans(arch, s)
    return _plans(busiest_candidates(arch, s), False)


def _plans(stages: tuple[tuple[Term, ...], ...], inference: bool) -> tuple[StagePlan, ...]:
    plans: list[StagePlan] = []
    made: dict[int, StagePlan] = {}  # stages that share their terms share their plan
    for terms in stages:
        if id(terms) in made:
            plans.append(made[id(terms)])
            continue
        plan = _plan(terms, inference)
        plans.append(plan)
        made[id(terms)] = plan
    return tuple(plans)


def _plan(terms: tuple[Term, ...], inference: bool) -> StagePlan:
    """The stage's total and, in inference, how it grows with the context and the batch, in one pass
    (the fit table makes a plan for every distinct stage of every layout); in training nothing
    grows with either."""
    total = fixed = weights = kv_cache = batch_fixed = 0
    pieces: list[Piece] = []
    by_batch: list[Term] = []
    for term in terms:
        value = term.value
        total += value
        if term.growth is None:
            fixed += value
        else:
            pieces.append(term.growth)
        if term.part == "weights":
            weights += value
        elif term.part == "kv_cache":
            kv_cache += value
        if inference and "b" in term.values:
            by_batch.append(term)
        else:
            batch_fixed += value
    if not inference:
        return StagePlan(total, fixed, weights, kv_cache, (), 0, 0, (), (), total)
    slope = start = 0.0
    events = []
    for p, q, m, cap, o in pieces:
        rate = p * m / q
        if cap is None:
            slope += rate
            start += p * m * o / q
        elif cap / m > o:
            slope += rate
            start += p * m * o / q
            events.append((cap / m - o, rate))
        else:
            start += p * cap / q
    events.sort()
    grows = (tuple(pieces), slope, start, tuple(events))
    return StagePlan(total, fixed, weights, kv_cache, *grows, tuple(by_batch), batch_fixed)


def bytes_at_batch(plan: StagePlan, batch: int) -> int:
    """The stage's bytes with ``batch`` sequences, every term that has b evaluated at it."""
    return plan.batch_fixed + sum(evaluate(term.expr, {**term.values, "b": batch}) for term in plan.by_batch)
