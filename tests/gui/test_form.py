"""The architecture form: generated from the schema, typed into as a person would."""

from __future__ import annotations

from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field, create_model
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget
from pytestqt.qtbot import QtBot

from paramtally.core.blocks import Attention
from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing.edits import with_value
from paramtally.core.io.model_sources import load_source
from paramtally.core.io.presets import builtin_ids
from paramtally.core.schema import ACTIVATIONS, Architecture, BlockNorms
from paramtally.core.schema.field_specs import field_spec, model_fields
from paramtally.gui.document import Document
from paramtally.gui.form import ArchitectureForm
from paramtally.gui.form.editors import CheckBox, ComboBox, IntSpinBox, MultiChoice, make_editor
from paramtally.gui.form.field_frame import AMBER, RED
from paramtally.gui.main_window import MainWindow
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals


def _scalar_paths(model: BaseModel, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """Every field of the open model the form should edit, from the schema alone (no GUI code)."""
    paths: list[tuple[str | int, ...]] = []
    for spec in model_fields(type(model)):
        value = getattr(model, spec.name)
        if not spec.in_form or spec.kind == "models":
            continue
        if spec.kind == "mapping":
            for key, item in value.items():
                paths += _scalar_paths(item, (*prefix, spec.name, key))
        elif spec.kind in ("model", "union"):
            if value is not None:
                paths += _scalar_paths(value, (*prefix, spec.name))
        else:
            paths.append((*prefix, spec.name))
    return paths


@pytest.mark.parametrize(
    "preset_id", ["gpt3-175b", "deepseek-v3", "jamba-v0.1", "flan-t5-base", "falcon-h1-style"]
)
def test_every_schema_field_has_an_editor_named_by_its_path(qtbot: QtBot, preset_id: str) -> None:
    form = ArchitectureForm(Document(load_source(preset_id)))
    qtbot.addWidget(form)
    paths = _scalar_paths(form.document.architecture)
    assert ("embeddings", "vocab_size") in paths and (
        "blocks",
        "default" if preset_id != "flan-t5-base" else "decoder",
        "mixer",
        "kind",
    ) in paths
    for path in paths:
        editor = form.findChild(QWidget, ".".join(str(part) for part in path))
        assert editor is not None, path
    assert set(form.paths()) == set(paths) | {
        (role, "num_layers") for role, _ in form.document.architecture.stacks
    }
    assert form.objectName() == "architectureForm"


def test_sections_follow_the_blocks_and_stacks(qtbot: QtBot) -> None:
    gpt3 = ArchitectureForm(Document(load_source("gpt3-175b")))
    t5 = ArchitectureForm(Document(load_source("flan-t5-base")))
    for form in (gpt3, t5):
        qtbot.addWidget(form)
    assert list(gpt3.sections) == [
        "Model", "Embeddings", "Block «default» · Mixer", "Block «default» · FFN", "Block «default» · Norms",
        "Decoder", "Head", "Dropout",
    ]  # fmt: skip
    assert "Block «decoder» · Cross-attention" in t5.sections and "Encoder" in t5.sections


def test_switching_the_mixer_kind_rebuilds_its_fields_and_keeps_what_they_share(
    qtbot: QtBot, window: MainWindow
) -> None:
    doc, form = window.document, window.form
    kind = form.editor(("blocks", "default", "mixer", "kind"))
    kind.setFocus()
    # Arrowed down, the combo passes through MLA and Mamba (which has no heads) on the way; typing
    # "mamba2" would too, but Qt's type-ahead resets after a pause, so arrows keep the test exact.
    for _ in range(kind.findData("mamba2") - kind.currentIndex()):
        qtbot.keyClick(kind, Qt.Key.Key_Down)
    mixer = doc.architecture.blocks["default"].mixer
    # Mamba-2 starts at its suggestion.
    assert mixer.kind == "mamba2" and mixer.num_heads == 2 * 12288 // 64
    assert kind.currentText() == "Mamba-2"  # the kind's title; a preset file keeps "mamba2"
    assert form.editor(("blocks", "default", "mixer", "state")).value() == mixer.state  # a Mamba-2 field now
    with pytest.raises(KeyError):
        form.editor(("blocks", "default", "mixer", "q_bias"))
    assert doc.report.by_part["ssm"] > 0 and "attention" not in doc.report.by_part
    doc.undo_stack.undo()  # one step back, however many kinds the typing passed
    assert doc.architecture.blocks["default"].mixer.kind == "attention"
    assert form.editor(("blocks", "default", "mixer", "q_bias")).value() is True


def test_widget_kind_range_and_tooltip_come_from_the_field(qtbot: QtBot, document: Document) -> None:
    form = ArchitectureForm(document)
    qtbot.addWidget(form)
    hidden = form.editor(("hidden_size",))
    assert isinstance(hidden, IntSpinBox) and hidden.minimum == 1 and not hidden.optional  # gt=0
    kv = form.editor(("blocks", "default", "mixer", "num_kv_heads"))
    assert isinstance(kv, IntSpinBox) and kv.optional and kv.value() is None
    assert isinstance(form.editor(("blocks", "default", "mixer", "q_bias")), CheckBox)
    assert isinstance(form.editor(("blocks", "default", "norms", "kind")), ComboBox)
    assert form.editor(("blocks", "default", "mixer", "rotary_fraction")).maximum == 1.0
    described = Architecture.model_fields["hidden_size"].description
    assert hidden.toolTip() == described


def test_a_new_schema_field_gets_an_editor_without_gui_code(qtbot: QtBot) -> None:
    model = create_model(
        "Future",
        window_stride=(Annotated[int, Field(ge=4, le=4096)], Field(64, description="A new knob.")),
        mode=(Literal["fast", "exact"], "fast"),
        targets=(tuple[Literal["a", "b"], ...], ("a",)),
    )
    editors = {spec.name: make_editor(spec) for spec in model_fields(model)}
    stride = editors["window_stride"]
    assert isinstance(stride, IntSpinBox) and (stride.minimum, stride.maximum) == (4, 4096)
    assert stride.toolTip() == "A new knob."
    assert isinstance(editors["mode"], ComboBox) and editors["mode"].count() == 2
    assert isinstance(editors["targets"], MultiChoice)
    for editor in editors.values():
        qtbot.addWidget(editor)
    assert field_spec("window_stride", model.model_fields["window_stride"]).label == "Window stride"


def test_typing_a_hidden_size_updates_the_headline(window: MainWindow, type_into: TypeInto) -> None:
    doc = window.document
    before = doc.architecture
    expected = count_parameters(with_value(before, ("hidden_size",), 6144))
    headline = window.findChild(QLabel, "totalParams")
    assert f"{count_parameters(before).total:,}" in headline.text()
    type_into(window.form.editor(("hidden_size",)), "6144")
    assert doc.architecture.hidden_size == 6144
    assert doc.report.total == expected.total
    assert f"{expected.total:,}" in headline.text()
    assert window.form.editor(("hidden_size",)).lineEdit().text() == "6,144"


def test_an_invalid_head_count_is_shown_at_the_field_and_the_figures_stay(
    window: MainWindow, type_into: TypeInto
) -> None:
    doc = window.document
    form = window.form
    headline = window.findChild(QLabel, "totalParams").text()
    total = doc.report.total
    type_into(form.editor(("blocks", "default", "mixer", "num_kv_heads")), "5")
    assert (
        form.error_text(("blocks", "default", "mixer", "num_kv_heads"))
        == "KV heads (5) must divide the query heads (96)"
    )
    assert form.field_state(("blocks", "default", "mixer", "num_kv_heads")) == "error"
    assert "must divide" in form.editor(("blocks", "default", "mixer", "num_kv_heads")).toolTip()
    assert doc.architecture.blocks["default"].mixer.num_kv_heads is None and doc.report.total == total
    shown = window.findChild(QLabel, "totalParams").text()  # the same figures, marked as the last valid
    assert shown != headline and f"{total:,}</span>" in shown and f"{total:,}</span>" in headline
    assert "Blocks › default › Mixer › KV heads 5 is not applied" in shown
    # The typed 5 stays in its field (a draft, one undo step of its own), not counted.
    assert doc.drafts == {("blocks", "default", "mixer", "num_kv_heads"): 5}
    assert form.editor(("blocks", "default", "mixer", "num_kv_heads")).lineEdit().text() == "5"
    # A valid value clears the message and the figures follow the calculator.
    type_into(form.editor(("blocks", "default", "mixer", "num_kv_heads")), "8")
    assert form.error_text(("blocks", "default", "mixer", "num_kv_heads")) == ""
    expected = count_parameters(
        with_value(load_source("gpt3-175b"), ("blocks", "default", "mixer", "num_kv_heads"), 8)
    )
    assert doc.report.total == expected.total < total


def _border_colours(editor: QWidget) -> set[str]:
    """The colours of the 2-pixel margin round ``editor`` inside its field frame, as drawn."""
    frame = editor.parentWidget()
    assert frame is not None
    image = frame.grab().toImage()
    middle = image.height() // 2
    margin = [(1, middle), (image.width() - 2, middle), (image.width() // 2, 1)]
    return {image.pixelColor(x, y).name() for x, y in margin}


def test_a_refused_field_is_framed_red_and_a_hinted_one_amber(
    window: MainWindow, type_into: TypeInto
) -> None:
    """The frame paints its border itself (no style sheet over the form): red round a refusal,
    amber round advice, nothing round a plain field."""
    heads, vocab = ("blocks", "default", "mixer", "num_kv_heads"), ("embeddings", "vocab_size")
    form = window.form
    assert RED not in _border_colours(form.editor(heads)) and AMBER not in _border_colours(form.editor(heads))
    type_into(form.editor(heads), "5")
    assert form.field_state(heads) == "error" and _border_colours(form.editor(heads)) == {RED}
    window.document.set_scenario_values({"context": 4096})  # GPT-3's vocabulary: pad it to 50,304
    assert form.field_state(vocab) == "hint" and _border_colours(form.editor(vocab)) == {AMBER}
    type_into(form.editor(heads), "8")
    assert form.field_state(heads) == "" and not _border_colours(form.editor(heads)) & {RED, AMBER}


def test_a_cross_field_error_is_shown_at_both_fields(window: MainWindow, type_into: TypeInto) -> None:
    type_into(window.form.editor(("hidden_size",)), "8192")  # 96 heads do not divide 8192
    reason = "the hidden size (8,192) is not a multiple of the 96 heads: change either, or set the head width"
    assert window.form.error_text(("hidden_size",)) == reason
    assert window.form.error_text(("blocks", "default", "mixer", "num_heads")) == reason
    assert window.document.architecture.hidden_size == 12288


def test_empty_optional_field_means_auto(window: MainWindow, type_into: TypeInto) -> None:
    doc = window.document
    editor = window.form.editor(("blocks", "default", "mixer", "num_kv_heads"))
    type_into(editor, "8")
    assert doc.architecture.blocks["default"].mixer.num_kv_heads == 8
    type_into(editor, "")
    assert doc.architecture.blocks["default"].mixer.num_kv_heads is None
    assert editor.lineEdit().text() == ""


def test_check_box_and_choice_edit_the_document(qtbot: QtBot, window: MainWindow) -> None:
    doc = window.document
    box = window.form.editor(("blocks", "default", "mixer", "q_bias"))
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Space)
    assert doc.architecture.blocks["default"].mixer.q_bias is False
    expected = count_parameters(
        with_value(load_source("gpt3-175b"), ("blocks", "default", "mixer", "q_bias"), False)
    )
    assert doc.report.total == expected.total
    combo = window.form.editor(("blocks", "default", "norms", "kind"))
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)  # layernorm → rmsnorm
    assert doc.architecture.blocks["default"].norms.kind == "rmsnorm"


def test_spin_box_drag_is_one_undo_step(window: MainWindow) -> None:
    doc = window.document
    editor = window.form.editor(("blocks", "default", "ffn", "width"))
    for _ in range(5):
        editor.stepBy(1)
    assert doc.architecture.blocks["default"].ffn.width == 49152 + 5
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert doc.architecture.blocks["default"].ffn.width == 49152 and editor.value() == 49152


def test_fields_follow_undo_and_drafts_of_parts_other_edits_leave_alone(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto
) -> None:
    """The form re-reads a field only when its model is another object than the one it showed:
    undo brings back the old objects, a draft shows over an unchanged one."""
    doc, form = window.document, window.form
    kv_heads = form.editor(("blocks", "default", "mixer", "num_kv_heads"))
    hidden = form.editor(("hidden_size",))
    bias = form.editor(("blocks", "default", "norms", "bias"))
    type_into(kv_heads, "8")
    type_into(hidden, "6144")  # the mixer (and its fields) stay the same objects
    combo = form.editor(("blocks", "default", "norms", "kind"))
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)  # layernorm → rmsnorm: β hidden
    assert not bias.isVisible()
    for _ in range(3):
        window.undo_action.trigger()
    assert (hidden.lineEdit().text(), kv_heads.lineEdit().text(), bias.isVisible()) == ("12,288", "", True)
    for _ in range(3):
        window.redo_action.trigger()
    assert (hidden.lineEdit().text(), kv_heads.lineEdit().text(), bias.isVisible()) == ("6,144", "8", False)
    # A refused value shows as a draft over the unchanged mixer; undoing it shows the model's again.
    type_into(kv_heads, "5")
    assert doc.drafts and kv_heads.lineEdit().text() == "5"
    window.undo_action.trigger()
    assert not doc.drafts and kv_heads.lineEdit().text() == "8"
    type_into(kv_heads, "5")
    type_into(hidden, "4096")  # applied beside the draft, which still does not fit
    assert kv_heads.lineEdit().text() == "5" and hidden.lineEdit().text() == "4,096"


