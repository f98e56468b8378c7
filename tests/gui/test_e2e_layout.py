"""Scenario j: the window at 1024×700 with the presets dock open; every editor at least as wide as
what it shows, nothing off screen, chart titles and labels inside their charts.

Bug 7 of issue 11: the form column was ~60 px wide, the memory tab's third column of controls
off screen, the GPU table two rows high and chart titles clipped, also in ``--screenshot``,
which restores the saved dock state.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QStyle,
    QStyleOptionComboBox,
    QWidget,
)
from pytestqt.qtbot import QtBot

from paramtally.core.io.model_sources import load_source
from paramtally.gui.app import build_parser, open_window
from paramtally.gui.document import Document
from paramtally.gui.main_window import MainWindow
from paramtally.gui.views.pie_chart import PieView, Slice
from paramtally.gui.views.setups_table import MIN_ROWS
from tests.gui.modals import Modals, give_focus
from tests.gui.settle import settle
from tests.gui.views_support import preset_window

SIZE = (1024, 700)


def _shown_width(editor: QWidget) -> tuple[int, int]:
    """(pixels the editor has for its text, pixels its text needs)."""
    metrics = editor.fontMetrics()
    if isinstance(editor, QAbstractSpinBox):
        line = editor.lineEdit()
        text = line.text() or line.placeholderText()
        return line.width(), metrics.horizontalAdvance(text) + 4  # QLineEdit keeps 2 px each side
    if isinstance(editor, QComboBox):
        option = QStyleOptionComboBox()
        editor.initStyleOption(option)
        field = editor.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, editor
        )
        return field.width(), metrics.horizontalAdvance(editor.currentText())
    if isinstance(editor, QLineEdit):
        # Free text (a description) may scroll, but not in a box narrower than Qt's usual one.
        return editor.width(), min(editor.sizeHint().width(), metrics.horizontalAdvance(editor.text()) + 8)
    return editor.width(), editor.minimumSizeHint().width()  # check boxes and rows of them


def _editors(window: MainWindow) -> Iterator[tuple[str, QWidget]]:
    form = window.form
    for path, row in form._rows.items():
        if row.editor.isVisibleTo(window.form):
            yield path, row.editor
    for name, editor in window.memory.controls.editors.items():
        yield f"scenario.{name}", editor


def _inside_window(window: MainWindow, widget: QWidget) -> bool:
    """Left to right within the window (up and down, the form and the memory tab scroll)."""
    left = widget.mapTo(window, widget.rect().topLeft()).x()
    return 0 <= left and left + widget.width() <= window.width()


def _check(window: MainWindow, qtbot: QtBot) -> None:
    assert (window.width(), window.height()) == SIZE, "the window's minimum size must fit 1024×700"
    assert window.presets_dock.isVisible()
    problems = []
    for tab in (0, 1):
        window.tabs.setCurrentIndex(tab)
        settle()
        for path, editor in _editors(window):
            if not editor.isVisible():
                continue
            have, need = _shown_width(editor)
            if have < need:
                problems.append(f"{path}: {have} px for {need}")
            if not _inside_window(window, editor):
                problems.append(f"{path}: off the window's right edge")
    assert not problems, problems
    memory = window.memory
    window.tabs.setCurrentIndex(1)
    settle()
    assert window.memory_scroll.horizontalScrollBar().maximum() == 0, (
        "the memory tab needs no sideways scroll"
    )
    row = memory.setups.verticalHeader().defaultSectionSize()
    assert memory.setups.viewport().height() >= MIN_ROWS * row - 2
    assert memory.chart.title_fits() and memory.chart.labels_inside()
    window.tabs.setCurrentIndex(0)
    settle()
    bar, pie = window.charts.bar, window.charts.pie
    assert bar.title_fits() and bar.labels_inside()
    assert window.form.width() >= window.form.minimumWidth() > 250
    title = pie._title.mapRectToScene(pie._title.boundingRect())
    assert pie.sceneRect().contains(title)
    for entry in pie.entries.values():
        if entry.legend.isVisible():
            legend = entry.legend.mapRectToScene(entry.legend.boundingRect())
            assert pie.sceneRect().contains(legend), entry.legend.text()
        if entry.label.isVisible() and entry.label.text():
            share = entry.label.mapRectToScene(entry.label.boundingRect())
            assert pie.sceneRect().contains(share), entry.label.text()
    assert not _overlapping_shares(pie)


def _overlapping_shares(pie: PieView) -> list[tuple[str, str]]:
    """The pairs of share labels drawn over each other."""
    shown = [
        (entry.label.text(), entry.label.mapRectToScene(entry.label.boundingRect()))
        for entry in pie.entries.values()
        if entry.label.isVisible() and entry.label.text()
    ]
    return [
        (one, other)
        for index, (one, rect) in enumerate(shown)
        for other, other_rect in shown[index + 1 :]
        if rect.intersects(other_rect)
    ]


def test_every_editor_fits_at_1024_by_700_with_the_dock_open(qtbot: QtBot, window: MainWindow) -> None:
    window.presets_dock.show()
    window.resize(*SIZE)
    qtbot.waitUntil(lambda: window.width() == SIZE[0])
    _check(window, qtbot)


def test_a_saved_dock_state_and_the_screenshot_path_lay_out_the_same(
    qtbot: QtBot, document: Document, tmp_path: Path
) -> None:
    """The dock opened at full size is remembered; the next start at 1024×700 (as ``--screenshot
    --size 1024x700`` builds it) still fits."""
    first = MainWindow(document)
    qtbot.addWidget(first)
    first.resize(1440, 900)
    first.show()
    first.presets_dock.show()
    qtbot.waitExposed(first)
    first.close()  # saves geometry, dock state and splitters

    args = build_parser().parse_args(["--screenshot", str(tmp_path / "shot.png"), "--size", "1024x700"])
    window = open_window(args)
    assert isinstance(window, MainWindow)
    qtbot.addWidget(window)
    window.show()
    window.load_views()
    qtbot.waitExposed(window)
    QApplication.processEvents()
    assert window.presets_dock.isVisible()  # the saved state was restored
    _check(window, qtbot)


def test_an_encoder_decoders_share_labels_stay_inside_the_pie_at_1024_by_700(qtbot: QtBot) -> None:
    """T5-base's FFN half sits at 9 o'clock: its "50.8 %" was cut at the pie's left edge. Its
    weights, a thin segment beside an H100's capacity, had their name cut at the memory chart's floor."""
    window = MainWindow(Document(load_source("t5-base"), "t5-base", preset_id="t5-base"))
    qtbot.addWidget(window)
    window.show()
    window.presets_dock.show()
    window.resize(*SIZE)
    qtbot.waitUntil(lambda: window.width() == SIZE[0])
    _check(window, qtbot)
    assert "50.8 %" in {entry.label.text() for entry in window.charts.pie.entries.values()}


@pytest.mark.parametrize("dock", [False, True])
def test_a_vision_language_models_labels_stay_inside_and_apart(qtbot: QtBot, dock: bool) -> None:
    """QA: Pixtral-12B's pie at 1024×700 drew its LM head's, vision tower's and embeddings' shares
    (5.3 %, 3.2 %, 5.3 %) over each other around 12 o'clock, the 3.2 % half hidden (apart at 1440
    wide). Every label of the bars and the pie lies within its plot, none over another, and the
    three are all shown."""
    window = MainWindow(Document(load_source("pixtral-12b"), "pixtral-12b", preset_id="pixtral-12b"))
    qtbot.addWidget(window)
    window.show()
    window.presets_dock.setVisible(dock)
    window.resize(*SIZE)
    qtbot.waitUntil(lambda: window.width() == SIZE[0])
    window.tabs.setCurrentIndex(0)
    settle()
    bar, pie = window.charts.bar, window.charts.pie
    view = bar.getPlotItem().getViewBox()
    labels = [label for part, label in bar.value_labels.items() if part in bar.parts_shown]
    assert len(labels) == 7 and all(label.isVisible() for label in labels)
    assert bar.labels_inside(), [label.text() for label in labels]
    assert view.sceneBoundingRect().width() <= bar.viewport().width()
    shown = [entry.label.text() for entry in pie.entries.values() if entry.label.isVisible()]
    assert sorted(text for text in shown if text) == ["16.5 %", "3.2 %", "5.3 %", "5.3 %", "69.4 %"]
    for entry in pie.entries.values():
        if entry.label.isVisible() and entry.label.text():
            assert pie.sceneRect().contains(entry.label.mapRectToScene(entry.label.boundingRect()))
    assert not _overlapping_shares(pie)


def test_a_bar_label_stays_inside_after_opening_a_model_with_longer_part_names(qtbot: QtBot) -> None:
    """QA: at 1024×700 with the presets dock open, opening Nemotron-Nano-9B-v2 over
    Nemotron-Mini-4B cut its '44.8 %' at the bars' right edge: the title was wrapped for the
    narrower axis of the parts before ('SSM / linear attn' is the longer name), which widened the
    plot past its widget."""
    first = "nemotron-mini-4b"
    window = MainWindow(Document(load_source(first), first, preset_id=first))
    qtbot.addWidget(window)
    window.show()
    window.presets_dock.show()
    window.resize(*SIZE)
    qtbot.waitUntil(lambda: window.width() == SIZE[0])
    settle()
    assert window.open_source("nemotron-nano-9b-v2")
    settle()
    bar = window.charts.bar
    assert "ssm" in bar.parts_shown  # 'SSM / linear attn', the longest name on the axis
    assert bar.getPlotItem().geometry().width() <= bar.viewport().width()
    assert "44.8 %" in {label.text().strip() for label in bar.value_labels.values() if label.isVisible()}
    assert bar.title_fits() and bar.labels_inside()


def test_a_crowd_of_thin_slices_keeps_its_share_labels_apart(qtbot: QtBot) -> None:
    """Nine slices of 3–4 % side by side and a large one, in the pie's least size: each label shown
    is inside the view and over no other (the ones that cannot be placed are left to the legend)."""
    pie = PieView()
    qtbot.addWidget(pie)
    pie.resize(pie.minimumSize())
    pie.show()
    qtbot.waitExposed(pie)
    values = [4, 3, 4, 3, 4, 3, 4, 3, 4, 68]
    pie.set_slices(
        [Slice(f"p{i}", f"part {i}", value, QColor("#4477aa")) for i, value in enumerate(values)], "crowd"
    )
    shown = [entry for entry in pie.entries.values() if entry.label.isVisible() and entry.label.text()]
    assert "68.0 %" in {entry.label.text() for entry in shown}
    assert len(shown) >= 4
    for entry in shown:
        assert pie.sceneRect().contains(entry.label.mapRectToScene(entry.label.boundingRect()))
    assert not _overlapping_shares(pie)


def test_the_per_layer_bars_and_their_legend_stay_inside_the_chart_at_1024_by_700(qtbot: QtBot) -> None:
    """QA: DeepSeek-V3's per-layer bars at 1024×700 showed layers 0–46 of 60 and a legend ending in
    'Norms, LoRA, adapt': a longer title tried first had widened the plot past its widget."""
    window = MainWindow(Document(load_source("deepseek-v3"), "deepseek-v3", preset_id="deepseek-v3"))
    qtbot.addWidget(window)
    window.show()
    window.resize(*SIZE)
    qtbot.waitUntil(lambda: window.width() == SIZE[0])
    bar = window.charts.bar
    for mode in ("part", "layer", "kind"):
        window.charts.mode_box.setCurrentIndex(window.charts.mode_box.findData(mode))
        settle()
        plot = bar.getPlotItem()
        assert plot.geometry().width() <= bar.viewport().width(), mode
        assert bar.title_fits() and bar.labels_inside(), mode
    assert bar.legend_texts()[-1] == "Norms, LoRA, adapters"
    # QA: opened one after another, each model's legend box grew (pyqtgraph sized it from its
    # entries as the last box had stretched them) until it ran past the plot: starcoder2-3b's three
    # short names in a box 671 pixels wide. Every box is as wide as its entries need, and inside.
    builtin = next(a.menu() for a in window.file_menu.actions() if a.menu() and "Built-in" in a.text())
    for preset_id in ("jamba-v0.1", "gpt2", "mixtral-8x7b", "starcoder2-3b", "qwen2.5-vl-7b", "gpt2"):
        next(action for action in builtin.actions() if action.text() == preset_id).trigger()
        qtbot.waitUntil(lambda preset_id=preset_id: window.document.preset_id == preset_id)
        settle()
        box, plot = bar.legend.boundingRect().width(), bar.getPlotItem().getViewBox().width()
        assert box + 10 <= plot, (preset_id, box, plot)  # 10: the legend's offset from the plot's edge
        assert all(label.item.boundingRect().width() <= label.width() for _, label in bar.legend.items)
        assert bar.labels_inside() and bar.legend_texts(), preset_id


@pytest.mark.parametrize("argv", [["gpt3-175b"], ["--screenshot", "{shot}"]])
def test_the_views_built_after_the_first_paint_share_the_parameters_tab(
    qtbot: QtBot, tmp_path: Path, argv: list[str]
) -> None:
    """As the app starts (the charts and the table follow the first paint, or a screenshot asks for
    the tab in its picture): the table of terms under the charts gets its share of the tab at
    1024×700 — a placeholder left in the splitter had taken the table's place and its height."""
    window = open_window(build_parser().parse_args([*(a.format(shot=tmp_path / "s.png") for a in argv)]))
    assert isinstance(window, MainWindow)
    qtbot.addWidget(window)
    window.resize(*SIZE)
    window.show()
    if "--screenshot" in argv:
        window.load_shown_views()
    else:
        qtbot.waitUntil(lambda: window.views_loaded, timeout=30_000)
    settle()
    split = window.right_split
    assert [split.widget(i) for i in range(split.count())] == [window.charts, window.table]
    assert window.table.height() >= split.height() // 4, (window.table.height(), split.height())
    assert window.charts.height() >= split.height() // 4


