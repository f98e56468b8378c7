"""The Compare tab driven as a person would: Pin, a preset from the Add Preset menu, a config.json
from the file dialog, the baseline chosen with the keyboard, an edit in the form, Export through
the save dialog. Every figure shown is checked against core's count and memory; the exported
files against what `paramtally compare` writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QHeaderView, QTableWidget
from pytestqt.qtbot import QtBot

from paramtally.core.cli import main
from paramtally.core.count.breakdown import PART_LABELS
from paramtally.core.count.parameters import count_parameters
from paramtally.core.io.export import scenario_text
from paramtally.core.io.model_sources import load_source
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.schema import Architecture
from paramtally.gui.document import Document
from paramtally.gui.explore.compare_view import CompareView
from paramtally.gui.explore.figure_text import delta_text, figure_text
from paramtally.gui.export_actions import EXCEL_KEY
from paramtally.gui.main_window import MainWindow
from paramtally.gui.settings import settings
from tests.csv_text import read_csv
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals, right_click
from tests.gui.views_support import click_tab

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "tests" / "data" / "hf_configs" / "llama-2-7b.json"


def open_compare(qtbot: QtBot, window: MainWindow) -> CompareView:
    click_tab(qtbot, window, "Compare")
    view = window.explore.compare_view
    qtbot.waitUntil(lambda: view.isVisible() and view.comparison is not None)
    return view


def cell(table: QTableWidget, row: int, column: int) -> list[str]:
    item = table.item(row, column)
    assert item is not None, (row, column)
    return item.text().split("\n")


def row_of(table: QTableWidget, title: str) -> int:
    titles = [table.verticalHeaderItem(row).text() for row in range(table.rowCount())]
    return titles.index(title)


def assert_column_is_core(view: CompareView, column: int, arch: Architecture) -> None:
    """The column shows count_parameters' total, active and parts, and estimate_memory's bytes."""
    report = count_parameters(arch)
    memory = estimate_memory(arch, view.document.scenario)
    table = view.figures
    assert cell(table, row_of(table, "Total parameters"), column)[0] == f"{report.total:,}"
    assert cell(table, row_of(table, "Active parameters"), column)[0] == f"{report.active:,}"
    assert cell(table, row_of(table, "Memory per GPU"), column)[0] == figure_text(memory.total_bytes, "bytes")
    for part, value in report.by_part.items():
        if value:
            assert cell(table, row_of(table, PART_LABELS[part]), column)[0] == f"{value:,}", part


def add_preset(qtbot: QtBot, modals: Modals, view: CompareView, preset_id: str) -> None:
    modals.choose(preset_id)
    qtbot.mouseClick(view.preset_button, Qt.MouseButton.LeftButton)
    modals.wait_done()


def test_pin_a_preset_and_a_config_json_show_core_figures(
    qtbot: QtBot, llama_window: MainWindow, modals: Modals
) -> None:
    view = open_compare(qtbot, llama_window)
    document = llama_window.document
    assert view.figures.columnCount() == 1
    llama = document.architecture

    qtbot.mouseClick(view.pin_button, Qt.MouseButton.LeftButton)
    add_preset(qtbot, modals, view, "mixtral-8x7b")
    modals.choose_file(str(CONFIG), "Open")
    qtbot.mouseClick(view.file_button, Qt.MouseButton.LeftButton)
    modals.wait_done()

    headers = [view.figures.horizontalHeaderItem(c).text() for c in range(view.figures.columnCount())]
    assert headers == ["llama-3-8b (open)\n(baseline)", "llama-3-8b · pin 1", "mixtral-8x7b", CONFIG.name]
    assert view.figures.horizontalHeaderItem(3).toolTip() == str(CONFIG)  # the path, whole
    for column, arch in enumerate((llama, llama, load_source("mixtral-8x7b"), load_source(str(CONFIG)))):
        assert_column_is_core(view, column, arch)
    # Differences against the open model, absolute and in percent, as core's Delta gives them.
    total_row = row_of(view.figures, "Total parameters")
    assert cell(view.figures, total_row, 0)[1] == "baseline"
    assert cell(view.figures, total_row, 1)[1] == "±0"
    delta = view.comparison.delta(2, "total")
    assert delta.value == count_parameters(load_source("mixtral-8x7b")).total
    assert cell(view.figures, total_row, 2)[1] == delta_text(delta.absolute, delta.percent, "params")
    assert delta.absolute == delta.value - count_parameters(llama).total
    # The chart has a bar set per column; the GPU fit table one column per pinned model.
    assert view.chart.sources == view.pins.names() and view.chart.sources[3] == CONFIG.name
    assert view.fits.columnCount() == 4 and view.fits.rowCount() > 0


def test_the_open_column_follows_an_edit_and_the_pin_stays(
    qtbot: QtBot, llama_window: MainWindow, type_into: TypeInto
) -> None:
    view = open_compare(qtbot, llama_window)
    before = llama_window.document.architecture
    qtbot.mouseClick(view.pin_button, Qt.MouseButton.LeftButton)
    type_into(llama_window.form.editor(("hidden_size",)), "5120")
    after = llama_window.document.architecture
    assert after.hidden_size == 5120
    assert_column_is_core(view, 0, after)
    assert_column_is_core(view, 1, before)
    # The schema diff names the edited field, titled from the schema.
    diff_rows = [view.diff.verticalHeaderItem(r).text() for r in range(view.diff.rowCount())]
    assert "Hidden size" in diff_rows
    row = diff_rows.index("Hidden size")
    assert view.diff.item(row, 0).text() == "5,120" and view.diff.item(row, 1).text() == "4,096"


def test_each_diff_cell_is_its_own_columns_value(qtbot: QtBot, modals: Modals) -> None:
    """QA: Jamba against Qwen3-Next and T5 showed T5's 'Blocks › default › Mixer' as Jamba's Mamba,
    dimmed like the baseline's, though T5 has no block 'default' (its diff was the whole block)."""
    window = MainWindow(Document(load_source("jamba-v0.1"), "jamba-v0.1", preset_id="jamba-v0.1"))
    qtbot.addWidget(window)
    window.show()
    view = open_compare(qtbot, window)
    add_preset(qtbot, modals, view, "qwen3-next-80b-a3b")
    add_preset(qtbot, modals, view, "t5-base")
    diff_rows = [view.diff.verticalHeaderItem(r).toolTip() for r in range(view.diff.rowCount())]
    row = diff_rows.index("blocks.default.mixer")
    assert '"kind": "mamba"' in view.diff.item(row, 0).toolTip()  # Jamba's, whole in the tooltip
    assert '"kind": "gated_deltanet"' in view.diff.item(row, 1).toolTip()
    assert view.diff.item(row, 2).text() == "— (not set)" and view.diff.item(row, 2).font().bold()


