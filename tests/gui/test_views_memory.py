"""Memory panel: scenario controls edit the document; bar, capacity line and setups follow the core."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QLabel, QStyle, QToolTip, QWidget
from pytestqt.qtbot import QtBot

from paramtally.core.memory.estimate import PARTS, estimate_memory
from paramtally.core.memory.fit import fit_setups
from paramtally.core.memory.gpus import find_gpu
from paramtally.core.memory.scenario import Scenario
from paramtally.core.memory.serving import estimate_serving
from paramtally.core.typed_numbers import GIB
from paramtally.gui.main_window import MainWindow
from paramtally.gui.views.format import rate_text, seconds_text, signed_bytes_both
from paramtally.gui.views.memory_panel import MemoryPanel
from paramtally.gui.views.serving_summary import dollars_text
from paramtally.gui.views.setups_table import (
    COLUMN_FIELDS,
    FITS,
    FITS_TEXT,
    FREE,
    MAX_CONTEXT,
    NOT_FIT_TEXT,
    RAW_ROLE,
    USAGE,
)
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals
from tests.gui.views_support import click_tab, make_document, preset_window


@pytest.fixture
def panel(qtbot: QtBot) -> MemoryPanel:
    widget = MemoryPanel(make_document("llama-2-7b"))
    qtbot.addWidget(widget)
    widget.resize(900, 800)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _fit_flags(panel: MemoryPanel) -> dict[tuple[str, int], str]:
    model = panel.setups.setups_model
    return {(fit.gpu, fit.count): model.index(row, FITS).data() for row, fit in enumerate(model.setups)}


def test_controls_come_from_the_scenario_schema(panel: MemoryPanel) -> None:
    for name, info in Scenario.model_fields.items():
        editor = panel.findChild(object, f"scenario.{name}")
        assert editor is not None, name
        assert info.description and info.description in editor.toolTip()
    context = panel.controls.editors["context"]
    assert (context.minimum, context.maximum) == (1, 100_000_000)


def test_bar_and_capacity_equal_the_core(panel: MemoryPanel) -> None:
    document = panel._document
    expected = estimate_memory(document.architecture, document.scenario)
    base = 0
    for part in PARTS:
        bars = panel.chart.bars[part]
        value = getattr(expected, f"{part}_bytes")
        assert bars.opts["height"] == [float(value)] and bars.opts["y0"] == [float(base)]
        assert bars.isVisible() == (value > 0)
        base += value
    assert base == expected.total_bytes
    gpu = find_gpu(document.scenario.gpu)
    assert panel.chart.capacity_line.value() == gpu.capacity_bytes(document.scenario.utilization_cap)


def test_setups_show_the_core_verdicts_and_follow_a_control(qtbot: QtBot, panel: MemoryPanel) -> None:
    document = panel._document
    model = panel.setups.setups_model
    expected = fit_setups(document.architecture, document.scenario)
    assert model.rowCount() == len(expected)
    for row, fit in enumerate(expected):
        assert model.index(row, FITS).data() == (FITS_TEXT if fit.fits else NOT_FIT_TEXT)
        assert model.index(row, FREE).data() == signed_bytes_both(fit.free_bytes)
        assert model.index(row, FITS).data(RAW_ROLE) == fit.fits
    # REFERENCE worked example: Llama-2-7B bf16 at 4k context fits one RTX 4090.
    assert _fit_flags(panel)[("rtx-4090", 1)] == FITS_TEXT
    bars = dict(panel.chart.bars)
    # Training-only controls are left out while serving, serving-only ones while training.
    optimizer, generated = panel.controls.editors["optimizer"], panel.controls.editors["generated"]
    assert optimizer.isHidden() and not panel.controls.editors["context"].isHidden()
    assert not generated.isHidden()

    # A person switches to training from the mode combo box.
    mode = panel.controls.editors["mode"]
    mode.setFocus()
    qtbot.keyClick(mode, Qt.Key.Key_Down)  # inference → training (the combo commits on activation)
    mode.activated.emit(mode.currentIndex())
    assert document.scenario.mode == "training"
    assert not optimizer.isHidden() and optimizer.isEnabled() and generated.isHidden()
    flags = _fit_flags(panel)
    expected = fit_setups(document.architecture, document.scenario)
    assert flags == {(f.gpu, f.count): FITS_TEXT if f.fits else NOT_FIT_TEXT for f in expected}
    assert flags[("rtx-4090", 1)] == NOT_FIT_TEXT  # full AdamW training of 7B needs far more than 24 GB
    memory = estimate_memory(document.architecture, document.scenario)
    assert panel.chart.bars["optimizer"].opts["height"] == [float(memory.optimizer_bytes)]
    assert model.resets == 1  # first fill only: later edits update the rows in place
    assert all(panel.chart.bars[part] is bars[part] for part in bars)

    document.undo_stack.undo()
    assert document.scenario.mode == "inference" and mode.currentData() == "inference"
    assert _fit_flags(panel)[("rtx-4090", 1)] == FITS_TEXT


def test_context_spin_box_edits_are_undoable_and_change_the_kv_bar(qtbot: QtBot, panel: MemoryPanel) -> None:
    document = panel._document
    context = panel.controls.editors["context"]
    before = panel.chart.bars["kv_cache"].opts["height"][0]
    context.lineEdit().selectAll()
    qtbot.keyClicks(context.lineEdit(), "32768")
    qtbot.keyClick(context.lineEdit(), Qt.Key.Key_Return)
    assert document.scenario.context == 32768
    memory = estimate_memory(document.architecture, document.scenario)
    assert panel.chart.bars["kv_cache"].opts["height"] == [float(memory.kv_cache_bytes)]
    assert memory.kv_cache_bytes == 8 * before  # KV grows linearly with the context
    document.undo_stack.undo()
    assert document.scenario.context == 4096 and context.value() == 4096


def test_serving_figures_follow_the_generated_tokens_typed(qtbot: QtBot, panel: MemoryPanel) -> None:
    """Llama-2-7B on one H100: typing 512 generated tokens grows the KV cache to 4,608 tokens a
    sequence, and the serving summary shows the core's figures for it."""
    document = panel._document
    serving = panel.findChild(QWidget, "servingSummary")
    assert serving is panel.serving and serving.isVisible() and "4,096 tokens each" in serving.text()
    generated = panel.controls.editors["generated"]
    generated.lineEdit().selectAll()
    qtbot.keyClicks(generated.lineEdit(), "512")
    qtbot.keyClick(generated.lineEdit(), Qt.Key.Key_Return)
    assert document.scenario.generated == 512
    qtbot.waitUntil(lambda: "4,608 tokens each" in serving.text())
    report = estimate_serving(document.architecture, document.scenario)
    assert report is not None
    text = serving.text()
    assert f"{report.max_batch:,}" in text and rate_text(report.decode_tokens_per_second) in text
    assert seconds_text(report.prefill_seconds) in text
    assert dollars_text(report.usd_per_million_output_tokens) in text
    assert "prefill time (s): max(b·F_p/(t·P·u), W/(f_bw·BW))" in serving.toolTip()
    # Generated tokens are a serving figure: greyed out, and the summary hidden, when training.
    mode = panel.controls.editors["mode"]
    mode.setFocus()
    qtbot.keyClick(mode, Qt.Key.Key_Down)
    mode.activated.emit(mode.currentIndex())
    assert document.scenario.mode == "training"
    qtbot.waitUntil(lambda: not serving.isVisible())
    assert generated.isHidden()


