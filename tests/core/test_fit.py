"""GPU catalog, fit verdicts a person would agree with, and the ``memory`` command."""

from __future__ import annotations

import csv
import io
import json
import math
import warnings
from pathlib import Path

import pytest

from paramtally.core.cli import main
from paramtally.core.io.export import GPU_COLUMNS, MEMORY_COLUMNS, about_rows, memory_rows, to_csv
from paramtally.core.io.model_sources import load_source
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.estimate import Scenario, estimate_memory
from paramtally.core.memory.fit import COUNTS, chosen_layout, column_description, fit_setups, smallest_fit
from paramtally.core.memory.gpus import CatalogWarning, find_gpu, load_catalog, user_catalog_path
from paramtally.core.schema import Architecture

REQUIRED = {
    "rtx-3090",
    "rtx-4090",
    "rtx-5090",
    "a10g",
    "l4",
    "l40s",
    "a100-40gb",
    "a100-80gb",
    "h100-sxm-80gb",
    "h200-141gb",
    "b200",
    "mi300x",
    "apple-m4-max-128gb",
}


def _setup(fits, gpu: str, count: int):  # type: ignore[no-untyped-def]
    return next(fit for fit in fits if fit.gpu == gpu and fit.count == count)


# --- catalog -------------------------------------------------------------------------------


def test_catalog_has_the_listed_gpus_in_marketed_bytes() -> None:
    catalog = {gpu.id: gpu for gpu in load_catalog()}
    assert REQUIRED <= set(catalog)
    assert catalog["h100-sxm-80gb"].memory_bytes == 80 * 10**9
    assert catalog["apple-m4-max-128gb"].usable_fraction == 0.75
    assert catalog["h100-sxm-80gb"].capacity_bytes(0.9) == 72 * 10**9


def test_user_file_adds_and_replaces(tmp_path: Path) -> None:
    path = tmp_path / "gpus.json"
    mine = {
        "id": "rtx-4090",
        "name": "My 4090",
        "memory_bytes": 25_769_803_776,
        "bf16_tflops": 165,
        "bandwidth_gbs": 1008,
    }
    new = {"id": "my-card", "name": "Mine", "memory_bytes": 10**10, "bf16_tflops": 10, "bandwidth_gbs": 100}
    path.write_text(json.dumps({"gpus": [mine, new]}), encoding="utf-8")
    catalog = {gpu.id: gpu for gpu in load_catalog(path)}
    assert catalog["rtx-4090"].name == "My 4090"
    assert catalog["my-card"].memory_bytes == 10**10
    assert REQUIRED <= set(catalog)


def test_corrupt_user_file_warns_and_builtins_load(tmp_path: Path) -> None:
    path = tmp_path / "gpus.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.warns(CatalogWarning, match="gpus.json"):
        catalog = load_catalog(path)
    assert REQUIRED <= {gpu.id for gpu in catalog}


def test_invalid_user_entry_is_skipped_with_its_field(tmp_path: Path) -> None:
    path = tmp_path / "gpus.json"
    path.write_text(
        json.dumps([{"id": "bad", "name": "Bad", "memory_bytes": -1, "bf16_tflops": 1, "bandwidth_gbs": 1}]),
        encoding="utf-8",
    )
    with pytest.warns(CatalogWarning, match=r"gpus\.0\.memory_bytes"):
        catalog = load_catalog(path)
    assert "bad" not in {gpu.id for gpu in catalog}


def test_default_user_file_lives_in_the_config_dir() -> None:
    assert user_catalog_path().parent.name == "paramtally"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert load_catalog()  # no user file: no warning


def test_the_user_file_is_followed_to_a_new_config_dir_and_read_again_when_edited(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert find_gpu("h100-sxm-80gb").usd_per_hour != 1.5  # the built-in price, read once here
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "elsewhere"))
    path = user_catalog_path()
    assert path == tmp_path / "elsewhere" / "paramtally" / "gpus.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps([{"id": "h100-sxm-80gb", "usd_per_hour": 1.5}]), encoding="utf-8")
    assert find_gpu("h100-sxm-80gb").usd_per_hour == 1.5
    path.write_text(json.dumps([{"id": "h100-sxm-80gb", "usd_per_hour": 12.25}]), encoding="utf-8")
    assert find_gpu("h100-sxm-80gb").usd_per_hour == 12.25  # a new size (or time): read again


