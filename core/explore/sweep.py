"""The design space: one figure over a grid of two design variables, exact in every cell and fast.

How each cell is computed, exactly and from a few dozen variants rather than one per cell, is
``core.explore.grid_model``. Which cells are variants at all comes from the design variables'
domains; whether a variant fits a setup is judged as ``fit_setup`` does, over the same model.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np
from pydantic import ValidationError

from paramtally.core.errors import ParamTallyError
from paramtally.core.explore.figures import Figure, find_figure
from paramtally.core.explore.grid_model import (
    Array,
    Axis,
    Cell,
    Cells,
    Method,
    Region,
    Stats,
    figure_grid,
    piecewise,
    singular,
)
from paramtally.core.explore.solve import parse_target
from paramtally.core.explore.variables import Variable, find_variable, variant
from paramtally.core.memory.fit import fit_setup, layout_changes
from paramtally.core.memory.gpus import GPU
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema import Architecture
from paramtally.core.text import say
from paramtally.core.typed_numbers import NumberError, parse_whole

__all__ = [
    "MAX_AXIS",
    "MAX_CELLS",
    "Axis",
    "Stopped",
    "Sweep",
    "axis_text",
    "parse_axis",
    "suggest_axis",
    "sweep",
    "sweep_fits",
]

MAX_AXIS = 1024
MAX_CELLS = 1 << 18
_AXIS = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.+?)\s*$")
# Axes that change which parallel layouts a setup tries (valid tensor-parallel sizes, stages).
_LAYOUT_AXES = frozenset({"num_layers", "encoder_layers", "num_heads", "num_kv_heads", "gpus"})


def parse_axis(text: str, flag: str = "--x") -> Axis:
    """``hidden_size=2048:8192:256`` (first:last:step, last included), ``top_k=1:8`` or
    ``num_layers=16,32,48``."""
    match = _AXIS.match(text)
    if not match:
        raise ParamTallyError(
            say("{flag}: '{text}' is not FIELD=FIRST:LAST:STEP or FIELD=V1,V2,…", flag=flag, text=text)
        )
    name, spec = match.groups()
    try:
        if ":" in spec:
            parts = [parse_whole(part) for part in spec.split(":")]
            if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] < 1) or parts[1] < parts[0]:
                raise ValueError(spec)
            first, last, step = (*parts, 1) if len(parts) == 2 else parts
            if (last - first) // step + 1 > MAX_AXIS:
                raise ParamTallyError(
                    say(
                        "{flag}: {name} would have more than {most} values",
                        flag=flag,
                        name=name,
                        most=MAX_AXIS,
                    )
                )
            values = tuple(range(first, last + 1, step))
        else:
            values = tuple(sorted({parse_whole(part) for part in spec.split(",")}))
    except (ValueError, NumberError):
        raise ParamTallyError(
            say(
                "{flag}: '{spec}' is not FIRST:LAST:STEP (whole numbers, FIRST ≤ LAST, STEP ≥ 1) nor a list",
                flag=flag,
                spec=spec,
            )
        ) from None
    if not values or len(values) > MAX_AXIS:
        raise ParamTallyError(
            say("{flag}: {name} needs 1 to {most} values", flag=flag, name=name, most=MAX_AXIS)
        )
    return Axis(name, values)


def axis_text(axis: Axis) -> str:
    """The values as ``parse_axis`` reads them: ``FIRST:LAST:STEP`` when evenly spaced, else a list."""
    values = axis.values
    steps = {b - a for a, b in itertools.pairwise(values)}
    if len(values) > 2 and len(steps) == 1:
        return f"{values[0]}:{values[-1]}:{steps.pop()}"
    return ",".join(str(value) for value in values)


def suggest_axis(name: str, arch: Architecture, scenario: Scenario, cells: int = 64) -> Axis:
    """Up to ``cells`` allowed values of a field around its current one (a quarter to twice it,
    widened to ``cells`` values where the domain has them), in steps of a power-of-two multiple of
    the domain's own step, through the current value: where a design-space view starts."""
    variable = find_variable(name, arch)
    current = variable.read(arch, scenario)
    domain = variable.domain(arch, scenario, parallel=False)
    here = domain.nearest_index(current)
    low, high = domain.nearest_index(max(current // 4, 1)), domain.nearest_index(current * 2)
    stride = 1
    while (high - low) // stride + 1 > cells:
        stride *= 2
    low = here - (here - low) // stride * stride  # the grid passes through the current value
    last = min(len(domain) - 1, low + (cells - 1) * stride)
    return Axis(variable.name, tuple(domain[index] for index in range(low, last + 1, stride)))


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
        raise ParamTallyError(say("--y: {name} is already the x axis", name=yv.name))
    if len(x_axis.values) * len(y_axis.values) > MAX_CELLS:
        raise ParamTallyError(say("a sweep may hold at most {most:,} cells", most=MAX_CELLS))
    xv.read(arch, scenario), yv.read(arch, scenario)  # a field the model lacks is said here
    cells = Cells(arch, scenario, (xv, x_axis), (yv, y_axis))
    valid = _validity(cells, figure.parallel)
    values, stats = figure_grid(cells, valid, figure, direct)
    result = Sweep(
        x_axis, y_axis, figure, values, valid, stats.method, cells.built, stats.pieces,
        "; ".join(dict.fromkeys(stats.reasons)), "", None, arch, scenario,
    )  # fmt: skip
    return result if setup is None else sweep_fits(result, setup, direct)


class Stopped(Exception):
    """``sweep_fits`` was told to stop (its sweep is no longer wanted)."""


def _never() -> bool:
    return False


def sweep_fits(result: Sweep, setup: str, direct: bool = False, stop: Callable[[], bool] = _never) -> Sweep:
    """``result`` with whether each variant fits ``setup`` ("gpu:count"), as ``fit_setup`` judges
    it. It takes seconds where a figure takes milliseconds, so a window asks for it apart, off its
    thread: ``stop`` is asked between layouts and cells, and a True raises ``Stopped``."""
    target = parse_target(f"fits={setup}")
    assert target.gpu is not None and result.arch is not None and result.scenario is not None
    if target.count is None:
        raise ParamTallyError(say("--fits: '{setup}' needs a GPU count (GPU:COUNT)", setup=setup))
    x, y = result.x, result.y
    cells = Cells(
        result.arch,
        result.scenario,
        (find_variable(x.name, result.arch), x),
        (find_variable(y.name, result.arch), y),
    )
    fits = _fits_grid(cells, result.valid, target.gpu, target.count, direct, stop) & result.valid
    return replace(result, fits=fits, setup=setup, evaluations=result.evaluations + cells.built)


# --- which cells are variants at all ---------------------------------------------------------


def _validity(cells: Cells, parallel: bool) -> Array:
    """The cells whose two values the variables' domains allow together."""
    (xv, x), (yv, y) = cells.x, cells.y
    arch, scenario = cells.arch, cells.scenario
    coupled = yv.name in xv.couples or xv.name in yv.couples
    if not coupled:
        x_domain = xv.domain(arch, scenario, parallel=parallel)
        y_domain = yv.domain(arch, scenario, parallel=parallel)
        in_x = np.array(x_domain.members(x.values), dtype=bool)
        in_y = np.array(y_domain.members(y.values), dtype=bool)
        result: Array = np.outer(in_y, in_x)
        return result
    valid = np.zeros(cells.shape, dtype=bool)
    for j, y_value in enumerate(y.values):
        domain = _domain_or_none(xv, arch, scenario, {yv.name: y_value}, parallel)
        if domain is not None:
            valid[j] = domain.members(x.values)
    for i, x_value in enumerate(x.values):
        domain = _domain_or_none(yv, arch, scenario, {xv.name: x_value}, parallel)
        if domain is None:
            valid[:, i] = False
        else:
            valid[:, i] &= np.array(domain.members(y.values), dtype=bool)
    return valid


def _domain_or_none(
    variable: Variable, arch: Architecture, scenario: Scenario, others: dict[str, int], parallel: bool
) -> Any:
    try:
        return variable.domain(arch, scenario, 1, others, parallel)
    except ParamTallyError:
        return None


# --- fits a setup ----------------------------------------------------------------------------


def _fits_grid(
    cells: Cells, valid: Array, gpu: GPU, count: int, direct: bool, stop: Callable[[], bool]
) -> Array:
    """Whether each variant fits ``count`` GPUs of ``gpu``, as ``fit_setup`` judges it: some layout
    it tries keeps the busiest GPU within the capacity."""
    fits = np.zeros(cells.shape, dtype=bool)
    rest = valid
    if not direct:
        rest = singular(cells) & valid
        for layouts, alike in _by_layouts(cells, valid & ~rest, count).items():
            fits |= _fits_model(cells, alike, gpu, layouts, stop)
    for j, i in zip(*np.nonzero(rest), strict=True):
        if stop():
            raise Stopped
        try:
            arch, scenario = cells.variant((int(i), int(j)))
            fits[j, i] = fit_setup(arch, scenario, gpu, count).fits
        except (ValidationError, ParamTallyError):
            fits[j, i] = False
    return fits


_Layouts = tuple[tuple[tuple[str, int], ...], ...]


def _by_layouts(cells: Cells, valid: Array, count: int) -> dict[_Layouts, Array]:
    """The valid cells grouped by the layouts ``fit_setup`` tries on them: one group for the grid
    unless an axis sets the layers (how many stages) or the heads (which TP sizes split them); then
    by that axis's values, or by cell when both axes do."""
    (xv, _), (yv, _) = cells.x, cells.y
    sets_layouts = [name in _LAYOUT_AXES or "." in name for name in (xv.name, yv.name)]
    if count == 1 or not any(sets_layouts):
        return {_layouts(cells.arch, cells.scenario, count): valid}
    groups: dict[_Layouts, Array] = {}
    seen: dict[int, _Layouts] = {}  # by the one layout axis's index
    for j, i in zip(*np.nonzero(valid), strict=True):
        line = -1 if all(sets_layouts) else (int(i) if sets_layouts[0] else int(j))
        layouts = seen.get(line) if line >= 0 else None
        if layouts is None:
            try:
                layouts = _layouts(*cells.variant((int(i), int(j)), counted=False), count)
            except (ValidationError, ParamTallyError):
                continue  # refused: it fits nothing
            if line >= 0:
                seen[line] = layouts
        groups.setdefault(layouts, np.zeros(cells.shape, dtype=bool))[j, i] = True
    return groups


def _layouts(arch: Architecture, scenario: Scenario, count: int) -> _Layouts:
    """``layout_changes`` in order, once each: ZeRO shards nothing without data parallelism."""
    seen: dict[tuple[tuple[str, int], ...], None] = {}
    for changes in layout_changes(arch, scenario, count):
        update = dict(changes)
        if update["gpus"] == update["tp"] * update["pp"]:
            update["zero"] = 0
        seen[tuple(update.items())] = None
    return tuple(seen)


def _fits_model(cells: Cells, valid: Array, gpu: GPU, layouts: _Layouts, stop: Callable[[], bool]) -> Array:
    """``_fits_grid`` over the cells ``valid``, which all try ``layouts``: the memory per GPU of
    each layout modelled over the grid, as the figures are."""
    capacity = gpu.capacity_bytes(cells.scenario.utilization_cap)
    memory = find_figure("memory")
    fits = np.zeros(cells.shape, dtype=bool)
    whole = Region(cells, range(cells.shape[1]), range(cells.shape[0]))
    for changes in layouts:
        if stop():
            raise Stopped
        # Every field the layout sets (EP and virtual stages too, which follow the stages): a
        # layout that kept the scenario's EP 8 on TP 8 held an eighth of the experts per GPU.
        update = dict(changes)

        def laid_out(s: Scenario, update: dict[str, int] = update) -> Scenario:
            return s.model_copy(update=update)

        usable = valid.copy()  # loses the cells this layout cannot split
        if not usable.any():
            break
        per_gpu = piecewise(whole, usable, memory, laid_out, Stats())
        fits |= usable & (per_gpu <= capacity)
    return fits
