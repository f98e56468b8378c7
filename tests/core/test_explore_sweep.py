"""The design-space sweep: every cell is what count/memory give for that variant, built here
independently of the sweep; iso-lines and the fits boundary follow the cells."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from paramtally.core.cli import main
from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.explore.figures import FIGURES, find_figure
from paramtally.core.explore.sweep import Axis, axis_text, parse_axis, suggest_axis, sweep
from paramtally.core.explore.variables import VARIABLES, available, find_variable, variant
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.estimate import Scenario, estimate_memory
from paramtally.core.memory.fit import fit_setup
from paramtally.core.memory.flops import estimate_flops
from paramtally.core.memory.gpus import find_gpu
from paramtally.core.schema import Architecture
from tests.csv_text import read_csv_text
from tests.hypothesis_budget import examples
from tests.variants import built


def cells(n: int, shape: tuple[int, int], seed: int = 15) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    return [(rng.randrange(shape[1]), rng.randrange(shape[0])) for _ in range(n)]


def test_64_by_64_hidden_size_by_layers_equals_count() -> None:
    llama = load_builtin("llama-3-8b")
    result = sweep(llama, Scenario(), "hidden_size=1024:9088:128", "num_layers=1:64", "total")
    assert result.values.shape == (64, 64) and result.valid.all()
    assert result.method == "model" and result.evaluations < 64  # not one variant per cell
    for i, j in cells(48, (64, 64)):
        h, layers = result.x.values[i], result.y.values[j]
        variant_arch = built(llama, (("hidden_size",), h), (("decoder", "layers", 0, "count"), layers))
        assert result.value(i, j) == count_parameters(variant_arch).total


def test_64_by_64_context_by_batch_equals_memory() -> None:
    llama = load_builtin("llama-3-8b")
    result = sweep(llama, Scenario(kv_dtype="fp8"), "context=2048:131072:2048", "batch=1:64", "memory")
    assert result.method == "model"
    for i, j in cells(48, (64, 64), seed=3):
        scenario = Scenario(kv_dtype="fp8", context=result.x.values[i], batch=result.y.values[j])
        assert result.value(i, j) == estimate_memory(llama, scenario).total_bytes


def test_experts_by_top_k_leaves_the_impossible_cells_out() -> None:
    mixtral = load_builtin("mixtral-8x7b")
    result = sweep(mixtral, Scenario(), "num_experts=1:16", "top_k=1:16", "active")
    for i, experts in enumerate(result.x.values):
        for j, top_k in enumerate(result.y.values):
            assert bool(result.valid[j, i]) == (top_k <= experts)
            if top_k <= experts:
                ffn = ("decoder", "layers", 0, "override", "ffn")
                arch = built(mixtral, ((*ffn, "num_experts"), experts), ((*ffn, "top_k"), top_k))
                assert result.value(i, j) == count_parameters(arch).active
            else:
                assert result.value(i, j) is None


def test_a_sliding_window_is_exact_inside_the_formula() -> None:
    # Mistral attends min(s, 4096) tokens: FLOPs per token bend at the window, in every cell.
    mistral = load_builtin("mistral-7b-v0.1")
    result = sweep(mistral, Scenario(), "context=256:16384:256", "num_layers=1:64", "flops")
    assert result.method == "model"
    for i, j in cells(40, result.values.shape, seed=8):
        arch = built(mistral, (("decoder", "layers", 0, "count"), result.y.values[j]))
        forward = estimate_flops(arch, Scenario(context=result.x.values[i])).forward_per_token
        assert result.value(i, j) == forward


def test_training_days_over_gpus_and_layers() -> None:
    llama = load_builtin("llama-3-8b")
    scenario = Scenario(mode="training", tokens=10**12)
    result = sweep(llama, scenario, "gpus=8:256:8", "num_layers=8:64:8", "time")
    for i, j in cells(30, result.values.shape, seed=4):
        arch = built(llama, (("decoder", "layers", 0, "count"), result.y.values[j]))
        days = estimate_flops(arch, scenario.model_copy(update={"gpus": result.x.values[i]})).days
        assert result.value(i, j) == days  # the same floating-point operations, bit for bit


def test_the_widest_layer_bends_inside_the_formula() -> None:
    # DeepSeek-V3's widest layer for the prefill working set is a dense one until top-k experts
    # outgrow it: the maximum is taken in the term's formula, so one model covers the whole grid.
    deepseek = load_builtin("deepseek-v3")
    result = sweep(deepseek, Scenario(), "num_experts=8:256:8", "top_k=1:32", "memory")
    assert (result.method, result.pieces) == ("model", 1)
    moe = ("decoder", "layers", 1, "override", "ffn")
    for i, j in cells(25, result.values.shape, seed=5):
        experts, top_k = result.x.values[i], result.y.values[j]
        if top_k > experts:
            assert result.value(i, j) is None
            continue
        mtp = ("mtp", "override", "ffn")
        changes = (((*moe, "num_experts"), experts), ((*moe, "top_k"), top_k))
        changes += (((*mtp, "num_experts"), experts), ((*mtp, "top_k"), top_k))
        assert result.value(i, j) == estimate_memory(built(deepseek, *changes), Scenario()).total_bytes


def test_a_bend_inside_the_grid_splits_it_and_stays_exact() -> None:
    # llama.cpp's Q4_K_M gives attn_v/ffn_down a wider type in some layers, chosen by the layer
    # count: the numbers per type bend across the layers, so the model covers the grid in pieces.
    llama = load_builtin("llama-3-8b")
    scenario = Scenario(quant="q4_k_m")
    result = sweep(llama, scenario, "context=1024:65536:1024", "num_layers=1:64", "memory")
    assert result.method == "model" and result.pieces > 1
    for i, j in cells(25, result.values.shape, seed=6):
        arch = built(llama, (("decoder", "layers", 0, "count"), result.y.values[j]))
        context = scenario.model_copy(update={"context": result.x.values[i]})
        assert result.value(i, j) == estimate_memory(arch, context).total_bytes


def test_iso_lines_are_every_neighbouring_pair_across_the_level() -> None:
    llama = load_builtin("llama-3-8b")
    result = sweep(llama, Scenario(), "hidden_size=2048:8192:256", "num_layers=16:80:4", "total")
    level = 10**10
    found = set(result.crossings(level))
    expected = set()
    ny, nx = result.values.shape
    for j in range(ny):
        for i in range(nx):
            for di, dj in ((1, 0), (0, 1)):
                if i + di < nx and j + dj < ny:
                    a, b = result.value(i, j), result.value(i + di, j + dj)
                    assert a is not None and b is not None
                    if (a >= level) != (b >= level):
                        expected.add(((i, j), (i + di, j + dj)))
    assert found == expected and found


@pytest.mark.parametrize(
    ("setup", "scenario"),
    [("h100-sxm-80gb:1", Scenario()), ("a100-40gb:8", Scenario(mode="training", zero=1))],
)
def test_fits_and_its_boundary_follow_fit_setup(setup: str, scenario: Scenario) -> None:
    llama = load_builtin("llama-3-8b")
    result = sweep(llama, scenario, "context=8192:524288:8192", "batch=1:16", "memory", setup)
    assert result.fits is not None
    gpu, count = setup.split(":")
    for i, j in cells(30, result.values.shape, seed=6):
        variant_scenario = scenario.model_copy(
            update={"context": result.x.values[i], "batch": result.y.values[j]}
        )
        assert bool(result.fits[j, i]) == fit_setup(llama, variant_scenario, find_gpu(gpu), int(count)).fits
    for a, b in result.boundary():
        assert result.fits[a[1], a[0]] != result.fits[b[1], b[0]]
    assert result.fits.any() and not result.fits.all() and result.boundary()


PRESETS = (
    "llama-3-8b",
    "mixtral-8x7b",
    "jamba-v0.1",
    "deepseek-v3",
    "t5-base",
    "gemma-3-1b",
    "qwen3-next-80b-a3b",
)
SCENARIOS = (
    Scenario(),
    Scenario(tp=2, gpus=2),
    Scenario(pp=2, gpus=2),
    Scenario(mode="training", zero=1, gpus=8),
    Scenario(quant="q4_k_m", kv_dtype="fp8", context=32768),
)


@st.composite
def axes(draw: st.DrawFn, arch: Architecture, scenario: Scenario) -> tuple[Axis, Axis]:
    usable = []
    for variable in VARIABLES:
        try:
            usable.append((variable, variable.read(arch, scenario)))
        except ParamTallyError:
            continue
    (xv, x_now), (yv, y_now) = draw(st.permutations(usable))[:2]

    def axis(name: str, now: int) -> Axis:
        step = draw(st.sampled_from([1, 2, 8, 64, 128]))
        size = draw(st.integers(1, 9))
        first = max(1, now - step * draw(st.integers(0, size)))
        return Axis(name, tuple(range(first, first + step * size, step)))

    return axis(xv.name, x_now), axis(yv.name, y_now)


@settings(
    max_examples=examples(30),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    data=st.data(),
    preset=st.sampled_from(PRESETS),
    scenario=st.sampled_from(SCENARIOS),
    figure=st.sampled_from(FIGURES),
)
def test_every_cell_equals_the_calculator(
    data: st.DataObject, preset: str, scenario: Scenario, figure: Any
) -> None:
    arch = load_builtin(preset)
    x, y = data.draw(axes(arch, scenario))
    result = sweep(arch, scenario, x, y, figure)
    xv, yv = find_variable(x.name, arch), find_variable(y.name, arch)
    for j, y_value in enumerate(y.values):
        for i, x_value in enumerate(x.values):
            try:
                expected = figure.value(*variant(arch, scenario, ((xv, x_value), (yv, y_value))))
            except (ValidationError, ParamTallyError):
                expected = None
            assert result.value(i, j) == expected, (x.name, x_value, y.name, y_value)


def test_csv_and_json_hold_every_cell(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "sweep",
        "llama-3-8b",
        "--x",
        "hidden_size=2048:8192:256",
        "--y",
        "num_layers=16:80:4",
        "--figure",
        "total",
    ]
    assert main(argv) == 0
    _, about, rows = read_csv_text(capsys.readouterr().out)
    assert about["model"] == "Llama-3-8B" and about["scenario"].startswith("inference")
    assert len(rows) == 25 * 17 and set(rows[0]) == {"hidden_size", "num_layers", "total"}
    llama = load_builtin("llama-3-8b")
    for row in rows[::37]:
        arch = built(
            llama,
            (("hidden_size",), int(row["hidden_size"])),
            (("decoder", "layers", 0, "count"), int(row["num_layers"])),
        )
        assert int(row["total"]) == count_parameters(arch).total
    assert main([*argv, "--format", "json", "--iso", "10e9", "--fits", "h100-sxm-80gb:1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["x"]["field"] == "hidden_size" and len(data["values"]) == 17 and len(data["values"][0]) == 25
    assert data["values"][0][0] == int(rows[0]["total"]) and data["iso"][0]["level"] == 10**10
    assert data["iso"][0]["pairs"] and len(data["fits"]) == 17
    # QA: the CSV dropped --iso without a word; a column per level says each cell's side of it.
    assert main([*argv, "--iso", "10e9"]) == 0
    marked = read_csv_text(capsys.readouterr().out)[2]
    assert {row["total>=10e9"] for row in marked} == {"true", "false"}
    assert all((row["total>=10e9"] == "true") == (int(row["total"]) >= 10**10) for row in marked)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("--x", "width=1:8", "--y", "num_layers=1:8"), "unknown field 'width'"),
        (("--x", "hidden_size=2048-8192", "--y", "num_layers=1:8"), "is not FIRST:LAST:STEP"),
        (("--x", "hidden_size=8192:2048:256", "--y", "num_layers=1:8"), "FIRST ≤ LAST"),
        (("--x", "hidden_size=1:8:0", "--y", "num_layers=1:8"), "STEP ≥ 1"),
        (("--x", "hidden_size", "--y", "num_layers=1:8"), "is not FIELD=FIRST:LAST:STEP"),
        (("--x", "num_layers=1:8", "--y", "num_layers=1:8"), "already the x axis"),
        (("--x", "hidden_size=1:1000000", "--y", "num_layers=1:8"), "more than 1024 values"),
        (("--x", "top_k=1:8", "--y", "num_layers=1:8"), "no mixture of experts"),
        (("--x", "context=1:8", "--y", "batch=1:8", "--fits", "h100-sxm-80gb"), "needs a GPU count"),
        (("--x", "context=1:8", "--y", "batch=1:8", "--iso", "lots"), "--iso"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], said: str
) -> None:
    code = main(["sweep", "llama-3-8b", *argv])
    out, err = capsys.readouterr()
    assert code == 2 and not out
    assert said in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("x", "y", "scenario", "gpu"),
    [
        # EP 8 on 8 GPUs: each layout sets its own EP (TP 2 leaves 4 data-parallel GPUs, EP 4); the
        # model once kept EP 8 on every layout and found 58 of these 64 cells fitting 8 H200s where
        # 27 do (40 on 8 H100s, where none does).
        (
            "context=1024:8192:1024",
            "batch=1:8",
            Scenario(mode="training", zero=1, gpus=8, ep=8),
            "h200-141gb",
        ),
        # The layers set the stages each cell may take (no 8 stages of 4 layers): grouped by row.
        (
            "hidden_size=3584:4608:256",
            "num_layers=2:12:2",
            Scenario(mode="training", zero=3, gpus=8, ep=8),
            "rtx-5090",
        ),
        # Both axes set the layouts (heads: which TP sizes split them): grouped cell by cell.
        ("num_heads=8:32:8", "num_layers=2:10:4", Scenario(mode="training", zero=1, gpus=8, ep=2), "l4"),
        (
            "hidden_size=3072:5120:512",
            "num_layers=4:32:4",
            Scenario(mode="training", zero=1, gpus=8, ep=2, pp=2, virtual_stages=2),
            "a100-40gb",
        ),
    ],
)
def test_fits_modelled_equal_fits_evaluated_cell_by_cell(
    x: str, y: str, scenario: Scenario, gpu: str
) -> None:
    mixtral = load_builtin("mixtral-8x7b")
    args = (mixtral, scenario, x, y, "memory", f"{gpu}:8")
    model, direct = sweep(*args), sweep(*args, direct=True)
    assert model.fits is not None and direct.fits is not None
    assert (model.valid == direct.valid).all()
    assert np.array_equal(model.fits, direct.fits)
    assert 0 < model.fits.sum() < model.valid.sum()


def test_direct_and_model_agree_on_a_whole_grid() -> None:
    jamba = load_builtin("jamba-v0.1")
    args = (jamba, Scenario(), "hidden_size=1024:4096:256", "num_layers=8:96:8", find_figure("memory"))
    model, direct = sweep(*args), sweep(*args, direct=True)
    assert model.method == "model" and direct.method == "direct"
    assert (model.valid == direct.valid).all()
    assert np.array_equal(model.values.astype(object), direct.values.astype(object))


def test_a_hidden_size_equal_to_the_embedding_width_is_counted_alone() -> None:
    # OPT-350m embeds at 512 and projects to its hidden size: at h = 512 the projections vanish,
    # a jump at one column that no polynomial through the other columns holds.
    opt = load_builtin("opt-350m")
    result = sweep(opt, Scenario(), "hidden_size=256:1024:128", "num_layers=8:32:8", "total")
    assert result.method == "mixed"
    for i, h in enumerate(result.x.values):
        for j, layers in enumerate(result.y.values):
            arch = built(opt, (("hidden_size",), h), (("decoder", "layers", 0, "count"), layers))
            assert result.value(i, j) == count_parameters(arch).total


def test_what_a_heatmap_view_reads_hover_and_click() -> None:
    mixtral = load_builtin("mixtral-8x7b")
    result = sweep(mixtral, Scenario(), "num_experts=1:8", "top_k=1:8", "total")
    floats = result.floats()
    assert np.isnan(floats[7, 0])  # 8 experts per token of 1
    assert floats[1, 7] == float(result.value(7, 1))  # type: ignore[arg-type]
    arch, _ = result.variant(5, 1)  # clicking loads that variant
    assert count_parameters(arch).total == result.value(5, 1)
    assert {run.block.ffn.num_experts for run in arch.runs} == {6}  # type: ignore[union-attr]


@pytest.mark.parametrize("preset", ["llama-3-8b", "gpt3-175b", "mixtral-8x7b", "jamba-v0.1", "deepseek-v3"])
def test_a_suggested_axis_holds_allowed_values_through_the_current_one(preset: str) -> None:
    arch, scenario = load_builtin(preset), Scenario()
    for variable in available(arch, scenario):
        axis = suggest_axis(variable.name, arch, scenario)
        domain = variable.domain(arch, scenario, parallel=False)
        assert 1 < len(axis.values) <= 64, variable.name
        assert list(axis.values) == sorted(set(axis.values))
        assert all(value in domain for value in axis.values), variable.name
        assert variable.read(arch, scenario) in axis.values, variable.name
        assert parse_axis(f"{variable.name}={axis_text(axis)}") == axis


@pytest.mark.parametrize(
    ("x", "y"),
    [
        (Axis("ffn_width", tuple(range(14333, 14340))), Axis("hidden_size", (4096, 4224))),
        (Axis("hidden_size", tuple(range(3584, 4609, 128))), Axis("num_layers", (30, 31, 32))),
        (Axis("ffn_width", tuple(range(14208, 14465, 32))), Axis("num_layers", (32,))),
    ],
)
@pytest.mark.parametrize("quant", ["q4_k_m", "q4_0"])
def test_gguf_widths_that_the_blocks_divide_differently_are_exact(x: Axis, y: Axis, quant: str) -> None:
    """llama.cpp gives a tensor whose row length its type's block does not divide another type: the
    bytes jump at single widths (found by hypothesis: ffn_width 14336 among 14333…14339)."""
    arch, scenario, memory = load_builtin("llama-3-8b"), Scenario(quant=quant), find_figure("memory")
    result = sweep(arch, scenario, x, y, memory)
    xv, yv = find_variable(x.name, arch), find_variable(y.name, arch)
    for j, y_value in enumerate(y.values):
        for i, x_value in enumerate(x.values):
            expected = memory.value(*variant(arch, scenario, ((xv, x_value), (yv, y_value))))
            assert result.value(i, j) == expected, (x.name, x_value, y.name, y_value)