# --- verdicts ------------------------------------------------------------------------------


def test_llama2_7b_bf16_4k_fits_one_rtx_4090() -> None:
    fits = fit_setups(load_builtin("llama-2-7b"), Scenario(context=4096))
    one = _setup(fits, "rtx-4090", 1)
    assert one.fits and one.free_bytes > 0
    assert one.layout == "single GPU"
    assert one.max_context is not None and one.max_context >= 4096
    assert one.decode_tokens_per_second is not None and 30 < one.decode_tokens_per_second < 100


def test_llama2_70b_needs_two_h100_with_tp2() -> None:
    fits = fit_setups(load_builtin("llama-2-70b"), Scenario())
    one, two = _setup(fits, "h100-sxm-80gb", 1), _setup(fits, "h100-sxm-80gb", 2)
    assert not one.fits and one.free_bytes < 0
    assert one.max_context == 0 and one.decode_tokens_per_second is None
    assert two.fits and two.tp == 2 and two.layout == "TP=2"


def test_every_gpu_and_count_is_listed_and_free_is_capacity_minus_use() -> None:
    fits = fit_setups(load_builtin("deepseek-v3"), Scenario())
    assert len(fits) == len(load_catalog()) * len(COUNTS)
    for fit in fits:
        assert fit.free_bytes == fit.capacity_bytes - fit.per_gpu_bytes
        assert fit.fits == (fit.free_bytes >= 0)
        assert fit.tp * fit.pp * fit.dp == fit.count
        assert fit.tp <= 8 and 128 % fit.tp == 0


def test_layouts_respect_the_heads() -> None:
    arch = load_builtin("gpt2")  # 12 heads: TP 8 is impossible
    for fit in fit_setups(arch, Scenario()):
        assert 12 % fit.tp == 0


def test_training_picks_zero_before_tensor_parallel() -> None:
    fits = fit_setups(load_builtin("llama-2-7b"), Scenario(mode="training"))
    eight = _setup(fits, "h100-sxm-80gb", 8)
    assert eight.fits and eight.tp == 1 and eight.dp == 8 and eight.zero >= 1
    assert eight.max_context is None


def test_chosen_layout_is_the_tables_for_the_scenarios_gpu() -> None:
    """The window lays out GPUs as the setups table does; the choice lives here, in core."""
    arch = load_builtin("gpt3-175b")
    serving, training = Scenario(), Scenario(mode="training", gpu="a100-80gb")
    for scenario in (serving, training):
        table = {fit.count: fit for fit in fit_setups(arch, scenario) if fit.gpu == scenario.gpu}
        for count in COUNTS:
            chosen = chosen_layout(arch, scenario, count)
            fit = table[count]
            assert (chosen.tp, chosen.pp, chosen.gpus, chosen.zero) == (fit.tp, fit.pp, count, fit.zero)
            assert chosen.dp == fit.dp
    assert chosen_layout(arch, serving, 8).tp == 8  # one copy over a node: 8 GPUs share the weights
    assert chosen_layout(arch, serving, 6).tp * chosen_layout(arch, serving, 6).pp == 6  # any count
    gpt2 = chosen_layout(load_builtin("gpt2"), Scenario(tp=3, gpus=3), 8)  # the old layout does not matter
    assert (gpt2.tp, gpt2.pp, gpt2.dp) == (4, 2, 1)  # 12 heads: TP 4 within the node, two stages