def test_large_ints_stay_exact(window: MainWindow, type_into: TypeInto) -> None:
    big = 16_777_213  # near the schema's bound for a size, 2^24 (far past a 16-bit spin box)
    type_into(window.form.editor(("embeddings", "vocab_size")), f"{big:,}")
    assert window.document.architecture.embeddings.vocab_size == big
    assert window.form.editor(("embeddings", "vocab_size")).value() == big


def test_mla_fields_show_only_for_mla_attention(qtbot: QtBot) -> None:
    standard = ArchitectureForm(Document(load_source("gpt3-175b")))
    mla = ArchitectureForm(Document(load_source("deepseek-v3")))
    for form in (standard, mla):
        qtbot.addWidget(form)
        form.show()
    with pytest.raises(KeyError):  # MLA's ranks are MLA's own fields: not there for attention
        standard.editor(("blocks", "default", "mixer", "kv_lora_rank"))
    assert mla.editor(("blocks", "default", "mixer", "kv_lora_rank")).isVisible()
    assert mla.editor(("blocks", "default", "mixer", "kv_lora_rank")).value() == 512


def test_layernorm_bias_shows_only_under_layernorm(qtbot: QtBot, window: MainWindow) -> None:
    """Issue 11, bug 6: the β box stayed editable under RMSNorm, where it counts nothing."""
    doc, form = window.document, window.form
    bias = form.editor(("blocks", "default", "norms", "bias"))
    assert doc.architecture.blocks["default"].norms.kind == "layernorm" and bias.isVisible()
    combo = form.editor(("blocks", "default", "norms", "kind"))
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)  # layernorm → rmsnorm
    assert doc.architecture.blocks["default"].norms.kind == "rmsnorm" and not bias.isVisible()
    # The rule is the schema's metadata, read by the form: no field names in gui code.
    rule = {"kind": "layernorm", "affine": True}
    assert BlockNorms.model_fields["bias"].json_schema_extra == {"visible_when": rule}
    assert field_spec("bias", BlockNorms.model_fields["bias"]).visible_when == tuple(rule.items())


