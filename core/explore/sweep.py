"""The design space: one figure over a grid of two design variables, exact in every cell and fast.

Every cell is the figure ``count``/``memory`` give for that variant. A plain loop over the cells
would build and count thousands of architectures; instead the sweep builds only a few sample
cells (a 6 × 6 tensor at most) and reads the calculator's own terms there: each term is a formula
(``core.formula``) over symbol values — widths, layer counts, context, batch. Those values are
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
figure × scenario over thousands of sweeps) have found; the one they found, the embedding-width
branch, is declared.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray
from pydantic import ValidationError

from paramtally.core.errors import ParamTallyError
from paramtally.core.explore.exact_grid import Grid, Value, ceil, interpolate, namespace, narrow
from paramtally.core.explore.figures import SECONDS_PER_DAY, Figure, find_figure
from paramtally.core.explore.solve import parse_target
from paramtally.core.explore.variables import Variable, find_variable, variant
from paramtally.core.fit import fit_setup, setup_layouts
from paramtally.core.flops import estimate_flops
from paramtally.core.formula import compiled
from paramtally.core.gpus import GPU
from paramtally.core.scenario import Scenario
from paramtally.core.schema import Architecture
from paramtally.core.terms import Term

__all__ = ["MAX_AXIS", "MAX_CELLS", "Axis", "Sweep", "parse_axis", "sweep"]

Array = NDArray[Any]
# How the values were made: all from the model, some regions cell by cell, or all cell by cell.
Method = Literal["model", "mixed", "direct"]
Cell = tuple[int, int]  # (x index, y index)
MAX_AXIS = 1024
MAX_CELLS = 1 << 18
_CANDIDATES = 6  # sample indices per axis: 3 to interpolate from, the rest to check against
_AXIS = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.+?)\s*$")
# Axes that change which parallel layouts a setup tries (valid tensor-parallel sizes, stages).
_LAYOUT_AXES = frozenset({"num_layers", "encoder_layers", "num_heads", "num_kv_heads", "gpus"})


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


def parse_axis(text: str, flag: str = "--x") -> Axis:
    """``hidden_size=2048:8192:256`` (first:last:step, last included), ``top_k=1:8`` or
    ``num_layers=16,32,48``."""
    match = _AXIS.match(text)
    if not match:
        raise ParamTallyError(f"{flag}: '{text}' is not FIELD=FIRST:LAST:STEP or FIELD=V1,V2,…")
    name, spec = match.groups()
    try:
        if ":" in spec:
            parts = [int(part.replace("_", "")) for part in spec.split(":")]
            if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] < 1) or parts[1] < parts[0]:
                raise ValueError(spec)
            first, last, step = (*parts, 1) if len(parts) == 2 else parts
            if (last - first) // step + 1 > MAX_AXIS:
                raise ParamTallyError(f"{flag}: {name} would have more than {MAX_AXIS} values")
            values = tuple(range(first, last + 1, step))
        else:
            values = tuple(sorted({int(part.replace("_", "")) for part in spec.split(",")}))
    except ValueError:
        raise ParamTallyError(
            f"{flag}: '{spec}' is not FIRST:LAST:STEP (whole numbers, FIRST ≤ LAST, STEP ≥ 1) nor a list"
        ) from None
    if not values or len(values) > MAX_AXIS:
        raise ParamTallyError(f"{flag}: {name} needs 1 to {MAX_AXIS} values")
    return Axis(name, values)


@dataclass(frozen=True)
class Sweep:
    """A figure over (y, x): ``values[j, i]`` is the figure at x.values[i], y.values[j]."""

    x: Axis
    y: Axis
    figure: Figure
    values: Array  # ints (int64, or Python ints where large) or floats (days); 0 where invalid
    valid: Array  # bool: the cell is a variant the schema (and the scenario) accepts
    method: Method
    evaluations: int  # variants the full calculator evaluated
    pieces: int = 1  # regions the model covers (a grid the model cannot cover whole is split)
    reason: str = ""  # why some cells were evaluated one by one
    setup: str = ""  # "gpu:count" of ``fits``
    fits: Array | None = None  # bool per cell: the variant fits the setup
    arch: Architecture | None = None  # what was swept
    scenario: Scenario | None = None

    def value(self, ix: int, iy: int) -> int | float | None:
        if not self.valid[iy, ix]:
            return None
        value = self.values[iy, ix]
        return float(value) if self.figure.unit == "days" else int(value)

    def floats(self) -> Array:
        """The values as floats, NaN where no variant is (what a heatmap draws)."""
        if self.values.dtype == object:
            result = np.array([float(v) for v in self.values.flat], dtype=np.float64).reshape(
                self.values.shape
            )
        else:
            result = self.values.astype(np.float64)
        result[~self.valid] = np.nan
        return result

    def variant(self, ix: int, iy: int) -> tuple[Architecture, Scenario]:
        """The architecture and scenario of a cell (what clicking it loads)."""
        assert self.arch is not None and self.scenario is not None
        x, y = find_variable(self.x.name, self.arch), find_variable(self.y.name, self.arch)
        return variant(self.arch, self.scenario, ((x, self.x.values[ix]), (y, self.y.values[iy])))

    def crossings(self, level: Fraction | float) -> list[tuple[Cell, Cell]]:
        """Neighbouring valid cells on either side of ``level`` (one below it, one at or above)."""
        return _edges(self.values >= level, self.valid)

    def boundary(self) -> list[tuple[Cell, Cell]]:
        """Neighbouring valid cells of which one fits the setup and the other does not."""
        if self.fits is None:
            return []
        return _edges(self.fits, self.valid)


def _edges(side: Array, valid: Array) -> list[tuple[Cell, Cell]]:
    side = side.astype(bool)
    across = valid[:, :-1] & valid[:, 1:] & (side[:, :-1] != side[:, 1:])
    down = valid[:-1, :] & valid[1:, :] & (side[:-1, :] != side[1:, :])
    pairs = [((int(i), int(j)), (int(i) + 1, int(j))) for j, i in zip(*np.nonzero(across), strict=True)]
    pairs += [((int(i), int(j)), (int(i), int(j) + 1)) for j, i in zip(*np.nonzero(down), strict=True)]
    return sorted(pairs)


class _NotPolynomial(Exception):
    """The sampled terms are not polynomials on this region; ``axis`` ("x", "y") is the one
    along which they are not, when the failing samples tell."""

    def __init__(self, message: str, axis: str | None = None) -> None:
        super().__init__(message)
        self.axis = axis


class _Cells:
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

    def variant(self, cell: Cell) -> tuple[Architecture, Scenario]:
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
        self.built += 1
        return self._archs[arch_key], self._scenarios[scenario_key]


def sweep(
    arch: Architecture,
    scenario: Scenario,
    x: Axis | str,
    y: Axis | str,
    figure: Figure | str,
    setup: str | None = None,
    direct: bool = False,
) -> Sweep:
    """``figure`` at every (x, y) variant of ``arch`` under ``scenario``; with ``setup``
    ("gpu:count") also whether each fits there. ``direct`` evaluates every cell in full."""
    for text in (x, y):  # an unknown field is named before its values are read
        if isinstance(text, str) and (match := _AXIS.match(text)):
            find_variable(match.group(1), arch)
    x_axis = parse_axis(x, "--x") if isinstance(x, str) else x
    y_axis = parse_axis(y, "--y") if isinstance(y, str) else y
    figure = find_figure(figure) if isinstance(figure, str) else figure
    xv, yv = find_variable(x_axis.name, arch), find_variable(y_axis.name, arch)
    if xv.name == yv.name:
        raise ParamTallyError(f"--y: {yv.name} is already the x axis")
    if len(x_axis.values) * len(y_axis.values) > MAX_CELLS:
        raise ParamTallyError(f"a sweep may hold at most {MAX_CELLS:,} cells")
    xv.read(arch, scenario), yv.read(arch, scenario)  # a field the model lacks is said here
    cells = _Cells(arch, scenario, (xv, x_axis), (yv, y_axis))
    valid = _validity(cells, figure.parallel)
    values, stats = _figure_grid(cells, valid, figure, direct)
    fits = None
    if setup is not None:
        target = parse_target(f"fits={setup}")
        assert target.gpu is not None
        if target.count is None:
            raise ParamTallyError(f"--fits: '{setup}' needs a GPU count (GPU:COUNT)")
        fits = _fits_grid(cells, valid, target.gpu, target.count, direct) & valid
    return Sweep(
        x_axis, y_axis, figure, values, valid, stats.method, cells.built, stats.pieces,
        "; ".join(dict.fromkeys(stats.reasons)), setup or "", fits, arch, scenario,
    )  # fmt: skip


# --- which cells are variants at all ---------------------------------------------------------


def _validity(cells: _Cells, parallel: bool) -> Array:
    """The cells whose two values the variables' domains allow together."""
    (xv, x), (yv, y) = cells.x, cells.y
    arch, scenario = cells.arch, cells.scenario
    coupled = yv.name in xv.couples or xv.name in yv.couples
    if not coupled:
        x_domain = xv.domain(arch, scenario, parallel=parallel)
        y_domain = yv.domain(arch, scenario, parallel=parallel)
        in_x = np.array([value in x_domain for value in x.values])
        in_y = np.array([value in y_domain for value in y.values])
        result: Array = np.outer(in_y, in_x)
        return result
    valid = np.zeros(cells.shape, dtype=bool)
    for j, y_value in enumerate(y.values):
        domain = _domain_or_none(xv, arch, scenario, {yv.name: y_value}, parallel)
        if domain is not None:
            valid[j] = [value in domain for value in x.values]
    for i, x_value in enumerate(x.values):
        domain = _domain_or_none(yv, arch, scenario, {xv.name: x_value}, parallel)
        column = [domain is not None and value in domain for value in y.values]
        valid[:, i] &= np.array(column, dtype=bool)
    return valid


