"""``paramtally memory SOURCE``: memory per GPU, FLOPs and which GPU setups fit."""

from __future__ import annotations

import argparse

from paramtally.core.cli.output import add_output_arguments, emit, emit_export, format_table
from paramtally.core.cli.scenario_flags import (
    add_scenario_arguments,
    read_scenario,
    say_notes,
    scenario_from_args,
)
from paramtally.core.io.export import about_rows, flops_convention_line, scenario_text
from paramtally.core.io.formats import find_format
from paramtally.core.io.model_sources import read_source
from paramtally.core.io.subjects import memory_export
from paramtally.core.memory.estimate import MemoryReport, Scenario, estimate_memory
from paramtally.core.memory.fit import SetupFit, fit_setups
from paramtally.core.memory.flops import FlopsReport, estimate_flops
from paramtally.core.memory.layout_advice import layout_advice
from paramtally.core.memory.serving import ServingReport, estimate_serving
from paramtally.core.memory.vision import images_text
from paramtally.core.schema import Architecture
from paramtally.core.schema.advice import warn_hints
from paramtally.core.typed_numbers import GB, GIB

__all__ = ["add_arguments", "add_scenario_arguments", "run", "scenario_from_args"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source", metavar="SOURCE", help="preset id, preset JSON, config.json or model folder"
    )
    add_scenario_arguments(parser)
    parser.add_argument(
        "--setups",
        action="store_true",
        help="with a table format (csv, …): the GPU setups table instead of the memory terms",
    )
    parser.add_argument(
        "--max-batch",
        action="store_true",
        help="inference: the largest batch that fits at the context on each listed setup "
        "(always in --format json)",
    )
    add_output_arguments(parser, "memory", own=("table",))


def run(args: argparse.Namespace) -> int:
    preset = read_source(args.source)
    arch = preset.architecture
    flagged = read_scenario(args, arch, preset, args.source)
    scenario, notes = flagged.scenario, flagged.notes
    memory = estimate_memory(arch, scenario)
    flops = estimate_flops(arch, scenario)
    serving = estimate_serving(arch, scenario)
    max_batch = args.max_batch or args.format == "json"
    setups = fit_setups(arch, scenario, max_batch=max_batch and scenario.mode == "inference")
    advice = layout_advice(arch, scenario)  # what the GPU count means, as the memory tab says it
    if args.format == "table":
        images = images_text(arch, scenario)
        table_notes = tuple(note for note in (images, *notes, advice) if note)
        emit(_table(arch, scenario, memory, setups, flops, serving, table_notes), args.output)
    else:  # a table's file records the notes with what it was computed for
        about = about_rows(arch, scenario, args.source) + [
            ("note", note) for note in (*notes, advice) if note
        ]
        emit_export(
            args,
            memory_export(arch, scenario, memory, setups, flops, serving, args.source, about, args.setups),
        )
        say_notes(notes if not find_format(args.format).writes_facts else ())
    warn_hints(arch, scenario, preset.file_keys)  # after the answer: a refused run says one line only
    return 0


def _sizes(count: int) -> tuple[str, str]:
    return f"{count / GIB:,.2f}", f"{count / GB:,.2f}"


def _table(
    arch: Architecture,
    s: Scenario,
    memory: MemoryReport,
    setups: tuple[SetupFit, ...],
    flops: FlopsReport,
    serving: ServingReport | None,
    notes: tuple[str, ...] = (),
) -> str:
    total_gib, total_gb = _sizes(memory.total_bytes)
    head = [
        f"{arch.name}: {total_gib} GiB = {total_gb} GB per GPU ({memory.total_bytes:,} bytes)",
        f"  {scenario_text(s, arch)}",
        *(f"  {note}" for note in notes),
    ]
    if s.pp > 1:
        head.append(f"  busiest pipeline stage: {memory.stage} ({memory.layers_on_gpu} layers)")
    rows = [[one.name, f"{one.value:,}", *_sizes(one.value), one.formula] for one in memory.terms]
    rows.append(["total per GPU", f"{memory.total_bytes:,}", total_gib, total_gb, ""])
    terms = format_table(["term", "bytes", "GiB", "GB", "formula"], rows, right={1, 2, 3})
    parts = "  ".join(f"{part} {value / GIB:,.2f} GiB" for part, value in memory.by_part().items() if value)
    missing = [f"Not modelled: {note}." for note in memory.omissions]
    lines = [*head, "", terms, f"By part: {parts}", *missing, *_file_lines(memory), ""]
    if serving is not None:
        lines += [*_serving_lines(serving), ""]
    lines += [_setups_table(s, setups, arch.generates), *_flops_lines(flops, s)]
    return "\n".join(lines) + "\n"


