"""``paramtally memory SOURCE``: memory per GPU, FLOPs and which GPU setups fit."""

from __future__ import annotations

import argparse
from dataclasses import asdict, fields
from typing import Any, get_args

from paramtally.core.cli.output import add_output_arguments, emit, emit_json, format_table
from paramtally.core.export import (
    GPU_COLUMNS,
    MEMORY_COLUMNS,
    gpu_rows,
    memory_rows,
    scenario_text,
    to_csv,
)
from paramtally.core.fit import SetupFit, fit_setups
from paramtally.core.flops import FlopsReport, estimate_flops
from paramtally.core.hints import warn_hints
from paramtally.core.memory import MemoryReport, Scenario, estimate_memory
from paramtally.core.quant import Dtype, KvDtype, QuantId
from paramtally.core.scenario import Mode, Optimizer, Recompute
from paramtally.core.sources import load_source

__all__ = ["add_arguments", "add_scenario_arguments", "run", "scenario_from_args"]

GIB, GB = 1 << 30, 10**9


def _choices(kind: Any) -> list[str]:
    return list(get_args(kind))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source", metavar="SOURCE", help="preset id, preset JSON, config.json or model folder"
    )
    add_scenario_arguments(parser)
    parser.add_argument(
        "--setups",
        action="store_true",
        help="with --format csv: the GPU setups table instead of the memory terms",
    )
    add_output_arguments(parser, ("table", "json", "csv"))