def test_layernorm_bias_hides_under_norms_without_weights(qtbot: QtBot, window: MainWindow) -> None:
    """Norms that only normalize (OLMo-1's) have no β to switch: the box goes with them."""
    doc, form = window.document, window.form
    bias = form.editor(("blocks", "default", "norms", "bias"))
    affine = form.editor(("blocks", "default", "norms", "affine"))
    before = doc.report.total
    assert doc.architecture.blocks["default"].norms.kind == "layernorm" and bias.isVisible()
    affine.setFocus()
    qtbot.keyClick(affine, Qt.Key.Key_Space)
    assert doc.architecture.blocks["default"].norms.affine is False and not bias.isVisible()
    arch = doc.architecture
    norms = (2 * arch.num_layers + 1) * 2 * arch.hidden_size  # γ and β of each block norm and the final one
    assert doc.report.total == before - norms


def test_rotary_fields_show_only_under_rotary_positions(qtbot: QtBot, window: MainWindow) -> None:
    """GPT-3's form showed RoPE ticked and a rotary share beside its learned position table."""
    doc, form = window.document, window.form
    rope = form.editor(("blocks", "default", "mixer", "rope"))
    share = form.editor(("blocks", "default", "mixer", "rotary_fraction"))
    assert doc.architecture.decoder.positions == "learned"
    assert not rope.isVisible() and not share.isVisible()
    combo = form.editor(("decoder", "positions"))
    combo.setFocus()
    qtbot.keyClicks(combo, "rope")  # a person types to jump to an entry
    assert doc.architecture.decoder.positions == "rope" and rope.isVisible() and share.isVisible()
    before = doc.report.total
    qtbot.keyClick(combo, Qt.Key.Key_Up)  # rope → learned, the entry above it
    assert doc.architecture.decoder.positions == "learned" and not rope.isVisible()
    assert doc.report.total == before + 2048 * 12288  # the table is back; the flags counted nothing
    # A layer group's block shows them as its stack does: the group clicked in the tree.
    tree = window.tree
    index = tree.tree_model.find(("decoder", "layers", 0))
    tree.scrollTo(index)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center())
    assert form.group == ("decoder", "layers", 0)
    assert not form.editor(("decoder", "layers", 0, "override", "mixer", "rope")).isVisible()
    spec = field_spec("rope", Attention.model_fields["rope"])
    assert spec.visible_when_stack == (("positions", "rope"),)  # the schema's metadata, read by the form


