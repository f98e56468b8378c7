"""Goal-seek: the exact value of one design variable that meets a target, found by search.

The search walks the variable's domain (only values the schema accepts) over the exact
calculator: from the current value it gallops (1, 2, 4, … steps) towards the target until it is
bracketed, then bisects — every step a full, exact evaluation, never a float approximation.
That needs the figure to be monotone in the variable; the direction (rising or falling) is read
from the calculator, and every value the search evaluated is checked to lie on one monotone
curve, so a figure that is not (or a target that no value reaches) ends in a clear error. The
one exception is the fewest GPUs that fit: the memory per GPU is not monotone in the count (61
GPUs, a prime, can only be a 61-stage pipeline), so every count below the one found is tried,
from the least that could hold the model's weights and training states at all.

What "meets" means: a size target (``total``, ``active``, ``flops``) asks for at least the value
(``total=7e9`` → the value whose total is ≥ 7e9 closest to it); a budget (``memory``, ``kv``,
``time``, ``fits``) asks for at most. ``>=`` or ``<=`` instead of ``=`` says it explicitly. The
answer is the meeting value next to the boundary; ``below`` and ``above`` are the neighbouring
allowed values on either side, with their figures.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from pydantic import ValidationError

from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError, one_line
from paramtally.core.explore.domain import Domain
from paramtally.core.explore.figures import Figure, find_figure
from paramtally.core.explore.variables import Variable, find_variable, with_ffn_scaled
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.fit import chosen_layout, fit_setup
from paramtally.core.memory.gpus import GPU, find_gpu
from paramtally.core.memory.scenario import Scenario, with_changes
from paramtally.core.schema import Architecture
from paramtally.core.text import Said, say
from paramtally.core.typed_numbers import parse_quantity

__all__ = ["Point", "Solution", "Target", "figure_target", "fits_target", "parse_target", "solve"]

Op = Literal[">=", "<="]
_TARGET = re.compile(r"^\s*([a-z_]+)\s*(>=|<=|=)\s*(.+?)\s*$")


@dataclass(frozen=True, slots=True)
class Target:
    """``figure op threshold``; for ``fits`` the setup (GPU kind, count or the variant's GPUs)."""

    text: str
    name: str
    op: Op
    threshold: Fraction
    figure: Figure | None = None
    gpu: GPU | None = None
    count: int | None = None


def parse_target(text: str) -> Target:
    """``total=7e9``, ``memory<=80GB``, ``time=30d``, ``fits=h100-sxm-80gb:1`` (or without ``:count``
    when the GPU count is what varies)."""
    match = _TARGET.match(text)
    if not match:
        raise ParamTallyError(
            say("--target: '{text}' is not FIGURE=VALUE (e.g. total=7e9, fits=h100-sxm-80gb:1)", text=text)
        )
    name, op, value = match.groups()
    if name == "fits":
        gpu_id, _, count = value.partition(":")
        if count and (not count.isdigit() or int(count) < 1):
            raise ParamTallyError(say("--target: '{count}' is not a GPU count (fits=GPU:COUNT)", count=count))
        return fits_target(gpu_id, int(count) if count else None)
    return figure_target(name, op, value, f"--target {name}")


def figure_target(name: str, op: str, value: str, what: str) -> Target:
    """A figure at least (``>=``), at most (``<=``) or meeting (``=``: its own sense) ``value``;
    ``what`` names the value in a refusal where it was typed ('--target total' on the command line,
    the figure's title in the window)."""
    figure = find_figure(name)
    threshold = parse_quantity(value, figure.unit, what)
    chosen: Op = ("<=" if figure.budget else ">=") if op == "=" else op  # type: ignore[assignment]
    return Target(f"{name}{op}{value}", name, chosen, threshold, figure=figure)


def fits_target(gpu_id: str, count: int | None = None) -> Target:
    """Fitting ``count`` GPUs of a kind (None: the count is what varies)."""
    gpu = find_gpu(gpu_id)
    text = f"fits={gpu_id}" + (f":{count}" if count is not None else "")
    return Target(text, "fits", "<=", Fraction(gpu.capacity_bytes()), gpu=gpu, count=count)


@dataclass(frozen=True, slots=True)
class Point:
    """One value of the variable with its figures: total and active parameters, and the target's."""

    value: int
    meets: bool
    figure: int | float  # the target's figure (fits: the per-GPU bytes of the layout)
    figures: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"value": self.value, **self.figures, "meets": self.meets}


