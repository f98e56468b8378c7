"""The exact model of a figure over a grid of two design variables, behind ``core.explore.sweep``.

Every cell is the figure ``count``/``memory`` give for that variant. A plain loop over the cells
would build and count thousands of architectures; instead the sweep builds only a few sample
cells (a 6 × 6 tensor at most) and reads the calculator's own terms there: each term is a formula
(``core.terms.formula``) over symbol values — widths, layer counts, context, batch. Those values are
polynomials in the swept fields (a head width h / a is, on the hidden sizes the heads divide;
layers times a block's parameters is), so each is interpolated exactly from a 3 × 3 tensor of
samples and checked against the calculator at every other sample. The term's formula then runs
over the whole grid in exact rational arithmetic (``core.explore.exact_grid``): whatever is not a
polynomial — ``min(s, window)``, a rounded-up byte count, a division by the data-parallel size —
happens inside the formula itself, cell by cell, exactly as the calculator does it. A symbol that
is another term's value (FLOPs per token uses the attention term) is taken from that term's grid.

Where the check fails — a symbol bends inside the grid (the widest layer changes with top-k), a
stage split zig-zags with the layers, the terms themselves change — the grid is split in two
along the axis the failing samples point at, and each half is modelled on its own, down to
regions of a few dozen cells that are evaluated cell by cell with the full calculator. A value
at which the calculator branches (``Variable.singular``: a hidden size equal to a separate
embedding width) has its row or column evaluated in full. ``method`` says what ran: "model",
"mixed" (some cells in full) or "direct" (every cell in full, on request).

What the check does not prove: a symbol that bends twice between the same two samples, or a
branch at a single value that no variable declares, would go unseen. Such symbols are not in the
calculator today as far as the randomized comparisons (tests, and every preset × field pair ×
figure × scenario over thousands of sweeps) have found; the ones they found are declared: the
embedding-width branch, and under a GGUF format the widths its types' blocks divide differently
(``_odd_row_lengths``).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray
from pydantic import ValidationError

from paramtally.core.errors import ParamTallyError
from paramtally.core.explore.exact_grid import Grid, Value, ceil, interpolate, namespace, narrow
from paramtally.core.explore.figures import SECONDS_PER_DAY, Figure
from paramtally.core.explore.variables import Variable, variant
from paramtally.core.memory.flops import estimate_flops
from paramtally.core.memory.gguf_types import GGUF_DEFAULT_TYPES, row_blocks
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema import Architecture
from paramtally.core.terms.formula import compiled
from paramtally.core.terms.term import Term

__all__ = [
    "Array",
    "Axis",
    "Cell",
    "Cells",
    "Layout",
    "Method",
    "NotPolynomial",
    "Region",
    "Stats",
    "figure_grid",
    "piecewise",
    "singular",
]

Array = NDArray[Any]
# How the values were made: all from the model, some regions cell by cell, or all cell by cell.
Method = Literal["model", "mixed", "direct"]
Cell = tuple[int, int]  # (x index, y index)
_CANDIDATES = 6  # sample indices per axis: 3 to interpolate from, the rest to check against


@dataclass(frozen=True, slots=True)
class Axis:
    """A swept field and its values, in order."""

    name: str
    values: tuple[int, ...]

    @property
    def coords(self) -> tuple[int, ...]:
        """Where interpolation places each value: its index when the values step evenly (smaller
        numbers, the same polynomial), the value itself otherwise."""
        steps = {b - a for a, b in itertools.pairwise(self.values)}
        return tuple(range(len(self.values))) if len(steps) <= 1 else self.values


class NotPolynomial(Exception):
    """The sampled terms are not polynomials on this region; ``axis`` ("x", "y") is the one
    along which they are not, when the failing samples tell."""

    def __init__(self, message: str, axis: str | None = None) -> None:
        super().__init__(message)
        self.axis = axis


class Cells:
    """The grid's variants, each architecture and each scenario built (validated) at most once: a
    field of the scenario swept against one of the architecture shares the architectures."""

    def __init__(
        self, arch: Architecture, scenario: Scenario, x: tuple[Variable, Axis], y: tuple[Variable, Axis]
    ) -> None:
        self.arch, self.scenario, self.x, self.y = arch, scenario, x, y
        self.shape = (len(y[1].values), len(x[1].values))
        self._archs: dict[tuple[int, ...], Architecture] = {}
        self._scenarios: dict[tuple[int, ...], Scenario] = {}
        self.built = 0  # variants the calculator was asked about

    def variant(self, cell: Cell, counted: bool = True) -> tuple[Architecture, Scenario]:
        """The cell's variant; ``counted``: one the calculator is asked about (not only its layout)."""
        (xv, x), (yv, y) = self.x, self.y
        assignments = ((xv, x.values[cell[0]]), (yv, y.values[cell[1]]))
        on_arch = tuple((v, value) for v, value in assignments if not v.on_scenario)
        on_scenario = tuple((v, value) for v, value in assignments if v.on_scenario)
        arch_key, scenario_key = (
            tuple(value for _, value in on_arch),
            tuple(value for _, value in on_scenario),
        )
        if arch_key not in self._archs:
            self._archs[arch_key] = variant(self.arch, self.scenario, on_arch)[0]
        if scenario_key not in self._scenarios:
            self._scenarios[scenario_key] = variant(self.arch, self.scenario, on_scenario)[1]
        self.built += counted
        return self._archs[arch_key], self._scenarios[scenario_key]


