"""The pattern helper reads kinds as the menus name them and says which part of a line it refuses;
a pattern's repetitions are named as such when refused. Typed as a person types, in the real dialog."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QDialogButtonBox, QLabel, QLineEdit, QSpinBox, QWidget
from pytestqt.qtbot import QtBot

from paramtally.core.schema.group_addresses import group_block
from paramtally.gui.main_window import MainWindow
from tests.gui.modals import Modals, give_focus
from tests.gui.views_support import preset_window


def _window(qtbot: QtBot) -> MainWindow:
    return preset_window(qtbot, "llama-3-8b")


def _click_row(qtbot: QtBot, window: MainWindow, index: QModelIndex) -> None:
    window.tree.scrollTo(index)
    qtbot.mouseClick(
        window.tree.viewport(), Qt.MouseButton.LeftButton, pos=window.tree.visualRect(index).center()
    )


def test_the_pattern_helper_reads_kinds_by_their_titles_and_blames_the_bad_window(
    qtbot: QtBot, modals: Modals
) -> None:
    window = _window(qtbot)
    said: dict[str, tuple[str, bool]] = {}

    def answer(dialog: QWidget) -> None:
        text = dialog.findChild(QLineEdit, "patternText")
        summary = dialog.findChild(QLabel, "patternSummary")
        ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        text.setFocus()
        for line in (
            "5 local : 1 global, window -5",
            "MoE every layer",
            "[Mamba ×3, Gated DeltaNet] × 8; mixture of experts every 2nd layer",
        ):
            text.selectAll()
            qtbot.keyClick(text, Qt.Key.Key_Delete)
            qtbot.keyClicks(text, line)
            said[line] = (summary.text(), ok.isEnabled())
        modals.click_button(dialog, "OK")

    modals.expect(answer, "pattern")
    _click_row(qtbot, window, window.tree.tree_model.find(("decoder",)))
    give_focus(qtbot, window.tree)
    qtbot.keyClick(window.tree, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    window_text, window_ok = said["5 local : 1 global, window -5"]
    assert not window_ok and "the window -5 is refused" in window_text and "at least 1" in window_text
    assert "cannot read" not in window_text
    assert said["MoE every layer"][1] and said["MoE every layer"][0].startswith("32 layers")
    assert said["[Mamba ×3, Gated DeltaNet] × 8; mixture of experts every 2nd layer"][1]
    arch = window.document.architecture
    (group,) = arch.decoder.layers
    assert (group.count, group.period) == (8, 4)
    kinds = [
        (group_block(arch, ("decoder", "layers", 0, "pattern", i)).mixer.kind,
         group_block(arch, ("decoder", "layers", 0, "pattern", i)).ffn.kind)
        for i in range(len(group.pattern))
    ]  # fmt: skip
    assert kinds == [("mamba", "dense"), ("mamba", "moe"), ("mamba", "dense"), ("gated_deltanet", "moe")]


def test_zero_repetitions_of_a_pattern_are_refused_in_the_dialog(qtbot: QtBot, modals: Modals) -> None:
    """Issue 31, bug 12: F2 on a pattern's group took 0 repetitions in the tree's cell and refused it
    in the status bar only. F2 now asks in a dialog naming the group, which says the range under the
    field and waits; a number in it is applied."""
    window = _window(qtbot)
    modals.type_and_click("[mamba ×3, attention] × 8", "OK", "patternText")
    _click_row(qtbot, window, window.tree.tree_model.find(("decoder",)))
    give_focus(qtbot, window.tree)
    qtbot.keyClick(window.tree, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    tree = window.tree
    seen: list[tuple[str, str, list[str], bool]] = []

    def answer(dialog: QWidget) -> None:
        edit = dialog.findChild(QLineEdit, "number")
        captions = [label.text() for label in dialog.findChildren(QLabel) if label.isVisible()]
        modals.type_text(dialog, "0")
        modals.click_button(dialog, "OK")  # refused: the dialog stays
        lines = [label.text() for label in dialog.findChildren(QLabel) if label.isVisible()]
        seen.append((dialog.windowTitle(), edit.text(), [*captions[:1], *lines[1:]], dialog.isVisible()))
        assert window.document.architecture.decoder.layers[0].count == 8
        modals.type_text(dialog, "1e1")
        modals.click_button(dialog, "OK")

    modals.expect(answer, "repetitions 0, then 10")
    _click_row(qtbot, window, tree.tree_model.find(("decoder", "layers", 0)))
    give_focus(qtbot, tree)  # the pattern dialog has closed: the window is active again
    qtbot.keyClick(tree, Qt.Key.Key_F2)
    modals.wait_done()
    (title, text, lines, open_after_ok) = seen[0]
    assert title == "Change repetitions" and text == "0" and open_after_ok
    assert lines[0] == "Group: layers 0–31: 8 repetitions of 4 layers\nRepetitions of its pattern:"
    assert lines[1] == "0 is less than 1: type a whole number from 1 to 268,435,456."
    assert window.document.architecture.decoder.layers[0].count == 10
    assert window.document.architecture.decoder.num_layers == 40
    assert tree.viewport().findChild(QSpinBox) is None  # no cell editor: the dialog asked


def test_the_pattern_helper_states_one_limit_and_holds_to_it(qtbot: QtBot, modals: Modals) -> None:
    """Issue 31, bug 6: '[mamba2 ×0, …]' said 'between 1 and 1073741824', 'attention ×5000' said 'at
    most 4096 layers', and '[attention ×1] ×1000000000' was taken. One limit now, said alike."""
    window = _window(qtbot)
    said: dict[str, tuple[str, bool]] = {}
    lines = (
        "[mamba2 ×0, attention] × 4",
        "attention ×5000",
        "[attention ×1] ×1000000000",
        "[mamba2 ×7, attention] × 513",
        "[mamba2 ×7, attention] × 512",
    )

    def answer(dialog: QWidget) -> None:
        text = dialog.findChild(QLineEdit, "patternText")
        summary = dialog.findChild(QLabel, "patternSummary")
        ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        said["intro"] = (" ".join(label.text() for label in dialog.findChildren(QLabel)), True)
        text.setFocus()
        for line in lines:
            text.selectAll()
            qtbot.keyClick(text, Qt.Key.Key_Delete)
            qtbot.keyClicks(text, line)
            said[line] = (summary.text(), ok.isEnabled())
        modals.click_button(dialog, "Cancel")

    modals.expect(answer, "pattern")
    _click_row(qtbot, window, window.tree.tree_model.find(("decoder",)))
    give_focus(qtbot, window.tree)
    qtbot.keyClick(window.tree, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    assert "at most 4,096 layers" in said["intro"][0]
    for line in lines[:4]:
        summary, ok = said[line]
        assert not ok, line
        assert "4,096" in summary and "1073741824" not in summary and "1,073,741,824" not in summary, summary
    assert said["[mamba2 ×0, attention] × 4"][0] == (
        "⚠ '[mamba2 ×0, attention] × 4': a count is a whole number from 1 to 4,096 "
        "(a pattern makes at most 4,096 layers)"
    )
    assert said["[attention ×1] ×1000000000"][0] == (
        "⚠ '[attention ×1] ×1000000000': a count is a whole number from 1 to 4,096 "
        "(a pattern makes at most 4,096 layers)"
    )
    assert said["[mamba2 ×7, attention] × 513"][0] == (
        "⚠ the pattern makes 4,104 layers; a pattern makes at most 4,096"
    )
    assert said["[mamba2 ×7, attention] × 512"][1]
    assert said["[mamba2 ×7, attention] × 512"][0].startswith("4,096 layers")
    assert len(window.document.architecture.decoder.layers) == 1  # cancelled: nothing applied