def test_refused_scenario_keeps_the_last_figures_and_says_why(qtbot: QtBot, panel: MemoryPanel) -> None:
    document = panel._document
    heights = {part: bars.opts["height"] for part, bars in panel.chart.bars.items()}
    flags = _fit_flags(panel)
    document.set_scenario_field("gpus", 3)
    document.set_scenario_field("tp", 3)  # 32 heads are not divisible by 3
    assert panel.problem.isVisible()
    assert "Tensor parallel" in panel.problem.text() and "32 attention heads" in panel.problem.text()
    tp = panel.controls.editors["tp"]
    # Shown at the field too.
    assert "32 attention heads" in tp.toolTip() and panel.controls.field_state("tp") == "error"
    assert {part: bars.opts["height"] for part, bars in panel.chart.bars.items()} == heights
    assert _fit_flags(panel) == flags
    document.undo_stack.undo()
    assert not panel.problem.isVisible() and not panel.controls.field_state("tp")


def test_a_form_edit_reaches_every_view(qtbot: QtBot) -> None:
    """Through the window as a person: type a hidden size; headline, bars, pie and GPU flags follow."""
    from paramtally.core.count.parameters import count_parameters
    from paramtally.gui.main_window import MainWindow
    from paramtally.gui.views.pie_chart import FULL_CIRCLE

    document = make_document("llama-2-7b")
    window = MainWindow(document)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    editor = window.findChild(object, "hidden_size")
    editor.lineEdit().selectAll()
    qtbot.keyClicks(editor.lineEdit(), "8192")
    qtbot.keyClick(editor.lineEdit(), Qt.Key.Key_Return)
    assert document.architecture.hidden_size == 8192
    report = count_parameters(document.architecture)
    assert f"{report.total:,}" in window.findChild(object, "totalParams").text()
    bar = window.findChild(object, "breakdownBar")
    assert dict(zip(bar.parts_shown, bar.part_bars.opts["width"], strict=True)) == {
        part: float(value) for part, value in report.by_part.items() if value
    }
    pie = window.findChild(object, "breakdownPie")
    for part, value in report.by_part.items():
        assert abs(-pie.entries[part].wedge.spanAngle() - FULL_CIRCLE * value / report.total) <= 1
    # The memory tab is hidden while the person edits: it catches up when they open it.
    panel = window.findChild(object, "memoryBudget")
    assert panel.deferred.stale
    window.tabs.setCurrentIndex(1)
    assert not panel.deferred.stale
    setups = window.findChild(object, "gpuSetups").setups_model
    expected = fit_setups(document.architecture, document.scenario)
    assert [setups.index(row, FITS).data() for row in range(setups.rowCount())] == [
        FITS_TEXT if fit.fits else NOT_FIT_TEXT for fit in expected
    ]