@dataclass(frozen=True, slots=True)
class Solution:
    field: str
    target: Target
    point: Point
    below: Point | None
    above: Point | None
    evaluations: int
    scale_ffn: bool = False  # the FFN widths followed the hidden size (``with_ffn_scaled``)

    @property
    def value(self) -> int:
        return self.point.value

    def variable(self, arch: Architecture) -> Variable:
        """The variable solved for, writing as it did in the search."""
        return _variable(self.field, arch, self.scale_ffn)

    def variant(
        self, arch: Architecture, scenario: Scenario, value: int | None = None
    ) -> tuple[Architecture, Scenario]:
        """``arch`` and ``scenario`` with the found value (or ``value``, a neighbour's): what applying
        the answer makes. A GPU-setup target also puts the scenario on that setup — its GPU kind and
        count, laid out as the setups table lays it out — where the answer was judged to fit (the
        value alone left GPT-3 on one H100 when the answer was 6 × RTX 3090 at TP=2 × PP=3)."""
        arch, scenario = self.variable(arch).write(arch, scenario, self.value if value is None else value)
        gpu = self.target.gpu
        if gpu is not None:
            on_kind = with_changes(scenario, (("gpu", gpu.id),))
            scenario = chosen_layout(arch, on_kind, self.target.count or scenario.gpus)
        return arch, scenario

    def as_dict(self) -> dict[str, Any]:
        return {
            "field": self.field,
            "target": self.target.text,
            "value": self.value,
            **{key: item for key, item in self.point.as_dict().items() if key != "value"},
            "scale_ffn": self.scale_ffn,
            "below": self.below.as_dict() if self.below else None,
            "above": self.above.as_dict() if self.above else None,
            "evaluations": self.evaluations,
        }


class _Search:
    """The variable's domain and a memo of exact evaluations by index."""

    def __init__(
        self, arch: Architecture, scenario: Scenario, variable: Variable, target: Target, domain: Domain
    ) -> None:
        self.arch, self.scenario, self.variable = arch, scenario, variable
        self.target, self.domain = target, domain
        self.seen: dict[int, Point] = {}

    def __call__(self, index: int) -> Point:
        if index not in self.seen:
            self.seen[index] = self._evaluate(self.domain[index])
        return self.seen[index]

    def _evaluate(self, value: int) -> Point:
        variable = self.variable
        try:
            arch, scenario = variable.write(self.arch, self.scenario, value)
            return _point(arch, scenario, self.target, value)
        except ValidationError as exc:
            if "." in variable.name:  # only the command line names a field by its path
                raise ParamTallyError(
                    say(
                        "{variable} = {value:,}: {reason} (a field path is searched over every whole "
                        "number; --multiple-of narrows it)",
                        variable=variable.words,
                        value=value,
                        reason=one_line(exc),
                    )
                ) from None
            raise ParamTallyError(_refused(variable, value, one_line(exc))) from None
        except ParamTallyError as exc:
            raise ParamTallyError(_refused(variable, value, one_line(exc))) from None


def _refused(variable: Variable, value: int, reason: str) -> Said:
    return say("{variable} = {value:,}: {reason}", variable=variable.words, value=value, reason=reason)


