"""A design-space sweep as ``paramtally sweep --format`` writes it, in any format of the registry
(``core.io.formats``); the window's Design space → Export writes the same."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from paramtally.core.explore.sweep import Sweep
from paramtally.core.io.formats import Exported, Table
from paramtally.core.typed_numbers import parse_quantity

__all__ = ["iso_levels", "sweep_export", "sweep_json", "sweep_rows", "sweep_table"]


def iso_levels(text: str, unit: str, flag: str = "--iso") -> list[tuple[str, Fraction]]:
    """The levels of ``7e9,10e9`` or ``7B, 10B`` (commas or semicolons) in ``unit``, each as typed
    and exact."""
    typed = [level.strip() for level in text.replace(";", ",").split(",") if level.strip()]
    return [(level, parse_quantity(level, unit, flag)) for level in typed]


def sweep_export(
    result: Sweep, levels: Sequence[tuple[str, Fraction]] = (), facts: Sequence[tuple[str, str]] = ()
) -> Exported:
    """The sweep's table (``sweep_table``) after ``facts`` (what it was computed for) and, as JSON,
    ``sweep_json`` with the crossings of each level."""
    model = f"{result.arch.name}: " if result.arch is not None else ""
    title = f"{model}{result.figure.title} over {result.x.name} × {result.y.name}"
    return Exported(
        "sweep",
        title,
        facts,
        lambda: (sweep_table(result, levels),),
        lambda: sweep_json(result, [level for _, level in levels]),
    )


def sweep_table(result: Sweep, levels: Sequence[tuple[str, Fraction]] = ()) -> Table:
    """One row per cell. A grid of cells has no room for the crossings JSON lists: a column per
    level says which side of it each cell is (the iso-line runs between a yes and a no)."""
    marks = [(f"{result.figure.name}>={text}", level) for text, level in levels]
    columns = (
        result.x.name,
        result.y.name,
        result.figure.name,
        *(["fits"] if result.fits is not None else []),
        *(name for name, _ in marks),
    )
    return Table(columns, sweep_rows(result, marks), "Design space")


def sweep_rows(result: Sweep, marks: list[tuple[str, Any]] | None = None) -> list[dict[str, Any]]:
    """One row per cell (y outer, x inner); an invalid variant has an empty value. ``marks``: a
    column per (name, level) saying whether the cell's figure is at least the level."""
    rows = []
    for j, y in enumerate(result.y.values):
        for i, x in enumerate(result.x.values):
            value = result.value(i, j)
            row: dict[str, Any] = {
                result.x.name: x,
                result.y.name: y,
                result.figure.name: "" if value is None else value,
            }
            if result.fits is not None:
                row["fits"] = bool(result.fits[j, i]) if value is not None else ""
            for name, level in marks or ():
                row[name] = "" if value is None else value >= level
            rows.append(row)
    return rows


def sweep_json(result: Sweep, levels: Sequence[Fraction] = ()) -> dict[str, Any]:
    values = [[result.value(i, j) for i in range(len(result.x.values))] for j in range(len(result.y.values))]
    data: dict[str, Any] = {
        "figure": result.figure.name,
        "unit": result.figure.unit,
        "x": {"field": result.x.name, "values": list(result.x.values)},
        "y": {"field": result.y.name, "values": list(result.y.values)},
        "values": values,
        "method": result.method,
        "pieces": result.pieces,
        "evaluations": result.evaluations,
    }
    if result.reason:
        data["reason"] = result.reason
    if result.fits is not None:
        data["setup"] = result.setup
        data["fits"] = [
            [bool(result.fits[j, i]) if result.valid[j, i] else None for i in range(len(result.x.values))]
            for j in range(len(result.y.values))
        ]
        data["boundary"] = [[list(a), list(b)] for a, b in result.boundary()]
    if levels:
        data["iso"] = [
            {
                "level": float(level) if level.denominator > 1 else int(level),
                "pairs": [[list(a), list(b)] for a, b in result.crossings(level)],
            }
            for level in levels
        ]
    return data