def test_a_mambas_expand_shows_only_while_its_inner_width_is_empty(qtbot: QtBot, type_into: TypeInto) -> None:
    """QA: Jamba's Expand took edits, each an undo step, while its inner width (8,192) made it count
    nothing."""
    doc = Document(load_source("jamba-v0.1"))
    form = ArchitectureForm(doc)
    qtbot.addWidget(form)
    form.show()
    mixer = ("blocks", "default", "mixer")
    expand = form.editor((*mixer, "expand"))
    assert doc.architecture.blocks["default"].mixer.inner == 8192 and not expand.isVisible()
    type_into(form.editor((*mixer, "inner")), "")  # empty: expand × hidden
    assert doc.architecture.blocks["default"].mixer.inner is None and expand.isVisible()
    assert doc.report.total == count_parameters(load_source("jamba-v0.1")).total  # 2 × 4,096 = 8,192


@pytest.mark.parametrize(
    ("preset_id", "shown"), [("llama-3-8b", True), ("t5-base", False), ("whisper-large-v3", False)]
)
def test_rotary_fields_follow_the_stacks_holding_the_block(qtbot: QtBot, preset_id: str, shown: bool) -> None:
    form = ArchitectureForm(Document(load_source(preset_id)))
    qtbot.addWidget(form)
    form.show()
    arch = form.document.architecture
    for name in arch.blocks:
        if arch.blocks[name].mixer.kind == "attention":
            assert form.editor(("blocks", name, "mixer", "rope")).isVisible() is shown, name