def _point(arch: Architecture, scenario: Scenario, target: Target, value: int) -> Point:
    report = count_parameters(arch)
    figures: dict[str, Any] = {"total": report.total, "active": report.active}
    if target.gpu is not None:
        fit = fit_setup(arch, scenario, target.gpu, target.count or scenario.gpus)
        figures |= {
            "per_gpu_bytes": fit.per_gpu_bytes,
            "capacity_bytes": fit.capacity_bytes,
            "fits": fit.fits,
            "layout": fit.layout,
        }
        return Point(value, fit.fits, fit.per_gpu_bytes, figures)
    assert target.figure is not None
    figure = target.figure.value(arch, scenario)
    figures[target.name] = figure
    meets = figure >= target.threshold if target.op == ">=" else figure <= target.threshold
    return Point(value, meets, figure, figures)


def solve(
    arch: Architecture,
    scenario: Scenario,
    field_name: str,
    target: Target | str,
    multiple_of: int = 1,
    scale_ffn: bool = False,
) -> Solution:
    """The value of ``field_name`` that meets ``target``; ParamTallyError (one line) when none does
    or the figure is not monotone in it. ``scale_ffn``: varying the hidden size, every FFN width
    keeps its ratio to it (``variables.with_ffn_scaled``)."""
    target = parse_target(target) if isinstance(target, str) else target
    variable = _variable(field_name, arch, scale_ffn)
    parallel = target.figure is not None and target.figure.parallel
    current = variable.read(arch, scenario)  # first: a model without the field says so, not its domain
    domain = variable.domain(arch, scenario, multiple_of, parallel=parallel)
    search = _Search(arch, scenario, variable, target, domain)
    start = domain.nearest_index(current)
    rising = _direction(search, start, len(domain))
    # The values meeting the target lie after the boundary (a rising size, a falling budget) or
    # before it (a rising budget, a falling size).
    after = rising == (target.op == ">=")
    index = _boundary(search, start, len(domain), after)
    fewest_gpus = variable.name == "gpus" and target.gpu is not None and after
    if fewest_gpus:
        index = _fewest_gpus(search, index)
    below = search(index - 1) if index > 0 else None
    above = search(index + 1) if index + 1 < len(domain) else None
    if not fewest_gpus:
        _check_monotone(search, rising, after)
    return Solution(variable.name, target, search(index), below, above, len(search.seen), scale_ffn)


def _variable(name: str, arch: Architecture, scale_ffn: bool) -> Variable:
    variable = find_variable(name, arch)
    return with_ffn_scaled(variable) if scale_ffn else variable


def _direction(search: _Search, start: int, size: int) -> bool:
    """Whether the figure rises with the variable: the first value that differs from the start's,
    looking 1, 2, 4, … steps up (then down)."""
    here = search(start).figure
    for sign in (1, -1):
        step, previous = 1, start
        while (index := min(max(start + sign * step, 0), size - 1)) != previous:
            other = search(index).figure
            if other != here:
                return (other > here) == (sign > 0)
            previous, step = index, step * 2
    raise ParamTallyError(
        say(
            "{variable} does not change the {figure} ({here} at {value:,} and on either side)",
            variable=search.variable.words,
            figure=_figure_words(search.target),
            here=_show(here),
            value=search.domain[start],
        )
    )


def _boundary(search: _Search, start: int, size: int, after: bool) -> int:
    """The meeting index next to the boundary: gallop from ``start`` until bracketed, then bisect."""

    def meets(index: int) -> bool:
        return search(index).meets

    # Gallop away from the start's side of the boundary: down when the start already meets a
    # target met after the boundary (or misses one met before it).
    toward_lower = meets(start) == after
    sign = -1 if toward_lower else 1
    step, last, flipped = 1, start, None
    while (index := min(max(start + sign * step, 0), size - 1)) != last:
        if meets(index) != meets(start):
            flipped = index
            break
        last, step = index, step * 2
    if flipped is None:  # the whole way to the domain's end is on the start's side
        if meets(start):
            return last
        raise _unreachable(search, last)
    lo, hi = (flipped, last) if toward_lower else (last, flipped)
    return _bisect(meets, lo, hi, meeting_low=not after)


def _bisect(meets: Callable[[int], bool], lo: int, hi: int, meeting_low: bool = False) -> int:
    """Between a non-meeting ``lo`` and a meeting ``hi`` (or the reverse), the meeting end."""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if meets(mid) != meeting_low:
            hi = mid
        else:
            lo = mid
    return lo if meeting_low else hi