def test_parameter_views_behind_the_memory_tab_catch_up_when_shown(qtbot: QtBot) -> None:
    """Typed while the memory tab is open: the memory figures follow at once; the charts and the
    table of the hidden Parameters tab wait, and show the new count as soon as the tab is opened."""
    from paramtally.core.count.parameters import count_parameters
    from paramtally.gui.main_window import MainWindow
    from paramtally.gui.views.breakdown_table import RAW_ROLE as TABLE_RAW
    from paramtally.gui.views.pie_chart import FULL_CIRCLE

    document = make_document("llama-2-7b")
    window = MainWindow(document)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    click_tab(qtbot, window, "Memory and GPU fit")
    editor = window.findChild(object, "hidden_size")
    editor.lineEdit().selectAll()
    qtbot.keyClicks(editor.lineEdit(), "5120")
    qtbot.keyClick(editor.lineEdit(), Qt.Key.Key_Return)
    assert document.architecture.hidden_size == 5120
    memory = estimate_memory(document.architecture, document.scenario)
    panel = window.findChild(object, "memoryBudget")
    assert {part: bars.opts["height"][0] for part, bars in panel.chart.bars.items() if bars.isVisible()} == {
        part: float(value) for part, value in memory.by_part().items() if value
    }
    charts, table = window.charts, window.table
    assert charts.deferred.stale and table.deferred.stale

    click_tab(qtbot, window, "Parameters")
    assert not charts.deferred.stale and not table.deferred.stale
    report = count_parameters(document.architecture)
    shown = dict(zip(charts.bar.parts_shown, charts.bar.part_bars.opts["width"], strict=True))
    assert shown == {part: float(value) for part, value in report.by_part.items() if value}
    for part, value in report.by_part.items():
        if value:
            assert abs(-charts.pie.entries[part].wedge.spanAngle() - FULL_CIRCLE * value / report.total) <= 1
    assert f"{report.total:,}" in charts.pie.title()
    assert table.model().index(0, 4).data(TABLE_RAW) == report.total
    assert table.breakdown.resets == 0  # same shape: the rows took the new numbers in place