@dataclass(frozen=True, slots=True)
class Region:
    """A rectangle of the grid: x indices ``xs`` by y indices ``ys`` (local cells count from 0)."""

    cells: Cells
    xs: range
    ys: range

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.ys), len(self.xs)

    def variant(self, cell: Cell) -> tuple[Architecture, Scenario]:
        return self.cells.variant((self.xs[cell[0]], self.ys[cell[1]]))

    def coords(self) -> tuple[list[int], list[int]]:
        x, y = self.cells.x[1].coords, self.cells.y[1].coords
        return [x[i] for i in self.xs], [y[j] for j in self.ys]

    def halves(self, axis: str | None) -> tuple[Region, Region]:
        """Split along ``axis`` (when it can be split), else across the longer side."""
        split_x = {"x": len(self.xs) > 1, "y": len(self.ys) <= 1}.get(
            axis or "", len(self.xs) >= len(self.ys)
        )
        if split_x:
            middle = len(self.xs) // 2
            return Region(self.cells, self.xs[:middle], self.ys), Region(
                self.cells, self.xs[middle:], self.ys
            )
        middle = len(self.ys) // 2
        return Region(self.cells, self.xs, self.ys[:middle]), Region(self.cells, self.xs, self.ys[middle:])


_SMALLEST = 48  # cells below which a region that is not polynomial is evaluated cell by cell
Layout = Callable[[Scenario], Scenario]


@dataclass
class Stats:
    """How a grid was made: regions modelled, cells evaluated one by one, and why."""

    pieces: int = 0
    direct: int = 0
    reasons: list[str] = field(default_factory=list)

    @property
    def method(self) -> Method:
        return "direct" if not self.pieces else "mixed" if self.direct else "model"


def figure_grid(cells: Cells, valid: Array, figure: Figure, direct: bool) -> tuple[Array, Stats]:
    whole = Region(cells, range(cells.shape[1]), range(cells.shape[0]))
    stats = Stats()
    if direct:
        stats.reasons.append("asked for")
        return _direct(whole, valid, figure, _same, stats), stats
    single = singular(cells) & valid
    modelled = valid & ~single
    values = piecewise(whole, modelled, figure, _same, stats)
    valid &= modelled | single  # the cells the calculator refused on the way are out
    if single.any():
        values = values.astype(np.float64 if figure.unit == "days" else object)
        for j, i in zip(*np.nonzero(single), strict=True):
            cell = Region(cells, range(int(i), int(i) + 1), range(int(j), int(j) + 1))
            values[j, i] = _direct(cell, valid, figure, _same, stats)[0, 0]
    return values, stats


def singular(cells: Cells) -> Array:
    """The rows and columns at a value where the calculator branches (``Variable.singular``):
    a figure jumps there alone, so no polynomial holds it; those cells are evaluated in full."""
    (xv, x), (yv, y) = cells.x, cells.y
    x_singular, y_singular = xv.singular(cells.arch), yv.singular(cells.arch)
    in_x = np.array([value in x_singular for value in x.values], dtype=bool)
    in_y = np.array([value in y_singular for value in y.values], dtype=bool)
    in_x |= _odd_row_lengths(xv.name, x.values, cells.scenario)
    in_y |= _odd_row_lengths(yv.name, y.values, cells.scenario)
    mask: Array = in_y[:, None] | in_x[None, :]
    return mask