def _fewest_gpus(search: _Search, index: int) -> int:
    """The first fitting count of the domain, where ``index`` fits: each count below it is tried,
    from the least that could fit at all."""
    least = _least_gpus(search, search(index).figures["capacity_bytes"])
    domain = search.domain
    lower = domain.nearest_index(least)
    if domain[lower] < least:
        lower += 1
    return next((at for at in range(lower, index) if search(at).meets), index)


def _least_gpus(search: _Search, capacity: int) -> int:
    """A count below which nothing fits: whatever the layout, the GPUs hold every weight (and, in
    training, its gradient and optimizer states) at least once between them, and each also holds
    the runtime overhead, so the busiest holds at least their share of the states plus it."""
    scenario = search.scenario
    alone = with_changes(scenario, (("tp", 1), ("pp", 1), ("gpus", 1), ("ep", 1), ("virtual_stages", 1)))
    try:
        memory = estimate_memory(search.arch, alone)
    except (ParamTallyError, ValidationError):
        return 1  # no figure to bound it by: every count is tried
    states = memory.weights_bytes + memory.gradients_bytes + memory.optimizer_bytes
    room = capacity - scenario.cuda_context_bytes
    return max(math.ceil(states / room), 1) if room > 0 else 1


def _unreachable(search: _Search, index: int) -> ParamTallyError:
    point, target = search(index), search.target
    end = say("largest") if index else say("smallest")
    if target.gpu is not None:
        return ParamTallyError(
            say(
                "no {variable} fits {gpu}: even the {end} allowed value ({value:,}) needs {bytes:,} "
                "bytes per GPU of {capacity:,}",
                variable=search.variable.words,
                gpu=target.gpu.name,
                end=end,
                value=point.value,
                bytes=point.figure,
                capacity=point.figures["capacity_bytes"],
            )
        )
    return ParamTallyError(
        say(
            "no {variable} meets {figure} {op} {threshold}: the {end} allowed value ({value:,}) "
            "gives {gives}",
            variable=search.variable.words,
            figure=_figure_words(target),
            op=target.op,
            threshold=_show(target.threshold),
            end=end,
            value=point.value,
            gives=_show(point.figure),
        )
    )


def _check_monotone(search: _Search, rising: bool, after: bool) -> None:
    """Every evaluated value must lie on one monotone curve, and the meeting ones on one side."""
    ordered = sorted(search.seen.items())
    name = _figure_words(search.target)
    for (_, a), (_, b) in itertools.pairwise(ordered):
        wrong_way = (b.figure < a.figure) if rising else (b.figure > a.figure)
        flips_back = (a.meets and not b.meets) if after else (b.meets and not a.meets)
        if (wrong_way and search.target.gpu is None) or flips_back:
            raise ParamTallyError(
                say(
                    "{figure} is not monotone in {variable} ({a} at {a_value:,}, {b} at {b_value:,}); "
                    "no single value is the answer",
                    figure=name,
                    variable=search.variable.words,
                    a=_show(a.figure),
                    a_value=a.value,
                    b=_show(b.figure),
                    b_value=b.value,
                )
            )


# Each figure as a sentence names it, said whole so that a window says it in its language.
_FIGURE_WORDS = {
    "total": say("total parameters"),
    "active": say("active parameters"),
    "memory": say("memory per GPU"),
    "kv": say("KV cache per GPU"),
    "flops": say("FLOPs per token"),
    "time": say("training time"),
}


def _figure_words(target: Target) -> str:
    """The target's figure in its title's words ('total parameters', 'memory per GPU')."""
    if target.figure is None:
        return target.name
    return _FIGURE_WORDS[target.figure.name]


def _show(number: int | float | Fraction) -> str:
    if isinstance(number, Fraction) and number.denominator == 1:
        number = int(number)
    if isinstance(number, int):
        return f"{number:,}"
    return f"{float(number):,.6g}"