@pytest.mark.parametrize(("preset_id", "shown"), [("llama-3-8b", False), ("t5-base", True)])
def test_a_layers_own_relative_bias_shows_only_beside_relative_positions(
    qtbot: QtBot, preset_id: str, shown: bool
) -> None:
    """Attention.relative_buckets (UMT5's table in every layer) means nothing beside rotary positions."""
    form = ArchitectureForm(Document(load_source(preset_id)))
    qtbot.addWidget(form)
    form.show()
    for name in form.document.architecture.blocks:
        assert form.editor(("blocks", name, "mixer", "relative_buckets")).isVisible() is shown, name
    spec = field_spec("relative_buckets", Attention.model_fields["relative_buckets"])
    assert spec.visible_when_stack == (("positions", "relative_bias"),)


def test_activation_offers_only_known_names(qtbot: QtBot, window: MainWindow) -> None:
    combo = window.form.editor(("blocks", "default", "ffn", "activation"))
    assert isinstance(combo, ComboBox)
    names = [combo.itemData(i) for i in range(combo.count())]
    assert names == list(ACTIVATIONS) and combo.value() == "gelu_new"
    for preset_id in builtin_ids():  # every preset's (and so every importer's) name is offered
        for block in load_source(preset_id).layers_by_block():
            assert getattr(block.ffn, "activation", "silu") in names
    combo.setFocus()
    qtbot.keyClicks(combo, "silu")  # a person types to jump to an entry
    assert window.document.architecture.blocks["default"].ffn.activation == "silu"