def test_smallest_fit_is_the_fewest_gpus_then_the_smallest_kind() -> None:
    fits = fit_setups(load_builtin("llama-2-70b"), Scenario())
    best = smallest_fit(fits)
    assert best is not None and best.fits
    assert all(best.count <= fit.count for fit in fits if fit.fits)
    same_count = [fit for fit in fits if fit.fits and fit.count == best.count]
    assert best.capacity_bytes == min(fit.capacity_bytes for fit in same_count)
    h100 = smallest_fit(fits, "h100-sxm-80gb")
    assert h100 is not None and (h100.count, h100.layout) == (2, "TP=2")
    assert smallest_fit([fit for fit in fits if not fit.fits]) is None


def test_every_setup_column_is_described() -> None:
    for name in GPU_COLUMNS:
        assert len(column_description(name)) > 15, name
    assert "maximum positions" in column_description("max_context")


# --- the command ---------------------------------------------------------------------------


def test_memory_json_has_the_issue_keys(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    assert (
        main(["memory", "llama-3-70b", "--context", "131072", "--format", "json", "--output", str(out)]) == 0
    )
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["kv_cache_bytes"] == 42_949_672_960
    assert Scenario.model_validate(data["scenario"]) == Scenario(context=131_072)
    assert Architecture.model_validate(data["architecture"]) == load_builtin("llama-3-70b")
    for key in ("weights_bytes", "activations_bytes", "gradients_bytes", "optimizer_bytes", "overhead_bytes"):
        assert isinstance(data[key], int)
    assert data["total_bytes"] == sum(
        data[key] for key in data if key.endswith("_bytes") and key != "total_bytes"
    )
    setup = data["setups"][0]
    assert {"gpu", "count", "fits", "per_gpu_bytes", "free_bytes"} <= set(setup)
    assert data["flops"]["forward_per_token"] > 0


def test_memory_training_flags(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "memory",
        "llama-2-7b",
        "--mode",
        "training",
        "--zero",
        "3",
        "--gpus",
        "8",
        "--tp",
        "2",
        "--recompute",
        "full",
        "--no-flash-attention",
        "--lora-rank",
        "8",
        "--lora-targets",
        "q,k,v,o",
        "--qlora",
        "--tokens",
        "1000000",
        "--grad-dtype",
        "fp32",
        "--optimizer",
        "adam8bit",
        "--format",
        "json",
    ]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scenario"]["lora_targets"] == ["q", "k", "v", "o"]
    assert data["flops"]["tokens"] == 1_000_000
    assert data["trainable_params"] > 0


def test_table_labels_gib_and_gb(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "llama-2-7b"]) == 0
    out = capsys.readouterr().out
    assert "GiB" in out and "GB" in out
    assert "NVIDIA RTX 4090" in out