def _places(window: MainWindow) -> dict[str, tuple[int, int, int, int]]:
    """Where what the first paint shows lies in the window: (x, y, width, height) of each part,
    each tab's title and each form field's editor."""
    parts: dict[str, QWidget] = {
        "menu bar": window.menuBar(),
        "headline": window.headline,
        "tabs": window.tabs,
        "form": window.form,
        "tree": window.tree,
        "right split": window.right_split,
        "status bar": window.statusBar(),
        "presets dock": window.presets_dock,
    }
    parts |= {f"field {path}": row.editor for path, row in window.form._rows.items()}
    places = {}
    for name, widget in parts.items():
        corner = widget.mapTo(window, QPoint(0, 0))
        places[name] = (corner.x(), corner.y(), widget.width(), widget.height()) if widget.isVisible() else ()
    bar = window.tabs.tabBar()
    for index in range(bar.count()):
        tab = bar.tabRect(index)
        places[f"tab {bar.tabText(index)}"] = (tab.x(), tab.y(), tab.width(), tab.height())
    return places  # type: ignore[return-value]


@pytest.mark.parametrize("size", [(1024, 700), (1440, 900)])
@pytest.mark.parametrize("dock", [False, True])
def test_the_first_paint_lays_out_the_window_as_it_stays(
    qtbot: QtBot, document: Document, size: tuple[int, int], dock: bool
) -> None:
    """What follows the first paint (the menus' entries, the presets browser while its dock is
    closed, the charts, the table, the memory panel) moves nothing the first paint showed: the
    headline, the tabs and their titles, the form's fields, the tree, the menu bar; with the presets
    dock remembered open, the browser is in the first paint."""
    if dock:  # the last window closed with the dock open
        first = MainWindow(document)
        qtbot.addWidget(first)
        first.show()
        first.presets_dock.show()
        qtbot.waitExposed(first)
        first.close()
    window = open_window(build_parser().parse_args(["gpt3-175b", "--size", f"{size[0]}x{size[1]}"]))
    assert isinstance(window, MainWindow)
    qtbot.addWidget(window)
    at_first_paint: dict[str, object] = {}

    class FirstPaint(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and not at_first_paint:
                at_first_paint.update(
                    places=_places(window),
                    menus=[action.text() for action in window.menuBar().actions()],
                    entries=len(window.file_menu.actions()),
                    browser=window.presets_dock.widget() is not None,
                    views=window.views_loaded,
                )
            return False

    spy = FirstPaint(window)
    window.headline.installEventFilter(spy)
    window.show()
    qtbot.waitUntil(lambda: window.views_loaded, timeout=30_000)
    settle()
    assert at_first_paint["views"] is False and at_first_paint["entries"] == 0  # they came after it
    assert at_first_paint["menus"] == ["&File", "&Edit", "&View", "E&xplore", "&Help"]
    assert at_first_paint["browser"] is dock and window.presets_dock.isVisible() is dock
    assert window.findChild(QAction, "actionOpen") in window.file_menu.actions()
    places = _places(window)
    assert places == at_first_paint["places"]
    assert places["presets dock"] if dock else places["presets dock"] == ()


def test_a_moe_group_with_lora_in_the_form_still_fits_1024_by_700_with_the_presets_open(
    qtbot: QtBot, modals: Modals
) -> None:
    """QA: GPT-3 175B at 1024×700 with the presets dock open, its layer group made MoE (Ctrl+M) and
    given LoRA (Ctrl+L): the group's form asked for 520 pixels (LoRA's seven targets in one row,
    'Frozen correction bias' widening the label column), the window could not grow on the screen,
    so the form was cut at its right edge and the bar chart drawn over the pie."""
    window = preset_window(qtbot, "gpt3-175b", SIZE)
    window.presets_dock.show()
    window.resize(*SIZE)
    qtbot.waitUntil(lambda: window.width() == SIZE[0])
    tree = window.tree
    index = tree.tree_model.find(("decoder", "layers", 0))
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center())
    for key in (Qt.Key.Key_M, Qt.Key.Key_L):  # the MoE dialog's suggestion, then LoRA on q, v
        give_focus(qtbot, tree)
        modals.click("OK")
        qtbot.keyClick(tree, key, Qt.KeyboardModifier.ControlModifier)
        modals.wait_done()
    group = window.document.architecture.decoder.layers[0].override
    assert group.get("lora") is not None and group["ffn"]["kind"] == "moe"
    assert window.form.group == ("decoder", "layers", 0)
    settle()
    assert window.form.minimumWidth() <= window.form.width()
    assert window.charts.width() >= window.charts.minimumSizeHint().width()
    _check(window, qtbot)
