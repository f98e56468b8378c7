"""The layer-tree editor: a consistent Qt model, and split / convert / insert / move / delete edits.

Menus are opened by a real right-click or the Menu key; their dialogs are the real ones, answered
by typing and clicking (tests/gui/modals.py).
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QMenu, QSpinBox, QWidget
from pytestqt.qtbot import QtBot

from paramtally.core.count.breakdown import human
from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing import layer_ops
from paramtally.core.io.model_sources import load_source
from paramtally.core.schema import Adapter, Architecture, Block, LoRA, MoE
from paramtally.core.schema.group_addresses import group_at
from paramtally.core.schema.group_addresses import group_block as block_at
from paramtally.gui.document import Document
from paramtally.gui.layer_tree import LayerTree, LayerTreeModel
from paramtally.gui.layer_tree.dialogs import SpecDialog
from paramtally.gui.main_window import MainWindow
from paramtally.gui.views.format import share_text
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals, give_focus, right_click_row
from tests.gui.views_support import preset_window

MOE = MoE(num_experts=16, top_k=2, expert_width=12288, shared_experts=1)


def group_block(arch: Architecture, group: int) -> Block:
    """The block of the main stack's plain layer group ``group`` (what its layers are)."""
    (block,) = {run.block for run in arch.runs if run.stack == "decoder" and run.group == group}
    return block


def test_model_is_consistent(qtmodeltester: Any) -> None:
    doc = Document(load_source("deepseek-v3"))
    model = LayerTreeModel(doc)
    qtmodeltester.check(model, force_py=True)
    layers = layer_ops.set_lora(
        layer_ops.split_group(doc.architecture.decoder.layers, 1, 10), 2, LoRA(rank=8)
    )
    doc.set_architecture(layer_ops.with_layers(doc.architecture, layers), "edit")
    qtmodeltester.check(model, force_py=True)
    # The decoder and the MTP modules; the decoder's three groups; the LoRA group's mixer, FFN,
    # norms and LoRA.
    assert model.rowCount() == 2 and model.rowCount(model.find(("decoder",))) == 3
    parts = [model.part_of(model.index(i, 0, model.group_index(2))) for i in range(4)]
    assert parts == ["mixer", "ffn", "norms", "lora"] and model.rowCount(model.group_index(2)) == 4
    jamba = Document(load_source("jamba-v0.1"))
    qtmodeltester.check(LayerTreeModel(jamba), force_py=True)  # a pattern: groups within a group


def test_rows_show_groups_parameters_and_share(qtbot: QtBot) -> None:
    doc = Document(load_source("deepseek-v3"))
    tree = LayerTree(doc)
    qtbot.addWidget(tree)
    model = tree.tree_model
    assert tree.objectName() == "layerTree"
    assert model.data(model.group_index(0)) == "layers 0–2 (dense)"
    assert model.data(model.group_index(1)) == "layers 3–60 (MoE)"
    moe_params = sum(row.params for row in doc.report.layers if row.group == 1)
    assert model.data(model.group_index(1), Qt.ItemDataRole.UserRole) == moe_params
    assert (
        model.data(model.group_index(1).siblingAtColumn(2)) == f"{100 * moe_params / doc.report.total:.1f} %"
    )  # 99.7 %
    ffn = model.find(("decoder", "layers", 1), "ffn")
    assert model.data(ffn) == (
        "FFN: Mixture of experts — Experts 256, Experts per token 8, Expert width 2,048, Shared experts 1"
    )
    assert model.data(ffn, Qt.ItemDataRole.UserRole) == 58 * doc.report.groups[1].by_part.get(
        "moe_experts", 0
    ) + 58 * sum(doc.report.groups[1].by_part.get(p, 0) for p in ("shared_experts", "router"))
    mtp = model.find(("mtp",))
    assert model.data(mtp) == "MTP: 1 module" and model.data(mtp, Qt.ItemDataRole.UserRole) == doc.report.mtp