def _file_lines(memory: MemoryReport) -> list[str]:
    """A GGUF file's estimated size (not on the GPU), each part with its formula."""
    if not memory.file_terms:
        return []
    total = memory.file_terms[-1]
    return [
        f"GGUF file, estimated: {total.value / GB:,.3f} GB (on disk and, its metadata, in host memory)",
        *(f"  {one.name}: {one.formula}" for one in memory.file_terms),
    ]


def _setups_table(s: Scenario, setups: tuple[SetupFit, ...], generates: bool) -> str:
    """The setups that were tried; a model that generates nothing (an encoder alone) has no decode column."""
    headers = ["GPU", "count", "fits", "per GPU GiB", "per GPU GB", "free GB", "layout"]
    if s.mode == "inference":
        headers += ["max context", "prefill s", *(["decode tok/s"] if generates else [])]
        if any(fit.max_batch is not None for fit in setups):
            headers.append("max batch")
    rows = [_setup_row(fit, generates) for fit in setups]
    return format_table(headers, rows, right={1, 3, 4, 5, *range(7, 11)})


def _setup_row(fit: SetupFit, generates: bool) -> list[str]:
    gib, gb = _sizes(fit.per_gpu_bytes)
    row = [
        fit.gpu_name,
        str(fit.count),
        "yes" if fit.fits else "no",
        gib,
        gb,
        f"{fit.free_bytes / GB:,.2f}",
        fit.layout,
    ]
    if fit.max_context is not None:
        row.append(f"{fit.max_context:,}" if fit.max_context else "none")
        row.append(f"{fit.prefill_seconds:,.3g}" if fit.prefill_seconds is not None else "")
        if generates:
            decode = fit.decode_tokens_per_second
            row.append(f"{decode:,.1f}" if decode is not None else "")
    if fit.max_batch is not None:
        row.append(f"{fit.max_batch:,}")
    return row


def _serving_lines(serving: ServingReport) -> list[str]:
    gpus = f"{serving.gpus} × {serving.gpu_name}"
    price = (
        f", ${serving.usd_per_gpu_hour:g} per GPU-hour"
        if serving.usd_per_gpu_hour is not None
        else " (no price in the GPU catalog: set usd_per_hour in your gpus.json)"
    )
    verdict = "" if serving.fits else " — does not fit: the figures are for the memory it would need"
    bound = f"; decode {serving.decode_bound} bound" if serving.decode_bound else "; generates no tokens"
    return [
        f"Serving on {gpus}{price}: largest batch that fits {serving.max_batch:,}{bound}{verdict}",
        *(f"  {one.name}: {one.formula}" for one in serving.terms),
    ]


def _flops_lines(flops: FlopsReport, s: Scenario) -> list[str]:
    return [
        f"FLOPs ({flops_convention_line(s)}):",
        *(f"  {one.name}: {one.formula}" for one in flops.terms),
        f"  training on {flops.tokens:,} tokens: {flops.days:,.1f} days on {flops.gpus} × {flops.gpu} "
        f"at {flops.mfu:.0%} MFU, {flops.attention_flops} attention "
        f"({flops.peak_flops / 1e12:,.0f} TFLOP/s peak each)",
    ]