def test_baseline_by_keyboard_and_remove_by_the_header_menu(
    qtbot: QtBot, llama_window: MainWindow, modals: Modals
) -> None:
    view = open_compare(qtbot, llama_window)
    add_preset(qtbot, modals, view, "llama-3-70b")
    view.baseline_box.setFocus()
    qtbot.keyClick(view.baseline_box, Qt.Key.Key_Down)
    assert view.pins.baseline == 1
    headers = [view.figures.horizontalHeaderItem(c).text() for c in range(2)]
    assert headers == ["llama-3-8b (open)", "llama-3-70b\n(baseline)"]
    total_row = row_of(view.figures, "Total parameters")
    big = count_parameters(load_source("llama-3-70b")).total
    small = count_parameters(llama_window.document.architecture).total
    assert cell(view.figures, total_row, 1)[1] == "baseline"
    percent = 100 * (small - big) / big
    assert cell(view.figures, total_row, 0)[1] == delta_text(small - big, percent, "params")
    # Remove the 70B column from its header's menu: the baseline falls back to the open model.
    header = view.figures.horizontalHeader()
    modals.choose("Remove Column")
    right_click(qtbot, header.viewport(), section_center(header, 1))
    modals.wait_done()
    assert view.figures.columnCount() == 1 and view.pins.baseline == 0