def _type_into_dialog(qtbot: QtBot, dialog: QWidget, field: str, text: str) -> None:
    editor = dialog.findChild(QWidget, field)
    assert editor is not None, field
    line = editor.lineEdit() if hasattr(editor, "lineEdit") else editor
    line.setFocus()
    line.selectAll()
    qtbot.keyClicks(line, text)


def test_split_with_the_keyboard_keeps_the_total(qtbot: QtBot, window: MainWindow, modals: Modals) -> None:
    tree, doc = window.tree, window.document
    total = doc.report.total
    tree.setFocus()
    tree.setCurrentIndex(tree.tree_model.group_index(0))
    modals.type_and_click("48", "OK")  # the person answers "48" in the real split dialog
    qtbot.keyClick(tree, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    assert modals.seen == ["Split layer group"]
    assert [g.count for g in doc.architecture.decoder.layers] == [48, 48]
    assert doc.report.total == total
    assert tree.tree_model.data(tree.tree_model.group_index(1)) == "layers 48–95 (dense)"


def test_a_split_beyond_the_last_layer_says_the_range_and_waits(
    qtbot: QtBot, window: MainWindow, modals: Modals
) -> None:
    """QA: the split dialog's spin box (at most 95 for GPT-3's 96 layers) turned a typed 99 into 9,
    and OK split there. Now 99 stays as typed, the dialog says the range, and OK waits for a number
    in it; Up and Down still step."""
    tree, doc = window.tree, window.document
    said: list[tuple[str, list[str]]] = []

    def answer(dialog: QWidget) -> None:
        edit = dialog.findChild(QLineEdit)

        def read() -> None:  # the field and the dialog's visible lines below the caption
            lines = [label.text() for label in dialog.findChildren(QLabel) if label.isVisible()]
            said.append((edit.text(), lines[1:]))

        modals.type_text(dialog, "99")
        read()
        modals.click_button(dialog, "OK")  # refused: the dialog stays, the group unsplit
        assert dialog.isVisible() and len(doc.architecture.decoder.layers) == 1
        read()
        modals.type_text(dialog, "47")
        qtbot.keyClick(edit, Qt.Key.Key_Up)
        read()
        modals.click_button(dialog, "OK")

    modals.expect(answer, "split at 99, then 48")
    tree.setFocus()
    tree.setCurrentIndex(tree.tree_model.group_index(0))
    qtbot.keyClick(tree, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    message = "99 is more than 95: type a whole number from 1 to 95."
    assert said == [("99", [message]), ("99", [message]), ("48", [])]
    assert [g.count for g in doc.architecture.decoder.layers] == [48, 48]


def test_convert_to_moe_shows_total_and_active(qtbot: QtBot, window: MainWindow, modals: Modals) -> None:
    tree, doc = window.tree, window.document
    modals.choose("Split at layer…")
    modals.type_and_click("64", "OK")
    right_click_row(qtbot, tree, tree.tree_model.group_index(0), modals)
    assert [g.count for g in doc.architecture.decoder.layers] == [64, 32]

    def moe_dialog(dialog: QWidget) -> None:
        _type_into_dialog(qtbot, dialog, "num_experts", "16")
        _type_into_dialog(qtbot, dialog, "top_k", "2")
        _type_into_dialog(qtbot, dialog, "expert_width", "12288")
        _type_into_dialog(qtbot, dialog, "shared_experts", "1")
        modals.click_button(dialog, "OK")

    modals.choose("Convert FFN to MoE…")
    modals.expect(moe_dialog)
    right_click_row(qtbot, tree, tree.tree_model.group_index(1), modals)
    assert modals.seen[-1] == "Convert to MoE"
    # The dialog starts from the FFN converted (QA: it offered gated SiLU experts without bias for
    # GPT-3's two-matrix GELU FFN with biases); the fields typed over it change the rest.
    like_gpt3 = MOE.model_copy(update={"gated": False, "activation": "gelu_new", "expert_bias": True})
    expected_arch = load_source("gpt3-175b")
    expected_arch = layer_ops.with_layers(
        expected_arch,
        layer_ops.set_moe(layer_ops.split_group(expected_arch.decoder.layers, 0, 64), 1, like_gpt3),
    )
    expected = count_parameters(expected_arch)
    assert doc.report.total == expected.total and doc.report.active == expected.active
    assert expected.total > expected.active
    headline = window.findChild(QLabel, "totalParams").text()
    assert f"{expected.total:,}" in headline and f"{expected.active:,}" in headline
    assert tree.tree_model.data(tree.tree_model.group_index(1)) == "layers 64–95 (MoE)"
    # Back to dense through the FFN row's own menu.
    block = tree.tree_model.find(("decoder", "layers", 1), "ffn")
    modals.choose("Convert MoE to dense FFN")
    right_click_row(qtbot, tree, block, modals)
    assert doc.report.total == doc.report.active


def test_lora_and_adapter_are_added_parameters(qtbot: QtBot, window: MainWindow, modals: Modals) -> None:
    tree, doc = window.tree, window.document
    tree.setFocus()
    tree.setCurrentIndex(tree.tree_model.group_index(0))

    def lora_dialog(dialog: QWidget) -> None:
        _type_into_dialog(qtbot, dialog, "rank", "8")
        modals.click_button(dialog, "OK")  # q and v are ticked by default

    modals.expect(lora_dialog)
    qtbot.keyClick(tree, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert group_block(doc.architecture, 0).lora == LoRA(rank=8, targets=("q", "v"))
    h, layers = doc.architecture.hidden_size, doc.architecture.num_layers
    assert doc.report.added == layers * 2 * 8 * (h + h)  # r·(d_in + d_out) on q and v
    child = tree.tree_model.find(("decoder", "layers", 0), "lora")
    assert tree.tree_model.data(child) == "LoRA — Rank 8"
    assert "Targets: q, v" in tree.tree_model.data(child, Qt.ItemDataRole.ToolTipRole)
    share = tree.tree_model.data(child.siblingAtColumn(2))
    assert share == share_text(doc.report.added, doc.report.total) and share.startswith("0.02")  # 0.0215 %
    tree.setCurrentIndex(tree.tree_model.group_index(0))

    def adapter_dialog(dialog: QWidget) -> None:  # issue 11, bug 1: OK with the Placement combo box
        placement = dialog.findChild(QComboBox, "placement")
        placement.setFocus()
        qtbot.keyClick(placement, Qt.Key.Key_Up)  # attention, ffn, both (the schema's order): both → ffn
        _type_into_dialog(qtbot, dialog, "width", "64")
        qtbot.keyClick(dialog.findChild(QWidget, "width").lineEdit(), Qt.Key.Key_Return)

    modals.choose("Add adapter…")
    modals.expect(adapter_dialog)
    give_focus(qtbot, tree)
    qtbot.keyClick(tree, Qt.Key.Key_Menu)  # the keyboard's way to the context menu
    adapter = group_block(doc.architecture, 0).adapter
    assert adapter is not None and adapter.width == 64 and adapter.placement == "ffn"
    assert doc.report.added > layers * 2 * 8 * (h + h)


class _PaintedFigures(QObject):
    """What the tree's first row says in its Parameters column each time the tree is painted."""

    def __init__(self, tree: LayerTree) -> None:
        super().__init__(tree)
        self.tree, self.seen = tree, list[str]()
        tree.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            model = self.tree.tree_model
            self.seen.append(model.data(model.index(0, 1)))
        return False


def test_an_edit_that_keeps_the_rows_repaints_their_figures(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto
) -> None:
    model = window.tree.tree_model
    before = model.data(model.index(0, 1))
    painted = _PaintedFigures(window.tree)
    type_into(window.form.editor(("hidden_size",)), "6144")  # same rows, new figures
    qtbot.waitUntil(lambda: bool(painted.seen))
    assert painted.seen[-1] == human(model.rows()[0].params) != before


def test_a_double_click_on_a_group_changes_its_layers_in_a_dialog(
    qtbot: QtBot, window: MainWindow, modals: Modals
) -> None:
    tree, doc = window.tree, window.document
    index = tree.tree_model.group_index(0)
    modals.type_and_click("80", "OK", "number")
    qtbot.mouseDClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center())
    modals.wait_done()
    assert modals.seen == ["Change layer count"]
    assert doc.architecture.decoder.layers[0].count == 80 and doc.report.layers[-1].index == 79
    assert tree.viewport().findChild(QSpinBox) is None


def test_delete_key_and_drag_and_drop(qtbot: QtBot, window: MainWindow, modals: Modals) -> None:
    tree, doc = window.tree, window.document
    tree.split_group(0, 10)
    tree.set_block(1, "moe", MOE)
    model = tree.tree_model
    # Drag the MoE group above the dense one.
    data = model.mimeData([model.group_index(1)])
    assert model.dropMimeData(data, Qt.DropAction.MoveAction, 0, 0, model.find(("decoder",))) is False
    assert group_block(doc.architecture, 0).ffn == MOE and doc.architecture.decoder.layers[1].count == 10
    tree.setFocus()
    tree.setCurrentIndex(model.group_index(0))
    qtbot.keyClick(tree, Qt.Key.Key_Delete)
    assert len(doc.architecture.decoder.layers) == 1 and doc.architecture.decoder.layers[0].count == 10
    # The last group cannot go: the reason is said in a dialog (and the status bar); nothing changes.
    modals.click("OK")
    with qtbot.waitSignal(doc.invalid) as blocker:
        qtbot.keyClick(tree, Qt.Key.Key_Delete)
    assert blocker.args == [("decoder", "layers"), "the stack needs at least one layer group"]
    assert modals.seen == ["Delete layer group"] and modals.said == [
        "the stack needs at least one layer group"
    ]
    assert (
        window.problem_status.text() == "⚠ Decoder › Layer groups: the stack needs at least one layer group"
    )
    assert len(doc.architecture.decoder.layers) == 1


def test_every_tree_edit_is_one_undo_step(window: MainWindow) -> None:
    tree, doc = window.tree, window.document
    original = doc.architecture
    tree.split_group(0, 30)
    tree.set_block(0, "moe", MOE)
    tree.move_group(0, 1)
    assert doc.undo_stack.count() == 3
    for _ in range(3):
        doc.undo_stack.undo()
    assert doc.architecture == original


@pytest.mark.parametrize(("experts", "top_k", "ok"), [("8", "2", True), ("4", "6", False)])
def test_block_dialog_is_generated_and_validated(
    qtbot: QtBot, type_into: TypeInto, experts: str, top_k: str, ok: bool
) -> None:
    arch = load_source("gpt3-175b")

    def check(moe: MoE) -> None:  # what the tree passes: the block must fit the architecture
        layer_ops.with_layers(arch, layer_ops.set_moe(arch.decoder.layers, 0, moe))

    initial = {"num_experts": 16, "top_k": 1, "expert_width": 4096}
    dialog = SpecDialog(MoE, initial, "Convert to MoE", check=check)
    qtbot.addWidget(dialog)
    assert set(dialog.editors) >= {"num_experts", "top_k", "expert_width", "shared_experts"}
    type_into(dialog.editors["num_experts"], experts)
    type_into(dialog.editors["top_k"], top_k)
    dialog.accept()
    if ok:
        assert dialog.result_value() == MoE(num_experts=8, top_k=2, expert_width=4096)
    else:
        assert dialog.result_value() is None and "exceed" in dialog.error.text()


def test_block_dialog_says_text_that_is_no_number_and_waits(qtbot: QtBot, type_into: TypeInto) -> None:
    """Issue 31: a field that cannot read its text keeps it and says why; OK does not take the last
    number in its place."""
    dialog = SpecDialog(MoE, {"num_experts": 16, "top_k": 1, "expert_width": 4096}, "Convert to MoE")
    qtbot.addWidget(dialog)
    type_into(dialog.editors["num_experts"], "1.6e1")  # 16 in the one number syntax
    type_into(dialog.editors["expert_width"], "4Ki")
    type_into(dialog.editors["top_k"], "2.5")
    dialog.accept()
    assert dialog.result_value() is None and dialog.editors["top_k"].lineEdit().text() == "2.5"
    assert dialog.error.text() == "Experts per token: '2.5' is not a whole number (2.5)"
    type_into(dialog.editors["top_k"], "2")
    dialog.accept()
    assert dialog.result_value() == MoE(num_experts=16, top_k=2, expert_width=4096)


def test_the_split_dialog_reads_the_one_number_syntax(
    qtbot: QtBot, window: MainWindow, modals: Modals
) -> None:
    tree, doc = window.tree, window.document
    tree.setFocus()
    tree.setCurrentIndex(tree.tree_model.group_index(0))
    modals.type_and_click("4.8e1", "OK")
    qtbot.keyClick(tree, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    assert [g.count for g in doc.architecture.decoder.layers] == [48, 48]


def test_add_adapter_from_the_right_click_menu_completes_with_ok(
    qtbot: QtBot, window: MainWindow, modals: Modals
) -> None:
    """Issue 11, bug 1: the dialog's OK used to fail on the Placement combo box and stay open."""
    tree, doc = window.tree, window.document
    total = doc.report.total

    def adapter_dialog(dialog: QWidget) -> None:
        placement = dialog.findChild(QComboBox, "placement")
        assert placement.currentText() == "both"
        _type_into_dialog(qtbot, dialog, "width", "256")
        modals.click_button(dialog, "OK")

    modals.choose("Add adapter…")
    modals.expect(adapter_dialog)
    right_click_row(qtbot, tree, tree.tree_model.group_index(0), modals)
    assert group_block(doc.architecture, 0).adapter == Adapter(width=256, placement="both")
    h, layers = doc.architecture.hidden_size, doc.architecture.num_layers
    assert doc.report.added == layers * 2 * (2 * h * 256 + 256 + h)  # two adapters (h→b→h, biased) a layer
    assert doc.report.total == total + doc.report.added
    child = tree.tree_model.find(("decoder", "layers", 0), "adapter")
    assert tree.tree_model.data(child) == "Adapter — Bottleneck 256"


def test_every_menu_entry_shows_its_key_and_shift_f10_opens_the_menu(
    qtbot: QtBot, window: MainWindow, modals: Modals
) -> None:
    tree, doc = window.tree, window.document
    tree.split_group(0, 10)
    tree.set_block(1, "lora", LoRA(rank=4))
    model = tree.tree_model
    rows = (model.group_index(0), model.group_index(1), model.find(("decoder", "layers", 1), "lora"))
    for index in (*rows, model.find(("decoder", "layers", 1), "mixer")):
        menu = tree.build_menu(index)
        submenus = [a.menu() for a in menu.actions() if a.menu() is not None]
        entries = [a for m in (menu, *submenus) for a in m.actions() if not a.isSeparator() and not a.menu()]
        keys = [a.shortcut().toString() for a in entries]
        assert all(keys), [(a.text(), k) for a, k in zip(entries, keys, strict=True)]
        assert len(set(keys)) == len(keys)
    texts = [a.text() for a in tree.build_menu(model.group_index(1)).actions() if not a.isSeparator()]
    assert "Edit LoRA…" in texts and "Remove LoRA" in texts and "Add LoRA…" not in texts
    # Shift+F10 on the LoRA group, then the menu's "Remove LoRA", chosen by its entry.
    tree.setCurrentIndex(model.group_index(1))
    give_focus(qtbot, tree)
    modals.choose("Remove LoRA")
    qtbot.keyClick(tree, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    assert group_block(doc.architecture, 1).lora is None
    # The same with the key the menu showed, and no menu at all.
    tree.setCurrentIndex(model.group_index(0))
    qtbot.keyClick(tree, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)  # merge with next
    assert [g.count for g in doc.architecture.decoder.layers] == [96]


def test_mixer_kind_window_and_width_through_the_menus(
    qtbot: QtBot, window: MainWindow, modals: Modals
) -> None:
    """A range split off, its mixer made Mamba-2 through the submenu; a window and an FFN width
    typed into the real dialogs for the other group; each one undo step."""
    tree, doc = window.tree, window.document
    model = tree.tree_model
    modals.choose("Split at layer…")
    modals.type_and_click("90", "OK")
    right_click_row(qtbot, tree, model.group_index(0), modals)

    def open_submenu(menu: QWidget) -> None:  # as with the keys: onto "Mixer kind", then Right
        assert isinstance(menu, QMenu)
        menu.setActiveAction(next(a for a in menu.actions() if a.text() == "Mixer kind"))
        qtbot.keyClick(menu, Qt.Key.Key_Right)

    modals.expect(open_submenu, "Mixer kind ▸")
    modals.choose("Mamba-2")
    right_click_row(qtbot, tree, model.group_index(1), modals)
    assert group_block(doc.architecture, 1).mixer.kind == "mamba2"
    assert model.data(model.group_index(1)) == "layers 90–95 (Mamba-2, dense)"
    assert model.data(model.group_index(0)) == "layers 0–89 (attention, dense)"  # names its mixer now
    modals.choose("Sliding window…")
    modals.type_and_click("4096", "OK")
    right_click_row(qtbot, tree, model.group_index(0), modals)
    assert group_block(doc.architecture, 0).mixer.sliding_window == 4096
    modals.choose("FFN width…")
    modals.type_and_click("40000", "OK")
    right_click_row(qtbot, tree, model.group_index(0), modals)
    assert group_block(doc.architecture, 0).ffn.width == 40000
    assert doc.undo_stack.count() == 4 and doc.undo_stack.undoText() == "FFN width on 1 group"
    arch = layer_ops.split_group(load_source("gpt3-175b").decoder.layers, 0, 90)
    expected = layer_ops.with_layers(load_source("gpt3-175b"), arch)
    for group, path, value in (
        (1, ("mixer", "kind"), "mamba2"),
        (0, ("mixer", "sliding_window"), 4096),
        (0, ("ffn", "width"), 40000),
    ):
        expected = layer_ops.with_group_value(expected, ("decoder", "layers", group), path, value)
    assert doc.report.total == count_parameters(expected).total


def test_the_proposed_split_is_taken_with_ok_as_shown(
    qtbot: QtBot, window: MainWindow, modals: Modals
) -> None:
    """QA: OK was greyed out in the split, heads and width dialogs until the number was edited."""
    modals.choose("Split at layer…")
    modals.click("OK")  # Modals.click_button asserts the button is enabled
    right_click_row(qtbot, window.tree, window.tree.tree_model.group_index(0), modals)
    assert [g.count for g in window.document.architecture.decoder.layers] == [48, 48]


def test_a_refused_heads_value_is_said_and_asked_again(
    qtbot: QtBot, window: MainWindow, modals: Modals
) -> None:
    """QA: 100 heads (12,288 is no multiple of 100) closed the dialog as if taken; the reason was a
    status-bar line naming 'group 1 › :'. Now a warning says it and the dialog asks again."""
    tree, doc = window.tree, window.document
    modals.choose("Attention heads…")
    modals.type_and_click("100", "OK")
    modals.click("OK")  # the warning
    modals.type_and_click("64", "OK")  # the same dialog again
    right_click_row(qtbot, tree, tree.tree_model.group_index(0), modals)
    assert modals.seen[-3:] == ["Attention heads", "Attention heads", "Attention heads"]
    assert len(modals.said) == 1 and "100" in modals.said[0] and "12,288" in modals.said[0]
    assert group_block(doc.architecture, 0).mixer.num_heads == 64
    assert doc.undo_stack.count() == 1
    assert (
        doc.title_of(("decoder", "layers", 0, "override")) == "Decoder › Layer groups › group 1"
    )  # no '› :'


def test_the_mtp_modules_block_is_edited_like_a_group(qtbot: QtBot) -> None:
    doc = Document(load_source("deepseek-v3"))
    tree = LayerTree(doc)
    qtbot.addWidget(tree)
    tree.setCurrentIndex(tree.tree_model.find(("mtp",), "ffn"))
    assert tree.current_group() == ("mtp",)
    assert tree.set_value(("ffn", "num_experts"), 128, "Experts")
    assert doc.architecture.mtp.override["ffn"]["num_experts"] == 128
    assert tree.tree_model.data(tree.tree_model.find(("mtp",)), Qt.ItemDataRole.UserRole) == doc.report.mtp
    assert doc.report.total == count_parameters(load_source("deepseek-v3")).total  # MTP is apart


def test_merge_says_why_it_is_greyed_out_and_paste_names_its_groups(
    qtbot: QtBot, window: MainWindow, modals: Modals
) -> None:
    """QA: 'Merge with next' was greyed out with no reason; the undo text read 'onto 1 group(s)'."""
    tree, doc = window.tree, window.document
    tree.split_group(0, 48)
    tree.setCurrentIndex(tree.tree_model.group_index(0))
    assert tree.merge_action.isEnabled() and tree.merge_action.text() == "Merge with next"
    tree.set_mixer_kind("mamba2", [("decoder", "layers", 1)])
    tree.setCurrentIndex(tree.tree_model.group_index(0))
    assert not tree.merge_action.isEnabled()
    assert tree.merge_action.text() == "Merge with next (their blocks differ)"
    tree.setFocus()
    qtbot.keyClick(tree, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)  # copy group 1's block
    row = tree.visualRect(tree.tree_model.group_index(1)).center()
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=row)  # that group alone
    qtbot.keyClick(tree, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert doc.undo_stack.undoText() == "Paste block onto 1 group"
    tree.setCurrentIndex(tree.tree_model.group_index(0))
    assert tree.merge_action.isEnabled() and tree.merge_action.text() == "Merge with next"


def _click(qtbot: QtBot, tree: LayerTree, group: tuple[Any, ...], control: bool = False) -> None:
    index = tree.tree_model.find(group)
    tree.scrollTo(index)
    modifier = Qt.KeyboardModifier.ControlModifier if control else Qt.KeyboardModifier.NoModifier
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, modifier, tree.visualRect(index).center())


def test_heads_on_a_mixed_selection_reach_the_attention_groups_only(qtbot: QtBot, modals: Modals) -> None:
    """QA: Bamba's Mamba-2 group selected with an attention group took the 16 'attention heads' as
    its SSM heads (128 → 16), without a word."""
    window = preset_window(qtbot, "bamba-9b")
    tree, doc = window.tree, window.document
    mamba, attention = ("decoder", "layers", 2), ("decoder", "layers", 1)
    ssm_heads = block_at(doc.architecture, mamba).mixer.num_heads
    _click(qtbot, tree, mamba)
    _click(qtbot, tree, attention, control=True)
    modals.type_and_click("16", "OK")
    give_focus(qtbot, tree)
    qtbot.keyClick(tree, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
    modals.wait_done()
    assert block_at(doc.architecture, attention).mixer.num_heads == 16
    assert block_at(doc.architecture, mamba).mixer.num_heads == ssm_heads
    assert doc.undo_stack.undoText() == "Attention heads on 1 group"
    assert f"{doc.report.total:,}" in window.headline.text()


def test_ffn_width_on_a_pattern_reaches_its_dense_groups(qtbot: QtBot, modals: Modals) -> None:
    """QA: FFN width on Jamba's pattern (dense and MoE groups) was refused as 'is not a known
    setting', and asked again until Cancel."""
    window = preset_window(qtbot, "jamba-v0.1")
    tree, doc = window.tree, window.document
    pattern = ("decoder", "layers", 0)
    inner = [(*pattern, "pattern", i) for i in range(len(group_at(doc.architecture, pattern).pattern))]
    before = {group: block_at(doc.architecture, group).ffn for group in inner}
    dense = [group for group, ffn in before.items() if ffn.kind == "dense"]
    assert dense and len(dense) < len(inner)
    modals.choose("FFN width…")
    modals.type_and_click("16384", "OK")
    right_click_row(qtbot, tree, tree.tree_model.find(pattern), modals)
    modals.wait_done()
    assert modals.said == []  # no refusal
    after = {group: block_at(doc.architecture, group).ffn for group in inner}
    assert all(after[group].width == 16384 for group in dense)
    assert all(after[group] == before[group] for group in inner if group not in dense)
    assert doc.undo_stack.undoText() == f"FFN width on {len(dense)} groups"


def test_lora_on_a_pattern_goes_to_the_groups_it_adapts(qtbot: QtBot, modals: Modals) -> None:
    """QA: LoRA (q, v) on Jamba's pattern went on all 8 groups; seven rows then read 'LoRA — Rank 8'
    with 0 parameters (Mamba layers have no q or v)."""
    window = preset_window(qtbot, "jamba-v0.1")
    tree, doc = window.tree, window.document
    pattern = ("decoder", "layers", 0)
    _click(qtbot, tree, pattern)
    give_focus(qtbot, tree)

    def lora_dialog(dialog: QWidget) -> None:
        _type_into_dialog(qtbot, dialog, "rank", "8")
        modals.click_button(dialog, "OK")  # q and v are ticked by default

    modals.expect(lora_dialog)
    qtbot.keyClick(tree, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    inner = [(*pattern, "pattern", i) for i in range(8)]
    with_lora = [group for group in inner if block_at(doc.architecture, group).lora is not None]
    assert [block_at(doc.architecture, group).mixer.kind for group in with_lora] == ["attention"]
    assert doc.undo_stack.undoText() == "LoRA on 1 group"
    assert doc.report.added == 4 * 8 * ((4096 + 4096) + (4096 + 8 * 128))  # 4 layers: q (h→h), v (h→g·d)


def test_lora_targets_a_switched_mixer_lacks_are_named_in_its_row(qtbot: QtBot, modals: Modals) -> None:
    """QA: LoRA on q, v, gate, up, down, then the group's mixer switched to Mamba: q and v counted
    0 with no hint, the row still read 'Targets q, v, gate, …'. The row names them now."""
    window = preset_window(qtbot, "llama-3-8b")
    tree, doc, form = window.tree, window.document, window.form
    group = ("decoder", "layers", 0)
    _click(qtbot, tree, group)
    give_focus(qtbot, tree)

    def toggle_ffn_targets(dialog: QWidget) -> None:
        """Click gate, up and down (q and v are ticked by default; clicked again, they go), then OK."""
        for target in ("gate", "up", "down"):
            box = dialog.findChild(QWidget, f"choice_{target}")
            qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().center())
        modals.click_button(dialog, "OK")

    modals.expect(toggle_ffn_targets)
    qtbot.keyClick(tree, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    assert block_at(doc.architecture, group).lora.targets == ("q", "v", "gate", "up", "down")  # type: ignore[union-attr]
    row = tree.tree_model.find(group, "lora")
    assert "none in" not in tree.tree_model.data(row)  # an attention mixer has q and v
    kind = form.editor((*group, "override", "mixer", "kind"))
    assert isinstance(kind, QComboBox)
    kind.setFocus()
    qtbot.keyClicks(kind, "Mamba")  # the title, as the box shows it
    assert block_at(doc.architecture, group).mixer.kind == "mamba"
    row = tree.tree_model.find(group, "lora")
    assert (
        tree.tree_model.data(row)
        == "LoRA (q, v: none in a Mamba mixer) — Rank 16, Targets q, v, gate, up, down"
    )
    assert "q, v: none in a Mamba mixer, so they count 0" in tree.tree_model.data(
        row, Qt.ItemDataRole.ToolTipRole
    )
    # With the default targets (q, v, which the row does not list), it names them too.
    _click(qtbot, tree, group)
    give_focus(qtbot, tree)

    modals.expect(toggle_ffn_targets)
    qtbot.keyClick(tree, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    row = tree.tree_model.find(group, "lora")
    assert tree.tree_model.data(row) == "LoRA (q, v: none in a Mamba mixer) — Rank 16"
