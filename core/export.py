"""Breakdowns as JSON-ready data and CSV text: plain integers, stable column names, UTF-8."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from core.breakdown import PARTS, ParamReport

__all__ = [
    "BREAKDOWN_COLUMNS",
    "LAYER_COLUMNS",
    "breakdown_rows",
    "layer_rows",
    "report_json",
    "to_csv",
]

BREAKDOWN_COLUMNS = ("path", "depth", "is_leaf", "part", "count", "params", "share", "added", "formula")
LAYER_COLUMNS = ("layer", "group", "kind", "params", "active", *PARTS)


def _share(params: int, total: int) -> float:
    return round(params / total, 8) if total else 0.0


def breakdown_rows(report: ParamReport) -> list[dict[str, Any]]:
    return [
        {
            "path": path,
            "depth": depth,
            "is_leaf": node.is_leaf,
            "part": node.part,
            "count": node.count,
            "params": node.params,
            "share": _share(node.params, report.total),
            "added": node.added,
            "formula": node.full_formula,
        }
        for path, depth, node in report.tree.walk()
    ]


def layer_rows(report: ParamReport) -> list[dict[str, Any]]:
    return [
        {
            "layer": row.index,
            "group": row.group,
            "kind": row.kind,
            "params": row.params,
            "active": row.active,
            **{part: row.by_part.get(part, 0) for part in PARTS},
        }
        for row in report.layers
    ]


def report_json(report: ParamReport) -> dict[str, Any]:
    """The ``count --format json`` object: totals, leaf parts, by-part sums and layers."""
    parts = [
        {
            "name": node.name,
            "path": path,
            "part": node.part,
            "params": node.params,
            "count": node.count,
            "added": node.added,
            "formula": node.full_formula,
        }
        for path, node in report.tree.leaves()
    ]
    return {
        "name": report.name,
        "total": report.total,
        "active": report.active,
        "base": report.base,
        "added": report.added,
        "by_part": {part: report.by_part[part] for part in PARTS if part in report.by_part},
        "parts": parts,
        "layers": layer_rows(report),
    }


def to_csv(rows: Iterable[dict[str, Any]], columns: Sequence[str]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: _csv_value(row[key]) for key in columns})
    return buffer.getvalue()


def _csv_value(value: Any) -> Any:
    return str(value).lower() if isinstance(value, bool) else value
