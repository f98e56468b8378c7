"""Stage plans: each pipeline stage's memory on one GPU, and how it grows with the context and the batch.

A plan is read off the memory terms themselves (``core.memory.stage_terms``): the total, the fixed
part, the pieces that grow with the context (each term's ``growth``, written from the numbers of its
own formula) and the terms that grow with the batch (those whose formula has b). The fit table,
the longest context that fits and the largest batch all come from here, so what grows with the
context or the batch is said once, by the terms.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from paramtally.core.formula import evaluate
from paramtally.core.memory import stage_terms
from paramtally.core.scenario import Scenario
from paramtally.core.schema import Architecture
from paramtally.core.terms import Piece, Term

__all__ = ["StagePlan", "bytes_at_batch", "stage_plans"]


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
    plans: list[StagePlan] = []
    inference = s.mode == "inference"
    made: dict[int, StagePlan] = {}  # stages that share their terms share their plan
    for terms in stage_terms(arch, s):
        if id(terms) in made:
            plans.append(made[id(terms)])
            continue
        total = fixed = weights = kv_cache = 0
        for term in terms:  # one pass: the fit table makes a plan for every stage of every layout
            value = term.value
            total += value
            if term.growth is None:
                fixed += value
            if term.part == "weights":
                weights += value
            elif term.part == "kv_cache":
                kv_cache += value
        if not inference:  # training: nothing grows with the context or the batch here
            plans.append(StagePlan(total, fixed, weights, kv_cache, (), 0, 0, (), (), total))
            made[id(terms)] = plans[-1]
            continue
        pieces = tuple(term.growth for term in terms if term.growth is not None)
        by_batch = tuple(term for term in terms if "b" in term.values)
        plans.append(
            StagePlan(
                total=total,
                fixed=fixed,
                weights=weights,
                kv_cache=kv_cache,
                pieces=pieces,
                slope=sum(p * m / q for p, q, m, cap, o in pieces if cap is None or cap / m > o),
                start=sum(p * (m * o if cap is None else min(m * o, cap)) / q for p, q, m, cap, o in pieces),
                events=tuple(
                    sorted(
                        (cap / m - o, p * m / q)
                        for p, q, m, cap, o in pieces
                        if cap is not None and cap / m > o
                    )
                ),
                by_batch=by_batch,
                batch_fixed=total - sum(term.value for term in by_batch),
            )
        )
        made[id(terms)] = plans[-1]
    return tuple(plans)


def bytes_at_batch(plan: StagePlan, batch: int) -> int:
    """The stage's bytes with ``batch`` sequences, every term that has b evaluated at it."""
    return plan.batch_fixed + sum(evaluate(term.expr, {**term.values, "b": batch}) for term in plan.by_batch)