def test_hints_are_amber_at_their_field_and_refuse_nothing(window: MainWindow, type_into: TypeInto) -> None:
    form, doc = window.form, window.document
    assert doc.scenario.context == 2048  # the views made the scenario: GPT-3's, within its positions
    assert form.hint_text(("decoder", "max_positions")) == ""
    doc.set_scenario_values({"context": 4096})  # as the memory tab types it
    assert "exceeds the model's 2,048 learned positions" in form.hint_text(("decoder", "max_positions"))
    assert "pad it to 50,304" in form.hint_text(("embeddings", "vocab_size"))
    assert form.field_state(("embeddings", "vocab_size")) == "hint"
    type_into(form.editor(("embeddings", "vocab_size")), "50304")
    assert (
        doc.architecture.embeddings.vocab_size == 50304 and form.hint_text(("embeddings", "vocab_size")) == ""
    )
    assert form.field_state(("embeddings", "vocab_size")) == ""
    type_into(form.editor(("blocks", "default", "ffn", "width")), "49000")  # applied, with a hint
    assert doc.architecture.blocks["default"].ffn.width == 49000 and "49,024 would be" in form.hint_text(
        ("blocks", "default", "ffn", "width")
    )
    # A refusal outranks a hint at the same field, and the hint comes back when it goes.
    type_into(form.editor(("decoder", "max_positions")), "0")
    assert form.error_text(("decoder", "max_positions")).startswith("learned positions need a table")
    assert form.field_state(("decoder", "max_positions")) == "error"
    type_into(form.editor(("decoder", "max_positions")), "2048")
    assert form.field_state(("decoder", "max_positions")) == "hint"
    assert doc.set_scenario_field("context", 2048)
    assert form.hint_text(("decoder", "max_positions")) == ""