def _domain_or_none(
    variable: Variable, arch: Architecture, scenario: Scenario, others: dict[str, int], parallel: bool
) -> Any:
    try:
        return variable.domain(arch, scenario, 1, others, parallel)
    except ParamTallyError:
        return None


# --- the figure over the grid ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Region:
    """A rectangle of the grid: x indices ``xs`` by y indices ``ys`` (local cells count from 0)."""

    cells: _Cells
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

    def halves(self, axis: str | None) -> tuple[_Region, _Region]:
        """Split along ``axis`` (when it can be split), else across the longer side."""
        split_x = {"x": len(self.xs) > 1, "y": len(self.ys) <= 1}.get(
            axis or "", len(self.xs) >= len(self.ys)
        )
        if split_x:
            middle = len(self.xs) // 2
            return _Region(self.cells, self.xs[:middle], self.ys), _Region(
                self.cells, self.xs[middle:], self.ys
            )
        middle = len(self.ys) // 2
        return _Region(self.cells, self.xs, self.ys[:middle]), _Region(self.cells, self.xs, self.ys[middle:])


_SMALLEST = 48  # cells below which a region that is not polynomial is evaluated cell by cell
Layout = Callable[[Scenario], Scenario]


@dataclass
class _Stats:
    """How a grid was made: regions modelled, cells evaluated one by one, and why."""

    pieces: int = 0
    direct: int = 0
    reasons: list[str] = field(default_factory=list)

    @property
    def method(self) -> Method:
        return "direct" if not self.pieces else "mixed" if self.direct else "model"


