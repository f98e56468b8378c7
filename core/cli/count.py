"""``paramtally count SOURCE``: the exact parameter count with its breakdown.

A model folder whose architecture cannot be read (an unknown ``model_type``, no config.json) but
whose weights are there, or a ``.safetensors``/``.gguf`` file, gives the weights' stored count
instead (``count_stored``), read from their headers and not editable.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from paramtally.core.cli.output import add_output_arguments, emit, emit_export, format_table
from paramtally.core.count.breakdown import PART_LABELS, LayerRow, ParamReport, human, percent
from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing.edits import without_biases
from paramtally.core.errors import ParamTallyError
from paramtally.core.files.input_files import typed_path
from paramtally.core.io.model_sources import read_source
from paramtally.core.io.presets import Preset
from paramtally.core.schema.advice import warn_hints

if TYPE_CHECKING:
    from paramtally.core.io.importers.stored_count import StoredCount

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source",
        metavar="SOURCE",
        help="preset id, preset JSON, config.json or model folder; a folder of weights whose type "
        "ParamTally does not import (or a .safetensors/.gguf file) gives the count stored in them",
    )
    parser.add_argument("--no-bias", action="store_true", help="drop every matrix bias (norm β stays)")
    parser.add_argument(
        "--layers",
        action="store_true",
        help="the per-layer table instead of the breakdown (csv, table), or the per-layer rows too "
        "(json; the runs of layers, 'groups', are always there)",
    )
    add_output_arguments(parser, "breakdown", own=("table",))


def run(args: argparse.Namespace) -> int:
    preset = _read(args.source)
    if not isinstance(preset, Preset):  # weights without an architecture: their stored count
        from paramtally.core.cli.count_stored import run_stored

        return run_stored(preset, args)
    arch = preset.architecture
    if args.no_bias:
        arch = without_biases(arch)
    report = count_parameters(arch)
    if args.layers:
        from paramtally.core.io.export import check_layer_rows  # the exporters: only when asked

        try:
            check_layer_rows(report)
        except ParamTallyError as exc:  # the model, not the file, is too long: name it anyway
            raise ParamTallyError(f"{args.source}: {exc}") from None
    if args.format == "table":
        emit(_layer_table(report) if args.layers else _table(report), args.output)
    else:
        from paramtally.core.io.subjects import breakdown_export

        emit_export(args, breakdown_export(report, layers=args.layers))
    warn_hints(arch, file_keys=preset.file_keys)  # after the answer: a refused run says one line only
    return 0


def _read(source: str) -> Preset | StoredCount:
    """The model ``source`` names; for weights whose architecture cannot be read, their
    ``StoredCount`` (the checkpoint readers load only for a folder or a weights file)."""
    path = typed_path(source)
    if not os.path.isdir(path) and path.suffix not in (".safetensors", ".gguf"):
        return read_source(source)
    from paramtally.core.io.importers.stored_count import read_source_or_weights

    return read_source_or_weights(source)


def _headline(report: ParamReport) -> list[str]:
    lines = [f"{report.name}: {report.total:,} parameters ({human(report.total)})"]
    if report.is_moe:
        lines.append(f"  active per token: {report.active:,} ({human(report.active)})")
    if report.tower_only:
        lines.append("  a vision tower alone: no language model (text only: 0), no projector, no LM head")
    elif report.is_multimodal:
        lines.append(
            f"  text only: {report.language_model:,} ({human(report.language_model)}) in the language "
            + (f"model, {report.language_model_active:,} active; " if report.is_moe else "model; ")
            + f"vision tower {report.vision:,} ({human(report.vision)}), projector "
            f"{report.projector:,} ({human(report.projector)})"
        )
    if report.added:
        lines.append(f"  base {report.base:,} + added {report.added:,} ({human(report.added)})")
    if report.mtp:
        lines.append(
            f"  + multi-token prediction {report.mtp:,} ({human(report.mtp)}), counted apart: "
            f"{report.total_with_mtp:,} ({human(report.total_with_mtp)}) with it"
        )
    return lines


def _table(report: ParamReport) -> str:
    rows = []
    for _, depth, node in report.walk():
        if depth == 0:
            continue
        name = "  " * (depth - 1) + node.name
        per_layer = f"{node.unit_value:,}" if node.count > 1 else ""
        layers = f"× {node.count}" if node.count > 1 else ""
        share = f"{percent(node.value, report.total)}%" if report.total else ""
        formula = node.formula if node.is_leaf or node.count > 1 else ""
        rows.append([name, per_layer, layers, f"{node.value:,}", human(node.value), share, formula])
    headers = ["part", "per layer", "layers", "params", "", "share", "formula (one layer)"]
    table = format_table(headers, rows, right={1, 3, 4, 5})
    by_part = [
        f"  {PART_LABELS[part]:<18} {count:>20,}  {human(count):>8}  {percent(count, report.total):>6}%"
        for part, count in report.by_part.items()
        if count
    ]
    return "\n".join([*_headline(report), "", table, "By part:", *by_part]) + "\n"


def _layer_table(report: ParamReport) -> str:
    """One line per layer: its mixer and FFN kinds (a hybrid's Mamba and attention layers apart)
    and, with more than one stack (a vision tower, an encoder), its stack, since every stack
    numbers its layers from 0."""
    stacked = len(report.layer_stacks) > 1
    rows = [
        [*([row.stack] if stacked else []), str(row.index), row.mixer, row.kind, *_layer_figures(row)]
        for row in report.layers
    ]
    headers = [*(["stack"] if stacked else []), "layer", "mixer", "ffn", "params", "active", ""]
    first = int(stacked)  # the layer number, then the figures, right-aligned
    table = format_table(headers, rows, right={first, first + 3, first + 4, first + 5})
    return "\n".join([*_headline(report), "", table])


def _layer_figures(row: LayerRow) -> list[str]:
    return [f"{row.params:,}", f"{row.active:,}", human(row.params)]
