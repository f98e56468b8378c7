"""Issue 31, bug 3: a model opened in a running window keeps what the person typed in the scenario
(mode, GPUs, batch, dtypes), takes what follows from the model (its opening context) from the new
model, leaves the old model's refusals behind, and the status bar says in one line what was kept.

Every way of opening goes through the same rule: the built-in preset menu, the presets browser, a
file (Ctrl+O), a folder and Open Recent.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QWidget
from pytestqt.qtbot import QtBot

from paramtally.core.io.model_sources import load_source
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.scenario import Scenario
from paramtally.gui.main_window import MainWindow
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals, give_focus
from tests.gui.views_support import click_tab, preset_window

LLAMA_CONTEXT = 4096  # `paramtally memory llama-3-8b` and a fresh `--preset llama-3-8b` serve 4,096 tokens


def _file_menu(qtbot: QtBot, window: MainWindow) -> None:
    """Alt+F from the form: the File menu opens (the queued answers then drive it)."""
    give_focus(qtbot, window.form.editor(("hidden_size",)))
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)


def _open_builtin(qtbot: QtBot, window: MainWindow, modals: Modals, preset_id: str, save: str = "") -> None:
    """File → Open Built-in Preset → ``preset_id`` (→ ``save`` in "Save changes?")."""
    modals.press(Qt.Key.Key_B)  # Open &Built-in Preset
    modals.choose(preset_id)
    if save:
        modals.click(save)
    _file_menu(qtbot, window)
    modals.wait_done()


def _typed_on_gpt3(qtbot: QtBot, window: MainWindow, type_into: TypeInto) -> None:
    """On GPT-3 (context 2,048, its positions): 8 GPUs, batch 4, KV cache fp8, then a refused batch 0."""
    click_tab(qtbot, window, "Memory and GPU fit")
    controls = window.memory.controls
    type_into(controls.editors["gpus"], "8")
    type_into(controls.editors["batch"], "4")
    kv = controls.editors["kv_dtype"]
    kv.setFocus()
    qtbot.keyClicks(kv, "fp8")  # the combo box's type-ahead, as a person picks from the keyboard
    scenario = window.document.scenario
    assert (scenario.gpus, scenario.tp, scenario.batch, scenario.kv_dtype) == (8, 8, 4, "fp8")
    assert scenario.context == 2048
    type_into(controls.editors["batch"], "0")  # refused: red, "Not applied: Batch 0"
    assert controls.field_state("batch") == "error" and "Not applied: Batch 0" in window.memory.problem.text()


def test_a_built_in_preset_keeps_the_typed_scenario_and_takes_its_own_context(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto, modals: Modals
) -> None:
    """The QA steps: GPT-3, File → Open Built-in Preset → llama-3-8b → Don't Save. Context was kept
    at GPT-3's 2,048 (16.4 GiB, where the CLI says 16.6), and the red 'Batch 0' came along."""
    _typed_on_gpt3(qtbot, window, type_into)
    _open_builtin(qtbot, window, modals, "llama-3-8b", save="Don't Save")
    document, controls = window.document, window.memory.controls
    assert document.architecture.name == "Llama-3-8B"
    expected = Scenario(context=LLAMA_CONTEXT, gpus=8, tp=8, batch=4, kv_dtype="fp8")
    assert document.scenario == expected
    llama = estimate_memory(load_source("llama-3-8b"), expected)
    assert document.memory is not None and document.memory.total_bytes == llama.total_bytes
    # The old model's refusal stays behind: no red field, no "Not applied", the field shows 4.
    assert not document.scenario_drafts and controls.field_state("batch") == ""
    assert not window.memory.problem.isVisible() and controls.editors["batch"].lineEdit().text() == "4"
    assert controls.editors["context"].lineEdit().text() == "4,096"
    said = window.statusBar().currentMessage()
    assert "\n" not in said and "Llama-3-8B" in said, said
    assert "kept KV cache dtype fp8, Batch 4, Tensor parallel 8, GPUs 8; Context 4,096 from the model" in said


def test_a_context_typed_by_the_person_is_kept_and_said(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto, modals: Modals
) -> None:
    """A context the person typed is theirs: it carries over like the batch (the model's own, the
    2,048 GPT-3 opens with, does not)."""
    click_tab(qtbot, window, "Memory and GPU fit")
    type_into(window.memory.controls.editors["context"], "8192")
    _open_builtin(qtbot, window, modals, "llama-3-8b", save="Don't Save")
    assert window.document.scenario == Scenario(context=8192)
    assert "kept Context 8,192" in window.statusBar().currentMessage()


