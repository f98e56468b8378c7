"""The Design space tab as a person uses it: fields and values typed, the figure picked, the
pointer over a cell, a click that loads it, an edit in the form. Every cell checked is built
here without the sweep's code and counted by `count_parameters` / `estimate_memory`."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPoint, QRectF, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QComboBox, QToolButton
from pytestqt.qtbot import QtBot

from paramtally.core.cli import main
from paramtally.core.count.parameters import count_parameters
from paramtally.core.explore.sweep import sweep
from paramtally.core.io.export import BOM, scenario_text
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.fit import fit_setup
from paramtally.core.memory.gpus import find_gpu
from paramtally.core.schema import Architecture
from paramtally.gui.explore.design_space import DesignSpaceView
from paramtally.gui.explore.figure_text import figure_text
from paramtally.gui.main_window import MainWindow
from paramtally.gui.views.export import EXPORT_SIZE
from tests.csv_text import read_csv
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals, give_focus
from tests.gui.picture_checks import MOST_LOST, VIEWERS, drawn_in, lost_drawing, rgb, svg_texts
from tests.gui.views_support import click_tab, preset_window
from tests.variants import built

LAYERS = ("decoder", "layers", 0, "count")


@pytest.fixture
def mixtral_training_window(qtbot: QtBot) -> MainWindow:
    """Mixtral trained with ZeRO-3 and EP 8 on 8 GPUs (the memory tab's fields, set as one step)."""
    window = preset_window(qtbot, "mixtral-8x7b")
    assert window.document.set_scenario_values({"mode": "training", "zero": 3, "gpus": 8, "tp": 1, "ep": 8})
    return window


def open_design(qtbot: QtBot, window: MainWindow) -> DesignSpaceView:
    click_tab(qtbot, window, "Design space")
    view = window.explore.design_view
    qtbot.waitUntil(lambda: view.isVisible() and view.sweep is not None)
    return view


def at(arch: Architecture, hidden_size: int, layers: int) -> Architecture:
    return built(arch, (("hidden_size",), hidden_size), (LAYERS, layers))


def choose(qtbot: QtBot, box: QComboBox, text: str) -> None:
    wanted = box.findText(text)
    assert wanted >= 0, text
    box.setFocus()
    key = Qt.Key.Key_Down if wanted > box.currentIndex() else Qt.Key.Key_Up
    while box.currentIndex() != wanted:
        qtbot.keyClick(box, key)


def cells(view: DesignSpaceView, n: int, seed: int = 15) -> list[tuple[int, int]]:
    assert view.sweep is not None
    rows, columns = view.sweep.valid.shape
    rng = random.Random(seed)
    return [(rng.randrange(columns), rng.randrange(rows)) for _ in range(n)]


def shown(view: DesignSpaceView, i: int, j: int) -> float:
    """The value the heatmap's image holds for cell (i, j)."""
    image = view.heatmap.image.image
    assert image is not None
    return float(image[j, i])


def point(view: DesignSpaceView, i: int, j: int) -> QPoint:
    return view.heatmap.cell_center(i, j)


def test_the_heatmap_holds_count_in_every_checked_cell(qtbot: QtBot, llama_window: MainWindow) -> None:
    view = open_design(qtbot, llama_window)
    arch = llama_window.document.architecture
    result = view.sweep
    assert result is not None
    assert (result.x.name, result.y.name, result.figure.name) == ("hidden_size", "num_layers", "total")
    assert result.valid.shape == (64, 64) and result.valid.all()
    assert arch.hidden_size in result.x.values and arch.num_layers in result.y.values
    for i, j in cells(view, 24):
        h, layers = result.x.values[i], result.y.values[j]
        total = count_parameters(built(arch, (("hidden_size",), h), (LAYERS, layers))).total
        assert result.value(i, j) == total
        assert shown(view, i, j) == float(total)


def test_typed_axes_and_the_memory_figure(
    qtbot: QtBot, llama_window: MainWindow, type_into: TypeInto
) -> None:
    view = open_design(qtbot, llama_window)
    document = llama_window.document
    choose(qtbot, view.x_box, "Context")
    assert view.x_range.text() == "1024:9088:128"  # the suggested values around 4,096
    type_into(view.x_range, "2048:32768:2048")
    choose(qtbot, view.y_box, "Batch")
    type_into(view.y_range, "1:16")
    choose(qtbot, view.figure_box, "Memory per GPU")
    result = view.sweep
    assert result is not None and result.figure.name == "memory"
    assert result.x.values == tuple(range(2048, 32769, 2048)) and result.y.values == tuple(range(1, 17))
    for i, j in cells(view, 12):
        context, batch = result.x.values[i], result.y.values[j]
        scenario = document.scenario.model_copy(update={"context": context, "batch": batch})
        memory = estimate_memory(document.architecture, scenario).total_bytes
        assert result.value(i, j) == memory and shown(view, i, j) == float(memory)
    # A range core cannot read is said in one line; the last heatmap stays.
    type_into(view.y_range, "16:1")
    assert view.status.text().startswith("⚠ Y: '16:1' is not FIRST:LAST:STEP")
    assert view.sweep is result


def test_hover_shows_the_cell_and_a_click_loads_it_as_one_undo_step(
    qtbot: QtBot, llama_window: MainWindow
) -> None:
    view = open_design(qtbot, llama_window)
    document = llama_window.document
    arch = document.architecture
    result = view.sweep
    assert result is not None
    i, j = 40, 10
    h, layers = result.x.values[i], result.y.values[j]
    variant = built(arch, (("hidden_size",), h), (LAYERS, layers))
    qtbot.mouseMove(view.heatmap.viewport(), point(view, i, j))
    qtbot.waitUntil(lambda: f"hidden_size = {h:,}" in view.hover.text())
    total = count_parameters(variant).total
    memory = estimate_memory(variant, document.scenario).total_bytes
    assert f"num_layers = {layers:,}" in view.hover.text()
    assert f"total parameters {figure_text(total, 'params')}" in view.hover.text()
    assert f"memory per GPU {figure_text(memory, 'bytes')}" in view.hover.text()

    steps = document.undo_stack.count()
    qtbot.mouseClick(view.heatmap.viewport(), Qt.MouseButton.LeftButton, pos=point(view, i, j))
    assert document.architecture == variant
    assert document.undo_stack.count() == steps + 1
    # The sweep follows: the open model's cell is now the one clicked.
    assert view.sweep is not None and view.sweep.arch is document.architecture
    assert view.heatmap.marker.getData()[0].tolist() == [i + 0.5]
    give_focus(qtbot, llama_window.form)
    qtbot.keyClick(llama_window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert document.architecture == arch


def test_the_line_under_the_heatmap_follows_an_edit_without_a_move(
    qtbot: QtBot, llama_window: MainWindow, type_into: TypeInto
) -> None:
    """QA: after an edit the line kept the cell's figures of before until the pointer moved."""
    view = open_design(qtbot, llama_window)
    document = llama_window.document
    result = view.sweep
    assert result is not None
    i, j = 20, 30
    h, layers = result.x.values[i], result.y.values[j]

    def total() -> str:
        variant = at(document.architecture, h, layers)
        return f"total parameters {figure_text(count_parameters(variant).total, 'params')}"

    qtbot.mouseMove(view.heatmap.viewport(), point(view, i, j))
    qtbot.waitUntil(lambda: f"hidden_size = {h:,}, num_layers = {layers:,}" in view.hover.text())
    before = total()
    assert before in view.hover.text()
    type_into(llama_window.form.editor(("embeddings", "vocab_size")), "32000")  # the pointer stays
    assert document.architecture.embeddings.vocab_size == 32000
    qtbot.waitUntil(lambda: view.sweep is not None and view.sweep.arch is document.architecture)
    assert total() != before and total() in view.hover.text(), view.hover.text()
    assert f"hidden_size = {h:,}, num_layers = {layers:,}" in view.hover.text()


def test_a_cell_of_a_model_and_scenario_field_is_one_undo_step(
    qtbot: QtBot, llama_window: MainWindow, type_into: TypeInto
) -> None:
    view = open_design(qtbot, llama_window)
    document = llama_window.document
    arch, scenario = document.architecture, document.scenario
    choose(qtbot, view.x_box, "Context")
    type_into(view.x_range, "4096:65536:4096")
    choose(qtbot, view.figure_box, "Memory per GPU")
    result = view.sweep
    assert result is not None and (result.x.name, result.y.name) == ("context", "num_layers")
    i, j = 7, 3
    qtbot.mouseClick(view.heatmap.viewport(), Qt.MouseButton.LeftButton, pos=point(view, i, j))
    assert document.scenario.context == result.x.values[i]
    assert document.architecture.num_layers == result.y.values[j]
    document.undo_stack.undo()
    assert document.architecture == arch and document.scenario == scenario


def test_an_edit_in_the_form_sweeps_again(
    qtbot: QtBot, llama_window: MainWindow, type_into: TypeInto
) -> None:
    view = open_design(qtbot, llama_window)
    type_into(llama_window.form.editor(("embeddings", "vocab_size")), "32000")
    document = llama_window.document
    assert document.architecture.embeddings.vocab_size == 32000
    result = view.sweep
    assert result is not None and result.arch is document.architecture
    expected = sweep(document.architecture, document.scenario, result.x, result.y, "total")
    assert np.array_equal(view.heatmap.image.image, expected.floats())
    for i, j in cells(view, 8, seed=3):
        variant = built(
            document.architecture, (("hidden_size",), result.x.values[i]), (LAYERS, result.y.values[j])
        )
        assert shown(view, i, j) == float(count_parameters(variant).total)


def test_iso_lines_and_the_fits_boundary(qtbot: QtBot, llama_window: MainWindow, type_into: TypeInto) -> None:
    view = open_design(qtbot, llama_window)
    document = llama_window.document
    type_into(view.iso_edit, "7B, 10B")
    assert [text for text, _ in view.levels] == ["7B", "10B"]
    isolines = [line for _, line in view.heatmap.isocurves[:2]]
    assert all(line.isVisible() and not line.path.isEmpty() for line in isolines)
    assert [label.textItem.toPlainText() for label in view.heatmap.iso_labels[:2]] == ["7B", "10B"]
    qtbot.mouseClick(view.fits_check, Qt.MouseButton.LeftButton)
    # The figure stays on screen while a worker finds the fits; they are drawn when they arrive.
    assert "Finding which variants fit 1 × " in view.status.text()
    qtbot.waitUntil(lambda: view.sweep is not None and view.sweep.fits is not None, timeout=20_000)
    result = view.sweep
    assert result is not None and result.fits is not None and result.setup == f"{document.scenario.gpu}:1"
    assert " fit 1 × " in view.status.text() and "Finding" not in view.status.text()
    # The red line has one edge per pair core puts on either side of the boundary.
    xs, _ = view.heatmap.boundary.getData()
    assert len(xs) == 2 * len(result.boundary()) > 0
    gpu = find_gpu(document.scenario.gpu)
    for i, j in cells(view, 10, seed=7):
        variant = built(
            document.architecture, (("hidden_size",), result.x.values[i]), (LAYERS, result.y.values[j])
        )
        fit = fit_setup(variant, document.scenario, gpu, 1)
        assert bool(result.fits[j, i]) == fit.fits
        text = view.cell_text(i, j)
        per_gpu = figure_text(fit.per_gpu_bytes, "bytes")
        assert text.endswith(
            f"fits 1 × {gpu.name} as {fit.layout} ({per_gpu} per GPU)"
            if fit.fits
            else f"does not fit 1 × {gpu.name}: at best {per_gpu} per GPU, as {fit.layout}"
        ), text


def test_the_field_lists_follow_an_edit_that_adds_or_takes_variables(
    qtbot: QtBot, llama_window: MainWindow
) -> None:
    """QA: Llama made MoE never offered its experts; Mixtral made dense kept offering them, refused."""
    view = open_design(qtbot, llama_window)
    x, x_range = view.x_box.currentData(), view.x_range.text()
    fields = lambda: [view.y_box.itemData(index) for index in range(view.y_box.count())]  # noqa: E731
    assert "num_experts" not in fields()
    combo = llama_window.form.editor(("blocks", "default", "ffn", "kind"))
    choose(qtbot, combo, "Mixture of experts")
    qtbot.waitUntil(lambda: "num_experts" in fields())
    assert (view.x_box.currentData(), view.x_range.text()) == (x, x_range)  # the axes kept
    choose(qtbot, combo, "Dense FFN")
    qtbot.waitUntil(lambda: "num_experts" not in fields())


def test_the_colour_bar_ticks_counts_as_the_charts_do(qtbot: QtBot, llama_window: MainWindow) -> None:
    """QA: DeepSeek-V3's bar read '500.00B' under '1.00T'; ticks of counts drop the zeros."""
    view = open_design(qtbot, llama_window)
    ticks = [text for level in view.heatmap.colorbar.axis._tickLevels for _, text in level]
    assert ticks and all(".00" not in text for text in ticks), ticks
    assert {"20B", "40B"} & set(ticks), ticks  # the round levels, in the charts' units


def fits_on_eight_h100s(qtbot: QtBot, view: DesignSpaceView) -> None:
    """Fits on 8 × H100 SXM, chosen, typed and ticked as a person does."""
    choose(qtbot, view.gpu_box, "NVIDIA H100 SXM 80GB")
    give_focus(qtbot, view.count_spin)
    view.count_spin.selectAll()
    qtbot.keyClicks(view.count_spin, "8")
    # On its box (a check box takes clicks on its box and label, and this one spans two columns).
    qtbot.mouseClick(view.fits_check, Qt.MouseButton.LeftButton, pos=QPoint(8, view.fits_check.height() // 2))


def test_the_fits_are_found_off_the_window_thread_and_an_edit_meanwhile_gets_its_own(
    qtbot: QtBot, mixtral_training_window: MainWindow, type_into: TypeInto
) -> None:
    """QA: Mixtral trained with EP 8 on 8 GPUs, Fits on 8 H100s: 8–9 s frozen after every edit, a
    second Ctrl+Z queued behind the first undid an unrelated edit. The fits are found off the
    window's thread; an edit meanwhile stops them and its own are drawn."""
    window = mixtral_training_window
    view = open_design(qtbot, window)
    fits_on_eight_h100s(qtbot, view)
    assert "Finding which variants fit 8 × NVIDIA H100 SXM 80GB" in view.status.text()
    first = view.sweep
    assert first is not None and first.fits is None  # the figure is drawn meanwhile
    type_into(window.form.editor(("embeddings", "vocab_size")), "32768")  # taken at once, mid-search
    document = window.document
    assert document.architecture.embeddings.vocab_size == 32768
    assert view.sweep is not None and view.sweep.arch is document.architecture and view.sweep is not first
    qtbot.waitUntil(lambda: view.sweep is not None and view.sweep.fits is not None, timeout=60_000)
    result = view.sweep
    assert result is not None and result.fits is not None and result.arch is document.architecture
    gpu = find_gpu("h100-sxm-80gb")
    for i, j in cells(view, 6, seed=11):
        if result.valid[j, i]:
            variant = at(document.architecture, result.x.values[i], result.y.values[j])
            assert bool(result.fits[j, i]) == fit_setup(variant, document.scenario, gpu, 8).fits
    # QA: '8028 evaluated'; the count is grouped as every other count on screen.
    assert result.evaluations >= 1000 and f" {result.evaluations:,} evaluated" in view.status.text()


def test_the_line_under_the_heatmap_names_the_layout_a_fit_is_for(
    qtbot: QtBot, mixtral_training_window: MainWindow
) -> None:
    """QA: 'memory per GPU 99.7 GiB' (the scenario's TP 1 × EP 8) beside 'does not fit 8 × H100',
    judged over other layouts, unnamed. The fit names its layout and its memory per GPU."""
    window = mixtral_training_window
    view = open_design(qtbot, window)
    fits_on_eight_h100s(qtbot, view)
    qtbot.waitUntil(lambda: view.sweep is not None and view.sweep.fits is not None, timeout=60_000)
    result = view.sweep
    assert result is not None and result.fits is not None
    document, gpu = window.document, find_gpu("h100-sxm-80gb")
    fitting = [(i, j) for j, i in zip(*np.nonzero(result.fits), strict=True)]
    missing = [(i, j) for j, i in zip(*np.nonzero(result.valid & ~result.fits), strict=True)]
    assert fitting and missing
    for (i, j), fits in ((fitting[len(fitting) // 2], True), (missing[len(missing) // 2], False)):
        qtbot.mouseMove(view.heatmap.viewport(), point(view, int(i), int(j)))
        where = f"hidden_size = {result.x.values[i]:,}, num_layers = {result.y.values[j]:,}"
        qtbot.waitUntil(lambda where=where: where in view.hover.text())
        variant = at(document.architecture, result.x.values[i], result.y.values[j])
        fit = fit_setup(variant, document.scenario, gpu, 8)
        memory = estimate_memory(variant, document.scenario).total_bytes
        per_gpu = figure_text(fit.per_gpu_bytes, "bytes")
        text = view.hover.text()
        assert f"memory per GPU {figure_text(memory, 'bytes')} in the scenario's layout" in text
        if fits:
            assert f"fits 8 × {gpu.name} as {fit.layout} ({per_gpu} per GPU)" in text, text
        else:
            assert f"does not fit 8 × {gpu.name}: at best {per_gpu} per GPU, as {fit.layout}" in text, text


def window_status(window: MainWindow) -> str:
    return window.statusBar().currentMessage()


def _export(qtbot: QtBot, modals: Modals, view: DesignSpaceView, entry: str, target: Path) -> None:
    modals.choose(entry)
    modals.save_as(str(target))
    qtbot.mouseClick(view.findChild(QToolButton, "designExport"), Qt.MouseButton.LeftButton)
    modals.wait_done()
    assert modals.kinds[-2:] == ["QMenu", "QFileDialog"]  # the button's menu, then Qt's own dialog


def test_export_writes_the_text_paramtally_sweep_writes(
    qtbot: QtBot, llama_window: MainWindow, modals: Modals, tmp_path: Path, type_into: TypeInto
) -> None:
    """QA: the design space could not be exported at all."""
    view = open_design(qtbot, llama_window)
    type_into(view.iso_edit, "7B, 10B")
    x, y = view.x_range.text(), view.y_range.text()
    argv = ["sweep", "llama-3-8b", "--x", f"hidden_size={x}", "--y", f"num_layers={y}", "--iso", "7B,10B"]
    for form in ("csv", "json"):
        target, cli = tmp_path / f"window.{form}", tmp_path / f"cli.{form}"
        _export(qtbot, modals, view, f"Design space as {form.upper()}…", target)
        assert main([*argv, "--format", form, "--output", str(cli)]) == 0
        written = target.read_text(encoding="utf-8").removeprefix(BOM)  # "CSV for Excel" is on
        assert written == cli.read_text(encoding="utf-8")
    bom, about, rows = read_csv(tmp_path / "window.csv")
    assert bom and len(rows) == 64 * 64 and {"total>=7B", "total>=10B"} <= set(rows[0])
    document = llama_window.document
    assert about["model"] == document.architecture.name == "Llama-3-8B"
    assert about["scenario"] == scenario_text(document.scenario)
    assert Architecture.model_validate_json(about["architecture json"]) == document.architecture
    assert window_status(llama_window) == f"Exported {tmp_path / 'window.json'}"


def test_the_heatmap_as_png_and_svg_says_the_figure_model_and_scenario(
    qtbot: QtBot, llama_window: MainWindow, modals: Modals, tmp_path: Path
) -> None:
    view = open_design(qtbot, llama_window)
    qtbot.mouseClick(view.fits_check, Qt.MouseButton.LeftButton, pos=QPoint(8, view.fits_check.height() // 2))
    qtbot.waitUntil(lambda: view.sweep is not None and view.sweep.fits is not None, timeout=20_000)
    png, svg = tmp_path / "heatmap.png", tmp_path / "heatmap.svg"
    _export(qtbot, modals, view, "Heatmap as PNG…", png)
    _export(qtbot, modals, view, "Heatmap as SVG…", svg)
    image = QImage(str(png))
    assert not image.isNull() and image.width() > 600
    texts = " ".join(text.text for text in svg_texts(svg))
    assert "Total parameters — Llama-3-8B" in texts and "does not fit 1 × " in texts
    assert "Under the scenario: inference" in texts
    assert sorted(path.name for path in tmp_path.iterdir()) == ["heatmap.png", "heatmap.svg"]


def _colour_bar_columns(image: QImage) -> list[int]:
    """The pixel columns holding both ends of the colour map: only the colour bar's do (the grid's
    least and largest cells lie in different columns)."""
    pixels = rgb(image)
    ends = pg.colormap.get("viridis").map([0.0, 1.0], mode="byte")[:, :3].astype(int)
    near = [(np.abs(pixels - end).max(axis=2) <= 12).any(axis=0) for end in ends]
    return np.nonzero(near[0] & near[1])[0].tolist()


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_heatmap_svg_draws_whole_outside_qt(
    qtbot: QtBot, llama_window: MainWindow, modals: Modals, tmp_path: Path, viewer: str
) -> None:
    """Issue 31: the heatmap's SVG, iso-lines, faded cells and ring included, drawn by librsvg and
    Chromium as the PNG export draws it (its cells as blocks, not smoothed by the viewer)."""
    view = open_design(qtbot, llama_window)
    qtbot.mouseClick(view.fits_check, Qt.MouseButton.LeftButton, pos=QPoint(8, view.fits_check.height() // 2))
    qtbot.waitUntil(lambda: view.sweep is not None and view.sweep.fits is not None, timeout=20_000)
    png, svg = tmp_path / "heatmap.png", tmp_path / "heatmap.svg"
    _export(qtbot, modals, view, "Heatmap as PNG…", png)
    _export(qtbot, modals, view, "Heatmap as SVG…", svg)
    image = QImage(str(png))
    assert lost_drawing(image, drawn_in(viewer, svg, image)) <= MOST_LOST


def test_the_heatmap_export_keeps_its_colour_bar_under_a_long_scenario(
    qtbot: QtBot, mixtral_training_window: MainWindow, modals: Modals, tmp_path: Path
) -> None:
    """QA: Mixtral trained with ZeRO-3 and EP 8: the one-line scenario under the title widened the
    plot past the picture, and the colour bar and the last columns were cut off on the right."""
    view = open_design(qtbot, mixtral_training_window)
    png, svg = tmp_path / "heatmap.png", tmp_path / "heatmap.svg"
    _export(qtbot, modals, view, "Heatmap as PNG…", png)
    _export(qtbot, modals, view, "Heatmap as SVG…", svg)
    image = QImage(str(png))
    bar = _colour_bar_columns(image)
    assert bar, "the colour bar is in the picture"
    # Its tick labels stand right of it, and the picture's right edge is background, not cells.
    pixels = rgb(image)
    background = pixels[0, 0]
    right = pixels[:, max(bar) + 1 :]
    assert (np.abs(right - background).max(axis=2) > 60).any(), "the colour bar's labels"
    assert (pixels[:, -4:] == background).all(), "nothing runs off the right edge"

    texts = svg_texts(svg)
    page = QRectF(0, 0, EXPORT_SIZE.width(), EXPORT_SIZE.height())
    assert all(page.contains(text.box()) for text in texts), [t for t in texts if not page.contains(t.box())]
    scenario = f"Under the scenario: {scenario_text(mixtral_training_window.document.scenario)}"
    assert scenario in " ".join(text.text for text in texts)  # broken over lines after a comma


def test_levels_typed_without_enter_are_neither_drawn_nor_exported(
    qtbot: QtBot, llama_window: MainWindow, tmp_path: Path, type_into: TypeInto
) -> None:
    """QA (round 3): levels typed without pressing Enter went into the exported CSV's columns, yet
    were not drawn on the heatmap nor its picture: a file that disagreed with the screen. (Leaving
    the field applies them, as the Export button's menu does; an export while the field still has
    the focus, as ``export(form, path)`` is, wrote the typed text.)"""
    view = open_design(qtbot, llama_window)
    type_into(view.iso_edit, "7.7B, 9.9B")
    view.iso_edit.selectAll()
    qtbot.keyClicks(view.iso_edit, "11.1B")  # no Enter, the focus still in the field
    assert view.iso_edit.hasFocus() and view.iso_edit.text() == "11.1B"
    drawn = [label.textItem.toPlainText() for label in view.heatmap.iso_labels if label.isVisible()]
    assert drawn == ["7.7B", "9.9B"]
    assert view.export("csv", tmp_path / "window.csv") == tmp_path / "window.csv"
    _, _, rows = read_csv(tmp_path / "window.csv")
    assert [column for column in rows[0] if column.startswith("total>=")] == ["total>=7.7B", "total>=9.9B"]
    assert view.export("svg", tmp_path / "heatmap.svg") == tmp_path / "heatmap.svg"
    texts = [text.text for text in svg_texts(tmp_path / "heatmap.svg")]
    assert "7.7B" in texts and "9.9B" in texts and "11.1B" not in texts
