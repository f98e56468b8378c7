"""View → Language switches the open window's language at once (issue 35), chosen with Alt+V, L
and a click on the language as a person would: every text the window shows changes, both ways,
and the document (its model, undo history and cached figures), the tree's selection, the form's
scroll position, the geometry and the splitters stay; an edit made afterwards still reaches the
charts."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from PySide6.QtCore import SIGNAL, QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot

from paramtally.gui.i18n import chosen_language, current_language, install_language
from paramtally.gui.main_window import MainWindow
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals, give_focus
from tests.gui.settle import settle
from tests.gui.views_support import click_tab, preset_window

HIDDEN = ("hidden_size",)
LAYERS = ("decoder", "num_layers")
CHINESE = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[MainWindow]:
    shown = preset_window(qtbot, "gpt3-175b", (1024, 700))
    yield shown
    install_language("en")  # the next test's window starts in English


def _choose_language(
    qtbot: QtBot, modals: Modals, window: MainWindow, name: str, focus: QWidget | None = None
) -> None:
    """Alt+V opens View, L its Language submenu, and ``name`` is clicked; the keys in ``focus`` (the
    tree unless told) before."""
    modals.press(Qt.Key.Key_L, "Language")
    modals.choose(name)
    give_focus(qtbot, focus or window.tree)
    qtbot.keyClick(window, Qt.Key.Key_V, Qt.KeyboardModifier.AltModifier)
    modals.wait_done(timeout=30_000)  # a condition, not a delay: room for a machine with every core busy
    settle()


def _form_label(window: MainWindow, path: tuple[str, ...]) -> str:
    row = window.form._rows[path]
    label = row.layout.labelForField(row.frame.parentWidget())
    assert isinstance(label, QLabel)
    return label.text()


def _texts(qtbot: QtBot, window: MainWindow) -> dict[str, object]:
    """One text of each kind the window shows (the memory chart's title as it reads when shown: it
    shortens itself to the chart's width)."""
    click_tab(qtbot, window, window.tabs.tabText(1))
    settle()
    click_tab(qtbot, window, window.tabs.tabText(0))
    tree = window.tree.tree_model
    first_group = tree.index(0, 0, tree.index(0, 0))
    bar, memory = window.charts.bar.getPlotItem(), window.memory.chart.getPlotItem()
    return {
        "menus": [action.text() for action in window.menuBar().actions()],
        "view menu": [action.text() for action in window.view_menu.actions() if action.text()],
        "tabs": [window.tabs.tabText(i) for i in range(window.tabs.count())],
        "tab tooltip": window.tabs.tabToolTip(0),
        "form section": next(section.button.shown_title for section in window.form.sections.values()),
        "form label": _form_label(window, HIDDEN),
        "tooltip": window.charts.mode_box.toolTip(),
        "tree row": tree.data(first_group, Qt.ItemDataRole.DisplayRole),
        "tree header": tree.headerData(1, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole),
        "chart title": bar.titleLabel.text,
        "chart axis": bar.getAxis("bottom").labelText,
        "pie title": window.charts.pie.title(),
        "memory chart title": memory.titleLabel.text,
        "table header": window.table.model().headerData(0, Qt.Orientation.Horizontal),
        "memory panel": window.memory.fits_only.text(),
        "presets dock": window.presets_dock.windowTitle(),
        "undo entry": window.undo_action.text(),
    }


def _arrangement(window: MainWindow) -> dict[str, object]:
    """What the person arranged besides the document."""
    tree = window.tree
    return {
        "geometry": window.geometry(),
        "splitters": [s.sizes() for s in (window.split, window.left, window.right_split)],
        "tab": window.tabs.currentIndex(),
        "tree current": tree.current_group(),
        "tree selected": tree.selected_groups(),
        "form scroll": window.form.verticalScrollBar().value(),
        "form group": window.form.group,
        "chart mode": window.charts.mode_box.currentData(),
    }


def test_view_language_switches_the_open_window_both_ways(
    qtbot: QtBot, modals: Modals, window: MainWindow, type_into: TypeInto
) -> None:
    document = window.document
    type_into(window.form.editor(HIDDEN), "12000")  # one step of history before the switch
    stack = document.undo_stack
    history = (stack.count(), stack.index(), stack.undoText())
    report, total = document.report, document.report.total
    # A layout of the person's own: a group selected in the tree, the splitters moved, the bars
    # per layer, the form scrolled down.
    tree = window.tree
    group = tree.tree_model.index(0, 0, tree.tree_model.index(0, 0))
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(group).center())
    window.split.setSizes([500, 524])
    window.left.setSizes([300, 300])
    window.charts.set_mode("layer")
    settle()
    window.form.verticalScrollBar().setValue(window.form.verticalScrollBar().maximum() // 2)
    arranged = _arrangement(window)
    assert arranged["form scroll"] and arranged["tree current"] is not None
    english = _texts(qtbot, window)
    assert english["menus"] == ["&File", "&Edit", "&View", "E&xplore", "&Help"]
    assert english["undo entry"] == "&Undo Set Hidden size"

    _choose_language(qtbot, modals, window, "简体中文")
    assert current_language() == chosen_language() == "zh_CN"
    chinese = _texts(qtbot, window)
    assert chinese["menus"] == ["文件(&F)", "编辑(&E)", "视图(&V)", "探索(&X)", "帮助(&H)"]
    assert chinese["tabs"] == ["参数量", "显存与 GPU 适配", "对比", "设计空间"]
    unchanged = [kind for kind in english if chinese[kind] == english[kind]]
    assert not unchanged, {kind: chinese[kind] for kind in unchanged}
    for kind in ("form label", "tooltip", "tree header", "chart title", "table header", "memory panel"):
        assert CHINESE.search(str(chinese[kind])), (kind, chinese[kind])
    assert window.statusBar().currentMessage() == "界面语言：简体中文"
    assert (stack.count(), stack.index(), stack.undoText()) == history
    assert document.report is report and document.report.total == total  # nothing counted again
    now = _arrangement(window)
    # Chinese glyphs make the status bar a pixel taller: the vertical splitters share what is left.
    for sizes, sizes_before in zip(now.pop("splitters"), arranged["splitters"], strict=True):  # type: ignore[call-overload]
        assert max(abs(a - b) for a, b in zip(sizes, sizes_before, strict=True)) <= 2, (sizes, sizes_before)
    assert now == {kind: value for kind, value in arranged.items() if kind != "splitters"}

    _choose_language(qtbot, modals, window, "English")
    assert current_language() == chosen_language() == "en"
    assert _texts(qtbot, window) == english
    assert window.statusBar().currentMessage() == "Language: English"
    assert (stack.count(), stack.index(), stack.undoText()) == history
    assert document.report is report
    assert _arrangement(window) == arranged

    # The new widgets follow the document: an edit reaches the headline, the bars and the table.
    before = list(window.charts.bar.layer_bars["attention"].opts["height"])
    type_into(window.form.editor(LAYERS), "48")
    assert document.report.total != total and stack.count() == history[0] + 1
    assert f"{document.report.total:,}" in window.findChild(QLabel, "totalParams").text()
    assert len(window.charts.bar.layer_bars["attention"].opts["height"]) != len(before)
    window.undo_action.trigger()
    assert document.report.total == total


def test_the_switch_leaves_no_widget_or_connection_behind(
    qtbot: QtBot, modals: Modals, window: MainWindow
) -> None:
    """The old widgets are deleted and their connections to the document end with them: after
    two switches the window holds as many objects, and the document as many receivers, as before."""

    def census() -> tuple[int, ...]:
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        document = window.document
        signals = ("changed()", "invalid(PyObject,PyObject)", "source_changed()")
        receivers = [document.receivers(SIGNAL(signal)) for signal in signals]
        receivers.append(document.undo_stack.receivers(SIGNAL("cleanChanged(bool)")))
        assert receivers[0] > 5  # the views' own
        return (len(window.findChildren(QLabel)), len(window.children()), *receivers)

    pinned = len(window.explore.pins.pins)
    window.explore.pin()  # a pinned column survives the switch
    before = census()
    _choose_language(qtbot, modals, window, "简体中文")
    _choose_language(qtbot, modals, window, "English")
    assert census() == before
    assert len(window.explore.pins.pins) == pinned + 1
    assert not [w for w in QApplication.topLevelWidgets() if w.isVisible() and w is not window]


def test_the_explore_tabs_keep_their_choices(
    qtbot: QtBot, modals: Modals, window: MainWindow, type_into: TypeInto
) -> None:
    """The design space's axes and figure, typed and chosen, and the compare tab's pinned column and
    "share of each column" are there in the other language, drawn from them."""
    from tests.gui.test_explore_design_space import choose, open_design

    view = open_design(qtbot, window)
    type_into(view.x_range, "2048:16384:2048")
    choose(qtbot, view.figure_box, "Memory per GPU")
    assert view.sweep is not None and view.sweep.figure.name == "memory"
    axes = (view.x_box.currentData(), view.y_box.currentData(), view.sweep.x.values, view.sweep.y.values)
    window.explore.pin()
    click_tab(qtbot, window, "Compare")
    compare = window.explore.compare_view
    qtbot.waitUntil(lambda: compare.figures.columnCount() == 2)
    give_focus(qtbot, compare.share_box)
    qtbot.keyClick(compare.share_box, Qt.Key.Key_Space)
    assert compare.share_box.isChecked()

    _choose_language(qtbot, modals, window, "简体中文")
    compare = window.explore.compare_view
    assert window.tabs.currentWidget() is window.explore.compare_tab
    assert compare.share_box.isChecked() and compare.figures.columnCount() == 2
    assert CHINESE.search(compare.share_box.text())
    design = window.explore.design_view
    assert design is not view and design.figure_box.currentData() == "memory"
    assert design.x_range.text() == "2048:16384:2048"
    assert design.sweep is not None and design.sweep.figure.name == "memory"
    assert (
        design.x_box.currentData(),
        design.y_box.currentData(),
        design.sweep.x.values,
        design.sweep.y.values,
    ) == axes


def test_a_refused_value_stays_red_and_said_in_the_other_language(
    qtbot: QtBot, modals: Modals, window: MainWindow, type_into: TypeInto
) -> None:
    """A value the model refuses (hidden 8192 under 96 heads) is kept as typed, red, with its
    reason on the status line; after the switch the new form and line say it again, the field's
    name in Chinese, and the last valid figures stay."""
    form = window.form
    type_into(form.editor(HIDDEN), "8192")
    assert form.field_state(HIDDEN) == "error"
    assert window.problem_status.text().startswith("⚠ Hidden size: the hidden size (8,192)")
    total = window.document.report.total

    _choose_language(qtbot, modals, window, "简体中文")
    form = window.form
    assert form.editor(HIDDEN).lineEdit().text() == "8,192" and form.field_state(HIDDEN) == "error"
    assert "the hidden size (8,192)" in form.error_text(HIDDEN)  # core's reason stays English
    status = window.problem_status.text()
    assert status.startswith("⚠ ") and CHINESE.search(status.split(":")[0]), status
    assert window.document.report.total == total and f"{total:,}" in window.headline.text()


def test_the_keys_stay_in_the_field_they_were_in_without_selecting_its_text(
    qtbot: QtBot, modals: Modals, window: MainWindow
) -> None:
    """A QA pass switched the language from the hidden size and found the keys in the model's name,
    its text selected: the next key typed replaced the name. They stay where they were, text not
    selected, and a key typed there edits the hidden size, not the name."""
    name = window.form.editor(("name",)).text()
    _choose_language(qtbot, modals, window, "简体中文", focus=window.form.editor(HIDDEN))
    focus = QApplication.focusWidget()
    assert focus is window.form.editor(HIDDEN)  # the new window's editor
    assert isinstance(focus, QAbstractSpinBox) and not focus.lineEdit().hasSelectedText()
    before = focus.lineEdit().text()
    qtbot.keyClick(focus, Qt.Key.Key_End)
    qtbot.keyClick(focus, Qt.Key.Key_Backspace)
    assert focus.lineEdit().text() == before[:-1]  # 12,288 → 12,28
    assert window.form.editor(("name",)).text() == name
