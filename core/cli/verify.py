"""``paramtally verify PATH``: a checkpoint's tensors (headers only) against the predicted count.

Its exit status (``EPILOG``, which ``--help`` shows) lets a script check a checkpoint.
"""

from __future__ import annotations

import argparse
from typing import Any

from paramtally.core.cli.output import (
    add_output_arguments,
    emit,
    emit_json,
    format_table,
    how_many,
    printable,
)
from paramtally.core.count.breakdown import PART_LABELS, human
from paramtally.core.errors import ParamTallyError
from paramtally.core.files.input_files import typed_path
from paramtally.core.io.importers.checkpoint import (
    Checkpoint,
    PartRow,
    Verification,
    compare,
    open_checkpoint,
    predicted_from,
)
from paramtally.core.io.importers.safetensors_header import TensorInfo
from paramtally.core.io.importers.tensor_parts import part_of
from paramtally.core.io.model_sources import load_source
from paramtally.core.schema import Architecture
from paramtally.core.typed_numbers import binary_size

__all__ = ["EPILOG", "add_arguments", "run"]

EPILOG = "exit status: 0 when the checkpoint matches the prediction, 1 when it differs, 2 on bad input"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="PATH", help="model folder, .safetensors or .gguf file")
    against = parser.add_mutually_exclusive_group()
    against.add_argument("--config", metavar="FILE", help="predict from this config.json or preset JSON")
    against.add_argument("--preset", metavar="ID", help="predict from this preset")
    parser.add_argument("--summary", action="store_true", help="table: leave out the list of every tensor")
    add_output_arguments(parser, own=("table", "json"))


def run(args: argparse.Namespace) -> int:
    checkpoint = open_checkpoint(typed_path(args.path))
    arch, source = _prediction(args, checkpoint)
    result = compare(checkpoint, arch)
    if args.format == "json":
        emit_json(_json(checkpoint, result, source), args.output)
    else:
        emit(_table(checkpoint, result, source, with_tensors=not args.summary), args.output)
    return 0 if result.matches else 1


def _prediction(args: argparse.Namespace, checkpoint: Checkpoint) -> tuple[Architecture, str]:
    if args.config or args.preset:
        source = args.config or args.preset
        return load_source(source), source
    arch = predicted_from(checkpoint)
    if arch is None:
        kind = (
            "GGUF metadata of this architecture"
            if checkpoint.format == "gguf"
            else "no config.json beside it"
        )
        raise ParamTallyError(
            f"{checkpoint.path.name}: cannot predict ({kind}); pass --config FILE or --preset ID"
        )
    own = "GGUF metadata" if checkpoint.format == "gguf" else "config.json"
    return arch, own


# --- output ----------------------------------------------------------------------------------


def _tensor_json(tensor: TensorInfo) -> dict[str, Any]:
    return {
        "name": tensor.name,
        "shape": list(tensor.shape),
        "dtype": tensor.dtype,
        "numel": tensor.numel,
        "bytes": tensor.nbytes,
        "file": tensor.file,
        "part": part_of(tensor.name),
    }


def _row_json(row: PartRow) -> dict[str, Any]:
    return {"part": row.part, "predicted": row.predicted, "actual": row.actual, "difference": row.difference}


def _json(checkpoint: Checkpoint, result: Verification, source: str) -> dict[str, Any]:
    return {
        "path": str(checkpoint.path),
        "format": checkpoint.format,
        "files": list(checkpoint.files),
        "model": result.model,
        "prediction_from": source,
        "matches": result.matches,
        "predicted_total": result.predicted_total,
        "actual_total": result.actual_total,
        "difference": result.actual_total - result.predicted_total,
        "parts": [_row_json(row) for row in result.parts],
        "layers_differing": [_row_json(row) for row in result.layers],
        "unexplained": [_tensor_json(t) for t in result.unexplained],
        "buffers": [_tensor_json(t) for t in result.buffers],
        "quantization": [_tensor_json(t) for t in result.quantization],
        "bytes_by_dtype": checkpoint.bytes_by_dtype,
        "bytes_total": sum(checkpoint.bytes_by_dtype.values()),
        "tensors": [_tensor_json(t) for t in checkpoint.tensors],
    }


def _signed(value: int) -> str:
    return f"{value:+,}" if value else "0"


def _table(checkpoint: Checkpoint, result: Verification, source: str, *, with_tensors: bool) -> str:
    verdict = "MATCHES" if result.matches else "DIFFERS"
    difference = result.actual_total - result.predicted_total
    # A path, a source and a tensor's name are the files' own text: each kept to its line.
    lines = [
        f"{printable(str(checkpoint.path), one_line=True)} ({checkpoint.format}, "
        f"{how_many(len(checkpoint.files), 'file')}, {how_many(len(checkpoint.tensors), 'tensor')})",
        f"prediction: {result.model} (from {printable(source, one_line=True)})",
        f"{verdict}: predicted {result.predicted_total:,} ({human(result.predicted_total)}), "
        f"actual {result.actual_total:,} ({human(result.actual_total)}), difference {_signed(difference)}",
        "",
    ]
    rows = [
        [PART_LABELS.get(r.part, r.part), f"{r.predicted:,}", f"{r.actual:,}", _signed(r.difference)]
        for r in (*result.parts, *result.layers)
    ]
    lines.append(format_table(["part", "predicted", "actual", "difference"], rows, right={1, 2, 3}))
    for title, tensors in (
        ("tensors the prediction does not explain", result.unexplained),
        ("buffers (saved, not parameters)", result.buffers),
        ("quantization scales", result.quantization),
    ):
        if tensors:
            named = (f"{printable(t.name, one_line=True)} {list(t.shape)}" for t in tensors)
            lines.append(f"{title}: " + ", ".join(named))
    size_rows = [[dtype, f"{n:,}", binary_size(n)] for dtype, n in checkpoint.bytes_by_dtype.items()]
    lines += ["", format_table(["dtype", "bytes on disk", ""], size_rows, right={1, 2})]
    if with_tensors:
        tensor_rows = [
            [
                t.name,
                "×".join(map(str, t.shape)) or "scalar",
                t.dtype,
                f"{t.nbytes:,}",
                part_of(t.name) or "?",
            ]
            for t in checkpoint.tensors
        ]
        lines.append(format_table(["tensor", "shape", "dtype", "bytes", "part"], tensor_rows, right={3}))
    return "\n".join(lines)