def section_center(header: QHeaderView, section: int) -> QPoint:
    x = header.sectionViewportPosition(section) + header.sectionSize(section) // 2
    return QPoint(x, header.viewport().height() // 2)


@pytest.mark.parametrize("form", ["csv", "json"])
def test_export_writes_what_the_cli_writes(
    qtbot: QtBot,
    llama_window: MainWindow,
    modals: Modals,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    form: str,
) -> None:
    settings().setValue(EXCEL_KEY, False)
    view = open_compare(qtbot, llama_window)
    add_preset(qtbot, modals, view, "llama-3-70b")
    add_preset(qtbot, modals, view, "mixtral-8x7b")
    target = tmp_path / f"window.{form}"
    modals.choose(f"Comparison as {form.upper()}…")
    modals.choose_file(str(target), "Save")
    qtbot.mouseClick(view.export_button, Qt.MouseButton.LeftButton)
    modals.wait_done()
    written = target.read_text(encoding="utf-8")

    cli = tmp_path / f"cli.{form}"
    sources = ["llama-3-8b", "llama-3-70b", "mixtral-8x7b"]
    assert main(["compare", *sources, "--format", form, "--output", str(cli)]) == 0
    # The one difference: the window calls the open document's column "llama-3-8b (open)".
    assert written.replace("llama-3-8b (open)", "llama-3-8b") == cli.read_text(encoding="utf-8")
    if form == "json":
        columns = json.loads(written)["columns"]
        for column, source in zip(columns, sources, strict=True):
            assert column["total"] == count_parameters(load_source(source)).total


def test_excel_csv_starts_with_a_byte_order_mark(
    qtbot: QtBot, llama_window: MainWindow, tmp_path: Path
) -> None:
    settings().setValue(EXCEL_KEY, True)
    view = open_compare(qtbot, llama_window)
    path = view.export("csv", tmp_path / "excel.csv")
    assert path is not None
    bom, about, rows = read_csv(path)
    assert bom and about["scenario"] == scenario_text(llama_window.document.scenario)
    assert rows[0]["section"] == "headline" and "architecture json" not in about  # rows name the models


def test_remove_takes_the_selected_pinned_column_and_never_another(
    qtbot: QtBot, llama_window: MainWindow, modals: Modals
) -> None:
    """QA: with a cell of the open model's column selected, Remove took the last pinned column away,
    unasked. It is for a pinned column's selected cell, and off otherwise."""
    view = open_compare(qtbot, llama_window)
    add_preset(qtbot, modals, view, "mixtral-8x7b")
    add_preset(qtbot, modals, view, "gpt2")
    table = view.figures

    def click_cell(column: int) -> None:
        rect = table.visualRect(table.model().index(0, column))
        qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())

    def headers() -> list[str]:
        return [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]

    click_cell(0)  # the open model's column
    assert not view.remove_button.isEnabled()
    qtbot.mouseClick(view.remove_button, Qt.MouseButton.LeftButton)
    assert headers()[1:] == ["mixtral-8x7b", "gpt2"]
    click_cell(1)
    assert view.remove_button.isEnabled()
    qtbot.mouseClick(view.remove_button, Qt.MouseButton.LeftButton)
    assert headers()[1:] == ["gpt2"]


def test_a_dense_column_beside_expert_parallelism_shows_where_it_fits_as_the_cli_does(
    qtbot: QtBot, modals: Modals, type_into: TypeInto, capsys: pytest.CaptureFixture[str]
) -> None:
    """Mixtral open at EP 8 on 8 GPUs beside GPT-2: GPT-2's fits are laid out at EP 1 (it has no
    experts), in the tab as in ``paramtally compare mixtral-8x7b gpt2 --ep 8 --gpus 8``."""
    window = MainWindow(Document(load_source("mixtral-8x7b"), "mixtral-8x7b", preset_id="mixtral-8x7b"))
    qtbot.addWidget(window)
    window.resize(1440, 900)
    window.show()
    qtbot.waitExposed(window)
    click_tab(qtbot, window, "Memory and GPU fit")
    type_into(window.memory.controls.editors["gpus"], "8")
    type_into(window.memory.controls.editors["ep"], "8")
    view = open_compare(qtbot, window)
    add_preset(qtbot, modals, view, "gpt2")
    assert main(["compare", "mixtral-8x7b", "gpt2", "--ep", "8", "--gpus", "8"]) == 0
    out = capsys.readouterr().out
    row = row_of(view.fits, "NVIDIA H100 SXM 80GB")
    item = view.fits.item(row, 1)
    cli = next(line for line in out.splitlines() if line.startswith("fits on h100-sxm-80gb "))
    assert item.text().startswith("✔ " + cli.split("  ")[-1].strip() + " ·")
    assert item.toolTip().startswith("Its setups at EP 1: no experts to spread over EP 8.")
    memory = view.figures.item(row_of(view.figures, "Memory per GPU"), 1)  # refused, as `memory gpt2 --ep 8`
    assert memory.text().startswith("—") and "expert parallelism needs MoE layers" in memory.toolTip()