def _hover_tip(qtbot: QtBot, widget: QWidget, at: QPoint | None = None) -> str:
    """The tooltip a person sees resting the mouse on ``widget`` (the ToolTip event Qt sends)."""
    QToolTip.hideText()
    qtbot.waitUntil(lambda: not QToolTip.isVisible())
    point = at if at is not None else widget.rect().center()
    target = widget.childAt(point) or widget
    point = target.mapFrom(widget, point)
    QApplication.sendEvent(target, QHelpEvent(QEvent.Type.ToolTip, point, target.mapToGlobal(point)))
    return QToolTip.text() if QToolTip.isVisible() else ""


def test_hover_shows_the_formulas_of_the_figures_after_an_edit(qtbot: QtBot, panel: MemoryPanel) -> None:
    """The chart's, the FLOPs' and the serving summary's tooltips are written when hovered: after a
    new context they name the terms of the new figures, with their formulas and sources."""
    document = panel._document
    context = panel.controls.editors["context"]
    context.lineEdit().selectAll()
    qtbot.keyClicks(context.lineEdit(), "8192")
    qtbot.keyClick(context.lineEdit(), Qt.Key.Key_Return)
    assert document.scenario.context == 8192
    memory = estimate_memory(document.architecture, document.scenario)
    kv = next(term for term in memory.terms if term.part == "kv_cache")
    chart_tip = _hover_tip(qtbot, panel.chart)
    assert f"{kv.name}: {kv.value:,} B = {kv.formula}  [{kv.source}]" in chart_tip
    assert chart_tip == panel.chart.toolTip()
    flops = document.flops
    assert flops is not None
    first = flops.terms[0]
    assert f"{first.name}: {first.formula}  [{first.source}]" in _hover_tip(qtbot, panel.flops)
    serving_tip = _hover_tip(qtbot, panel.serving)
    assert "prefill time (s): max(b·F_p/(t·P·u), W/(f_bw·BW))" in serving_tip
    # The next edit's figures replace the text: the KV cache term doubles with the context.
    context.lineEdit().selectAll()
    qtbot.keyClicks(context.lineEdit(), "16384")
    qtbot.keyClick(context.lineEdit(), Qt.Key.Key_Return)
    assert f"{kv.name}: {2 * kv.value:,} B" in _hover_tip(qtbot, panel.chart)