def test_the_number_of_layers_is_a_field(qtbot: QtBot, window: MainWindow, type_into: TypeInto) -> None:
    doc, form = window.document, window.form
    layers = form.editor(("decoder", "num_layers"))
    assert isinstance(layers, IntSpinBox) and layers.value() == 96 and layers.minimum == 1
    assert form._rows[("decoder", "num_layers")].section.text() == "Decoder"
    type_into(layers, "48")
    assert [g.count for g in doc.architecture.decoder.layers] == [48]
    expected = count_parameters(with_value(load_source("gpt3-175b"), ("decoder", "num_layers"), 48))
    assert doc.report.total == expected.total and f"{expected.total:,}" in window.headline.text()
    assert window.undo_action.text() == "&Undo Set Decoder › Layers"
    assert window.tree.tree_model.data(window.tree.tree_model.group_index(0)) == "layers 0–47 (dense)"
    window.tree.split_group(0, 40)  # the tree edits the stack; the field follows
    type_into(layers, "50")
    assert [g.count for g in doc.architecture.decoder.layers] == [40, 10]


def test_ffn_width_from_the_hidden_size(qtbot: QtBot, modals: Modals) -> None:
    document = Document(load_source("llama-3-8b"), "llama-3-8b", preset_id="llama-3-8b")
    form = ArchitectureForm(document)
    qtbot.addWidget(form)
    form.show()
    assert document.set_field(("blocks", "default", "ffn", "width"), 1000)

    def llama3(dialog: QWidget) -> None:  # Llama 3: multiplier 1.3, multiple of 1024
        multiplier = dialog.findChild(QWidget, "multiplier")
        multiplier.lineEdit().selectAll()
        qtbot.keyClicks(multiplier.lineEdit(), "1.3")
        multiple = dialog.findChild(QWidget, "multiple_of")
        multiple.lineEdit().selectAll()
        qtbot.keyClicks(multiple.lineEdit(), "1024")
        assert dialog.findChild(QLabel, "result").text().endswith("FFN width 14,336")
        modals.click_button(dialog, "Apply")

    modals.expect(llama3)
    qtbot.mouseClick(form.findChild(QWidget, "ffnWidthFromHidden"), Qt.MouseButton.LeftButton)
    assert document.architecture == load_source("llama-3-8b")  # LLaMA's own rule gives its width back
    assert (
        document.undo_stack.count() == 2
        and form.editor(("blocks", "default", "ffn", "width")).value() == 14336
    )


def test_a_long_section_title_is_cut_short_not_widening_the_form(qtbot: QtBot) -> None:
    """QA: a layer group's section title asked for its full width, and the left pane grew with each
    longer one, squeezing the charts."""
    form = ArchitectureForm(Document(load_source("jamba-v0.1")))
    qtbot.addWidget(form)
    form.resize(440, 600)
    form.show()
    narrowest = form.minimumWidth()
    group = ("decoder", "layers", 0, "pattern", 0)
    form.show_group(group)
    title = next(name for name in form.sections if name.startswith("Layer group:"))
    header = form.sections[title].button
    assert header.toolTip() == title and form.sections[title].text() == title
    assert header.sizeHint().width() <= 160
    assert form.minimumWidth() <= narrowest + 40  # the group's ↺ buttons, not its title
    form.resize(300, 600)
    qtbot.waitUntil(lambda: header.text().endswith("…"))


def test_a_pattern_group_says_its_fields_are_what_its_groups_start_from(qtbot: QtBot) -> None:
    """QA: selecting Jamba's pattern group showed one block's fields as if they were every layer's."""
    window = MainWindow(Document(load_source("jamba-v0.1")))
    qtbot.addWidget(window)
    window.show()
    tree = window.tree
    for group, noted in ((("decoder", "layers", 0), True), (("decoder", "layers", 0, "pattern", 4), False)):
        index = tree.tree_model.find(group)
        tree.scrollTo(index)
        qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center())
        assert window.form.group == group
        note = window.form.findChild(QLabel, "patternNote")
        assert (note is not None and note.isVisible()) is noted
        if noted:
            assert "reaches each group inside that has no value of its own" in note.text()


