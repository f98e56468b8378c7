"""CSV and JSON exports: header row, stable columns, plain integers, UTF-8; unwritable paths say so."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from paramtally.core.cli import main
from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.io.export import (
    BOM,
    BREAKDOWN_COLUMNS,
    GPU_COLUMNS,
    LAYER_COLUMNS,
    MEMORY_COLUMNS,
    about_rows,
    breakdown_rows,
    export_json,
    gpu_rows,
    layer_rows,
    memory_rows,
    scenario_text,
    to_csv,
    to_json,
    to_tsv,
    write_export,
)
from paramtally.core.io.model_sources import load_source
from paramtally.core.memory.estimate import Scenario, estimate_memory
from paramtally.core.memory.fit import fit_setups
from paramtally.core.schema import Architecture

GPT3_TOTAL = 175_221_817_344  # REFERENCE.md worked example


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(stream))


def test_gpt3_breakdown_csv_leaves_sum_to_the_total(tmp_path: Path) -> None:
    target = tmp_path / "gpt3.csv"
    assert main(["count", "gpt3-175b", "--format", "csv", "--output", str(target)]) == 0
    rows = _read(target)
    assert tuple(rows[0].keys()) == BREAKDOWN_COLUMNS
    assert sum(int(row["params"]) for row in rows if row["is_leaf"] == "true") == GPT3_TOTAL
    assert int(rows[0]["params"]) == GPT3_TOTAL and rows[0]["depth"] == "0"
    assert all(row["params"].isdigit() for row in rows)  # plain integers, no separators
    assert any("·" in row["formula"] for row in rows)  # UTF-8 formulas survive the round trip


def test_layer_csv_has_one_row_per_layer(tmp_path: Path) -> None:
    target = tmp_path / "layers.csv"
    assert main(["count", "gpt3-175b", "--format", "csv", "--layers", "-o", str(target)]) == 0
    rows = _read(target)
    report = count_parameters(load_source("gpt3-175b"))
    assert tuple(rows[0].keys()) == LAYER_COLUMNS
    assert [int(row["layer"]) for row in rows] == list(range(96))
    assert sum(int(row["params"]) for row in rows) == sum(layer.params for layer in report.layers)


@pytest.mark.parametrize(
    ("preset", "groups"),
    [
        ("deepseek-v3", {"decoder": [0] * 3 + [1] * 58}),  # 3 dense layers, then the MoE group
        ("t5-base", {"encoder": [0] * 12, "decoder": [0] * 12}),  # each stack's own first group
        ("jamba-v0.1", {"decoder": [0] * 32}),  # one pattern group, whatever its 8 runs
    ],
)
def test_the_layer_csv_group_is_the_stacks_layer_group(preset: str, groups: dict[str, list[int]]) -> None:
    """As the layer tree lists a stack's groups (and field paths address them), not the runs."""
    rows = list(
        csv.DictReader(io.StringIO(to_csv(layer_rows(count_parameters(load_source(preset))), LAYER_COLUMNS)))
    )
    assert {stack: [int(r["group"]) for r in rows if r["stack"] == stack] for stack in groups} == groups


def test_shares_are_plain_decimals() -> None:
    text = to_csv(breakdown_rows(count_parameters(load_source("gpt3-175b"))), BREAKDOWN_COLUMNS)
    shares = [row["share"] for row in csv.DictReader(io.StringIO(text))]
    assert shares[0] == "1"
    assert all("e" not in share.lower() and 0 <= float(share) <= 1 for share in shares)


def test_memory_csv_sums_to_the_gpu_total() -> None:
    arch = load_source("gpt3-175b")
    memory = estimate_memory(arch, Scenario())
    rows = list(csv.DictReader(io.StringIO(to_csv(memory_rows(memory), MEMORY_COLUMNS))))
    assert tuple(rows[0].keys()) == MEMORY_COLUMNS
    assert sum(int(row["bytes"]) for row in rows) == memory.total_bytes
    assert {row["part"] for row in rows} <= set(memory.by_part())


def test_gpu_csv_has_a_verdict_per_setup() -> None:
    arch = load_source("gpt3-175b")
    setups = fit_setups(arch, Scenario())
    rows = list(csv.DictReader(io.StringIO(to_csv(gpu_rows(setups), GPU_COLUMNS))))
    assert tuple(rows[0].keys()) == GPU_COLUMNS
    assert len(rows) == len(setups)
    for row, setup in zip(rows, setups, strict=True):
        assert row["fits"] == ("true" if setup.fits else "false")
        assert int(row["free_bytes"]) == int(row["capacity_bytes"]) - int(row["per_gpu_bytes"])
        assert row["per_gpu_bytes"].isdigit()


