"""The wheel over the form's and the memory tab's fields, and the kind switches' titles."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QFontMetrics, QTextDocument
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QScrollArea, QToolButton, QWidget
from pytestqt.qtbot import QtBot

from paramtally.gui.form.editors import FloatSpinBox
from paramtally.gui.main_window import MainWindow
from paramtally.gui.views.format import rate_text
from tests.gui.modals import Modals, give_focus
from tests.gui.settle import settle
from tests.gui.views_support import preset_window

ROTARY = ("blocks", "default", "mixer", "rotary_fraction")


def _window(qtbot: QtBot, preset_id: str, size: tuple[int, int] = (1024, 700)) -> MainWindow:
    return preset_window(qtbot, preset_id, size)


def _wheel(widget: QWidget, notches: int) -> None:
    """Turn the wheel ``notches`` down with the pointer over the middle of ``widget``, through the
    window system (QTest): Qt sends it to the widget under the pointer (a spin box's line edit) and
    on to its parents while they ignore it, as a person's wheel."""
    window = widget.window()
    handle = window.windowHandle()
    assert handle is not None
    at = widget.mapTo(window, widget.rect().center())
    under = window.childAt(at)
    assert under is widget or widget.isAncestorOf(under), f"the pointer is over {under!r}"
    for _ in range(abs(notches)):
        QTest.wheelEvent(handle, QPointF(at), QPoint(0, -120 if notches > 0 else 120))
        QApplication.processEvents()


def test_the_wheel_over_an_unfocused_decimal_field_scrolls_the_form_and_changes_nothing(
    qtbot: QtBot,
) -> None:
    window = _window(qtbot, "llama-3-8b")
    form = window.form
    rotary = form.editor(ROTARY)
    assert isinstance(rotary, FloatSpinBox)
    form.verticalScrollBar().setValue(0)
    form.ensureWidgetVisible(rotary)
    window.tree.setFocus()
    assert not rotary.hasFocus()
    before, steps, scroll = (
        rotary.value(),
        window.document.undo_stack.count(),
        form.verticalScrollBar().value(),
    )
    _wheel(rotary, 4)
    assert rotary.value() == before == 1.0
    assert window.document.undo_stack.count() == steps
    assert form.verticalScrollBar().value() > scroll  # the form scrolled on
    # A focused field still takes the wheel: that is how a person turns a value.
    form.ensureWidgetVisible(rotary)
    rotary.setFocus()
    _wheel(rotary, 1)
    assert rotary.value() == pytest.approx(0.95)


@pytest.mark.parametrize("field", ["mfu", "utilization_cap"])
def test_the_memory_tabs_decimal_fields_ignore_an_unfocused_wheel(qtbot: QtBot, field: str) -> None:
    window = _window(qtbot, "llama-3-8b", (1440, 900))
    window.tabs.setCurrentWidget(window.memory_scroll)
    controls = window.memory.controls
    editor = controls.editors[field]
    qtbot.waitUntil(lambda: editor.isVisible() or editor.isHidden())
    assert isinstance(editor, FloatSpinBox)  # the form's editor, with its wheel rule
    if editor.isHidden():  # MFU is training's
        mode = controls.editors["mode"]
        assert isinstance(mode, QComboBox)
        mode.setFocus()
        qtbot.keyClicks(mode, "training")
        qtbot.waitUntil(lambda: not editor.isHidden())
    scroll = window.memory_scroll
    assert isinstance(scroll, QScrollArea)
    scroll.ensureWidgetVisible(editor)
    QApplication.processEvents()
    window.tree.setFocus()
    before = editor.value()
    _wheel(editor, 3)
    assert editor.value() == before
    assert window.document.scenario_data()[field] == before


@pytest.mark.parametrize("preset_id", ["flan-t5-base", "whisper-small"])
def test_every_kind_switch_shows_titles_even_the_cross_attentions(qtbot: QtBot, preset_id: str) -> None:
    window = _window(qtbot, preset_id)
    kinds = [
        path
        for path in window.form.paths()
        if path[-1] == "kind" and isinstance(window.form.editor(path), QComboBox)
    ]
    assert ("blocks", "decoder", "cross_attention", "kind") in kinds
    for path in kinds:
        box = window.form.editor(path)
        assert isinstance(box, QComboBox)
        shown = [box.itemText(i) for i in range(box.count())]
        assert all(text[:1].isupper() for text in shown), (path, shown)  # titles, not file tags
    cross = window.form.editor(("blocks", "decoder", "cross_attention", "kind"))
    assert isinstance(cross, QComboBox)
    assert cross.currentText() == "Attention" and cross.currentData() == "attention"
    assert "attention" in cross.toolTip()  # the tag a preset file takes


def _click_group(qtbot: QtBot, window: MainWindow, group: tuple[str | int, ...]) -> None:
    tree = window.tree
    index = tree.tree_model.find(group)
    tree.scrollTo(index)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center())