def test_nothing_typed_opens_as_a_fresh_window_would(
    qtbot: QtBot, window: MainWindow, modals: Modals
) -> None:
    click_tab(qtbot, window, "Memory and GPU fit")
    _open_builtin(qtbot, window, modals, "llama-3-8b")  # nothing changed: no question
    assert window.document.scenario == Scenario(context=LLAMA_CONTEXT)
    said = window.statusBar().currentMessage()
    assert said.endswith("Llama-3-8B — scenario: Context 4,096 from the model"), said


def test_training_typed_carries_to_a_file_opened_with_ctrl_o(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto, modals: Modals, tmp_path: Path
) -> None:
    """Ctrl+O on a config.json: the mode and the weights' dtype typed go with it; a context the
    model cannot start at (GPT-2's 1,024 positions) is the model's."""
    config = tmp_path / "config.json"
    config.write_text(
        json.dumps(
            {
                "model_type": "gpt2",
                "architectures": ["GPT2LMHeadModel"],
                "n_embd": 768,
                "n_head": 12,
                "n_layer": 12,
                "n_positions": 1024,
                "vocab_size": 50257,
            }
        ),
        encoding="utf-8",
    )
    click_tab(qtbot, window, "Memory and GPU fit")
    controls = window.memory.controls
    mode = controls.editors["mode"]
    mode.setFocus()
    qtbot.keyClicks(mode, "training")
    dtype = controls.editors["dtype"]
    dtype.setFocus()
    qtbot.keyClicks(dtype, "fp16")
    assert (window.document.scenario.mode, window.document.scenario.dtype) == ("training", "fp16")

    def open_config(dialog: QWidget) -> None:
        assert isinstance(dialog, QFileDialog)
        modals.type_text(dialog, str(config), "fileNameEdit")
        modals.click_button(dialog, "Open")

    modals.click("Don't Save")
    modals.expect(open_config)
    give_focus(qtbot, window.form.editor(("hidden_size",)))
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done()
    assert window.document.architecture.hidden_size == 768
    assert window.document.scenario == Scenario(mode="training", dtype="fp16", context=1024)
    said = window.statusBar().currentMessage()
    assert said.endswith("kept Mode training, Weight dtype fp16; Context 1,024 from the model"), said


def _open_in_browser(qtbot: QtBot, window: MainWindow, preset_id: str) -> None:
    """Ctrl+P (unless the browser is out), type the id into the filter, click its row and Open."""
    browser = window.presets_browser
    if not browser.isVisible():
        give_focus(qtbot, window.form.editor(("hidden_size",)))
        qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(browser.isVisible)
    browser.presets.filter.setFocus()
    browser.presets.filter.selectAll()
    qtbot.keyClicks(browser.presets.filter, preset_id)
    view = browser.presets.list
    row = next(item for item in browser.presets.items() if not item.isHidden())
    rect = view.visualItemRect(row)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseClick(browser.buttons["Open"], Qt.MouseButton.LeftButton)


def test_user_presets_from_the_browser_and_open_recent_follow_the_same_rule(
    qtbot: QtBot, type_into: TypeInto, modals: Modals
) -> None:
    """A user preset imported without a scenario carries the typed one over; a preset saved with
    its scenario brings that back (the person saved it with the model), said so; Open Recent is
    a way of opening like the others."""
    from paramtally.core.io import user_presets
    from paramtally.core.io.presets import load_builtin

    user_presets.save("plain-llama", load_builtin("llama-3-8b"))
    saved = Scenario(batch=16).model_dump(mode="json")
    user_presets.save("saved-mistral", load_builtin("mistral-7b-v0.1"), scenario=saved)
    window = preset_window(qtbot, "gpt3-175b")  # started after the presets were saved, as a person would
    click_tab(qtbot, window, "Memory and GPU fit")
    type_into(window.memory.controls.editors["batch"], "4")
    modals.click("Don't Save")
    _open_in_browser(qtbot, window, "plain-llama")
    modals.wait_done()
    assert window.document.preset_id == "plain-llama"
    assert window.document.scenario == Scenario(batch=4, context=LLAMA_CONTEXT)
    assert window.statusBar().currentMessage() == (
        "Opened plain-llama: Llama-3-8B — scenario: kept Batch 4; Context 4,096 from the model"
    )
    _open_in_browser(qtbot, window, "saved-mistral")
    assert window.document.scenario == Scenario(batch=16)
    assert window.statusBar().currentMessage().endswith("— scenario as saved with it")

    # File → Open Recent → plain-llama: the batch typed over Mistral's saved scenario goes along.
    type_into(window.memory.controls.editors["batch"], "2")
    modals.press(Qt.Key.Key_R)  # Open &Recent
    modals.expect(lambda menu: modals.click_action(menu, "2 plain-llama"), "Open Recent → plain-llama")
    modals.click("Don't Save")
    _file_menu(qtbot, window)
    modals.wait_done()
    assert window.document.preset_id == "plain-llama"
    assert window.document.scenario == Scenario(batch=2, context=LLAMA_CONTEXT)
    said = window.statusBar().currentMessage()
    assert said.endswith("scenario: kept Batch 2; Context 4,096 from the model"), said


