"""Building published models by hand in the window, with keys and clicks, until the headline shows
the count measured on the real model (tests/golden/families_v2.json).

- Jamba-v0.1 from the Llama-style template: three form fields, the pattern helper, the Δ/B/C norms
  ticked in one Mamba group and its mixer pasted onto the others, 16 experts set on the four MoE
  groups at once.
- T5-base from the empty encoder-decoder template: form fields only (sizes, positions, tied head).
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QTreeWidget, QWidget
from pytestqt.qtbot import QtBot

from paramtally.core.schema.group_addresses import group_block
from paramtally.gui.main_window import MainWindow
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals, give_focus

GOLDEN = json.loads((Path(__file__).parents[1] / "golden" / "families_v2.json").read_text(encoding="utf-8"))
PATTERN = ("decoder", "layers", 0, "pattern")


def _new(window: MainWindow, template: str) -> None:
    """File → New → the template, by its menu entry."""
    action = window.findChild(QAction, f"actionNew:{template}")
    assert action is not None and action.isEnabled()
    action.trigger()
    assert window.document.undo_stack.count() == 0 and window.document.architecture.name.startswith("New")


def _click_row(qtbot: QtBot, window: MainWindow, index: QModelIndex, control: bool = False) -> None:
    tree = window.tree
    assert index.isValid()
    tree.scrollTo(index)
    modifier = Qt.KeyboardModifier.ControlModifier if control else Qt.KeyboardModifier.NoModifier
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, modifier, tree.visualRect(index).center())


def _headline(window: MainWindow) -> str:
    label = window.findChild(QWidget, "totalParams")
    return str(label.text())  # type: ignore[attr-defined]


def test_build_jamba_from_llama_defaults(
    qtbot: QtBot, window: MainWindow, modals: Modals, type_into: TypeInto
) -> None:
    _new(window, "decoder")
    form, tree, doc = window.form, window.tree, window.document
    type_into(form.editor(("embeddings", "vocab_size")), "65536")
    type_into(form.editor(("blocks", "default", "mixer", "num_kv_heads")), "8")
    type_into(form.editor(("blocks", "default", "ffn", "width")), "14336")

    # The pattern helper on the decoder: typed, previewed, applied.
    def pattern(dialog: QWidget) -> None:
        text = dialog.findChild(QLineEdit, "patternText")
        text.setFocus()
        qtbot.keyClicks(text, "[mamba ×4, attention, mamba ×3] × 4; MoE every 2nd layer")
        preview = dialog.findChild(QTreeWidget, "patternPreview")
        top = preview.topLevelItem(0)
        assert top.text(0) == "layers 0–31: 4 repetitions of 8 layers" and top.childCount() == 8
        assert [top.child(i).text(0) for i in (0, 1, 4)] == [
            "1 × Mamba, dense",
            "1 × Mamba, MoE",
            "1 × attention, dense",
        ]
        modals.click_button(dialog, "OK")

    modals.expect(pattern)
    _click_row(qtbot, window, tree.tree_model.find(("decoder",)))
    give_focus(qtbot, tree)
    qtbot.keyClick(tree, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    assert doc.undo_stack.undoText() == "Make the decoder from a pattern"
    (group,) = doc.architecture.decoder.layers
    assert (group.count, group.period) == (4, 8)

    # Δ/B/C norms in the first Mamba group, through the form; its mixer copied onto the others.
    first = (*PATTERN, 0)
    _click_row(qtbot, window, tree.tree_model.find(first))
    qtbot.keyClick(tree, Qt.Key.Key_Right)  # open the group: its mixer, FFN and norms
    _click_row(qtbot, window, tree.tree_model.find(first, "mixer"))
    assert (
        form.group == first
        and next(iter(form.sections)) == "Layer group: layers 0, 8, 16, 24 (Mamba, dense) · Mixer"
    )
    norms = form.editor((*first, "override", "mixer", "inner_norms"))
    assert (
        isinstance(norms, QCheckBox)
        and form.origin((*first, "override", "mixer", "inner_norms")) == "own kind"
    )
    norms.setFocus()
    qtbot.keyClick(norms, Qt.Key.Key_Space)
    assert group_block(doc.architecture, first).mixer.inner_norms  # type: ignore[union-attr]
    give_focus(qtbot, tree)
    qtbot.keyClick(tree, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    for number, index in enumerate((1, 2, 3, 5, 6, 7)):
        _click_row(qtbot, window, tree.tree_model.find((*PATTERN, index)), control=number > 0)
    qtbot.keyClick(tree, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    mixers = [group_block(doc.architecture, (*PATTERN, i)).mixer for i in range(8)]
    assert [getattr(m, "inner_norms", None) for m in mixers] == [True] * 4 + [None] + [True] * 3

    # 16 experts on the four MoE groups at once, in the real MoE dialog.
    def experts(dialog: QWidget) -> None:
        editor = dialog.findChild(QWidget, "num_experts")
        editor.lineEdit().selectAll()
        qtbot.keyClicks(editor.lineEdit(), "16")
        modals.click_button(dialog, "OK")

    for number, index in enumerate((1, 3, 5, 7)):
        _click_row(qtbot, window, tree.tree_model.find((*PATTERN, index)), control=number > 0)
    modals.expect(experts)
    qtbot.keyClick(tree, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    assert modals.seen[-1] == "Edit MoE"

    golden = GOLDEN["jamba-v0.1"]
    assert (doc.report.total, doc.report.active) == (golden["total"], golden["active"])
    assert f"{golden['total']:,}" in _headline(window) and f"{golden['active']:,}" in _headline(window)
    assert doc.undo_stack.count() == 7  # three fields, the pattern, the norms, the paste, the experts


def test_build_t5_base_from_an_empty_encoder_decoder(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto
) -> None:
    _new(window, "encoder-decoder")
    form, doc = window.form, window.document
    fields = {
        ("hidden_size",): "768",
        ("embeddings", "vocab_size"): "32128",
        ("blocks", "encoder", "mixer", "num_heads"): "12",
        ("blocks", "encoder", "ffn", "width"): "3072",
        ("blocks", "decoder", "mixer", "num_heads"): "12",
        ("blocks", "decoder", "cross_attention", "num_heads"): "12",
        ("blocks", "decoder", "ffn", "width"): "3072",
        ("decoder", "num_layers"): "12",
        ("encoder", "num_layers"): "12",
        ("decoder", "relative_buckets"): "32",
        ("encoder", "relative_buckets"): "32",
    }
    for role in ("encoder", "decoder"):  # T5's relative position bias, chosen by typing in the combo box
        positions = form.editor((role, "positions"))
        assert isinstance(positions, QComboBox)
        positions.setFocus()
        qtbot.keyClicks(positions, "relative")
        assert doc.architecture.encoder is not None
        assert getattr(doc.architecture, role).positions == "relative_bias"
    for path, text in fields.items():
        type_into(form.editor(path), text)
    tied = form.editor(("head", "tied"))
    assert isinstance(tied, QCheckBox)
    tied.setFocus()
    qtbot.keyClick(tied, Qt.Key.Key_Space)
    assert doc.architecture.head.tied, doc.undo_stack.undoText()
    assert not doc.drafts and not doc.problems
    golden = GOLDEN["t5-base"]
    assert doc.report.total == golden["total"]
    assert f"{golden['total']:,}" in _headline(window)
    # The tree shows both stacks, the encoder first, and the decoder's cross-attention.
    model = window.tree.tree_model
    assert [model.data(model.index(i, 0)) for i in range(model.rowCount())] == [
        "Encoder: 12 layers",
        "Decoder: 12 layers",
    ]
    cross = model.find(("decoder", "layers", 0), "cross_attention")
    assert model.data(cross) == "Cross-attention: Attention — Heads 12"