def _figure_grid(cells: _Cells, valid: Array, figure: Figure, direct: bool) -> tuple[Array, _Stats]:
    whole = _Region(cells, range(cells.shape[1]), range(cells.shape[0]))
    stats = _Stats()
    if direct:
        stats.reasons.append("asked for")
        return _direct(whole, valid, figure, _same, stats), stats
    single = _singular(cells) & valid
    modelled = valid & ~single
    values = _piecewise(whole, modelled, figure, _same, stats)
    valid &= modelled | single  # the cells the calculator refused on the way are out
    if single.any():
        values = values.astype(np.float64 if figure.unit == "days" else object)
        for j, i in zip(*np.nonzero(single), strict=True):
            cell = _Region(cells, range(int(i), int(i) + 1), range(int(j), int(j) + 1))
            values[j, i] = _direct(cell, valid, figure, _same, stats)[0, 0]
    return values, stats


def _singular(cells: _Cells) -> Array:
    """The rows and columns at a value where the calculator branches (``Variable.singular``):
    a figure jumps there alone, so no polynomial holds it; those cells are evaluated in full."""
    mask = np.zeros(cells.shape, dtype=bool)
    (xv, x), (yv, y) = cells.x, cells.y
    for i, value in enumerate(x.values):
        mask[:, i] |= value in xv.singular(cells.arch)
    for j, value in enumerate(y.values):
        mask[j, :] |= value in yv.singular(cells.arch)
    return mask


def _same(scenario: Scenario) -> Scenario:
    return scenario


def _piecewise(region: _Region, valid: Array, figure: Figure, layout: Layout, stats: _Stats) -> Array:
    """The model over ``region``; where it is not polynomial, over each half, down to regions so
    small that every cell is evaluated in full. ``valid`` (the whole grid's) loses the cells the
    calculator refuses."""
    local = valid[region.ys.start : region.ys.stop, region.xs.start : region.xs.stop]
    try:
        values = _model(region, local, figure, layout)
        stats.pieces += 1
        return values
    except _NotPolynomial as exc:
        if local.sum() <= _SMALLEST or max(region.shape) == 1:
            stats.reasons.append(str(exc))
            return _direct(region, valid, figure, layout, stats)
        axis = exc.axis
    first, second = region.halves(axis)
    parts = [_piecewise(half, valid, figure, layout, stats) for half in (first, second)]
    dtype = (
        np.float64
        if figure.unit == "days"
        else (object if any(p.dtype == object for p in parts) else np.int64)
    )
    return np.concatenate([p.astype(dtype) for p in parts], axis=1 if len(first.xs) < len(region.xs) else 0)