# Variables that never set the length of a weight matrix's rows (they set how many rows or tensors).
_COUNTS = frozenset(
    {"num_layers", "encoder_layers", "num_experts", "top_k", "vocab_size", "context", "batch", "gpus"}
)


def _odd_row_lengths(name: str, values: Sequence[int], scenario: Scenario) -> Array:
    """Under a GGUF format a tensor whose row length its type's block does not divide falls back to
    another type (llama.cpp), so the bytes jump between widths that the blocks divide differently.
    The axis's values outside its most common divisibility class are evaluated in full; the rest,
    all of one class, keep one type per tensor and so a polynomial."""
    odd = np.zeros(len(values), dtype=bool)
    if scenario.quant not in GGUF_DEFAULT_TYPES or name in _COUNTS:
        return odd
    blocks = row_blocks()
    classes = [tuple(value % block == 0 for block in blocks) for value in values]
    common = Counter(classes).most_common(1)[0][0]
    odd[:] = [one != common for one in classes]
    return odd


def _same(scenario: Scenario) -> Scenario:
    return scenario


def piecewise(region: Region, valid: Array, figure: Figure, layout: Layout, stats: Stats) -> Array:
    """The model over ``region``; where it is not polynomial, over each half, down to regions so
    small that every cell is evaluated in full. ``valid`` (the whole grid's) loses the cells the
    calculator refuses."""
    local = valid[region.ys.start : region.ys.stop, region.xs.start : region.xs.stop]
    try:
        values = _model(region, local, figure, layout)
        stats.pieces += 1
        return values
    except NotPolynomial as exc:
        if local.sum() <= _SMALLEST or max(region.shape) == 1:
            stats.reasons.append(str(exc))
            return _direct(region, valid, figure, layout, stats)
        axis = exc.axis
    first, second = region.halves(axis)
    parts = [piecewise(half, valid, figure, layout, stats) for half in (first, second)]
    dtype = (
        np.float64
        if figure.unit == "days"
        else (object if any(p.dtype == object for p in parts) else np.int64)
    )
    return np.concatenate([p.astype(dtype) for p in parts], axis=1 if len(first.xs) < len(region.xs) else 0)


def _direct(region: Region, valid: Array, figure: Figure, layout: Layout, stats: Stats) -> Array:
    """Every valid cell of ``region`` with the full calculator (a cell it refuses becomes invalid)."""
    values = np.zeros(region.shape, dtype=np.float64 if figure.unit == "days" else object)
    x0, y0 = region.xs.start, region.ys.start
    for j in range(region.shape[0]):
        for i in range(region.shape[1]):
            if not valid[y0 + j, x0 + i]:
                continue
            stats.direct += 1
            try:
                arch, scenario = region.variant((i, j))
                values[j, i] = figure.value(arch, layout(scenario))
            except (ValidationError, ParamTallyError):
                valid[y0 + j, x0 + i] = False
    return values


def _candidates(valid_indices: Sequence[int]) -> list[int]:
    """Up to six indices spread evenly over the valid ones, both ends included."""
    n = len(valid_indices)
    if n <= _CANDIDATES:
        return list(valid_indices)
    picks = sorted({round(k * (n - 1) / (_CANDIDATES - 1)) for k in range(_CANDIDATES)})
    return [valid_indices[p] for p in picks]