def add_scenario_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags that describe a Scenario (``scenario_from_args`` reads them)."""
    parser.add_argument("--mode", choices=_choices(Mode), help="inference (default) or training")
    weights = parser.add_mutually_exclusive_group()
    weights.add_argument("--dtype", choices=_choices(Dtype), help="weight dtype (default bf16)")
    weights.add_argument("--quant", choices=_choices(QuantId), help="weight quantization format")
    parser.add_argument("--kv-dtype", choices=_choices(KvDtype), help="KV-cache dtype (default bf16)")
    parser.add_argument("--context", type=int, metavar="N", help="tokens per sequence (default 4096)")
    parser.add_argument("--batch", type=int, metavar="N", help="sequences at once / micro-batch (default 1)")
    parser.add_argument("--optimizer", choices=_choices(Optimizer), help="training optimizer (default adamw)")
    parser.add_argument("--grad-dtype", choices=["bf16", "fp32"], help="gradient dtype (default bf16)")
    parser.add_argument("--zero", type=int, metavar="0-3", help="ZeRO stage (3 = FSDP)")
    parser.add_argument("--tp", type=int, metavar="N", help="tensor-parallel size")
    parser.add_argument("--pp", type=int, metavar="N", help="pipeline-parallel size")
    parser.add_argument("--gpus", type=int, metavar="N", help="total GPUs (data parallel = gpus/(tp·pp))")
    parser.add_argument(
        "--ep", type=int, metavar="N", help="expert-parallel size: routed experts over N data-parallel GPUs"
    )
    parser.add_argument(
        "--virtual-stages", type=int, metavar="V", help="interleaved pipeline: layer chunks per GPU"
    )
    parser.add_argument(
        "--micro-batches", type=int, metavar="N", help="micro-batches per step (default: at least pp)"
    )
    parser.add_argument(
        "--sequence-parallel",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="shard norm and dropout activations over the TP group (training)",
    )
    parser.add_argument(
        "--vocab-padding",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="Megatron-LM vocabulary padding to a multiple of 128·tp (training)",
    )
    parser.add_argument("--recompute", choices=_choices(Recompute), help="activation recomputation")
    parser.add_argument(
        "--flash-attention",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="fused attention: no s×s scores kept (default on)",
    )
    parser.add_argument("--lora-rank", type=int, metavar="R", help="train LoRA adapters of rank R")
    parser.add_argument("--lora-targets", metavar="LIST", help="comma list of q,k,v,o,gate,up,down")
    parser.add_argument("--qlora", action="store_true", default=None, help="frozen base in NF4 (QLoRA)")
    parser.add_argument("--tokens", type=int, metavar="D", help="training tokens (default 20·N)")
    default_gpu = Scenario.model_fields["gpu"].default
    parser.add_argument(
        "--gpu", metavar="ID", help=f"GPU kind (catalog id) for time and capacity (default {default_gpu})"
    )
    parser.add_argument("--mfu", type=float, metavar="F", help="model FLOPs utilization, 0–1 (default 0.4)")


_FIELDS = (
    "mode dtype quant kv_dtype context batch optimizer grad_dtype zero tp pp gpus ep virtual_stages "
    "micro_batches sequence_parallel vocab_padding recompute flash_attention lora_rank qlora tokens gpu mfu"
).split()


def scenario_from_args(args: argparse.Namespace) -> Scenario:
    """The Scenario the flags describe; unset flags keep the Scenario defaults."""
    values: dict[str, Any] = {
        name: getattr(args, name) for name in _FIELDS if getattr(args, name) is not None
    }
    if args.gpus is None and (args.tp or args.pp or args.ep):  # `--tp 2` alone means two GPUs
        values["gpus"] = (args.tp or 1) * (args.pp or 1) * (args.ep or 1)
    if args.lora_targets is not None:
        values["lora_targets"] = tuple(part.strip() for part in args.lora_targets.split(",") if part.strip())
    return Scenario.model_validate(values)


def run(args: argparse.Namespace) -> int:
    arch = load_source(args.source)
    scenario = scenario_from_args(args)
    memory = estimate_memory(arch, scenario)
    flops = estimate_flops(arch, scenario)
    setups = fit_setups(arch, scenario)
    if args.format == "json":
        emit_json(memory_json(arch.name, scenario, memory, setups, flops), args.output)
    elif args.format == "csv" and args.setups:
        emit(to_csv(gpu_rows(setups), GPU_COLUMNS), args.output)
    elif args.format == "csv":
        emit(to_csv(memory_rows(memory), MEMORY_COLUMNS), args.output)
    else:
        emit(_table(arch.name, scenario, memory, setups, flops), args.output)
    warn_hints(arch, scenario.context)  # after the answer: a refused run says one line only
    return 0


def memory_json(
    name: str, scenario: Scenario, memory: MemoryReport, setups: tuple[SetupFit, ...], flops: FlopsReport
) -> dict[str, Any]:
    data: dict[str, Any] = {"model": name, "scenario": scenario.model_dump(mode="json")}
    data |= {f"{part}_bytes": value for part, value in memory.by_part().items()}
    data |= {
        "total_bytes": memory.total_bytes,
        "stage": memory.stage,
        "layers_on_gpu": memory.layers_on_gpu,
        "params": memory.params,
        "trainable_params": memory.trainable_params,
        "omissions": list(memory.omissions),
        "terms": memory_rows(memory),
        "setups": [asdict(fit) for fit in setups],
    }
    flops_data = {key: value for key, value in asdict_shallow(flops).items() if key != "terms"}
    flops_data["terms"] = [
        {"name": one.name, "flops": one.value, "formula": one.formula, "source": one.source}
        for one in flops.terms
    ]
    flops_data["days"] = flops.days
    data["flops"] = flops_data
    return data


def asdict_shallow(report: FlopsReport) -> dict[str, Any]:
    return {field.name: getattr(report, field.name) for field in fields(report)}


def _sizes(count: int) -> tuple[str, str]:
    return f"{count / GIB:,.2f}", f"{count / GB:,.2f}"


def _table(
    name: str, s: Scenario, memory: MemoryReport, setups: tuple[SetupFit, ...], flops: FlopsReport
) -> str:
    total_gib, total_gb = _sizes(memory.total_bytes)
    head = [
        f"{name}: {total_gib} GiB = {total_gb} GB per GPU ({memory.total_bytes:,} bytes)",
        f"  {scenario_text(s)}",
    ]
    if s.pp > 1:
        head.append(f"  busiest pipeline stage: {memory.stage} ({memory.layers_on_gpu} layers)")
    rows = [[one.name, f"{one.value:,}", *_sizes(one.value), one.formula] for one in memory.terms]
    rows.append(["total per GPU", f"{memory.total_bytes:,}", total_gib, total_gb, ""])
    terms = format_table(["term", "bytes", "GiB", "GB", "formula"], rows, right={1, 2, 3})
    parts = "  ".join(f"{part} {value / GIB:,.2f} GiB" for part, value in memory.by_part().items() if value)
    setup_rows = [_setup_row(fit) for fit in setups]
    headers = ["GPU", "count", "fits", "per GPU GiB", "per GPU GB", "free GB", "layout"]
    if s.mode == "inference":
        headers += ["max context", "decode tok/s"]
    fits = format_table(headers, setup_rows, right={1, 3, 4, 5, 7, 8})
    missing = [f"Not modelled: {note}." for note in memory.omissions]
    lines = [*head, "", terms, f"By part: {parts}", *missing, "", fits, *_flops_lines(flops)]
    return "\n".join(lines) + "\n"


def _setup_row(fit: SetupFit) -> list[str]:
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
        rate = f"{fit.decode_tokens_per_s:,.1f}" if fit.decode_tokens_per_s is not None else ""
        row += [f"{fit.max_context:,}" if fit.max_context else "none", rate]
    return row


def _flops_lines(flops: FlopsReport) -> list[str]:
    return [
        "FLOPs:",
        *(f"  {one.name}: {one.formula}" for one in flops.terms),
        f"  training on {flops.tokens:,} tokens: {flops.days:,.1f} days on {flops.gpus} × {flops.gpu} "
        f"at {flops.mfu:.0%} MFU "
        f"({flops.peak_flops / 1e12:,.0f} TFLOP/s peak each)",
    ]