def test_a_saved_scenario_skipped_at_start_is_said_in_the_status_bar(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The form's advice judges the scenario saved with the model the window starts with (issue 32:
    reads announce nothing, so they judge it whole): the notice of one skipped, given while the
    window is made, is said in its status bar, not on the terminal."""
    from paramtally.core.io.presets import dump_preset, load_builtin
    from paramtally.gui.app import build_parser, open_window

    monkeypatch.setattr(warnings, "showwarning", warnings.showwarning)  # the window routes them
    data = json.loads(dump_preset(load_builtin("gpt2"))) | {"scenario": {"gpus": 8, "gpu": "NoSuchGPU"}}
    source = tmp_path / "model.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    with warnings.catch_warnings():
        window = open_window(build_parser().parse_args([str(source)]))
        assert isinstance(window, MainWindow)
        qtbot.addWidget(window)
    said = window.statusBar().currentMessage()
    assert f"⚠ {source.name}: the saved scenario was skipped (scenario.gpu: unknown GPU 'NoSuchGPU'" in said
    assert window.document.scenario == Scenario(context=1024, gpus=1)  # the one GPT-2 opens with


def test_an_encoder_alone_hides_the_decoder_s_fields_and_gpt3_gets_them_back(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto, modals: Modals
) -> None:
    """GPT-3's memory tab offers the KV cache's dtype, the generated tokens and use_cache; RoBERTa (an
    encoder alone: no KV cache, no decoding) does not. Its status line names none of them; the fp8
    and 256 typed on GPT-3 come back with it, through the presets browser, shown in their fields."""
    decoder_only = ("kv_dtype", "generated")
    click_tab(qtbot, window, "Memory and GPU fit")
    controls = window.memory.controls
    editors, labels = controls.editors, controls.labels
    assert all(editors[name].isVisible() and labels[name].isVisible() for name in decoder_only)
    kv = editors["kv_dtype"]
    kv.setFocus()
    qtbot.keyClicks(kv, "fp8")  # the combo box's type-ahead, as a person picks from the keyboard
    type_into(editors["generated"], "256")
    assert (window.document.scenario.kv_dtype, window.document.scenario.generated) == ("fp8", 256)

    _open_builtin(qtbot, window, modals, "roberta-base", save="Don't Save")
    assert window.document.architecture.name == "RoBERTa-base"
    qtbot.waitUntil(lambda: not any(editors[name].isVisible() for name in decoder_only))
    assert not any(labels[name].isVisible() for name in decoder_only)
    assert editors["context"].isVisible() and editors["batch"].isVisible()
    assert (window.document.scenario.kv_dtype, window.document.scenario.generated) == ("fp8", 256)  # kept
    said = window.statusBar().currentMessage()
    assert "KV" not in said and "Generated" not in said, said
    # Training: use_cache (Hugging Face's KV cache) is not offered either; the optimizer is.
    mode = editors["mode"]
    mode.setFocus()
    qtbot.keyClicks(mode, "training")
    qtbot.waitUntil(lambda: editors["optimizer"].isVisible())
    assert not editors["use_cache"].isVisible() and not editors["kv_dtype"].isVisible()
    qtbot.keyClick(mode, Qt.Key.Key_Up)  # back to inference
    qtbot.waitUntil(lambda: not editors["optimizer"].isVisible())

    _open_in_browser(qtbot, window, "gpt3-175b")  # the mode back where RoBERTa opened: nothing to save
    assert window.document.architecture.name == "GPT-3 175B"
    qtbot.waitUntil(lambda: all(editors[name].isVisible() for name in decoder_only))
    assert all(labels[name].isVisible() for name in decoder_only)
    assert kv.currentText() == "fp8" and editors["generated"].lineEdit().text() == "256"
    assert "kept KV cache dtype fp8, Generated tokens 256" in window.statusBar().currentMessage()
