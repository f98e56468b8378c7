"""``paramtally count FOLDER`` for weights whose architecture ParamTally cannot read: the stored
count from the headers (``core.io.importers.stored_count``) as a table or in any export format.

The JSON keeps the keys of ``count --format json`` that mean the same (``name``, ``total``,
``mtp``, ``total_with_mtp``, ``by_part``, ``parts``) and says ``"editable": false`` with why; the
CSV has the breakdown's columns, the model's row first, one row a part, then apart (depth 0, as
the multi-token-prediction root of ``count``) what was stored but is not counted.
"""

from __future__ import annotations

import argparse
from typing import Any

from paramtally.core.cli.output import emit, emit_export, format_table, how_many
from paramtally.core.count.breakdown import human, percent
from paramtally.core.errors import ParamTallyError
from paramtally.core.io.export import BREAKDOWN_COLUMNS, PATH_SEPARATOR
from paramtally.core.io.formats import Exported, Table
from paramtally.core.io.importers.safetensors_header import TensorInfo
from paramtally.core.io.importers.stored_count import DEFINITION, STORED_PART_LABELS, StoredCount, named
from paramtally.core.typed_numbers import binary_size

__all__ = ["run_stored", "stored_json", "stored_rows"]


def run_stored(stored: StoredCount, args: argparse.Namespace) -> int:
    for flag, wanted in (("--no-bias", args.no_bias), ("--layers", args.layers)):
        if wanted:
            raise ParamTallyError(
                f"{stored.name}: {flag} needs an architecture, and this one is not editable ({stored.why})"
            )
    if args.format == "table":
        emit(stored_table(stored), args.output)
    else:
        emit_export(args, stored_export(stored))
    return 0


def stored_export(stored: StoredCount) -> Exported:
    """The stored count as the breakdown subject: every export format ``count`` offers writes it."""
    return Exported(
        "breakdown",
        f"{stored.name}: parameters stored in the checkpoint",
        (),
        lambda: (Table(BREAKDOWN_COLUMNS, stored_rows(stored), "Parameters stored"),),
        lambda: stored_json(stored),
    )


def _share(part: int, total: int) -> float:
    return round(part / total, 8) if total else 0.0


def _tensor(tensor: TensorInfo) -> dict[str, Any]:
    return {"name": tensor.name, "shape": list(tensor.shape), "dtype": tensor.dtype, "numel": tensor.numel}


def _elements(tensors: tuple[TensorInfo, ...]) -> int:
    return sum(tensor.numel for tensor in tensors)


def stored_json(stored: StoredCount) -> dict[str, Any]:
    checkpoint = stored.checkpoint
    tied = stored.tied_twice
    return {
        "name": stored.name,
        "editable": False,
        "not_editable_because": stored.why,
        "definition": DEFINITION,
        "path": str(checkpoint.path),
        "format": checkpoint.format,
        "files": list(checkpoint.files),
        "tensors": len(checkpoint.tensors),
        "total": stored.total,
        "mtp": stored.mtp,
        "total_with_mtp": stored.total_with_mtp,
        "stored_elements": stored.stored_elements,
        "by_part": stored.by_part,
        "parts": [
            {"part": part, "label": label, "params": params, "share": share}
            for part, label, params, share in stored.part_rows
        ],
        "buffers": [_tensor(tensor) for tensor in stored.buffers],
        "buffer_elements": _elements(stored.buffers),
        "quantization_tensors": len(stored.quantization),
        "quantization_elements": _elements(stored.quantization),
        "packed_tensors": len(stored.packed),
        "tied_stored_twice": (
            {"head": tied[0], "embedding": tied[1], "elements": stored.tied_extra} if tied else None
        ),
        "bytes_by_dtype": checkpoint.bytes_by_dtype,
        "bytes_total": sum(checkpoint.bytes_by_dtype.values()),
    }


def stored_rows(stored: StoredCount) -> list[dict[str, Any]]:
    """The breakdown's CSV rows: the model, its parts, then what is stored apart from the total."""

    def row(path: tuple[str, ...], part: str, params: int, is_leaf: bool, note: str = "") -> dict[str, Any]:
        return {
            "path": PATH_SEPARATOR.join(path),
            "name": path[-1],
            "depth": len(path) - 1,
            "is_leaf": is_leaf,
            "part": part,
            "count": 1,
            "params": params,
            "share": _share(params, stored.total),
            "added": False,
            "formula": note,
        }

    rows = [row((stored.name,), "", stored.total, False, f"{stored.notice}; {DEFINITION}")]
    rows += [
        row((stored.name, STORED_PART_LABELS[part]), part, params, True)
        for part, params in stored.by_part.items()
    ]
    apart = (
        ("multi-token prediction", "mtp", stored.mtp, "stored after the last layer config.json names"),
        ("buffers (not parameters)", "buffer", _elements(stored.buffers), named(stored.buffers)),
        ("quantization scales", "quantization", _elements(stored.quantization), ""),
    )
    rows += [row((name,), part, params, True, note) for name, part, params, note in apart if params]
    return rows


def stored_table(stored: StoredCount) -> str:
    checkpoint = stored.checkpoint
    lines = [
        f"{stored.name}: {stored.total:,} parameters stored ({human(stored.total)}) — "
        f"{checkpoint.format}, {how_many(len(checkpoint.files), 'file')}, "
        f"{how_many(len(checkpoint.tensors), 'tensor')}",
        stored.notice,
    ]
    if stored.mtp:
        lines.append(
            f"  + multi-token prediction {stored.mtp:,} ({human(stored.mtp)}), counted apart: "
            f"{stored.total_with_mtp:,} ({human(stored.total_with_mtp)}) with it"
        )
    rows = [
        [label, f"{params:,}", human(params), f"{percent(share, 1)}%"]
        for _, label, params, share in stored.part_rows
    ]
    lines += ["", format_table(["part", "params", "", "share"], rows, right={1, 2, 3})]
    lines += [f"  {note}" for note in stored.notes]
    size_rows = [[dtype, f"{n:,}", binary_size(n)] for dtype, n in checkpoint.bytes_by_dtype.items()]
    lines += ["", format_table(["dtype", "bytes on disk", ""], size_rows, right={1, 2})]
    return "\n".join(lines)
