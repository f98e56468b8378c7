"""The selected layer group's block in the form: inherited fields marked, own values set and reset,
every label from the schema's titles (a new field needs no GUI code)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QToolButton
from pytestqt.qtbot import QtBot

from paramtally.core.blocks import FFN_KINDS, MIXER_KINDS
from paramtally.core.editing import layer_ops
from paramtally.core.io.model_sources import load_source
from paramtally.core.schema.group_addresses import group_block
from paramtally.gui.document import Document
from paramtally.gui.form import ArchitectureForm
from paramtally.gui.layer_tree import LayerTree
from tests.gui.conftest import TypeInto

GROUP = ("decoder", "layers", 0)


def _label(form: ArchitectureForm, path: tuple[str | int, ...]) -> QLabel:
    row = form._rows[path]
    label = row.layout.labelForField(row.frame.parentWidget())
    assert isinstance(label, QLabel)
    return label


def test_a_selected_group_shows_its_block_first_and_marks_what_it_inherits(
    qtbot: QtBot, type_into: TypeInto
) -> None:
    doc = Document(load_source("llama-3-8b"))
    form, tree = ArchitectureForm(doc), LayerTree(doc)
    qtbot.addWidget(form)
    qtbot.addWidget(tree)
    tree.group_selected.connect(form.show_group)
    tree.setCurrentIndex(tree.tree_model.group_index(0))
    assert form.group == GROUP and next(iter(form.sections)) == "Layer group: layers 0–31 (dense) · Mixer"
    window = (*GROUP, "override", "mixer", "sliding_window")
    assert form.origin(window) == "inherited" and _label(form, window).font().italic()
    reset = form.findChild(QToolButton, "decoder.layers.0.override.mixer.sliding_window.reset")
    assert reset is not None and not reset.isEnabled()
    type_into(form.editor(window), "4096")  # the group's own window; the base block keeps none
    assert group_block(doc.architecture, GROUP).mixer.sliding_window == 4096  # type: ignore[union-attr]
    assert doc.architecture.blocks["default"].mixer.sliding_window is None  # type: ignore[union-attr]
    reset = form.findChild(QToolButton, "decoder.layers.0.override.mixer.sliding_window.reset")  # rebuilt
    assert form.origin(window) == "own" and not _label(form, window).font().italic() and reset.isEnabled()
    assert tree.tree_model.data(tree.tree_model.group_index(0)) == "layers 0–31 (window 4,096, dense)"
    qtbot.mouseClick(reset, Qt.MouseButton.LeftButton)
    assert doc.architecture == load_source("llama-3-8b") and form.origin(window) == "inherited"
    assert doc.undo_stack.count() == 2
    # A value the schema refuses is said at the group's field; nothing changes.
    heads = (*GROUP, "override", "mixer", "num_kv_heads")
    type_into(form.editor(heads), "5")
    assert form.field_state(heads) == "error" and "divide" in form.error_text(heads)
    assert doc.architecture == load_source("llama-3-8b")
    tree.setCurrentIndex(tree.tree_model.find(("decoder",)))  # a stack: no group in the form
    assert form.group is None and next(iter(form.sections)) == "Model"


def test_a_refused_group_value_stays_typed_in_its_field_until_it_fits(
    qtbot: QtBot, type_into: TypeInto
) -> None:
    """QA: a group's refused KV heads were thrown away (heads 64 after KV heads 64 left 8 KV heads),
    and coming back to the group showed 8 in a red field that still said 'KV heads (5) …'."""
    doc = Document(load_source("jamba-v0.1"))
    form, tree = ArchitectureForm(doc), LayerTree(doc)
    qtbot.addWidget(form)
    qtbot.addWidget(tree)
    tree.group_selected.connect(form.show_group)
    tree.expandAll()
    attention = ("decoder", "layers", 0, "pattern", 4)
    kv, heads = (
        (*attention, "override", "mixer", "num_kv_heads"),
        (*attention, "override", "mixer", "num_heads"),
    )
    tree.setCurrentIndex(tree.tree_model.find(attention))
    type_into(form.editor(kv), "5")
    assert form.field_state(kv) == "error" and form.editor(kv).value() == 5
    tree.setCurrentIndex(tree.tree_model.find(("decoder", "layers", 0, "pattern", 0)))
    tree.setCurrentIndex(tree.tree_model.find(attention))
    assert form.editor(kv).value() == 5 and form.field_state(kv) == "error"  # what was typed, and why
    type_into(form.editor(kv), "64")
    type_into(form.editor(heads), "64")  # now 64 KV heads fit: both go in
    assert group_block(doc.architecture, attention).mixer.num_kv_heads == 64  # type: ignore[union-attr]
    assert form.field_state(kv) == "" and form.editor(kv).value() == 64


def test_a_kind_switch_of_a_group_gives_it_its_own_part(qtbot: QtBot) -> None:
    doc = Document(load_source("llama-3-8b"))
    form = ArchitectureForm(doc)
    qtbot.addWidget(form)
    form.show_group(GROUP)
    for _ in range(3):  # attention → MLA → Mamba → Mamba-2; each step rebuilds the group's rows
        kind = form.editor((*GROUP, "override", "mixer", "kind"))
        kind.setFocus()
        qtbot.keyClick(kind, Qt.Key.Key_Down)
    assert group_block(doc.architecture, GROUP).mixer.kind == "mamba2"
    state = (*GROUP, "override", "mixer", "state")
    assert form.origin(state) == "own kind"
    assert not form.findChild(QToolButton, "decoder.layers.0.override.mixer.state.reset").isEnabled()
    kind_reset = form.findChild(QToolButton, "decoder.layers.0.override.mixer.kind.reset")
    qtbot.mouseClick(kind_reset, Qt.MouseButton.LeftButton)
    assert doc.architecture == load_source("llama-3-8b")


@pytest.mark.parametrize("kind", [*MIXER_KINDS, *FFN_KINDS], ids=lambda k: k.__name__)
def test_every_field_of_every_kind_reaches_form_and_tree_by_its_title(qtbot: QtBot, kind: type) -> None:
    arch = load_source("llama-3-8b")
    tag = kind.model_fields["kind"].default
    part = "mixer" if kind in MIXER_KINDS else "ffn"
    arch = layer_ops.with_group_value(arch, GROUP, (part, "kind"), tag)
    doc = Document(arch)
    form, tree = ArchitectureForm(doc), LayerTree(doc)
    qtbot.addWidget(form)
    qtbot.addWidget(tree)
    form.show_group(GROUP)
    tooltip = tree.tree_model.data(tree.tree_model.find(GROUP, part), Qt.ItemDataRole.ToolTipRole)
    for name, info in kind.model_fields.items():
        if name == "kind":
            continue
        path = (*GROUP, "override", part, name)
        assert _label(form, path).text() == info.title, name
        assert f"{info.title}: " in tooltip, name