def _triples(candidates: list[int]) -> list[tuple[int, ...]]:
    """Node choices for interpolation, the widest spread (first, middle, last) first."""
    if len(candidates) <= 3:
        return [tuple(candidates)]
    best = (candidates[0], candidates[len(candidates) // 2], candidates[-1])
    return [best, *(combo for combo in itertools.combinations(candidates, 3) if combo != best)]


def _samples(valid: Array) -> tuple[list[int], list[int], list[Cell]]:
    """Interpolation nodes (x, y) whose whole tensor is valid, and the other sampled cells."""
    xs = _candidates([int(i) for i in np.nonzero(valid.any(axis=0))[0]])
    ys = _candidates([int(j) for j in np.nonzero(valid.any(axis=1))[0]])
    # The candidates' validity as Python lists: hundreds of node choices are tried on a sparse grid.
    rows = {
        j: dict(zip(xs, row, strict=True)) for j, row in zip(ys, valid[np.ix_(ys, xs)].tolist(), strict=True)
    }
    for x_nodes, y_nodes in itertools.product(_triples(xs), _triples(ys)):
        if all(rows[j][i] for j in y_nodes for i in x_nodes):
            fit = {(i, j) for i in x_nodes for j in y_nodes}
            checks = [(i, j) for i in xs for j in ys if valid[j, i] and (i, j) not in fit]
            return list(x_nodes), list(y_nodes), checks
    raise NotPolynomial("no full tensor of valid sample cells")


@dataclass(frozen=True, slots=True)
class _Sample:
    cell: Cell  # local to the region
    terms: tuple[tuple[Term, ...], ...]  # per stage
    value: int | float  # the figure, from the calculator
    scenario: Scenario
    arch: Architecture


def _model(region: Region, valid: Array, figure: Figure, layout: Layout) -> Array:
    """The figure's terms interpolated from samples and evaluated over ``region`` (see the module)."""
    if not valid.any():
        return np.zeros(region.shape, dtype=np.float64 if figure.unit == "days" else np.int64)
    x_nodes, y_nodes, checks = _samples(valid)
    sampled = [(i, j) for i in x_nodes for j in y_nodes] + checks
    samples: list[_Sample] = []
    for cell in sampled:
        try:
            arch, scenario = region.variant(cell)
            scenario = layout(scenario)
            samples.append(
                _Sample(cell, figure.terms(arch, scenario), figure.value(arch, scenario), scenario, arch)
            )
        except (ValidationError, ParamTallyError) as exc:
            raise NotPolynomial(f"sample {cell} refused: {exc}") from None
    shape = _structure(samples[0])
    if any(_structure(sample) != shape for sample in samples):
        raise NotPolynomial("the terms change across the grid")
    fit = {(i, j): (a, b) for a, i in enumerate(x_nodes) for b, j in enumerate(y_nodes)}
    grids = _term_grids(region, samples, fit, (x_nodes, y_nodes))
    result = _combine(figure, grids, samples[0], region)
    for sample in samples:
        i, j = sample.cell
        if result[j, i] != sample.value:
            raise NotPolynomial(f"the figure at sample {sample.cell} differs from the calculator's")
    return result


def _structure(sample: _Sample) -> tuple[tuple[tuple[str, str, tuple[str, ...]], ...], ...]:
    return tuple(tuple((t.name, t.expr, tuple(t.values)) for t in stage) for stage in sample.terms)


def _term_grids(
    region: Region,
    samples: list[_Sample],
    fit: dict[Cell, tuple[int, int]],
    nodes: tuple[list[int], list[int]],
) -> list[list[Array]]:
    """Each term's whole-number value at every cell, stage by stage."""
    x_coords, y_coords = region.coords()
    places = ([x_coords[i] for i in nodes[0]], x_coords, [y_coords[j] for j in nodes[1]], y_coords)
    earlier: list[tuple[list[int | float], Array]] = []  # (values at the samples, grid) of terms done
    grids: list[list[Array]] = []
    for k, stage in enumerate(samples[0].terms):
        stage_grids = []
        for t, term in enumerate(stage):
            symbols: dict[str, Value] = {}
            for name in term.values:
                seen = [sample.terms[k][t].values[name] for sample in samples]
                symbols[name] = _symbol_grid(seen, samples, fit, earlier, places)
            grid = ceil(eval(compiled(term.expr), namespace(), symbols), region.shape)
            at_samples = [sample.terms[k][t].value for sample in samples]
            if any(grid[s.cell[1], s.cell[0]] != v for s, v in zip(samples, at_samples, strict=True)):
                raise NotPolynomial(f"term '{term.name}' differs from the calculator at a sample")
            earlier.append((list(at_samples), grid))
            stage_grids.append(grid)
        grids.append(stage_grids)
    return grids


def _symbol_grid(
    seen: list[Any],
    samples: list[_Sample],
    fit: dict[Cell, tuple[int, int]],
    earlier: list[tuple[list[int | float], Array]],
    places: tuple[list[int], list[int], list[int], list[int]],
) -> Value:
    """A symbol's value over the grid: a constant, an earlier term's grid, or its polynomial."""
    if all(value == seen[0] for value in seen):
        return Fraction(seen[0]) if isinstance(seen[0], Fraction) else int(seen[0])
    for values, done in earlier:
        if values == seen:
            return Grid(done)
    x_nodes, x_coords, y_nodes, y_coords = places
    table: list[list[Fraction]] = [[Fraction(0)] * len(y_nodes) for _ in x_nodes]
    for sample, value in zip(samples, seen, strict=True):
        if sample.cell in fit:
            a, b = fit[sample.cell]
            table[a][b] = Fraction(value)
    grid = interpolate(table, x_nodes, x_coords, y_nodes, y_coords)
    wrong = [
        sample.cell
        for sample, value in zip(samples, seen, strict=True)
        if not grid.equals(sample.cell[::-1], value)
    ]
    if wrong:
        # On a node's column only y was interpolated, on a node's row only x.
        node_columns = {i for (i, j) in fit}
        node_rows = {j for (i, j) in fit}
        in_y = any(i in node_columns for i, _ in wrong)
        in_x = any(j in node_rows for _, j in wrong)
        raise NotPolynomial(
            "a symbol is not a polynomial in the swept fields",
            "y" if in_y and not in_x else "x" if in_x and not in_y else None,
        )
    if all(isinstance(value, int) for value in seen):
        if (grid.num % grid.den != 0).any():
            raise NotPolynomial("a whole-number symbol interpolates to fractions")
        return Grid(narrow(grid.num // grid.den))
    return grid


def _combine(figure: Figure, grids: list[list[Array]], first: _Sample, region: Region) -> Array:
    """The figure from its terms' grids, as the calculator makes it from the terms."""
    if figure.combine == "only":
        return grids[0][0]
    if figure.combine in ("busiest", "busiest_kv"):
        totals = [_sum(stage, region.shape) for stage in grids]
        total = totals[0]
        for other in totals[1:]:
            total = np.maximum(total, other)
        if figure.combine == "busiest":
            return total
        stacked = np.stack([t.astype(object) for t in totals]) if total.dtype == object else np.stack(totals)
        busiest = np.argmax(stacked, axis=0)
        kv = [
            _sum(
                [g for g, term in zip(stage, first.terms[k], strict=True) if term.part == "kv_cache"],
                region.shape,
            )
            for k, stage in enumerate(grids)
        ]
        chosen: Array = np.choose(busiest, kv)
        return chosen
    names = [term.name for term in first.terms[0]]
    if figure.combine == "forward":
        return grids[0][names.index("forward per token (prefill)")]
    run = grids[0][names.index("run with attention")]
    flops = estimate_flops(first.arch, first.scenario)
    runs = (
        run.astype(np.float64)
        if run.dtype != object
        else np.array([float(v) for v in run.flat]).reshape(run.shape)
    )
    result: Array = (
        runs / (_gpus(region, first.scenario.gpus) * flops.peak_flops * first.scenario.mfu) / SECONDS_PER_DAY
    )
    return result


def _gpus(region: Region, default: int) -> Array | float:
    """The GPU count of every cell (the scenario's, unless it is swept)."""
    (xv, _), (yv, _) = region.cells.x, region.cells.y
    x_values, y_values = region.cells.x[1].values, region.cells.y[1].values
    if xv.name == "gpus":
        return np.tile(np.array([x_values[i] for i in region.xs], dtype=np.float64), (region.shape[0], 1))
    if yv.name == "gpus":
        column = np.array([y_values[j] for j in region.ys], dtype=np.float64)[:, None]
        return np.tile(column, (1, region.shape[1]))
    return float(default)


def _sum(grids: list[Array], shape: tuple[int, int]) -> Array:
    """Exact sums (int64 only while they cannot overflow)."""
    if not grids:
        return np.zeros(shape, dtype=np.int64)
    total: Value = Grid(grids[0])
    for grid in grids[1:]:
        total = total + Grid(grid)
    return ceil(total, shape)