def test_csv_is_the_export_writers_memory_or_setups_table(capsys: pytest.CaptureFixture[str]) -> None:
    """`memory --format csv` writes the window's memory-terms table, `--setups` its GPU table, both
    opening with the lines that record the scenario and the architecture."""
    arch = load_source("gpt2")
    scenario = Scenario(context=1024)  # the context GPT-2 opens with: its 1,024 positions
    assert main(["memory", "gpt2", "--format", "csv"]) == 0
    memory = estimate_memory(arch, scenario)
    about = about_rows(arch, scenario, "gpt2")
    assert capsys.readouterr().out == to_csv(memory_rows(memory), MEMORY_COLUMNS, about)
    assert main(["memory", "gpt2", "--format", "csv", "--setups"]) == 0
    text = capsys.readouterr().out
    recorded = dict(row for row in csv.reader(io.StringIO(text)) if row and row[0].startswith("# "))
    assert Scenario.model_validate_json(recorded["# scenario json"]) == scenario
    assert Architecture.model_validate_json(recorded["# architecture json"]) == arch
    rows = list(csv.DictReader(io.StringIO(text.split("\n\n", 1)[1])))
    setups = fit_setups(arch, scenario)
    assert tuple(rows[0]) == GPU_COLUMNS and len(rows) == len(setups)
    assert [row["fits"] for row in rows] == ["true" if fit.fits else "false" for fit in setups]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--context", "0"], "context"),
        (["--tp", "5", "--gpus", "5"], "tp"),
        (["--tp", "5"], "does not divide the 96 attention heads"),  # --gpus follows tp·pp
        (["--gpu", "no-such-gpu"], "unknown GPU"),
        (["--qlora", "--mode", "training"], "lora_rank"),
        (["--lora-targets", "q,zz", "--lora-rank", "4"], "lora_targets"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["memory", "gpt3-175b", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert needle in err


def test_a_corrupt_user_gpu_file_is_named_once_and_the_rest_works(capsys: pytest.CaptureFixture[str]) -> None:
    from platformdirs import user_config_path

    folder = user_config_path("paramtally", appauthor=False)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "gpus.json").write_text('{"gpus": [', encoding="utf-8")
    assert main(["memory", "llama-2-7b"]) == 0
    captured = capsys.readouterr()
    warned = [line for line in captured.err.splitlines() if "gpus.json" in line]
    assert len(warned) == 1 and warned[0].startswith("paramtally: warning: ")
    assert "RTX 4090" in captured.out


def _every_layout(arch: Architecture, s: Scenario, count: int) -> list[Scenario]:
    """Every training layout in the table's order, ZeRO stages included even without data
    parallelism, built here without ``core.memory.fit``."""
    heads = arch.blocks["default"].mixer.num_heads  # type: ignore[union-attr]
    tps = [t for t in (1, 2, 4, 8) if t <= min(count, 8) and count % t == 0 and heads % t == 0]
    layouts = []
    for pp in (p for p in COUNTS if p <= arch.num_layers):
        for tp in tps:
            if count % (tp * pp) == 0:
                for zero in range(s.zero, 4):
                    update = {"tp": tp, "pp": pp, "gpus": count, "zero": zero}
                    if s.ep > 1:
                        update["ep"] = math.gcd(s.ep, count // (tp * pp))
                    layouts.append(s.model_copy(update=update))
    return layouts


@pytest.mark.parametrize(
    ("preset", "scenario"),
    [
        ("llama-2-7b", Scenario(mode="training", context=2048)),
        ("mixtral-8x7b", Scenario(mode="training", context=1024, ep=2, tp=1, gpus=2, vocab_padding=True)),
    ],
)
def test_training_table_is_the_first_layout_that_fits_else_the_least(preset: str, scenario: Scenario) -> None:
    # Against the report itself over every layout: the table skips no layout that could win.
    arch = load_builtin(preset)
    catalog = load_catalog()
    table = {(fit.gpu, fit.count): fit for fit in fit_setups(arch, scenario, catalog)}
    for count in COUNTS:
        totals = [(s, estimate_memory(arch, s).total_bytes) for s in _every_layout(arch, scenario, count)]
        for gpu in catalog:
            capacity = gpu.capacity_bytes(scenario.utilization_cap)
            fitting = [(s, total) for s, total in totals if total <= capacity]
            chosen, total = fitting[0] if fitting else min(totals, key=lambda pair: pair[1])
            fit = table[(gpu.id, count)]
            assert (fit.per_gpu_bytes, fit.fits) == (total, bool(fitting))
            assert (fit.tp, fit.pp, fit.dp, fit.zero) == (chosen.tp, chosen.pp, chosen.dp, chosen.zero)


def test_a_context_past_the_positions_is_the_longest_context_a_fitting_row_reaches() -> None:
    """Issue 31, bug 10: at context 32,768 Llama-3-8B's rows marked ✔ fits said 'max context 8,192'
    (its positions). A fitting row now reaches at least the scenario's context, a row that does not
    fit falls short of it, and within the positions the positions still cap the column."""
    arch, s = load_builtin("llama-3-8b"), Scenario(context=32_768)
    assert arch.max_positions == 8192
    fits = fit_setups(arch, s)
    assert any(fit.fits for fit in fits) and not all(fit.fits for fit in fits)
    for fit in fits:
        assert fit.max_context is not None
        assert (fit.max_context >= 32_768) == fit.fits, (fit.gpu, fit.count, fit.max_context)
        assert fit.max_context <= 32_768
    short = fit_setups(arch, Scenario(context=4096))
    assert max(fit.max_context or 0 for fit in short) == 8192