def test_only_fitting_setups_follow_an_edit_with_the_new_bytes(qtbot: QtBot, panel: MemoryPanel) -> None:
    """With "Only setups that fit" ticked, a longer context typed in hides the setups that no
    longer fit, and the rows left show the core's new per-GPU bytes; unticked, all come back."""
    document, table = panel._document, panel.setups
    view = table.model()
    qtbot.mouseClick(panel.fits_only, Qt.MouseButton.LeftButton, pos=QPoint(4, panel.fits_only.height() // 2))
    assert panel.fits_only.isChecked()

    def shown() -> dict[tuple[str, int], str]:
        fits = table.setups_model.setups
        rows = [table.proxy.mapToSource(view.index(row, 0)).row() for row in range(view.rowCount())]
        return {(fits[row].gpu, fits[row].count): view.index(n, USAGE).data() for n, row in enumerate(rows)}

    before = shown()
    context = panel.controls.editors["context"]
    context.lineEdit().selectAll()
    qtbot.keyClicks(context.lineEdit(), "131072")
    qtbot.keyClick(context.lineEdit(), Qt.Key.Key_Return)
    assert document.scenario.context == 131072
    expected = {
        (fit.gpu, fit.count): f"{fit.per_gpu_bytes / GIB:,.1f} / {fit.capacity_bytes / GIB:,.1f} GiB"
        for fit in fit_setups(document.architecture, document.scenario)
        if fit.fits
    }
    assert 0 < len(expected) < len(before) and shown() == expected
    assert ("rtx-4090", 1) in before and ("rtx-4090", 1) not in expected  # 64 GiB of KV cache alone

    panel.fits_only.click()
    assert view.rowCount() == len(fit_setups(document.architecture, document.scenario))


def test_the_flops_summary_grows_to_its_new_rows(qtbot: QtBot, panel: MemoryPanel) -> None:
    """Switching to training adds a row to the FLOPs summary: the block grows to show it, and a
    narrower column wraps the rows, taller still."""
    flops = panel.flops
    width = flops.width()
    before = flops.heightForWidth(width)
    assert flops.height() >= before
    mode = panel.controls.editors["mode"]
    mode.setFocus()
    qtbot.keyClick(mode, Qt.Key.Key_Down)  # inference → training
    mode.activated.emit(mode.currentIndex())
    assert panel._document.scenario.mode == "training"
    assert "Hardware per training token" in flops.text()
    qtbot.waitUntil(lambda: flops.height() >= flops.heightForWidth(flops.width()))
    after = flops.heightForWidth(width)
    assert after > before
    row = next(label for label in flops.findChildren(QLabel) if label.text() == "Hardware per training token")
    assert row.isVisible() and flops.rect().contains(row.geometry())
    assert flops.heightForWidth(width // 2) > after


def test_tab_leaves_the_gpu_setups_table(qtbot: QtBot, panel: MemoryPanel) -> None:
    """QA: once Tab reached the GPU setups table, Tab, Shift+Tab and Ctrl+Tab stayed in its cells."""
    table = panel.setups
    table.setFocus()
    qtbot.waitUntil(table.hasFocus)
    qtbot.keyClick(table, Qt.Key.Key_Tab)
    assert not table.hasFocus()
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert not table.hasFocus()


@pytest.mark.parametrize(
    ("usd", "text"), [(4540.3, "$4,540"), (76.94, "$76.9"), (0.01234, "$0.0123"), (0.0004, "under $0.001")]
)
def test_a_price_reads_without_an_exponent(usd: float, text: str) -> None:
    """QA: a million tokens at a 10⁸-token context read '$4.54e+03 generated'."""
    assert dollars_text(usd) == text


def _type_scenario(qtbot: QtBot, panel: MemoryPanel, name: str, text: str) -> None:
    line = panel.controls.editors[name].lineEdit()
    line.setFocus()
    line.selectAll()
    qtbot.keyClicks(line, text)
    qtbot.keyClick(line, Qt.Key.Key_Return)


def test_the_layout_column_reads_whole_and_training_hides_the_serving_columns(qtbot: QtBot) -> None:
    """QA: Mixtral trained with ZeRO-3 on 8 GPUs (EP 8) showed layouts as "DP=32 …" while "Max
    context" and "Decode tok/s" kept their width to show "–" in every row."""
    panel = MemoryPanel(make_document("mixtral-8x7b"))
    qtbot.addWidget(panel)
    panel.resize(900, 800)
    panel.show()
    qtbot.waitExposed(panel)
    table, document = panel.setups, panel._document
    header = table.horizontalHeader()
    titles = [table.model().headerData(c, Qt.Orientation.Horizontal) for c in range(header.count())]
    serving = [titles.index("Max context"), titles.index("Decode tok/s")]
    assert not any(header.isSectionHidden(c) for c in serving)  # serving: both have figures

    mode = panel.controls.editors["mode"]
    mode.setFocus()
    qtbot.keyClick(mode, Qt.Key.Key_Down)  # inference → training
    mode.activated.emit(mode.currentIndex())
    for name, text in (("zero", "3"), ("gpus", "8"), ("ep", "8")):
        _type_scenario(qtbot, panel, name, text)
    scenario = document.scenario
    assert (scenario.mode, scenario.zero, scenario.gpus, scenario.ep) == ("training", 3, 8, 8)
    qtbot.waitUntil(lambda: any("ZeRO-3" in fit.layout for fit in table.setups_model.setups))

    layout_column = titles.index("Layout")
    view = table.model()
    shown = [view.index(row, layout_column) for row in range(view.rowCount())]
    assert any(index.data() == "DP=32 (EP=8), ZeRO-3" for index in shown)
    metrics = table.fontMetrics()
    # What the cell has for text: its width less the grid line and the style's margins either side.
    margin = table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1
    room = header.sectionSize(layout_column) - 1 - 2 * margin
    for index in shown:  # every layout reads whole: not cut to "DP=32 …"
        assert metrics.elidedText(index.data(), Qt.TextElideMode.ElideRight, room) == index.data()
    assert all(header.isSectionHidden(c) for c in serving)

    document.undo_stack.undo()  # EP
    document.undo_stack.undo()  # GPUs
    document.undo_stack.undo()  # ZeRO
    document.undo_stack.undo()  # mode
    assert document.scenario.mode == "inference"
    qtbot.waitUntil(lambda: not any(header.isSectionHidden(c) for c in serving))


def _open_builtin(window: MainWindow, preset_id: str) -> None:
    """File → Open Built-in Preset → ``preset_id``."""
    builtin = next(a.menu() for a in window.file_menu.actions() if a.menu() and "Built-in" in a.text())
    next(a for a in builtin.actions() if a.text() == preset_id).trigger()


def test_encoder_tokens_are_shown_for_a_model_with_an_encoder_only(
    qtbot: QtBot, type_into: TypeInto, modals: Modals
) -> None:
    """QA: Llama's memory tab offered 'Encoder tokens', which change nothing without an encoder.
    The field comes with T5 and goes again with Llama, opened in the same window."""
    window = preset_window(qtbot, "llama-3-8b")
    click_tab(qtbot, window, "Memory and GPU fit")
    editor = window.findChild(QWidget, "scenario.encoder_tokens")
    label = window.memory.controls.labels["encoder_tokens"]
    assert editor is not None and not editor.isVisible() and not label.isVisible()
    assert window.memory.controls.editors["context"].isVisible()
    _open_builtin(window, "t5-base")
    qtbot.waitUntil(lambda: editor.isVisible() and label.isVisible())
    document = window.document
    before = document.memory.total_bytes
    type_into(editor, "2048")
    assert document.scenario.encoder_tokens == 2048
    after = estimate_memory(document.architecture, document.scenario).total_bytes
    assert document.memory.total_bytes == after != before  # the cross-attention caches 2,048 tokens
    modals.click("Don't Save")  # the encoder tokens typed are an unsaved change
    _open_builtin(window, "llama-3-8b")
    modals.wait_done()
    qtbot.waitUntil(lambda: not editor.isVisible())
    window.close()


@pytest.mark.parametrize(
    ("field", "typed", "value"),
    [
        ("context", "32k", 32_768),  # a length in tokens: k is 1,024
        ("context", "8Ki", 8192),
        ("batch", "1e2", 100),
        ("cuda_context_bytes", "512MiB", 1 << 29),
    ],
)
def test_scenario_numbers_are_typed_as_people_write_them(
    qtbot: QtBot, panel: MemoryPanel, field: str, typed: str, value: int
) -> None:
    """Issue 31: the one number syntax of the form and the command line (--context 32k)."""
    editor = panel.controls.editors[field]
    editor.lineEdit().selectAll()
    qtbot.keyClicks(editor.lineEdit(), typed)
    qtbot.keyClick(editor.lineEdit(), Qt.Key.Key_Return)
    assert getattr(panel._document.scenario, field) == value
    assert editor.lineEdit().text() == f"{value:,}"


def test_scenario_text_that_is_no_number_stays_red_with_the_reason(qtbot: QtBot, panel: MemoryPanel) -> None:
    document = panel._document
    context = panel.controls.editors["context"]
    heights = {part: bars.opts["height"] for part, bars in panel.chart.bars.items()}
    context.lineEdit().selectAll()
    qtbot.keyClicks(context.lineEdit(), "32x")
    qtbot.keyClick(context.lineEdit(), Qt.Key.Key_Return)
    assert document.scenario.context == 4096 and context.lineEdit().text() == "32x"
    assert panel.controls.field_state("context") == "error"
    assert panel.problem.text() == (
        "Not applied: Context (tokens): '32x': unknown suffix 'x' (it takes k = 1,024 and M = 1,048,576 "
        "tokens) (Context (tokens) stays 4,096; the figures are for it)."
    )
    assert {part: bars.opts["height"] for part, bars in panel.chart.bars.items()} == heights
    # Another field's edit keeps the text and the reason; Ctrl+Z in the field takes the typing back.
    document.set_scenario_field("batch", 2)
    assert context.lineEdit().text() == "32x" and panel.controls.field_state("context") == "error"
    context.setFocus()
    qtbot.keyClick(context.lineEdit(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert context.lineEdit().text() == "4,096" and not panel.controls.field_state("context")
    assert not panel.problem.isVisible()


def test_a_share_is_typed_exactly_and_a_share_past_one_is_refused_at_the_field(
    qtbot: QtBot, panel: MemoryPanel
) -> None:
    """Qt's decimal spin box read '8.5e-1' as 8.000 (no 'e', no '-'), cut '0.8765' to 0.876 and
    dropped a '2' past its maximum without a word."""
    document = panel._document
    cap = panel.controls.editors["utilization_cap"]

    def type_(text: str) -> None:
        cap.lineEdit().selectAll()
        qtbot.keyClicks(cap.lineEdit(), text)
        qtbot.keyClick(cap.lineEdit(), Qt.Key.Key_Return)

    type_("8.5e-1")
    assert document.scenario.utilization_cap == 0.85 and cap.lineEdit().text() == "0.85"
    type_("0.8765")
    assert document.scenario.utilization_cap == 0.8765 and cap.lineEdit().text() == "0.8765"
    type_("1.5")
    assert document.scenario.utilization_cap == 0.8765 and cap.lineEdit().text() == "1.5"
    assert panel.controls.field_state("utilization_cap") == "error"
    assert "Not applied: Utilization cap 1.5" in panel.problem.text()
    type_("90%")
    assert cap.lineEdit().text() == "90%" and panel.controls.field_state("utilization_cap") == "error"
    assert "'90%' is not a number: type 0.4, 0.95 or 4e-1" in panel.problem.text()


def test_an_encoder_alone_shows_no_decoding_in_the_memory_tab(qtbot: QtBot) -> None:
    """roberta-base generates nothing: the serving summary has its prefill, largest batch and prompt
    price alone, the compute summary no decode step, the setups table no decode column; typing a
    context still moves the prefill."""
    window = preset_window(qtbot, "roberta-base", (1024, 700))
    click_tab(qtbot, window, "Memory and GPU fit")
    panel = window.memory
    serving, compute = panel.serving, panel.findChild(QWidget, "flopsSummary")
    qtbot.waitUntil(lambda: serving.isVisible() and "Prefill" in serving.text())
    assert "Largest batch that fits" in serving.text() and "prompt" in serving.text()
    assert "Decode" not in serving.text() and "KV cache" not in serving.text()
    assert "generated" not in serving.text()
    assert "Forward per token (prefill)" in compute.text() and "Decode" not in compute.text()
    table = panel.setups
    decode = COLUMN_FIELDS.index(("decode_tokens_per_second",))
    assert table.isColumnHidden(decode) and not table.isColumnHidden(MAX_CONTEXT)
    before = serving.text()
    assert window.document.scenario.context == 512
    _type_scenario(qtbot, panel, "context", "128")
    report = estimate_serving(window.document.architecture, window.document.scenario)
    assert report is not None and report.decode_tokens_per_second is None
    qtbot.waitUntil(lambda: seconds_text(report.prefill_seconds) in serving.text())
    assert serving.text() != before
