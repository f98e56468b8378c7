"""Tables as JSON-ready rows and CSV text: plain integers, stable column names, UTF-8.

Three tables: the parameter breakdown (one row per node of the tree), the per-layer table and the
memory terms of one GPU and the GPU setups. ``write_export`` writes any of them atomically and
says clearly when the place cannot be written.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paramtally.core.atomic import write_text_atomic
from paramtally.core.breakdown import PARTS, ParamReport

if TYPE_CHECKING:
    from paramtally.core.fit import SetupFit
    from paramtally.core.memory import MemoryReport

__all__ = [
    "BREAKDOWN_COLUMNS",
    "GPU_COLUMNS",
    "LAYER_COLUMNS",
    "MEMORY_COLUMNS",
    "breakdown_rows",
    "export_json",
    "gpu_rows",
    "layer_rows",
    "memory_rows",
    "report_json",
    "to_csv",
    "to_json",
    "write_export",
]

BREAKDOWN_COLUMNS = (
    "path",
    "name",
    "depth",
    "is_leaf",
    "part",
    "count",
    "params",
    "share",
    "added",
    "formula",
)
LAYER_COLUMNS = ("stack", "layer", "group", "mixer", "kind", "params", "active", *PARTS)
# A node's path in a CSV cell: the names from the root down. The separator is only for reading;
# "name" and "depth" give the tree without parsing it (names may hold "/").
PATH_SEPARATOR = " › "
MEMORY_COLUMNS = ("term", "part", "bytes", "gib", "share", "formula", "source")
GPU_COLUMNS = (
    "gpu",
    "gpu_name",
    "count",
    "fits",
    "per_gpu_bytes",
    "capacity_bytes",
    "free_bytes",
    "layout",
    "tp",
    "pp",
    "dp",
    "zero",
    "max_context",
    "decode_tokens_per_s",
)
_GIB = 1 << 30


def _share(params: int, total: int) -> float:
    return round(params / total, 8) if total else 0.0


def breakdown_rows(report: ParamReport) -> list[dict[str, Any]]:
    return [
        {
            "path": PATH_SEPARATOR.join(path),
            "name": node.name,
            "depth": depth,
            "is_leaf": node.is_leaf,
            "part": node.part,
            "count": node.count,
            "params": node.params,
            "share": _share(node.params, report.total),
            "added": node.added,
            "formula": node.full_formula,
        }
        for path, depth, node in report.walk()
    ]


def layer_rows(report: ParamReport) -> list[dict[str, Any]]:
    return [
        {
            "stack": row.stack,
            "layer": row.index,
            "group": row.group,
            "mixer": row.mixer,
            "kind": row.kind,
            "params": row.params,
            "active": row.active,
            **{part: row.by_part.get(part, 0) for part in PARTS},
        }
        for row in report.layers
    ]


def memory_rows(memory: MemoryReport) -> list[dict[str, Any]]:
    """One row per memory term on the busiest GPU; ``bytes`` sum exactly to its total."""
    return [
        {
            "term": term.name,
            "part": term.part,
            "bytes": term.value,
            "gib": round(term.value / _GIB, 6),
            "share": _share(term.value, memory.total_bytes),
            "formula": term.formula,
            "source": term.source,
        }
        for term in memory.terms
    ]


def gpu_rows(setups: Iterable[SetupFit]) -> list[dict[str, Any]]:
    """One row per GPU kind × count: verdict, bytes per GPU, capacity, free (negative: missing)."""
    return [{column: getattr(setup, column) for column in GPU_COLUMNS} for setup in setups]


def report_json(report: ParamReport) -> dict[str, Any]:
    """The ``count --format json`` object: totals, leaf parts, by-part sums and layers."""
    parts = [
        {
            "name": node.name,
            "path": list(path),
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
        "mtp": report.mtp,
        "total_with_mtp": report.total_with_mtp,
        "by_part": {part: report.by_part[part] for part in PARTS if part in report.by_part},
        "parts": parts,
        "layers": layer_rows(report),
    }


def export_json(
    report: ParamReport, memory: MemoryReport | None = None, setups: Iterable[SetupFit] | None = None
) -> dict[str, Any]:
    """Everything the CSV files hold, in one JSON object (same rows, same column names)."""
    data: dict[str, Any] = {
        "name": report.name,
        "total": report.total,
        "active": report.active,
        "breakdown": breakdown_rows(report),
        "layers": layer_rows(report),
    }
    if memory is not None:
        data["memory"] = {
            "total_bytes": memory.total_bytes,
            "by_part": memory.by_part(),
            "stage": memory.stage,
            "terms": memory_rows(memory),
        }
    if setups is not None:
        data["gpus"] = gpu_rows(setups)
    return data


def to_json(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_export(path: Path, text: str) -> Path:
    """Write an export atomically; a folder, a missing folder or no permission is one clear line."""
    write_text_atomic(path, text)
    return path


def to_csv(rows: Iterable[dict[str, Any]], columns: Sequence[str]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: _csv_value(row[key]) for key in columns})
    return buffer.getvalue()


def _csv_value(value: Any) -> Any:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):  # fixed notation: spreadsheets read "0.00001234" everywhere
        return f"{value:.8f}".rstrip("0").rstrip(".") or "0"
    return value
