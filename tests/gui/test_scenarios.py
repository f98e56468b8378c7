"""Issue 11's scenarios, end to end in the main window: typed keys, clicks, real menus and dialogs.

Each test drives the window as a person does and checks what the window then shows; the
figures it expects come from the core on the same edits. Dialogs and menus are the real ones,
answered with key and mouse events (tests/gui/modals.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QLabel, QLineEdit, QListWidgetItem, QWidget
from pytestqt.qtbot import QtBot

from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing import layer_ops
from paramtally.core.editing.edits import with_values
from paramtally.core.io import user_presets
from paramtally.core.io.model_sources import load_source
from paramtally.core.io.recent import recent_sources
from paramtally.core.schema import Adapter, LoRA, MoE
from paramtally.gui.app import build_parser, open_window
from paramtally.gui.main_window import MainWindow
from paramtally.gui.presets import ID_ROLE, ORIGIN_ROLE, PresetsBrowser
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals, give_focus, right_click_row
from tests.gui.views_support import click_tab

ROOT = Path(__file__).resolve().parents[2]
LLAMA = ROOT / "tests" / "data" / "hf_configs" / "llama-2-7b.json"
GOLDEN = json.loads((ROOT / "tests" / "golden" / "presets.json").read_text())


def _headline(window: MainWindow) -> str:
    return window.findChild(QLabel, "totalParams").text()


def _red(window: MainWindow, path: str) -> bool:
    return window.form.field_state(path) == "error"


def test_c_invalid_values_stay_while_another_field_is_edited(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto
) -> None:
    """GPT-3 → hidden 8192 (red, kept) → heads 64: both apply together; undo steps back."""
    doc, form = window.document, window.form
    gpt3 = load_source("gpt3-175b")
    type_into(form.editor(("hidden_size",)), "8192")
    assert form.editor(("hidden_size",)).lineEdit().text() == "8,192" and _red(window, ("hidden_size",))
    assert "not a multiple of the 96 heads" in form.error_text(("hidden_size",))
    assert f"{count_parameters(gpt3).total:,}" in _headline(window)  # the last valid figures stay
    status = window.problem_status.text()
    assert status.startswith("⚠ Hidden size: the hidden size (8,192)")
    window.statusBar().showMessage("a passing message", 30)  # bug 8: the line outlived such messages
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == "")
    assert window.problem_status.text() == status and window.problem_status.isVisible()
    type_into(form.editor(("blocks", "default", "mixer", "num_heads")), "64")
    expected = count_parameters(
        with_values(gpt3, {("hidden_size",): 8192, ("blocks", "default", "mixer", "num_heads"): 64})
    )
    assert (doc.architecture.hidden_size, doc.architecture.blocks["default"].mixer.num_heads) == (8192, 64)
    assert doc.report.total == expected.total and f"{expected.total:,}" in _headline(window)
    assert not _red(window, ("hidden_size",)) and not _red(
        window, ("blocks", "default", "mixer", "num_heads")
    )
    assert form.error_text(("hidden_size",)) == "" and window.problem_status.text() == ""
    assert doc.drafts == {}
    # One undo step for the combination; the step before it is the typed 8192, kept red.
    assert window.undo_action.text() == "&Undo Set Blocks › default › Mixer › Heads, Hidden size"
    window.undo_action.trigger()
    assert doc.architecture == gpt3 and doc.drafts == {("hidden_size",): 8192}
    assert form.editor(("hidden_size",)).lineEdit().text() == "8,192" and _red(window, ("hidden_size",))
    assert form.editor(("blocks", "default", "mixer", "num_heads")).value() == 96
    window.undo_action.trigger()
    assert doc.architecture == gpt3 and doc.drafts == {} and not _red(window, ("hidden_size",))
    assert form.editor(("hidden_size",)).lineEdit().text() == "12,288"


def test_c_kv_heads_stay_red_while_the_vocabulary_changes(window: MainWindow, type_into: TypeInto) -> None:
    doc, form = window.document, window.form
    type_into(form.editor(("blocks", "default", "mixer", "num_kv_heads")), "5")
    assert _red(window, ("blocks", "default", "mixer", "num_kv_heads"))
    type_into(form.editor(("embeddings", "vocab_size")), "50,304")
    expected = count_parameters(with_values(load_source("gpt3-175b"), {("embeddings", "vocab_size"): 50304}))
    assert doc.architecture.embeddings.vocab_size == 50304
    assert f"{expected.total:,}" in _headline(window)
    assert (
        form.editor(("blocks", "default", "mixer", "num_kv_heads")).lineEdit().text() == "5"
    )  # not back to "auto"
    assert _red(window, ("blocks", "default", "mixer", "num_kv_heads"))
    assert (
        form.error_text(("blocks", "default", "mixer", "num_kv_heads"))
        == "KV heads (5) must divide the query heads (96)"
    )
    assert (
        window.problem_status.text()
        == "⚠ Blocks › default › Mixer › KV heads: KV heads (5) must divide the query heads (96)"
    )
    # 8 divides 96: the field turns valid, the status line goes, the model follows.
    type_into(form.editor(("blocks", "default", "mixer", "num_kv_heads")), "8")
    assert doc.architecture.blocks["default"].mixer.num_kv_heads == 8 and doc.drafts == {}
    assert (
        not _red(window, ("blocks", "default", "mixer", "num_kv_heads"))
        and window.problem_status.text() == ""
    )


def test_e_ctrl_z_right_after_enter_undoes_that_edit(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto
) -> None:
    doc, form = window.document, window.form
    gpt3 = load_source("gpt3-175b")
    window.activateWindow()
    heads = form.editor(("blocks", "default", "mixer", "num_heads"))
    type_into(heads, "64")  # Enter; the focus stays in the field
    assert doc.architecture.blocks["default"].mixer.num_heads == 64 and heads.hasFocus()
    qtbot.keyClick(heads.lineEdit(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.architecture == gpt3 and heads.lineEdit().text() == "96"
    assert f"{count_parameters(gpt3).total:,}" in _headline(window)
    redo = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(heads.lineEdit(), Qt.Key.Key_Z, redo)
    assert doc.architecture.blocks["default"].mixer.num_heads == 64 and heads.lineEdit().text() == "64"
    ctrl_z = Qt.KeyboardModifier.ControlModifier
    # A refused value, then Ctrl+Z: the typed value is what goes.
    type_into(heads, "100")
    assert _red(window, ("blocks", "default", "mixer", "num_heads")) and doc.drafts == {
        ("blocks", "default", "mixer", "num_heads"): 100
    }
    qtbot.keyClick(heads.lineEdit(), Qt.Key.Key_Z, ctrl_z)
    assert doc.drafts == {} and not _red(window, ("blocks", "default", "mixer", "num_heads"))
    assert heads.lineEdit().text() == "64" and doc.architecture.blocks["default"].mixer.num_heads == 64
    # Typing without Enter, then Ctrl+Z: the typing is undone, the model keeps its last edit.
    heads.lineEdit().selectAll()
    qtbot.keyClicks(heads.lineEdit(), "128")
    qtbot.keyClick(heads.lineEdit(), Qt.Key.Key_Z, ctrl_z)
    assert heads.lineEdit().text() == "64" and doc.architecture.blocks["default"].mixer.num_heads == 64
    # The same in a text field: the model's name.
    name = form.editor(("name",))
    type_into(name, "My GPT")
    assert doc.architecture.name == "My GPT"
    qtbot.keyClick(name, Qt.Key.Key_Z, ctrl_z)
    assert doc.architecture.name == "GPT-3 175B" and name.text() == "GPT-3 175B"


def _row_of(browser: PresetsBrowser, preset_id: str, origin: str) -> QListWidgetItem:
    return next(
        item
        for item in browser.presets.items()
        if item.data(ID_ROLE) == preset_id and item.data(ORIGIN_ROLE) == origin
    )


def _click_row(
    qtbot: QtBot, browser: PresetsBrowser, preset_id: str, origin: str, double: bool = False
) -> None:
    view = browser.presets.list
    item = _row_of(browser, preset_id, origin)
    view.scrollToItem(item)
    center = view.visualItemRect(item).center()
    click = qtbot.mouseDClick if double else qtbot.mouseClick
    if double:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=center)
    click(view.viewport(), Qt.MouseButton.LeftButton, pos=center)


def _highlighted(browser: PresetsBrowser) -> list[str]:
    return [item.data(ID_ROLE) for item in browser.presets.list.selectedItems()]


def _type_scenario(qtbot: QtBot, window: MainWindow, type_into: TypeInto, field: str, text: str) -> None:
    click_tab(qtbot, window, "Memory and GPU fit")
    type_into(window.findChild(QWidget, f"scenario.{field}"), text)


def test_g_save_rename_delete_presets_and_restart(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto, modals: Modals
) -> None:
    doc, browser = window.document, window.presets_browser
    give_focus(qtbot, window.form.editor(("hidden_size",)))
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)  # File → Browse Presets
    assert window.presets_dock.isVisible() and _highlighted(browser) == ["gpt3-175b"]
    # Edit the model and its scenario, then Save As with a display name and an id.
    type_into(window.form.editor(("blocks", "default", "ffn", "width")), "32768")
    _type_scenario(qtbot, window, type_into, "context", "8192")
    _type_scenario(qtbot, window, type_into, "gpus", "8")
    assert (doc.scenario.context, doc.scenario.gpus) == (8192, 8)

    def save_as(dialog: QWidget) -> None:
        assert dialog.findChild(QLineEdit, "presetName").text() == "GPT-3 175B (custom)"
        modals.type_text(dialog, "Narrow GPT", "presetName")
        assert dialog.findChild(QLineEdit, "presetId").text() == "narrow-gpt"  # follows the name
        qtbot.keyClick(dialog, Qt.Key.Key_S, Qt.KeyboardModifier.AltModifier)  # Alt+S: &Save

    modals.expect(save_as)
    give_focus(qtbot, window.form.editor(("hidden_size",)))
    qtbot.keyClick(
        window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert window.windowTitle() == "narrow-gpt[*] — ParamTally" and not window.isWindowModified()
    assert _highlighted(browser) == ["narrow-gpt"] and doc.architecture.name == "Narrow GPT"
    saved = user_presets.load_preset("narrow-gpt")
    assert saved.architecture == doc.architecture
    assert saved.scenario is not None and (saved.scenario["context"], saved.scenario["gpus"]) == (8192, 8)
    assert _row_of(browser, "narrow-gpt", "user").text().startswith("narrow-gpt  —  Narrow GPT")
    # Another preset, opened from the browser by a double-click: its row is the highlighted one.
    _click_row(qtbot, browser, "llama-3-8b", "builtin", double=True)
    assert doc.preset_id == "llama-3-8b" and _highlighted(browser) == ["llama-3-8b"]
    assert window.windowTitle() == "llama-3-8b[*] — ParamTally"
    _type_scenario(qtbot, window, type_into, "context", "1024")
    # Rename acts on the row clicked (not on the open model), through the real id dialog.
    _click_row(qtbot, browser, "narrow-gpt", "user")
    modals.type_and_click("narrow-gpt-2", "OK")
    qtbot.mouseClick(browser.buttons["Rename…"], Qt.MouseButton.LeftButton)
    assert user_presets.user_ids() == ["narrow-gpt-2"] and doc.preset_id == "llama-3-8b"
    # Opening it brings its scenario back (discarding the unsaved context change first).
    modals.click("Don't Save")
    _click_row(qtbot, browser, "narrow-gpt-2", "user", double=True)
    assert doc.architecture == saved.architecture and (doc.scenario.context, doc.scenario.gpus) == (8192, 8)
    expected = count_parameters(saved.architecture).total
    assert f"{expected:,}" in _headline(window)
    # A restart reopens it, scenario and all.
    window.close()
    again = open_window(build_parser().parse_args([]))
    assert isinstance(again, MainWindow)
    qtbot.addWidget(again)
    again.load_views()
    assert again.document.preset_id == "narrow-gpt-2" and again.document.architecture == saved.architecture
    assert (again.document.scenario.context, again.document.scenario.gpus) == (8192, 8)
    assert again.windowTitle() == "narrow-gpt-2[*] — ParamTally"
    # Delete it from the restarted window's browser, after its question.
    again.show()
    again.presets_dock.show()
    _click_row(qtbot, again.presets_browser, "narrow-gpt-2", "user")
    modals.click("Yes")
    qtbot.mouseClick(again.presets_browser.buttons["Delete…"], Qt.MouseButton.LeftButton)
    assert user_presets.user_ids() == [] and "narrow-gpt-2" not in recent_sources()
    assert modals.seen == ["Save preset as", "Rename preset", "Save changes?", "Delete preset?"]


def test_i_open_a_config_json_through_file_open_and_open_recent(
    qtbot: QtBot, window: MainWindow, modals: Modals
) -> None:
    doc = window.document
    folder = LLAMA.parent
    first_folder: list[str] = []

    def open_llama(dialog: QWidget) -> None:
        assert isinstance(dialog, QFileDialog)
        first_folder.append(dialog.directory().absolutePath())
        modals.type_text(dialog, str(LLAMA), "fileNameEdit")
        modals.click_button(dialog, "Open")

    modals.expect(open_llama)
    give_focus(qtbot, window.form.editor(("hidden_size",)))
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    assert doc.report.total == GOLDEN["llama-2-7b"]["total"] and f"{doc.report.total:,}" in _headline(window)
    assert window.windowTitle() == "llama-2-7b.json[*] — ParamTally" and doc.preset_id is None
    assert window.form.editor(("hidden_size",)).value() == 4096 and not window.isWindowModified()
    assert recent_sources()[0] == str(LLAMA)

    def open_qwen_by_name(dialog: QWidget) -> None:  # the dialog opens where the last file was
        assert isinstance(dialog, QFileDialog) and dialog.directory().absolutePath() == str(folder)
        modals.type_text(dialog, "qwen3-8b.json", "fileNameEdit")
        modals.click_button(dialog, "Open")

    modals.expect(open_qwen_by_name)
    give_focus(qtbot, window.form.editor(("hidden_size",)))
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    assert doc.architecture.family == "qwen3" and doc.report.total == GOLDEN["qwen3-8b"]["total"]
    # File → Open Recent → the second entry: LLaMA-2 again, through the real menus.
    modals.press(Qt.Key.Key_R)  # Open &Recent
    modals.choose(f"2 {LLAMA}")
    give_focus(qtbot, window.form.editor(("hidden_size",)))
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)
    modals.wait_done()  # menu-bar menus do not block: wait for the answers to be given
    assert doc.report.total == GOLDEN["llama-2-7b"]["total"]
    assert first_folder and first_folder[0] != str(folder)


def test_a_recent_file_that_is_gone_is_said_in_a_dialog_that_offers_to_forget_it(
    qtbot: QtBot, window: MainWindow, modals: Modals, tmp_path: Path
) -> None:
    moved = tmp_path / "my-llama.json"
    moved.write_text(LLAMA.read_text())
    assert window.open_source(str(moved)) and recent_sources()[0] == str(moved)
    window.open_source("gpt3-175b")
    moved.unlink()  # the file moved away since
    headline = _headline(window)

    def open_the_gone_file(answer: str) -> None:
        modals.press(Qt.Key.Key_R)  # File → Open &Recent
        modals.choose(f"2 {moved}")
        modals.click(answer)  # "… Remove it from Open Recent?"
        give_focus(qtbot, window.form.editor(("hidden_size",)))
        qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)
        modals.wait_done()

    open_the_gone_file("No")
    assert "my-llama.json" in modals.said[-1] and modals.said[-1].endswith("Remove it from Open Recent?")
    assert str(moved) in recent_sources() and _headline(window) == headline  # GPT-3 stays open
    open_the_gone_file("Yes")
    assert recent_sources() == ["gpt3-175b"] and _headline(window) == headline


def test_a_headline_of_the_start_model_and_of_presets_opened_from_the_menu(
    qtbot: QtBot, modals: Modals
) -> None:
    window = open_window(build_parser().parse_args([]))  # as `paramtally` starts: no model named
    assert isinstance(window, MainWindow)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.load_views()
    assert "175,221,817,344" in _headline(window)  # GPT-3 175B, with biases
    assert window.windowTitle() == "gpt3-175b[*] — ParamTally"
    for preset_id in ("llama-3-8b", "mixtral-8x7b"):
        modals.press(Qt.Key.Key_B)  # File → Open &Built-in Preset
        modals.choose(preset_id)
        give_focus(qtbot, window.form.editor(("hidden_size",)))
        qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)
        modals.wait_done()
        golden = GOLDEN[preset_id]
        assert window.document.report.total == golden["total"]
        assert f"{golden['total']:,}" in _headline(window)
        assert window.windowTitle() == f"{preset_id}[*] — ParamTally"
    assert f"{GOLDEN['mixtral-8x7b']['active']:,}" in _headline(window)  # MoE: active per token too
    assert GOLDEN["mixtral-8x7b"]["active"] < GOLDEN["mixtral-8x7b"]["total"]


def test_b_typing_into_fields_updates_every_figure(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto
) -> None:
    doc, form = window.document, window.form
    type_into(form.editor(("hidden_size",)), "8,192")  # heads 96 do not divide it: kept, red
    type_into(form.editor(("blocks", "default", "mixer", "num_heads")), "64")
    type_into(form.editor(("blocks", "default", "mixer", "num_kv_heads")), "8")
    type_into(form.editor(("embeddings", "vocab_size")), "128256")
    type_into(form.editor(("blocks", "default", "ffn", "width")), "28672")
    type_into(form.editor(("decoder", "num_layers")), "80")
    box = form.editor(("blocks", "default", "mixer", "q_bias"))
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Space)  # off
    kind = form.editor(("blocks", "default", "norms", "kind"))
    kind.setFocus()
    qtbot.keyClick(kind, Qt.Key.Key_Down)  # layernorm → rmsnorm
    expected_arch = with_values(
        load_source("gpt3-175b"),
        {
            ("hidden_size",): 8192,
            ("blocks", "default", "mixer", "num_heads"): 64,
            ("blocks", "default", "mixer", "num_kv_heads"): 8,
            ("embeddings", "vocab_size"): 128256,
            ("blocks", "default", "ffn", "width"): 28672,
            ("decoder", "num_layers"): 80,
            ("blocks", "default", "mixer", "q_bias"): False,
            ("blocks", "default", "norms", "kind"): "rmsnorm",
        },
    )
    expected = count_parameters(expected_arch)
    assert doc.architecture == expected_arch and doc.drafts == {}
    assert f"{expected.total:,}" in _headline(window)
    tree = window.tree.tree_model
    assert tree.data(tree.group_index(0)) == "layers 0–79 (dense)"
    assert tree.data(tree.group_index(0), Qt.ItemDataRole.UserRole) == sum(
        row.params for row in expected.layers
    )
    assert not any(_red(window, path) for path in window.form._rows)
    assert doc.undo_stack.count() == 8  # one step per field (hidden size went in with the heads)


def test_d_split_moe_lora_adapter_through_the_real_menus_and_dialogs(
    qtbot: QtBot, window: MainWindow, modals: Modals
) -> None:
    tree, doc = window.tree, window.document
    model = tree.tree_model

    def fill(values: dict[str, str], button: str = "OK") -> Callable[[QWidget], None]:
        def answer(dialog: QWidget) -> None:
            for name, text in values.items():
                editor = dialog.findChild(QWidget, name)
                line = editor.lineEdit() if hasattr(editor, "lineEdit") else editor
                line.setFocus()
                line.selectAll()
                qtbot.keyClicks(line, text)
            modals.click_button(dialog, button)

        return answer

    modals.choose("Split at layer…")  # right-click → menu → the split dialog
    modals.type_and_click("72", "OK")
    right_click_row(qtbot, tree, model.group_index(0), modals)
    modals.choose("Convert FFN to MoE…")  # second group: 8 experts of 12,288, top-2
    modals.expect(fill({"num_experts": "8", "top_k": "2", "expert_width": "12288"}))
    right_click_row(qtbot, tree, model.group_index(1), modals)
    tree.setCurrentIndex(model.group_index(0))
    give_focus(qtbot, tree)
    modals.choose("Add LoRA…")  # Menu key on the first group
    modals.expect(fill({"rank": "16"}))
    qtbot.keyClick(tree, Qt.Key.Key_Menu)
    modals.choose("Add adapter…")  # Shift+F10 on the first group
    modals.expect(fill({"width": "512"}))
    tree.setCurrentIndex(model.group_index(0))
    give_focus(qtbot, tree)
    qtbot.keyClick(tree, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    gpt3 = load_source("gpt3-175b")
    layers = layer_ops.split_group(gpt3.decoder.layers, 0, 72)
    # Experts like GPT-3's FFN (two matrices, GELU, biases): the dialog starts from the FFN converted.
    moe = MoE(
        num_experts=8, top_k=2, expert_width=12288, gated=False, activation="gelu_new", expert_bias=True
    )
    layers = layer_ops.set_moe(layers, 1, moe)
    layers = layer_ops.set_lora(layers, 0, LoRA(rank=16))
    layers = layer_ops.set_adapter(layers, 0, Adapter(width=512))
    expected = count_parameters(layer_ops.with_layers(gpt3, layers))
    # The same layers, whatever the overrides spell out (the tree writes only what differs).
    assert [(run.start, run.count, run.block) for run in doc.architecture.runs] == [
        (run.start, run.count, run.block) for run in layer_ops.with_layers(gpt3, layers).runs
    ]
    assert (doc.report.total, doc.report.active, doc.report.added) == (
        expected.total,
        expected.active,
        expected.added,
    )
    assert f"{expected.total:,}" in _headline(window) and f"{expected.active:,}" in _headline(window)
    assert model.data(model.group_index(1)) == "layers 72–95 (MoE)"
    assert [model.data(model.find(("decoder", "layers", 0), part)) for part in ("lora", "adapter")] == [
        "LoRA — Rank 16",
        "Adapter — Bottleneck 512",
    ]
    assert doc.undo_stack.count() == 4
    assert modals.seen[-1] == "Add adapter"
