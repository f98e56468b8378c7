"""A comparison as ``paramtally compare --format`` writes it, in any format of the registry
(``core.io.formats``); the window's Compare tab exports the same."""

from __future__ import annotations

import json
from typing import Any

from paramtally.core.count.breakdown import PART_LABELS
from paramtally.core.explore.compare import HEADLINE, Comparison, Delta
from paramtally.core.io.export import about_rows
from paramtally.core.io.formats import Exported, Table

__all__ = ["COMPARE_COLUMNS", "comparison_export", "comparison_json", "comparison_rows"]

COMPARE_COLUMNS = ("section", "item", "source", "value", "baseline", "delta", "delta_pct")


def comparison_export(comparison: Comparison) -> Exported:
    """``paramtally compare`` and the Compare tab: long-form rows (headline, parts, fits, schema
    diff) after the scenario all columns share (the rows name the models); as JSON
    ``comparison_json``."""
    baseline = comparison.columns[comparison.baseline].source
    return Exported(
        "compare",
        f"Comparison against {baseline}",
        about_rows(None, comparison.scenario),
        lambda: (Table(COMPARE_COLUMNS, comparison_rows(comparison), "Comparison"),),
        lambda: comparison_json(comparison),
    )


def comparison_json(comparison: Comparison) -> dict[str, Any]:
    """``{"baseline", "scenario", "columns": [{"source", "total", "active", "parts": […]}, …],
    "diff": [{"source", "path", "before", "after"}, …]}``."""
    columns = []
    for index, column in enumerate(comparison.columns):
        deltas = {name: _delta_json(comparison.delta(index, name)) for name in HEADLINE}
        columns.append(
            {
                "source": column.source,
                "name": column.name,
                "total": column.total,
                "active": column.active,
                "total_with_mtp": column.total_with_mtp,
                "memory_bytes": column.memory_bytes,
                **({"memory_problem": column.memory_problem} if column.memory_problem else {}),
                "delta": deltas,
                "parts": [
                    {
                        "part": part,
                        "label": PART_LABELS[part],
                        "params": column.by_part.get(part, 0),
                        **_delta_json(comparison.delta(index, part)),
                    }
                    for part in comparison.parts
                ],
                "setups": [
                    {"gpu": s.gpu, "count": s.count, "fits": s.fits, "per_gpu_bytes": s.per_gpu_bytes}
                    for s in column.setups
                ],
            }
        )
    diff = [
        {
            "source": comparison.columns[index].source,
            "path": list(d.path),
            "before": d.before,
            "after": d.after,
        }
        for index, diffs in enumerate(comparison.diffs)
        for d in diffs
    ]
    return {
        "baseline": comparison.columns[comparison.baseline].source,
        "scenario": comparison.scenario.model_dump(mode="json"),
        "columns": columns,
        "diff": diff,
    }


def _delta_json(delta: Delta) -> dict[str, Any]:
    percent = delta.percent
    return {"delta": delta.absolute, "delta_pct": None if percent is None else round(percent, 6)}


def comparison_rows(comparison: Comparison) -> list[dict[str, Any]]:
    """Long-form rows for CSV (``COMPARE_COLUMNS``): headline, parts, setups, schema diff."""
    rows: list[dict[str, Any]] = []
    for index, column in enumerate(comparison.columns):
        for section, names in (("headline", HEADLINE), ("part", comparison.parts)):
            for name in names:
                delta = comparison.delta(index, name)
                percent = delta.percent
                rows.append(
                    {
                        "section": section,
                        "item": name,
                        "source": column.source,
                        "value": "" if delta.value is None else delta.value,
                        "baseline": "" if delta.baseline is None else delta.baseline,
                        "delta": "" if delta.absolute is None else delta.absolute,
                        "delta_pct": "" if percent is None else round(percent, 6),
                    }
                )
        for setup in column.setups:
            item = f"{setup.gpu} × {setup.count}"
            rows.append({"section": "fits", "item": item, "source": column.source, "value": setup.fits})
        for d in comparison.diffs[index]:
            item = ".".join(str(part) for part in d.path)
            rows.append(
                {"section": "schema", "item": item, "source": column.source, "value": _cell(d.after),
                 "baseline": _cell(d.before)}
            )  # fmt: skip
    return [dict.fromkeys(COMPARE_COLUMNS, "") | row for row in rows]


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return value