def _direct(region: _Region, valid: Array, figure: Figure, layout: Layout, stats: _Stats) -> Array:
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
    for x_nodes, y_nodes in itertools.product(_triples(xs), _triples(ys)):
        if valid[np.ix_(y_nodes, x_nodes)].all():
            fit = {(i, j) for i in x_nodes for j in y_nodes}
            checks = [(i, j) for i in xs for j in ys if valid[j, i] and (i, j) not in fit]
            return list(x_nodes), list(y_nodes), checks
    raise _NotPolynomial("no full tensor of valid sample cells")


@dataclass(frozen=True, slots=True)
class _Sample:
    cell: Cell  # local to the region
    terms: tuple[tuple[Term, ...], ...]  # per stage
    value: int | float  # the figure, from the calculator
    scenario: Scenario
    arch: Architecture


def _model(region: _Region, valid: Array, figure: Figure, layout: Layout) -> Array:
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
            raise _NotPolynomial(f"sample {cell} refused: {exc}") from None
    shape = _structure(samples[0])
    if any(_structure(sample) != shape for sample in samples):
        raise _NotPolynomial("the terms change across the grid")
    fit = {(i, j): (a, b) for a, i in enumerate(x_nodes) for b, j in enumerate(y_nodes)}
    grids = _term_grids(region, samples, fit, (x_nodes, y_nodes))
    result = _combine(figure, grids, samples[0], region)
    for sample in samples:
        i, j = sample.cell
        if result[j, i] != sample.value:
            raise _NotPolynomial(f"the figure at sample {sample.cell} differs from the calculator's")
    return result


def _structure(sample: _Sample) -> tuple[tuple[tuple[str, str, tuple[str, ...]], ...], ...]:
    return tuple(tuple((t.name, t.expr, tuple(t.values)) for t in stage) for stage in sample.terms)


def _term_grids(
    region: _Region,
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
                raise _NotPolynomial(f"term '{term.name}' differs from the calculator at a sample")
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
        raise _NotPolynomial(
            "a symbol is not a polynomial in the swept fields",
            "y" if in_y and not in_x else "x" if in_x and not in_y else None,
        )
    if all(isinstance(value, int) for value in seen):
        if (grid.num % grid.den != 0).any():
            raise _NotPolynomial("a whole-number symbol interpolates to fractions")
        return Grid(narrow(grid.num // grid.den))
    return grid


def _combine(figure: Figure, grids: list[list[Array]], first: _Sample, region: _Region) -> Array:
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
        return grids[0][names.index("forward per token")]
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


def _gpus(region: _Region, default: int) -> Array | float:
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


# --- fits a setup ----------------------------------------------------------------------------


def _fits_grid(cells: _Cells, valid: Array, gpu: GPU, count: int, direct: bool) -> Array:
    """Whether each variant fits ``count`` GPUs of ``gpu``, as ``fit_setup`` judges it: some layout
    it tries keeps the busiest GPU within the capacity."""
    names = {cells.x[0].name, cells.y[0].name}
    fixed_layouts = count == 1 or not (names & _LAYOUT_AXES or any("." in name for name in names))
    fits = np.zeros(cells.shape, dtype=bool)
    rest = valid
    if not direct and fixed_layouts:
        rest = _singular(cells) & valid
        fits = _fits_model(cells, valid & ~rest, gpu, count)
    for j, i in zip(*np.nonzero(rest), strict=True):
        try:
            arch, scenario = cells.variant((int(i), int(j)))
            fits[j, i] = fit_setup(arch, scenario, gpu, count).fits
        except (ValidationError, ParamTallyError):
            fits[j, i] = False
    return fits


def _fits_model(cells: _Cells, valid: Array, gpu: GPU, count: int) -> Array:
    capacity = gpu.capacity_bytes(cells.scenario.utilization_cap)
    layouts = _distinct_layouts(setup_layouts(cells.arch, cells.scenario, count))
    memory = find_figure("memory")
    fits = np.zeros(cells.shape, dtype=bool)
    whole = _Region(cells, range(cells.shape[1]), range(cells.shape[0]))
    for tp, pp, gpus, zero in layouts:

        def laid_out(s: Scenario, tp: int = tp, pp: int = pp, gpus: int = gpus, zero: int = zero) -> Scenario:
            return s.model_copy(update={"tp": tp, "pp": pp, "gpus": gpus, "zero": zero})

        usable = valid.copy()  # loses the cells this layout cannot split
        per_gpu = _piecewise(whole, usable, memory, laid_out, _Stats())
        fits |= usable & (per_gpu <= capacity)
        if fits[valid].all():
            break
    return fits


def _distinct_layouts(layouts: list[Scenario]) -> list[tuple[int, int, int, int]]:
    """The layouts in order, once each; ZeRO changes nothing without data parallelism."""
    seen: dict[tuple[int, int, int, int], None] = {}
    for s in layouts:
        seen[(s.tp, s.pp, s.gpus, s.zero if s.dp > 1 else 0)] = None
    return list(seen)