def _resets_outside(form: QScrollArea) -> list[str]:
    """The visible ↺ buttons not wholly inside the form's viewport (left and right)."""
    viewport = form.viewport()
    outside = []
    for button in form.findChildren(QToolButton):
        if button.text() != "↺" or not button.isVisible():
            continue
        left = button.mapTo(viewport, QPoint(0, 0)).x()
        if left < 0 or left + button.width() > viewport.width():
            outside.append(button.objectName())
    return outside


@pytest.mark.parametrize("size", [(1024, 700), (1440, 900)])
def test_every_reset_button_stays_inside_the_form_after_lora_on_a_moe_group(
    qtbot: QtBot, modals: Modals, size: tuple[int, int]
) -> None:
    """QA: split llama-3-8b at 9, layers 9–31 to MoE, Ctrl+L, OK: the left pane widened and every
    ↺ of the group's rows lay under the form's scroll bar (l7c.png, l9c.png)."""
    window = _window(qtbot, "llama-3-8b", size)
    tree, form = window.tree, window.form
    _click_group(qtbot, window, ("decoder", "layers", 0))
    give_focus(qtbot, tree)
    modals.type_and_click("9", "OK")
    qtbot.keyClick(tree, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    _click_group(qtbot, window, ("decoder", "layers", 1))
    give_focus(qtbot, tree)
    modals.click("OK")  # the MoE dialog's suggestion
    qtbot.keyClick(tree, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    give_focus(qtbot, tree)
    modals.click("OK")  # LoRA on q, v
    qtbot.keyClick(tree, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    assert window.document.architecture.decoder.layers[1].override.get("lora") is not None
    assert form.group == ("decoder", "layers", 1)
    settle()
    resets = [b for b in form.findChildren(QToolButton) if b.text() == "↺" and b.isVisible()]
    assert len(resets) > 20
    assert _resets_outside(form) == []
    for _ in range(3):  # all the way down the form, the LoRA rows included
        form.verticalScrollBar().setValue(form.verticalScrollBar().maximum())
        QApplication.processEvents()
    assert _resets_outside(form) == []


def _lines(label: QLabel) -> list[str]:
    """The lines ``label`` shows, laid out at its width as Qt lays out its rich text."""
    document = QTextDocument()
    document.setDefaultFont(label.font())
    document.setDocumentMargin(0)
    document.setHtml(label.text())
    document.setTextWidth(label.contentsRect().width())
    document.documentLayout().documentSize()  # lays the lines out
    block, lines = document.begin(), []
    while block.isValid():
        layout = block.layout()
        for index in range(layout.lineCount()):
            line = layout.lineAt(index)
            lines.append(
                block.text()[line.textStart() : line.textStart() + line.textLength()].replace("\xa0", " ")
            )
        block = block.next()
    return lines


def test_the_serving_decode_line_fits_beside_the_memory_tabs_scroll_bar(qtbot: QtBot) -> None:
    """QA: at 1440×900 the Decode line's '296.1 tok/s for the batch, 296.1' ended flush against
    the scroll bar, its 'per sequence' on the next line, as if cut off (b4c.png)."""
    window = _window(qtbot, "llama-3-8b", (1440, 900))
    window.tabs.setCurrentWidget(window.memory_scroll)
    serving = window.memory.serving
    qtbot.waitUntil(serving.isVisible)
    QApplication.processEvents()
    viewport = window.memory_scroll.viewport()
    rate = rate_text(window.document.serving.decode_tokens_per_second_per_sequence)
    for name, value in serving._rows:
        if not value.isVisible():
            continue
        right = value.mapTo(viewport, QPoint(value.width(), 0)).x()
        assert right <= viewport.width() - 4, (name.text(), right, viewport.width())  # room before the bar
        assert all(
            QFontMetrics(value.font()).horizontalAdvance(line.strip()) <= value.contentsRect().width() + 8
            for line in _lines(value)
        )
    decode = next(value for name, value in serving._rows if name.text() == "Decode")
    assert any(f"{rate} per sequence" in line for line in _lines(decode)), _lines(decode)
