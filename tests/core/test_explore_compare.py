"""Compare: every column's figures are the calculator's; differences and the schema diff are exact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paramtally.core.cli import main
from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing import layer_ops
from paramtally.core.editing.edits import with_value
from paramtally.core.explore.compare import Column, compare, schema_diff
from paramtally.core.io.model_sources import load_source
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.estimate import Scenario, estimate_memory
from paramtally.core.memory.fit import fit_setups
from tests.csv_text import read_csv_text

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("llama-3-8b", "llama-3-70b", "mixtral-8x7b")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_columns_equal_count_and_memory(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "compare", *SOURCES, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert [column["source"] for column in data["columns"]] == list(SOURCES)
    for column in data["columns"]:
        arch = load_builtin(column["source"])
        report = count_parameters(arch)
        assert (column["total"], column["active"]) == (report.total, report.active)
        assert column["memory_bytes"] == estimate_memory(arch, Scenario()).total_bytes
        assert {part["part"]: part["params"] for part in column["parts"] if part["params"]} == {
            part: value for part, value in report.by_part.items() if value
        }
        verdicts = {(s.gpu, s.count): s.fits for s in fit_setups(arch, Scenario())}
        assert {(s["gpu"], s["count"]): s["fits"] for s in column["setups"]} == verdicts
    assert data["columns"][2]["total"] != data["columns"][2]["active"]  # Mixtral routes 2 of 8


def test_differences_are_against_the_chosen_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "compare", *SOURCES, "--baseline", "llama-3-70b", "--format", "json")
    data = json.loads(out)
    assert data["baseline"] == "llama-3-70b"
    base = data["columns"][1]
    for column in data["columns"]:
        delta = column["delta"]["total"]
        assert delta["delta"] == column["total"] - base["total"]
        assert delta["delta_pct"] == pytest.approx(100 * delta["delta"] / base["total"])
    mixtral_experts = next(p for p in data["columns"][2]["parts"] if p["part"] == "moe_experts")
    assert mixtral_experts["delta"] == mixtral_experts["params"]  # the 70B has none
    assert mixtral_experts["delta_pct"] is None  # no percentage of zero


def test_schema_diff_walks_blocks_and_layer_groups(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "compare", *SOURCES, "--format", "json")
    diff = {(d["source"], tuple(d["path"])): (d["before"], d["after"]) for d in json.loads(out)["diff"]}
    assert diff["llama-3-70b", ("hidden_size",)] == (4096, 8192)
    assert diff["llama-3-70b", ("blocks", "default", "ffn", "width")] == (14336, 28672)
    assert diff["llama-3-70b", ("decoder", "layers", 0, "count")] == (32, 80)
    before, after = diff["mixtral-8x7b", ("decoder", "layers", 0, "override", "ffn")]
    assert before is None and after["kind"] == "moe" and after["num_experts"] == 8
    assert not any(source == "llama-3-8b" for source, _ in diff)  # the baseline against itself


def test_parts_of_different_kinds_differ_whole() -> None:
    dense = load_builtin("deepseek-v3")
    changed = with_value(dense, ("blocks", "default", "mixer"), {"kind": "attention", "num_heads": 56})
    found = {d.path: (d.before, d.after) for d in schema_diff(dense, changed)}
    before, after = found["blocks", "default", "mixer"]
    assert before["kind"] == "mla" and after["kind"] == "attention"


def test_a_group_edit_is_one_difference_however_the_overrides_spell_it() -> None:
    """QA: 24 experts in one of Jamba's groups and an FFN width in another listed 14 differences:
    the edited overrides spelled out gated, activation, router bias… and dropped q_bias: false."""
    jamba = load_builtin("jamba-v0.1")
    edited = layer_ops.with_group_value(
        jamba, ("decoder", "layers", 0, "pattern", 1), ("ffn", "num_experts"), 24
    )
    edited = layer_ops.with_group_value(
        edited, ("decoder", "layers", 0, "pattern", 4), ("ffn", "width"), 8192
    )
    assert [(diff.path[-2:], diff.before, diff.after) for diff in schema_diff(jamba, edited)] == [
        (("ffn", "num_experts"), 16, 24),
        (("override", "ffn"), None, {"width": 8192}),
    ]
    assert not list(schema_diff(jamba, load_source("jamba-v0.1")))


def test_a_pinned_variant_compares_with_the_open_document() -> None:
    arch = load_builtin("llama-3-8b")
    pinned = with_value(arch, ("blocks", "default", "mixer", "num_kv_heads"), 4)
    result = compare([Column("open document", arch), Column("pinned", pinned)], Scenario(context=32768))
    assert result.columns[1].total == count_parameters(pinned).total
    kv = result.delta(1, "attention")
    assert (
        kv.absolute
        == count_parameters(pinned).by_part["attention"] - count_parameters(arch).by_part["attention"]
    )
    memory = estimate_memory(pinned, Scenario(context=32768)).total_bytes
    assert result.columns[1].memory_bytes == memory
    assert [(d.path, d.before, d.after) for d in result.diffs[1]] == [
        (("blocks", "default", "mixer", "num_kv_heads"), 8, 4)
    ]


def test_a_scenario_one_column_cannot_take_is_said_in_that_column() -> None:
    result = compare(
        [Column("a", load_builtin("llama-3-8b")), Column("b", load_builtin("gpt2"))], Scenario(tp=8, gpus=8)
    )
    assert result.columns[0].memory_bytes is not None
    assert result.columns[1].memory_bytes is None and "tensor parallel" in result.columns[1].memory_problem
    # QA: its GPU setups were dropped with the memory figure: GPT-2 'fits on no GPU' at all.
    assert result.fewest_gpus(1, "rtx-3090") == 1


def test_csv_goes_through_the_export_writer(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "compare", *SOURCES, "--format", "csv")
    _, about, rows = read_csv_text(out)
    assert about["scenario"].startswith("inference, weights bf16") and "model" not in about
    totals = {
        row["source"]: int(row["value"])
        for row in rows
        if (row["section"], row["item"]) == ("headline", "total")
    }
    assert totals == {source: count_parameters(load_builtin(source)).total for source in SOURCES}
    schema = [row for row in rows if row["section"] == "schema" and row["item"] == "hidden_size"]
    assert [(row["source"], row["baseline"], row["value"]) for row in schema] == [
        ("llama-3-70b", "4096", "8192")
    ]


def test_table_names_every_source(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", *SOURCES)
    assert code == 0
    assert "llama-3-8b (baseline)" in out and "mixtral-8x7b" in out and "hidden_size: 4096 → 8192" in out


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("compare", "llama-3-8b", "nope-model"), "unknown preset 'nope-model'"),
        (("compare", "llama-3-8b", "llama-3-70b", "--baseline", "gpt2"), "--baseline"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], said: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out
    assert said in err and err.count("\n") == 1 and "Traceback" not in err


def test_columns_from_files_a_preset_json_and_a_config_json(capsys: pytest.CaptureFixture[str]) -> None:
    preset = ROOT / "presets" / "llama-3-8b.json"
    config = ROOT / "tests" / "data" / "hf_configs" / "llama-2-7b.json"
    code, out, err = run(capsys, "compare", str(preset), str(config), "--format", "json")
    assert code == 0, err
    columns = json.loads(out)["columns"]
    assert columns[0]["total"] == count_parameters(load_builtin("llama-3-8b")).total
    assert columns[1]["total"] == count_parameters(load_source(str(config))).total
    assert columns[1]["source"] == str(config)


def test_a_dense_column_beside_expert_parallelism_fits_at_ep_1(capsys: pytest.CaptureFixture[str]) -> None:
    """QA: ``compare mixtral-8x7b gpt2 --ep 8 --gpus 8`` said 'no' on every fits row for GPT-2, as if
    it fitted nowhere: EP 8 was refused for it (it has no experts) and no setup was laid out. Its
    memory figure stays refused, as ``memory gpt2 --ep 8`` refuses it; its setups are at EP 1."""
    code, out, _ = run(capsys, "compare", "mixtral-8x7b", "gpt2", "--ep", "8", "--gpus", "8")
    assert code == 0
    gpt2 = load_builtin("gpt2")
    setups = fit_setups(gpt2, Scenario(ep=1, gpus=8))
    for gpu in ("rtx-3090", "h100-sxm-80gb"):
        fewest = min(s.count for s in setups if s.gpu == gpu and s.fits)
        row = next(line for line in out.splitlines() if line.startswith(f"fits on {gpu} "))
        assert row.endswith(f" {fewest} GPU" + ("s" if fewest > 1 else ""))
    assert "ep: expert parallelism needs MoE layers" in out  # the memory per GPU cell
    assert "  gpt2: its setups at EP 1: no experts to spread over EP 8\n" in out
    # The scenario line is the memory command's (ZeRO and EP were left out).
    _, memory, _ = run(capsys, "memory", "mixtral-8x7b", "--ep", "8", "--gpus", "8")
    assert out.splitlines()[0] == "Scenario: " + memory.splitlines()[1].strip()
    assert "· ep 8" in out.splitlines()[0]
    _, training, _ = run(
        capsys, "compare", "llama-3-8b", "gpt2", "--mode", "training", "--gpus", "8", "--zero", "2"
    )
    assert "8 GPUs · ZeRO-2" in training.splitlines()[0]
