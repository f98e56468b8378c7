"""Issue 31, bug 4: with two layer groups selected, a form edit reaches every selected group that has
the field (as Ctrl+M on the same selection does), and the form says before the edit what it reaches.

The steps of the QA report: the pattern helper makes ``[mamba2 ×3, attention ×1] ×8; MoE every 2nd
layer``, Ctrl+click the two MoE groups, Experts 16 in the form, Enter. Only one group changed, and
nothing said so.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from paramtally.core.schema.group_addresses import group_block
from paramtally.gui.main_window import MainWindow
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals, give_focus
from tests.gui.views_support import preset_window

PATTERN = "[mamba2 ×3, attention ×1] ×8; MoE every 2nd layer"
MAMBA_MOE, ATTENTION_MOE = (("decoder", "layers", 0, "pattern", i) for i in (1, 3))
MAMBA_DENSE = ("decoder", "layers", 0, "pattern", 0)


def _click(qtbot: QtBot, window: MainWindow, group: tuple[Any, ...], control: bool = False) -> None:
    tree = window.tree
    index = tree.tree_model.find(group)
    tree.scrollTo(index)
    modifier = Qt.KeyboardModifier.ControlModifier if control else Qt.KeyboardModifier.NoModifier
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, modifier, tree.visualRect(index).center())


def _hybrid_window(qtbot: QtBot, modals: Modals) -> MainWindow:
    """Llama-3-8B made into the QA's hybrid with the pattern helper (Ctrl+R on the decoder's row)."""
    window = preset_window(qtbot, "llama-3-8b")
    modals.type_and_click(PATTERN, "OK", "patternText")
    _click(qtbot, window, ("decoder",))
    give_focus(qtbot, window.tree)
    qtbot.keyClick(window.tree, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    arch = window.document.architecture
    assert [group_block(arch, g).ffn.kind for g in (MAMBA_MOE, ATTENTION_MOE, MAMBA_DENSE)] == [
        "moe",
        "moe",
        "dense",
    ]
    return window


def _experts(window: MainWindow, group: tuple[Any, ...]) -> int:
    return int(group_block(window.document.architecture, group).ffn.num_experts)  # type: ignore[union-attr]


def test_experts_typed_with_two_moe_groups_selected_reach_both(
    qtbot: QtBot, modals: Modals, type_into: TypeInto
) -> None:
    window = _hybrid_window(qtbot, modals)
    before = _experts(window, MAMBA_MOE)
    assert before != 16 and _experts(window, ATTENTION_MOE) == before
    _click(qtbot, window, MAMBA_MOE)
    _click(qtbot, window, ATTENTION_MOE, control=True)
    form = window.form
    assert form.group == ATTENTION_MOE  # the group clicked last is the one shown
    note = form.findChild(QLabel, "selectionNote")
    assert note is not None and note.isVisible()
    assert note.text().startswith("2 layer groups selected: a value typed here goes to each of them")
    type_into(form.editor((*ATTENTION_MOE, "override", "ffn", "num_experts")), "16")
    assert _experts(window, ATTENTION_MOE) == 16 and _experts(window, MAMBA_MOE) == 16
    assert window.document.undo_stack.undoText() == "Set Experts on 2 groups"
    assert f"{window.document.report.total:,}" in window.headline.text()
    # One undo step takes both back.
    give_focus(qtbot, window.tree)
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert _experts(window, ATTENTION_MOE) == before and _experts(window, MAMBA_MOE) == before


def test_a_field_one_selected_group_lacks_reaches_the_others_and_says_so(
    qtbot: QtBot, modals: Modals, type_into: TypeInto
) -> None:
    """A dense group selected beside a MoE one: the experts go to the MoE group alone, and the undo
    step names the one group; the mixer's heads of a Mamba-2 group are SSM heads, so an attention
    group's heads do not reach it."""
    window = _hybrid_window(qtbot, modals)
    _click(qtbot, window, MAMBA_DENSE)
    _click(qtbot, window, ATTENTION_MOE, control=True)
    note = window.form.findChild(QLabel, "selectionNote")
    assert note is not None and note.isVisible() and note.text().startswith("2 layer groups selected")
    type_into(window.form.editor((*ATTENTION_MOE, "override", "ffn", "num_experts")), "16")
    assert _experts(window, ATTENTION_MOE) == 16
    assert group_block(window.document.architecture, MAMBA_DENSE).ffn.kind == "dense"
    assert window.document.undo_stack.undoText() == "Set Experts on 1 group"
    ssm_heads = group_block(window.document.architecture, MAMBA_DENSE).mixer.num_heads  # type: ignore[union-attr]
    type_into(window.form.editor((*ATTENTION_MOE, "override", "mixer", "num_heads")), "64")
    arch = window.document.architecture
    assert group_block(arch, ATTENTION_MOE).mixer.num_heads == 64  # type: ignore[union-attr]
    assert group_block(arch, MAMBA_DENSE).mixer.num_heads == ssm_heads  # type: ignore[union-attr]
    # One group selected again: the note goes.
    _click(qtbot, window, MAMBA_DENSE)
    note = window.form.widget().findChild(QLabel, "selectionNote")
    assert note is not None and not note.isVisible()
