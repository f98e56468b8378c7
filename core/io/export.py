"""Tables as JSON-ready rows, CSV and tab-separated text: plain integers, stable column names, UTF-8.

Four tables: the parameter breakdown (one row per node of the tree), the per-layer table, the
memory terms of one GPU and the GPU setups; and a comparison of architectures side by side
(long-form rows: headline, parts, GPU fits, schema diff). The CLI, the window's File → Export and its Copy
(Ctrl+C) all write through here. ``write_export`` writes atomically and says clearly when the
place cannot be written.

A CSV may open with ``about`` lines that record what it was computed for (model, scenario,
architecture as JSON): each starts with ``#``, then one empty line, then the header row
(``pandas.read_csv(path, comment="#")`` skips them). ``excel=True`` starts the text with a
byte-order mark: Excel reads a CSV without one in the machine's legacy code page, and the
formulas' ·, ² and × turn into mojibake; LibreOffice, pandas (``utf-8-sig``) and Google Sheets
read either.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paramtally.core.count.breakdown import PARTS, ParamReport
from paramtally.core.errors import ParamTallyError
from paramtally.core.files.package_data import version
from paramtally.core.io.atomic import write_text_atomic
from paramtally.core.terms.term import Term
from paramtally.core.text import escaped, json_text, say
from paramtally.core.typed_numbers import GIB

if TYPE_CHECKING:
    from paramtally.core.memory.estimate import MemoryReport
    from paramtally.core.memory.fit import SetupFit
    from paramtally.core.memory.flops import FlopsReport
    from paramtally.core.memory.scenario import Scenario
    from paramtally.core.memory.serving import ServingReport
    from paramtally.core.schema import Architecture

__all__ = [
    "BOM",
    "BREAKDOWN_COLUMNS",
    "GPU_COLUMNS",
    "LAYER_COLUMNS",
    "MAX_LAYER_ROWS",
    "MEMORY_COLUMNS",
    "SERVING_KEYS",
    "about_rows",
    "bandwidth_line",
    "breakdown_rows",
    "check_layer_rows",
    "export_json",
    "flops_convention_line",
    "flops_json",
    "gpu_rows",
    "group_rows",
    "layer_rows",
    "memory_figures",
    "memory_json",
    "memory_rows",
    "report_json",
    "scenario_text",
    "serving_json",
    "to_csv",
    "to_json",
    "to_tsv",
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
    "prefill_seconds",
    "decode_tokens_per_second",
    "max_batch",
)
MAX_LAYER_ROWS = 10_000  # real models have a few hundred layers; beyond, a per-layer table is unreadable
BOM = "\ufeff"


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
            "params": node.value,
            "share": _share(node.value, report.total),
            "added": node.added,
            "formula": node.full_formula,
        }
        for path, depth, node in report.walk()
    ]


def check_layer_rows(report: ParamReport) -> None:
    """A per-layer table is one row per layer: refuse one too long to be read (10⁹ layers)."""
    count = sum(group.layers for group in report.layer_groups)
    if count > MAX_LAYER_ROWS:
        raise ParamTallyError(
            say(
                "the per-layer table would have {count:,} rows (at most {most:,}); "
                "the breakdown by term gives every figure per group",
                count=count,
                most=MAX_LAYER_ROWS,
            )
        )


def layer_rows(report: ParamReport) -> list[dict[str, Any]]:
    check_layer_rows(report)
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
            "gib": round(term.value / GIB, 6),
            "share": _share(term.value, memory.total_bytes),
            "formula": term.formula,
            "source": term.source,
        }
        for term in memory.terms
    ]


def gpu_rows(setups: Iterable[SetupFit]) -> list[dict[str, Any]]:
    """One row per GPU kind × count: verdict, bytes per GPU, capacity, free (negative: missing)."""
    return [{column: getattr(setup, column) for column in GPU_COLUMNS} for setup in setups]


def group_rows(report: ParamReport) -> list[dict[str, Any]]:
    """One row per run of layers of one block (its figures per layer): what a per-layer table
    holds (the vision tower's first), in as many rows as the model has runs however many layers
    they hold."""
    return [
        {
            "stack": row.stack,
            "group": row.group,
            "start": row.start,
            "count": row.count,
            "repeats": row.repeats,
            "period": row.period,
            "layers": row.layers,
            "mixer": row.mixer,
            "kind": row.kind,
            "params": row.params,
            "active": row.active,
            **{part: row.by_part.get(part, 0) for part in PARTS},
        }
        for row in report.layer_groups
    ]


def report_json(report: ParamReport, layers: bool = False) -> dict[str, Any]:
    """The ``count --format json`` object: totals, leaf parts, by-part sums and the runs of layers
    (``groups``), with ``layers`` the per-layer rows too; the MTP modules' leaf parts apart
    (``mtp_parts``), as their total is."""
    data = {
        "name": report.name,
        "total": report.total,
        "active": report.active,
        "base": report.base,
        "added": report.added,
        "mtp": report.mtp,
        "total_with_mtp": report.total_with_mtp,
        "by_part": {part: report.by_part[part] for part in PARTS if part in report.by_part},
        "parts": _leaf_parts(report.tree),
        "mtp_parts": _leaf_parts(report.mtp_tree) if report.mtp_tree is not None else [],
        "groups": group_rows(report),
    }
    if report.is_multimodal:  # a vision-language model: its parts and the text-only total
        data |= {
            "vision_tower": report.vision,
            "projector": report.projector,
            "language_model": report.language_model,
            "text_only_active": report.language_model_active,
        }
    return data | {"layers": layer_rows(report)} if layers else data


def _leaf_parts(tree: Term) -> list[dict[str, Any]]:
    return [
        {
            "name": node.name,
            "path": list(path),
            "part": node.part,
            "params": node.value,
            "count": node.count,
            "added": node.added,
            "formula": node.full_formula,
        }
        for path, node in tree.leaves()
    ]


def export_json(
    report: ParamReport,
    memory: MemoryReport | None = None,
    setups: Iterable[SetupFit] | None = None,
    architecture: Architecture | None = None,
    scenario: Scenario | None = None,
    serving: ServingReport | None = None,
) -> dict[str, Any]:
    """Everything the CSV files hold, in one JSON object (same rows, same column names), with the
    architecture (the preset JSON's shape), the scenario the figures are for and, when serving,
    the serving figures."""
    data: dict[str, Any] = {
        "name": report.name,
        "total": report.total,
        "active": report.active,
    }
    if architecture is not None:
        data["architecture"] = architecture.model_dump(mode="json")
    if scenario is not None:
        data["scenario"] = scenario.model_dump(mode="json")
    data |= {"breakdown": breakdown_rows(report), "layers": layer_rows(report)}
    if memory is not None:
        data["memory"] = memory_figures(memory) | (serving_json(serving) if serving else {})
    if setups is not None:
        data["gpus"] = gpu_rows(setups)
    return data


def memory_figures(memory: MemoryReport) -> dict[str, Any]:
    """One GPU's memory: bytes by part (``weights_bytes`` …), the total and the terms behind them."""
    data: dict[str, Any] = {f"{part}_bytes": value for part, value in memory.by_part().items()}
    return data | {
        "total_bytes": memory.total_bytes,
        "by_part": memory.by_part(),
        "stage": memory.stage,
        "layers_on_gpu": memory.layers_on_gpu,
        "params": memory.params,
        "trainable_params": memory.trainable_params,
        "omissions": list(memory.omissions),
        "terms": memory_rows(memory),
        "gguf_file": _file_json(memory),
        "image_tokens": memory.image_tokens,  # in each sequence's context (a vision-language model)
    }


def _file_json(memory: MemoryReport) -> dict[str, Any] | None:
    """Serving from a GGUF file: its estimated size and the terms behind it (null otherwise)."""
    if not memory.file_terms:
        return None
    terms = [
        {"name": one.name, "bytes": one.value, "formula": one.formula, "source": one.source}
        for one in memory.file_terms
    ]
    return {"bytes": memory.file_terms[-1].value, "estimate": True, "terms": terms}


def flops_json(flops: FlopsReport) -> dict[str, Any]:
    data: dict[str, Any] = {
        one.name: getattr(flops, one.name) for one in dataclasses.fields(flops) if one.name != "terms"
    }
    data["days"] = flops.days
    data["terms"] = [
        {"name": one.name, "flops": one.value, "formula": one.formula, "source": one.source}
        for one in flops.terms
    ]
    return data


# The serving figures a ``memory --format json`` object holds at its top level (null in training).
SERVING_KEYS = (
    "prefill_seconds",
    "decode_tokens_per_second",
    "decode_tokens_per_second_per_sequence",
    "max_batch",
    "usd_per_million_output_tokens",
    "usd_per_million_prompt_tokens",
)


def serving_json(serving: ServingReport | None) -> dict[str, Any]:
    """The serving figures (``SERVING_KEYS``, null when training) and, under ``serving``, the rest
    with every term's formula and source."""
    data: dict[str, Any] = {key: getattr(serving, key) if serving else None for key in SERVING_KEYS}
    if serving is None:
        return data | {"serving": None}
    detail = {
        one.name: getattr(serving, one.name)
        for one in dataclasses.fields(serving)
        if one.name not in SERVING_KEYS and one.name != "terms"
    }
    detail["terms"] = [
        {"name": one.name, "value": one.amount, "formula": one.formula, "source": one.source}
        for one in serving.terms
    ]
    return data | {"serving": detail}


def memory_json(
    architecture: Architecture,
    scenario: Scenario,
    memory: MemoryReport,
    setups: Iterable[SetupFit],
    flops: FlopsReport,
    serving: ServingReport | None = None,
    source: str = "",
) -> dict[str, Any]:
    """The ``memory --format json`` object: what it is for (model, scenario, architecture), the
    busiest GPU's memory, the serving figures, every GPU setup, the FLOPs and, where the GPU count
    leaves a choice, the layout advice the memory tab gives."""
    from paramtally.core.memory.layout_advice import layout_advice  # late: count never needs it

    data: dict[str, Any] = {"model": architecture.name}
    if source and source != architecture.name:
        data["source"] = source
    data |= {
        "scenario": scenario.model_dump(mode="json"),
        "architecture": architecture.model_dump(mode="json"),
        **memory_figures(memory),
        **serving_json(serving),
        "setups": [dataclasses.asdict(fit) for fit in setups],
        "flops": flops_json(flops),
    }
    advice = layout_advice(architecture, scenario)
    return data | ({"layout_advice": advice} if advice else {})


def scenario_text(s: Scenario, arch: Architecture | None = None) -> str:
    """The scenario in one line of words, as the CLI's table and an exported memory chart say it.
    Of ``arch`` if given, without the fields it has no use for (``unused_fields``): a vision tower
    alone reads no context and keeps no KV cache; an encoder alone keeps none and generates nothing."""
    from paramtally.core.memory.scenario import (  # late: the CLI's count never needs it
        gpus_text,
        unused_fields,
        weights_format,
    )

    unused = unused_fields(arch) if arch is not None else frozenset()
    weights = weights_format(s) or s.dtype
    layout = f"tp {s.tp} · pp {s.pp} · {gpus_text(s.gpus)}" + (
        f" · ZeRO-{s.zero}" if s.mode == "training" else ""
    )
    layout += f" · ep {s.ep}" if s.ep > 1 else ""
    if s.mode == "training":
        layout += f" · {s.virtual_stages} virtual stages" if s.virtual_stages > 1 else ""
        layout += f" · {s.micro_batches} micro-batches" if s.micro_batches is not None else ""
        layout += " · sequence parallel" if s.sequence_parallel else ""
        layout += " · vocab padded (Megatron)" if s.vocab_padding and "vocab_padding" not in unused else ""
    text = f"{s.mode}, weights {weights}" + (f", context {s.context:,}" if "context" not in unused else "")
    if s.mode == "inference":
        generated = f" + {s.generated:,} generated" if s.generated and "generated" not in unused else ""
        kv = f", KV {s.kv_dtype}" if "kv_dtype" not in unused else ""
        return text + f"{generated}, batch {s.batch}, {layout}{kv}"
    lora = f", LoRA r={s.lora_rank}" + (" (QLoRA)" if s.qlora else "") if s.lora_rank else ""
    text += f", batch {s.batch}, {layout}, {s.optimizer}, grads {s.grad_dtype}, recompute {s.recompute}"
    return text + (f", activations {s.activations}" if "activations" not in unused else "") + lora


def to_json(data: Any) -> str:
    """The JSON every command and the window write (``core.text.json_text``: finite, escaped)."""
    return json_text(data) + "\n"


def write_export(path: Path, text: str) -> Path:
    """Write an export atomically; a folder, a missing folder or no permission is one clear line."""
    write_text_atomic(path, text)
    return path


def about_rows(
    architecture: Architecture | None, scenario: Scenario | None = None, source: str = ""
) -> list[tuple[str, str]]:
    """What a table was computed for, as (key, value) lines for ``to_csv(about=…)``; without an
    architecture (a comparison names its models in its rows) the version and scenario only."""
    rows = [("paramtally", version())]
    if architecture is None:
        return rows + _scenario_about(scenario)
    rows.append(("model", architecture.name))
    if source and source != architecture.name:
        rows.append(("source", source))
    rows += _scenario_about(scenario, architecture)
    rows.append(("architecture json", _compact(architecture.model_dump(mode="json"))))
    return rows


def _scenario_about(scenario: Scenario | None, arch: Architecture | None = None) -> list[tuple[str, str]]:
    if scenario is None:
        return []
    return [
        ("scenario", scenario_text(scenario, arch)),
        ("flops", flops_convention_line(scenario)),
        *([("bandwidth", line)] if (line := bandwidth_line(scenario, arch)) else []),
        ("scenario json", _compact(scenario.model_dump(mode="json"))),
    ]


def bandwidth_line(s: Scenario, arch: Architecture | None = None) -> str:
    """The share of peak HBM bandwidth the serving figures read memory at: a prefill's alone for a
    model that generates nothing (an encoder alone); '' for a vision tower alone, which has no
    serving figures (``Scenario.bandwidth_efficiency`` is no field of its)."""
    from paramtally.core.memory.scenario import unused_fields  # late: the CLI's count never needs it

    if arch is not None and "bandwidth_efficiency" in unused_fields(arch):
        return ""
    if arch is not None and not arch.generates:
        return say(
            "a prefill's weight read at {share:.1%} of the GPU's peak HBM "
            "bandwidth (--bandwidth-efficiency {share:g})",
            share=s.bandwidth_efficiency,
        )
    return say(
        "decode and a prefill's weight read at {share:.1%} of the GPU's peak HBM "
        "bandwidth (--bandwidth-efficiency {share:g})",
        share=s.bandwidth_efficiency,
    )


def flops_convention_line(s: Scenario) -> str:
    """What the training FLOPs and time count of attention, and at which MFU (every FLOPs output
    says it: the CLI's table, the CSVs' '#' lines, the window's compute panel)."""
    from paramtally.core.memory.flops import convention_text  # late: flops imports the memory calculator

    return (
        f"training FLOPs and time count {convention_text(s.attention_flops)} "
        f"(--attention-flops {s.attention_flops}); time at {s.mfu:.0%} MFU"
    )


def _compact(data: Any) -> str:
    return json_text(data, indent=None, separators=(",", ":"))


def to_csv(
    rows: Iterable[Mapping[str, Any]],
    columns: Sequence[str],
    about: Sequence[tuple[str, str]] = (),
    excel: bool = False,
) -> str:
    """CSV text: ``about`` lines first (see the module's docstring), then the header and the rows."""
    buffer = io.StringIO()
    if excel:
        buffer.write(BOM)
    if about:
        lines = csv.writer(buffer, lineterminator="\n")
        lines.writerows([f"# {key}", value] for key, value in about)
        buffer.write("\n")
    _write_rows(buffer, rows, columns, ",")
    return escaped(buffer.getvalue())  # a tensor's name from a checkpoint may hold NUL or U+202E


def to_tsv(rows: Iterable[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """Tab-separated text with a header line: what a spreadsheet takes from the clipboard."""
    buffer = io.StringIO()
    _write_rows(buffer, rows, columns, "\t")
    return escaped(buffer.getvalue())


def _write_rows(
    buffer: io.StringIO, rows: Iterable[Mapping[str, Any]], columns: Sequence[str], delimiter: str
) -> None:
    writer = csv.DictWriter(buffer, fieldnames=list(columns), delimiter=delimiter, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: _csv_value(row[key]) for key in columns})


def _csv_value(value: Any) -> Any:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):  # fixed notation: spreadsheets read "0.00001234" everywhere
        return f"{value:.8f}".rstrip("0").rstrip(".") or "0"
    return value
