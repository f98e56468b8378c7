"""Under zh_CN, the refusals a person meets opening a file are said in Chinese (issue 35): a
config.json of an unknown model_type through File → Open…, a corrupt GGUF or safetensors file
through File → Open Folder…, a user preset renamed onto an existing one. Qt's real dialogs are
answered with keys and clicks (tests/gui/modals.py); ids, model_type names and paths stay."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from paramtally.core.io import presets, user_presets
from paramtally.core.io.model_sources import load_source
from paramtally.gui.document import Document
from paramtally.gui.i18n import install_language
from paramtally.gui.main_window import MainWindow
from paramtally.gui.notices import route_warnings_to
from paramtally.gui.presets import PresetsBrowser
from tests.gui.modals import Modals

QT_NOISE = ("does not support raise", "does not support grabbing the keyboard")


@pytest.fixture
def chinese() -> Iterator[None]:
    assert install_language("zh_CN")
    yield
    install_language("en")


@pytest.fixture
def zh_window(qtbot: QtBot, chinese: None) -> MainWindow:
    window = MainWindow(Document(load_source("gpt3-175b"), "gpt3-175b", preset_id="gpt3-175b"))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def _choose(modals: Modals, path: Path) -> None:
    """The next file dialog: ``path`` typed as the file name, then its accept button clicked
    (labelled in the window's language: 打开, 选择)."""

    def answer(dialog: QWidget) -> None:
        assert isinstance(dialog, QFileDialog), type(dialog).__name__
        modals.type_text(dialog, str(path), "fileNameEdit")
        box = dialog.findChild(QDialogButtonBox)
        accept = [b for b in box.buttons() if box.buttonRole(b) == QDialogButtonBox.ButtonRole.AcceptRole]
        modals.qtbot.mouseClick(accept[0], Qt.MouseButton.LeftButton)

    modals.expect(answer, f"file {path}")


def _refusal(modals: Modals, window: MainWindow, action_name: str, path: Path) -> tuple[str, str]:
    """``action_name`` triggered, ``path`` chosen, the refusal read and closed with Return:
    (its title, its text)."""
    action = window.findChild(QAction, action_name)
    assert action is not None and action in window.file_menu.actions()
    _choose(modals, path)
    modals.press(Qt.Key.Key_Return, "close the refusal")
    before = window.document.architecture
    action.trigger()
    modals.wait_done()
    assert modals.kinds == ["QFileDialog", "QMessageBox"]
    assert window.document.architecture is before  # the model stays
    return modals.seen[-1], modals.said[-1]


@pytest.mark.qt_log_ignore(*QT_NOISE)
def test_an_unknown_model_type_is_refused_in_chinese(
    zh_window: MainWindow, modals: Modals, tmp_path: Path
) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"model_type": "frobnicator", "hidden_size": 4096}), encoding="utf-8")
    title, said = _refusal(modals, zh_window, "actionOpen", config)
    assert title == "无法打开"
    assert said.startswith(f"{config}：不支持 model_type 'frobnicator'（最接近：")
    assert "再修改，或给出检查点文件夹以统计其权重" in said


@pytest.mark.qt_log_ignore(*QT_NOISE)
def test_a_missing_key_is_refused_in_chinese(zh_window: MainWindow, modals: Modals, tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"model_type": "llama", "hidden_size": "wide"}), encoding="utf-8")
    _, said = _refusal(modals, zh_window, "actionOpen", config)
    assert said == f"{config}：hidden_size 必须是正整数（实际为 'wide'）"


@pytest.mark.qt_log_ignore(*QT_NOISE)
def test_a_truncated_gguf_is_refused_in_chinese(
    zh_window: MainWindow, modals: Modals, tmp_path: Path
) -> None:
    (tmp_path / "m.gguf").write_bytes(b"GGUF\x03\x00\x00\x00\x05")  # version 3, then cut off
    _, said = _refusal(modals, zh_window, "actionOpenFolder", tmp_path)
    assert (
        said == "m.gguf：GGUF 文件头已损坏：一个字段在第 8 字节处需要 8 字节，超出了文件末尾（文件被截断？）"
    )


@pytest.mark.qt_log_ignore(*QT_NOISE)
def test_a_corrupt_safetensors_is_refused_in_chinese(
    zh_window: MainWindow, modals: Modals, tmp_path: Path
) -> None:
    (tmp_path / "model.safetensors").write_bytes((16).to_bytes(8, "little") + b'{"a":')
    _, said = _refusal(modals, zh_window, "actionOpenFolder", tmp_path)
    assert said == (
        "model.safetensors：不是有效的 safetensors 文件：文件头声称有 16 字节，但长度字段之后文件只有 5 字节"
    )