def test_1e30_typed_into_the_vocabulary_is_refused_at_the_field(
    window: MainWindow, type_into: TypeInto
) -> None:
    """Issue 31, bug 2: the field dropped the 'e' of '1e30' and applied 130 (173,989,896,192)."""
    headline = window.findChild(QLabel, "totalParams")
    vocab = ("embeddings", "vocab_size")
    type_into(window.form.editor(vocab), "1e30")
    assert window.document.architecture.embeddings.vocab_size == 50_257
    assert window.document.report.total == 175_221_817_344
    assert "175,221,817,344" in headline.text()
    assert window.form.field_state(vocab) == "error"
    assert window.form.error_text(vocab) == "must be at most 16,777,216"
    assert window.form.editor(vocab).lineEdit().text() == "1,000,000,000,000,000,000,000,000,000,000"


def test_a_length_in_tokens_reads_k_as_1024(window: MainWindow, type_into: TypeInto) -> None:
    """A context or positions of '128k' is 131,072 tokens, as such lengths are named (a vocabulary's
    '32k' stays 32,000)."""
    positions = ("decoder", "max_positions")
    type_into(window.form.editor(positions), "128k")
    assert window.document.architecture.decoder.max_positions == 131_072  # type: ignore[union-attr]
    assert window.form.editor(positions).lineEdit().text() == "131,072"


@pytest.mark.parametrize(
    ("typed", "value", "shown"),
    [
        ("1e3", 1000, "1,000"),
        ("32k", 32_000, "32,000"),
        ("32Ki", 32_768, "32,768"),
        ("50,304", 50_304, "50,304"),
        ("50 304", 50_304, "50,304"),
        ("50_304", 50_304, "50,304"),
        ("0.1M", 100_000, "100,000"),
        ("5.0304e4", 50_304, "50,304"),
    ],
)
def test_a_count_is_typed_as_people_write_it(
    window: MainWindow, type_into: TypeInto, typed: str, value: int, shown: str
) -> None:
    editor = window.form.editor(("embeddings", "vocab_size"))
    type_into(editor, typed)
    assert window.document.architecture.embeddings.vocab_size == value
    assert editor.lineEdit().text() == shown
    assert window.form.field_state(("embeddings", "vocab_size")) != "error"


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("1.5", "'1.5' is not a whole number (1.5)"),
        ("1e-3", "'1e-3' is not a whole number (0.001)"),
        ("5e", "'5e': unknown suffix 'e' (it takes k, M, B, T; Ki, Mi, Gi, Ti)"),
        ("50,30", "'50,30': a comma separates thousands (1,500); a fraction takes a point (1.5)"),
        ("lots", "'lots' is not a number: type 32768, 32,768, 3.2e4 or 32k"),
        ("80GB", "'80GB': unknown suffix 'GB' (it takes k, M, B, T; Ki, Mi, Gi, Ti)"),
    ],
)
def test_text_that_is_no_number_stays_red_with_the_reason(
    window: MainWindow, type_into: TypeInto, typed: str, reason: str
) -> None:
    """Never replaced by another number; the figures stay the last valid model's."""
    vocab = ("embeddings", "vocab_size")
    editor = window.form.editor(vocab)
    type_into(editor, typed)
    assert editor.lineEdit().text() == typed
    assert window.form.field_state(vocab) == "error"
    assert window.form.error_text(vocab) == reason
    assert window.document.architecture.embeddings.vocab_size == 50_257
    # Another edit elsewhere leaves the text and its reason; a number read clears them.
    type_into(window.form.editor(("hidden_size",)), "6144")
    assert editor.lineEdit().text() == typed and window.form.field_state(vocab) == "error"
    type_into(editor, "50257")  # GPT-3's own: no edit, and no longer red (amber: not padded to 64)
    assert window.form.field_state(vocab) == "hint" and window.form.error_text(vocab) == ""
    assert editor.lineEdit().text() == "50,257"