def test_json_export_holds_the_same_rows() -> None:
    arch = load_source("gpt3-175b")
    report = count_parameters(arch)
    memory = estimate_memory(arch, Scenario())
    setups = fit_setups(arch, Scenario())
    data = json.loads(to_json(export_json(report, memory, setups)))
    assert [row["fits"] for row in data["gpus"]] == [setup.fits for setup in setups]
    assert data["total"] == GPT3_TOTAL
    assert data["breakdown"] == json.loads(json.dumps(breakdown_rows(report)))
    assert data["layers"] == layer_rows(report)
    assert sum(row["params"] for row in data["breakdown"] if row["is_leaf"]) == GPT3_TOTAL
    assert sum(row["bytes"] for row in data["memory"]["terms"]) == data["memory"]["total_bytes"]


def test_unwritable_places_give_one_clear_line_and_change_nothing(tmp_path: Path) -> None:
    existing = tmp_path / "keep.csv"
    existing.write_text("old", encoding="utf-8")
    blocked = [tmp_path / "no-such-folder" / "x.csv", existing / "x.csv", tmp_path]
    for target in blocked:
        with pytest.raises(ParamTallyError, match=f"^cannot write {target}: "):
            write_export(target, "new")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["keep.csv"]
    assert existing.read_text(encoding="utf-8") == "old"


def test_cli_unwritable_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "missing" / "out.csv"
    assert main(["count", "gpt3-175b", "--format", "csv", "--output", str(target)]) == 2
    err = capsys.readouterr().err
    assert err == f"paramtally count: cannot write {target}: No such file or directory\n"
    assert list(tmp_path.iterdir()) == []


def test_csv_about_lines_record_model_scenario_and_architecture() -> None:
    arch = load_source("gpt3-175b")
    scenario = Scenario(context=8192, batch=4, gpus=8, tp=8, kv_dtype="fp8")
    memory = estimate_memory(arch, scenario)
    text = to_csv(memory_rows(memory), MEMORY_COLUMNS, about_rows(arch, scenario, "gpt3-175b.json"))
    head, _, table = text.partition("\n\n")
    about = {key.removeprefix("# "): value for key, value in csv.reader(io.StringIO(head))}
    assert about["model"] == "GPT-3 175B" and about["source"] == "gpt3-175b.json"
    assert Architecture.model_validate_json(about["architecture json"]) == arch  # the whole model
    assert Scenario.model_validate_json(about["scenario json"]) == scenario
    assert about["scenario"] == scenario_text(scenario)
    assert "context 8,192, batch 4, tp 8 · pp 1 · 8 GPUs, KV fp8" in about["scenario"]
    rows = list(csv.DictReader(io.StringIO(table)))
    assert sum(int(row["bytes"]) for row in rows) == memory.total_bytes
    # pandas' comment="#" skips the record: every line of it starts with '#'.
    assert all(line.startswith("# ") for line in head.splitlines())


def test_excel_csv_starts_with_a_byte_order_mark_and_reads_back_as_utf8_sig() -> None:
    report = count_parameters(load_source("gpt3-175b"))
    text = to_csv(breakdown_rows(report), BREAKDOWN_COLUMNS, excel=True)
    assert text.startswith(BOM) and not to_csv(breakdown_rows(report), BREAKDOWN_COLUMNS).startswith(BOM)
    data = text.encode("utf-8")
    assert data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert tuple(rows[0]) == BREAKDOWN_COLUMNS and int(rows[0]["params"]) == GPT3_TOTAL
    assert any("·" in row["formula"] for row in rows)


def test_tab_separated_rows_for_the_clipboard() -> None:
    report = count_parameters(load_source("gpt3-175b"))
    text = to_tsv(breakdown_rows(report)[:3], BREAKDOWN_COLUMNS)
    lines = text.splitlines()
    assert lines[0].split("\t") == list(BREAKDOWN_COLUMNS)
    assert len(lines) == 4 and lines[1].split("\t")[BREAKDOWN_COLUMNS.index("params")] == str(GPT3_TOTAL)
    assert list(csv.DictReader(io.StringIO(text), delimiter="\t")) == list(
        csv.DictReader(io.StringIO(to_csv(breakdown_rows(report)[:3], BREAKDOWN_COLUMNS)))
    )


def test_json_export_records_architecture_and_scenario() -> None:
    arch = load_source("llama-2-7b")
    scenario = Scenario(context=2048, gpus=2, tp=2)
    data = json.loads(to_json(export_json(count_parameters(arch), architecture=arch, scenario=scenario)))
    assert Architecture.model_validate(data["architecture"]) == arch
    assert Scenario.model_validate(data["scenario"]) == scenario