@pytest.mark.qt_log_ignore(*QT_NOISE)
def test_renaming_a_preset_onto_another_is_refused_in_chinese(
    qtbot: QtBot, chinese: None, modals: Modals
) -> None:
    gpt3 = presets.load_builtin("gpt3-175b")
    user_presets.save("mine-a", gpt3)
    taken = user_presets.save("mine-b", gpt3)
    browser = PresetsBrowser(Document(gpt3, "gpt3-175b", preset_id="gpt3-175b"))
    qtbot.addWidget(browser)
    browser.show()
    browser.presets.select("mine-a")

    def new_id(dialog: QWidget) -> None:
        modals.type_text(dialog, "mine-b")
        modals.qtbot.keyClick(dialog.findChild(QLineEdit), Qt.Key.Key_Return)

    modals.expect(new_id, "the new id")
    modals.press(Qt.Key.Key_Return, "close the refusal")
    assert not browser.ops.rename_selected()
    modals.wait_done()
    assert modals.seen[-1] == "无法重命名预设"
    assert modals.said[-1] == f"用户预设“mine-b”已存在（{taken}）"
    assert user_presets.user_ids() == ["mine-a", "mine-b"]


@pytest.mark.qt_log_ignore(*QT_NOISE)
@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (
            {"model_type": "gpt2", "add_cross_attention": True},
            "add_cross_attention 为 true：不支持交叉注意力块",
        ),
        (  # the layer types a family runs: ids kept, the 'or' between them said in Chinese
            {
                "model_type": "qwen3_next",
                "num_hidden_layers": 2,
                "layer_types": ["full_attention", "sliding_attention"],
            },
            "layer_types[1] 为 'sliding_attention'；qwen3_next 的层类型应为 "
            "full_attention 或 linear_attention（或旧名称 attention, mamba）",
        ),
        ({"model_type": "dbrx", "d_model": 100, "n_heads": 3}, "n_heads （3）必须整除 d_model（100）"),
    ],
    ids=["gpt2-cross-attention", "qwen3_next-layer-type", "dbrx-heads"],
)
def test_a_family_specific_value_is_refused_in_chinese(
    zh_window: MainWindow, modals: Modals, tmp_path: Path, data: dict[str, object], reason: str
) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps(data), encoding="utf-8")
    title, said = _refusal(modals, zh_window, "actionOpen", config)
    assert title == "无法打开"
    assert said == f"{config}：{reason}"


@pytest.mark.qt_log_ignore(*QT_NOISE)
def test_a_warning_met_opening_a_file_is_said_in_chinese_in_the_status_bar(
    zh_window: MainWindow, modals: Modals, tmp_path: Path
) -> None:
    """A mistral3 config.json without a top-level tie opens (read untied) with a notice."""
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"model_type": "mistral3"}), encoding="utf-8")
    action = zh_window.findChild(QAction, "actionOpen")
    assert action is not None
    _choose(modals, config)
    with warnings.catch_warnings():
        route_warnings_to(zh_window)
        action.trigger()
        modals.wait_done()
    assert zh_window.document.architecture.name == "mistral3 (config.json)"  # opened, not refused
    assert zh_window.last_error.startswith(f"{config}：顶层没有 tie_word_embeddings：按不绑定读取")
    assert "transformers 5.24 会将缺少该键的 mistral3 文件构建为绑定" in zh_window.last_error


def test_a_warning_met_reading_the_start_up_file_is_said_in_chinese_in_the_status_bar(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`paramtally config.json` under zh_CN: the notice given reading the file, before the window
    exists, is said in its status bar (not only on the terminal), in Chinese."""
    from paramtally.gui.app import build_parser, open_window
    from paramtally.gui.i18n import SYSTEM, set_language_setting

    monkeypatch.setattr(warnings, "showwarning", warnings.showwarning)  # the window routes them
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"model_type": "mistral3"}), encoding="utf-8")
    set_language_setting("zh_CN")
    try:
        with warnings.catch_warnings():
            window = open_window(build_parser().parse_args([str(config)]))
            assert isinstance(window, MainWindow)
            qtbot.addWidget(window)
        said = window.statusBar().currentMessage()
    finally:
        set_language_setting(SYSTEM)
        install_language("en")
    assert said.startswith(f"⚠ {config}：顶层没有 tie_word_embeddings：按不绑定读取"), said
