"""The preset browser, driven as a person would, its real dialogs answered with keys and clicks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QTextLayout, QTextOption
from PySide6.QtWidgets import (
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QStyle,
    QWidget,
)
from pytestqt.qtbot import QtBot

from paramtally.core.cli import main as cli_main
from paramtally.core.io import presets, user_presets
from paramtally.core.io.model_sources import read_source
from paramtally.gui.document import Document
from paramtally.gui.presets import ID_ROLE, PresetsBrowser, add_preset_actions
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals

ROOT = Path(__file__).resolve().parents[2]


class Dialogs:
    """Answers for the real dialogs the browser opens, and a record of what they said.

    Each answer is queued before the action that opens the dialog, and given with key and
    mouse events on the dialog itself (tests/gui/modals.py); nothing is replaced.
    """

    def __init__(self, modals: Modals) -> None:
        self.modals = modals
        self.asked: list[str] = []  # "title text" of every question answered
        self.warnings: list[str] = []
        self.suggested: list[str] = []  # what an id or Save As dialog offered before typing

    def answer(self, button: str) -> None:
        """A question (Save / Don't Save / Cancel, Yes / No): click ``button``."""

        def click(dialog: QWidget) -> None:
            assert isinstance(dialog, QMessageBox), dialog
            assert all("&" in one.text() for one in dialog.buttons())  # Alt mnemonics on every button
            self.asked.append(f"{dialog.windowTitle()} {dialog.text()}")
            self.modals.click_button(dialog, button)

        self.modals.expect(click, f"answer {button}")

    def warning(self) -> None:
        def ok(dialog: QWidget) -> None:
            assert isinstance(dialog, QMessageBox), dialog
            self.warnings.append(dialog.text())
            self.modals.click_button(dialog, "OK")

        self.modals.expect(ok, "warning")

    def preset_id(self, text: str) -> None:
        """An id dialog (Rename, Duplicate, Import): type ``text`` over the suggestion, OK."""

        def answer(dialog: QWidget) -> None:
            self.suggested.append(dialog.findChild(QLineEdit).text())
            self.modals.type_text(dialog, text)
            self.modals.click_button(dialog, "OK")

        self.modals.expect(answer, f"id {text}")

    def save_as(self, preset_id: str, name: str | None = None) -> None:
        """The Save As dialog: a display name (if given) and an id typed, then Save."""

        def answer(dialog: QWidget) -> None:
            self.suggested.append(dialog.findChild(QLineEdit, "presetName").text())
            if name is not None:
                self.modals.type_text(dialog, name, "presetName")
            self.modals.type_text(dialog, preset_id, "presetId")
            self.modals.click_button(dialog, "Save")

        self.modals.expect(answer, f"save as {preset_id}")

    def file(self, path: Path, button: str) -> None:
        self.modals.choose_file(str(path), button)


@pytest.fixture
def dialogs(modals: Modals) -> Dialogs:
    return Dialogs(modals)


@pytest.fixture
def browser(qtbot: QtBot) -> PresetsBrowser:
    document = Document(presets.load_builtin("gpt3-175b"), "gpt3-175b", preset_id="gpt3-175b")
    widget = PresetsBrowser(document)
    qtbot.addWidget(widget)
    widget.show()
    return widget


def _edit(browser: PresetsBrowser, layers: int = 7) -> None:
    assert browser.document.set_field(("decoder", "layers", 0, "count"), layers)


def _broken_file() -> Path:
    """A user preset cut off mid-write: ``half.json``."""
    folder = user_presets.presets_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "half.json"
    path.write_text('{"schema_version": 1, "hidden_size": ', encoding="utf-8")
    return path


def shown(item: QListWidgetItem) -> str:
    """A row's text as a person reads it."""
    return read(item.text())


def read(text: str) -> str:
    """Text as a person reads it: a no-break space or hyphen reads as a space or a hyphen."""
    return text.replace("\u00a0", " ").replace("\u2011", "-")


def drawn_lines(view: QListWidget, item: QListWidgetItem) -> list[str]:
    """The lines the list draws ``item`` in: its text laid out, as Qt's style lays out an item's
    text, at the width its cell leaves for text (the style's margin off either side)."""
    margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    text = item.text()
    layout = QTextLayout(text, view.font())
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(option)
    layout.beginLayout()
    lines = []
    while (line := layout.createLine()).isValid():
        line.setLineWidth(view.visualItemRect(item).width() - 2 * margin)
        lines.append(text[line.textStart() : line.textStart() + line.textLength()])
    layout.endLayout()
    return lines


def _cli_list() -> dict[tuple[str, str], dict[str, Any]]:
    result = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "presets", "list", "--format", "json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=os.environ.copy(),
        check=True,
    )
    return {(row["id"], row["origin"]): row for row in json.loads(result.stdout)}


def test_lists_builtins_and_filters(browser: PresetsBrowser, qtbot: QtBot) -> None:
    assert set(presets.builtin_ids()) <= set(browser.presets.visible_ids())
    qtbot.keyClicks(browser.presets.filter, "GPT-3")
    assert browser.presets.visible_ids() == ["gpt3-175b"]
    browser.presets.filter.clear()
    assert len(browser.presets.visible_ids()) == len(presets.builtin_ids())


def test_dirty_marker_follows_edits_and_undo(browser: PresetsBrowser) -> None:
    assert "unsaved" not in browser.marker.text()
    _edit(browser)
    assert browser.marker.text() == "Open in the window: gpt3-175b  ● unsaved changes"
    browser.document.undo_stack.undo()
    assert browser.marker.text() == "Open in the window: gpt3-175b"


def test_save_as_from_gui_appears_in_cli_list(
    browser: PresetsBrowser, qtbot: QtBot, dialogs: Dialogs
) -> None:
    _edit(browser)
    dialogs.save_as("my-gpt", name="My GPT")
    qtbot.mouseClick(browser.buttons["Save"], Qt.MouseButton.LeftButton)  # a built-in: Save means Save As
    assert dialogs.suggested == ["GPT-3 175B (custom)"]
    assert user_presets.load("my-gpt") == browser.document.architecture
    assert browser.document.architecture.name == "My GPT"
    assert browser.marker.text() == "Open in the window: my-gpt (user)"
    listed = _cli_list()
    assert listed["my-gpt", "user"]["name"] == "My GPT"
    assert not listed["my-gpt", "user"]["broken"]
    _edit(browser, 9)  # a user preset saves in place, asking nothing
    qtbot.mouseClick(browser.buttons["Save"], Qt.MouseButton.LeftButton)
    assert user_presets.load("my-gpt").num_layers == 9


def test_preset_saved_by_cli_appears_in_browser(
    browser: PresetsBrowser, qtbot: QtBot, tmp_path: Path
) -> None:
    source = tmp_path / "from-cli.json"
    source.write_text(presets.dump_preset(presets.load_builtin("gpt3-175b")), encoding="utf-8")
    subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "presets", "import", str(source)],
        cwd=ROOT,
        env=os.environ.copy(),
        check=True,
        capture_output=True,
    )
    browser.presets.refresh()  # the folder did not exist when the browser started, so nothing watched it yet
    assert "from-cli" in browser.presets.visible_ids()
    assert cli_main(["presets", "import", str(source), "--id", "second"]) == 0
    qtbot.waitUntil(lambda: "second" in browser.presets.visible_ids())  # now the folder is watched


def test_switching_asks_to_save(browser: PresetsBrowser, dialogs: Dialogs) -> None:
    other = "llama-3-8b"  # one layer group, like GPT-3, so `_edit` reads the same on both
    _edit(browser)
    dialogs.answer("Cancel")
    assert not browser.ops.open_preset(other)
    assert browser.document.architecture.num_layers == 7 and browser.document.dirty
    dialogs.answer("Don't Save")
    assert browser.ops.open_preset(other)
    assert browser.document.architecture == presets.load_builtin(other)
    assert not browser.document.dirty and browser.ops.current_id == other
    _edit(browser)
    dialogs.answer("Save")
    dialogs.save_as("kept")
    assert browser.ops.open_preset("gpt3-175b")
    assert user_presets.load("kept").num_layers == 7
    assert "unsaved changes" in dialogs.asked[0]


def test_open_by_keyboard(browser: PresetsBrowser, qtbot: QtBot) -> None:
    other = next(preset_id for preset_id in presets.builtin_ids() if preset_id != "gpt3-175b")
    browser.presets.select(other)
    qtbot.keyClick(browser.presets.list, Qt.Key.Key_Return)
    assert browser.document.architecture == presets.load_builtin(other)


def test_delete_asks_first(browser: PresetsBrowser, qtbot: QtBot, dialogs: Dialogs) -> None:
    user_presets.save("doomed", presets.load_builtin("gpt3-175b"))
    browser.presets.refresh()
    browser.presets.select("doomed", "user")
    dialogs.answer("No")
    qtbot.mouseClick(browser.buttons["Delete…"], Qt.MouseButton.LeftButton)
    assert user_presets.is_user("doomed")
    dialogs.answer("Yes")
    qtbot.mouseClick(browser.buttons["Delete…"], Qt.MouseButton.LeftButton)
    assert not user_presets.is_user("doomed")
    assert "doomed" not in browser.presets.visible_ids()
    browser.presets.select("gpt3-175b")
    assert not browser.buttons["Delete…"].isEnabled()  # built-ins cannot be deleted


def test_rename_and_duplicate(browser: PresetsBrowser, dialogs: Dialogs) -> None:
    browser.presets.select("gpt3-175b")
    dialogs.preset_id("gpt3-copy")
    assert browser.ops.duplicate_selected()
    assert dialogs.suggested == ["gpt3-175b-copy"]
    assert browser.presets.selected() == ("gpt3-copy", "user")
    dialogs.preset_id("bad/id")  # a bad id is refused with a reason, then asked again
    dialogs.warning()
    dialogs.preset_id("gpt3-renamed")
    assert browser.ops.rename_selected()
    assert "not a usable preset id" in dialogs.warnings[0]
    assert user_presets.user_ids() == ["gpt3-renamed"]
    assert user_presets.load("gpt3-renamed") == presets.load_builtin("gpt3-175b")
    # A built-in id is asked about first, as Save As asks (QA: renaming to gpt2 hid GPT-2 silently).
    dialogs.preset_id("gpt2")
    dialogs.answer("No")
    assert not browser.ops.rename_selected()
    assert "is a built-in id" in dialogs.asked[-1] and user_presets.user_ids() == ["gpt3-renamed"]


def test_shadowing_save_asks_and_is_marked(browser: PresetsBrowser, dialogs: Dialogs) -> None:
    _edit(browser)
    dialogs.save_as("gpt3-175b")
    dialogs.answer("Yes")
    assert browser.ops.save_as()
    assert "built-in id" in dialogs.asked[0]
    labels = [shown(item) for item in browser.presets.items() if item.data(ID_ROLE) == "gpt3-175b"]
    assert any(label.endswith("[user, shadows built-in]") for label in labels)
    assert any(label.endswith("[built-in]") for label in labels)


def test_no_to_shadowing_a_built_in_goes_back_to_the_save_dialog(
    browser: PresetsBrowser, dialogs: Dialogs, modals: Modals, qtbot: QtBot
) -> None:
    """QA: Save As under a built-in id, then No to "… is a built-in id. Save a user preset that
    shadows it?", closed the whole save. No now returns to the dialog, the id selected: what the
    person types next replaces it."""
    _edit(browser)
    dialogs.save_as("gpt2", name="My GPT")
    dialogs.answer("No")
    seen: list[tuple[str, str, str, bool]] = []

    def type_another_id(dialog: QWidget) -> None:
        edit = dialog.findChild(QLineEdit, "presetId")
        name = dialog.findChild(QLineEdit, "presetName")
        # The focus within the dialog (offscreen no window manager activates it again after the question).
        seen.append((dialog.windowTitle(), name.text(), edit.selectedText(), dialog.focusWidget() is edit))
        qtbot.keyClicks(edit, "my-gpt")  # over the selection, without selecting anything first
        modals.click_button(dialog, "Save")

    modals.expect(type_another_id, "the same Save As dialog again")
    qtbot.mouseClick(browser.buttons["Save As…"], Qt.MouseButton.LeftButton)
    modals.wait_done()
    assert seen == [("Save preset as", "My GPT", "gpt2", True)]
    assert "“gpt2” is a built-in id" in dialogs.asked[0] and len(dialogs.asked) == 1
    assert user_presets.user_ids() == ["my-gpt"]
    assert browser.document.preset_id == "my-gpt" and user_presets.load("my-gpt").name == "My GPT"


def test_a_wrapped_row_never_breaks_inside_its_tag(
    browser: PresetsBrowser, dialogs: Dialogs, qtbot: QtBot
) -> None:
    """QA: in a narrow presets dock rows wrapped as "[built-" / "in]"; "[user, shadows built-in]"
    could break at either space too. A row may wrap, but before its tag."""
    _edit(browser)
    dialogs.save_as("gpt3-175b")  # a user preset shadowing a built-in: the longest tag
    dialogs.answer("Yes")
    assert browser.ops.save_as()
    view = browser.presets.list
    wrapped = 0
    for width in range(200, 330, 10):  # a dock dragged narrower and wider
        browser.resize(width, 600)
        qtbot.waitUntil(lambda width=width: browser.width() == width)
        for item in browser.presets.items():
            lines = drawn_lines(view, item)
            # What the view draws: one line of its font per line laid out.
            assert view.visualItemRect(item).height() >= len(lines) * view.fontMetrics().lineSpacing()
            tag = shown(item)[shown(item).rindex("[") :]
            assert any(tag in read(line) for line in lines), (width, lines)
            wrapped += len(lines) > 1
    assert wrapped  # some rows did wrap at these widths


def test_the_built_in_row_opens_the_built_in_under_a_shadowing_user_preset(
    browser: PresetsBrowser, dialogs: Dialogs, qtbot: QtBot
) -> None:
    """QA: with a user preset named gpt2, the browser's '[built-in]' row (and File → Open Built-in
    Preset) opened the user's preset; the built-in could not be reached."""
    _edit(browser)  # 7 layers
    dialogs.save_as("gpt3-175b")
    dialogs.answer("Yes")
    assert browser.ops.save_as()
    row = next(
        item for item in browser.presets.items()
        if item.data(ID_ROLE) == "gpt3-175b" and shown(item).endswith("[built-in]")
    )  # fmt: skip
    browser.presets.list.scrollToItem(row)
    rect = browser.presets.list.visualItemRect(row)
    qtbot.mouseClick(browser.presets.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseClick(browser.buttons["Open"], Qt.MouseButton.LeftButton)
    assert browser.document.architecture == presets.load_builtin("gpt3-175b")  # 96 layers again
    assert browser.document.preset_id is None  # Save asks an id: the user's preset is not written over
    assert user_presets.load("gpt3-175b").decoder.layers[0].count == 7


def test_broken_file_is_listed_and_left_alone(browser: PresetsBrowser, dialogs: Dialogs) -> None:
    path = _broken_file()
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    browser.presets.refresh()
    item = next(item for item in browser.presets.items() if item.data(ID_ROLE) == "half")
    assert "half.json: not valid JSON" in item.text() and "broken" in item.text()
    architecture = browser.document.architecture
    dialogs.warning()
    assert not browser.ops.open_preset("half")
    assert dialogs.warnings[0].startswith("half.json: not valid JSON")
    assert browser.document.architecture == architecture
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


def test_a_long_broken_row_wraps_inside_a_narrow_list(browser: PresetsBrowser) -> None:
    _broken_file()
    browser.presets.refresh()
    browser.resize(320, 600)
    preset_list = browser.presets.list
    item = next(item for item in browser.presets.items() if item.data(ID_ROLE) == "half")
    preset_list.doItemsLayout()
    rect = preset_list.visualItemRect(item)
    assert rect.right() <= preset_list.viewport().width()
    assert rect.height() > preset_list.visualItemRect(browser.presets.items()[0]).height()  # two lines


def test_import_and_export_through_file_dialogs(
    browser: PresetsBrowser, dialogs: Dialogs, tmp_path: Path
) -> None:
    exported = tmp_path / "shared.json"
    browser.presets.select("gpt3-175b")
    dialogs.file(exported, "Save")
    assert browser.ops.export_selected()
    assert presets.load_preset_file(exported) == presets.load_builtin("gpt3-175b")
    dialogs.file(exported, "Open")
    dialogs.preset_id("shared")
    assert browser.ops.import_file()
    assert dialogs.suggested[-1] == "shared"  # the file's name is the suggested id
    assert browser.presets.selected() == ("shared", "user")
    dialogs.file(tmp_path / "no-suffix", "Save")
    assert browser.ops.export_selected()  # a name typed without a suffix gets .json
    assert presets.load_preset_file(tmp_path / "no-suffix.json") == presets.load_builtin("gpt3-175b")
    dialogs.file(tmp_path / "missing" / "x.json", "Save")
    dialogs.warning()
    assert not browser.ops.export_selected()
    assert dialogs.warnings == [f"cannot write {tmp_path / 'missing' / 'x.json'}: No such file or directory"]


def test_quitting_with_changes_asks(qtbot: QtBot, dialogs: Dialogs) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    browser = PresetsBrowser(Document(presets.load_builtin("gpt3-175b"), "gpt3-175b", preset_id="gpt3-175b"))
    window.setCentralWidget(browser)
    actions = add_preset_actions(window.menuBar().addMenu("&File"), browser, window)
    assert [action.text() for action in actions][:2] == ["Save Preset", "Save Preset As…"]
    window.show()
    _edit(browser)
    dialogs.answer("Cancel")
    assert not browser.request_quit(window)
    assert window.isVisible()
    dialogs.answer("Save")
    dialogs.save_as("saved-on-quit")
    assert browser.request_quit(window)
    assert not window.isVisible()
    assert user_presets.load("saved-on-quit").num_layers == 7


def test_a_program_closing_the_window_is_not_stopped(qtbot: QtBot, dialogs: Dialogs) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    browser = PresetsBrowser(Document(presets.load_builtin("gpt3-175b"), "gpt3-175b", preset_id="gpt3-175b"))
    window.setCentralWidget(browser)
    add_preset_actions(window.menuBar().addMenu("&File"), browser, window)
    window.show()
    _edit(browser)
    assert window.close()  # no question asked (the modals fixture fails on an unexpected one)
    assert dialogs.asked == [] and dialogs.modals.seen == []


def test_main_window_file_menu(qtbot: QtBot, dialogs: Dialogs, tmp_path: Path) -> None:
    from paramtally.gui.main_window import MainWindow

    window = MainWindow(Document(presets.load_builtin("gpt3-175b"), "gpt3-175b", preset_id="gpt3-175b"))
    qtbot.addWidget(window)
    window.show()
    names = {action.objectName() for action in window.file_menu.actions()}
    assert {"actionBrowsePresets", "actionSavePreset", "actionSavePresetAs"} <= names
    window.findChild(QAction, "actionBrowsePresets").trigger()
    assert window.presets_browser.isVisible()
    assert window.presets_browser.ops.current_id == "gpt3-175b"
    _edit(window.presets_browser)
    dialogs.save_as("from-window")
    window.findChild(QAction, "actionSavePreset").trigger()
    assert _cli_list()["from-window", "user"]["name"] == "GPT-3 175B (custom)"
    assert window.windowTitle() == "from-window[*] — ParamTally" and not window.isWindowModified()
    _edit(window.presets_browser, 11)
    dialogs.answer("Cancel")
    window.quit_action.trigger()
    assert window.isVisible()
    dialogs.answer("Don't Save")
    window.quit_action.trigger()
    assert not window.isVisible()


def test_a_model_opened_from_a_config_json_can_be_saved(qtbot: QtBot, modals: Modals, tmp_path: Path) -> None:
    """QA: a config.json's model is named 'llama (config.json)'; the id suggested from it ended in
    .json, was refused, and Save did nothing (Quit → Save crashed the app, the edits lost)."""
    config = tmp_path / "config.json"
    sizes = {"hidden_size": 64, "num_attention_heads": 4, "num_hidden_layers": 2, "intermediate_size": 128}
    config.write_text(json.dumps({"model_type": "llama", "vocab_size": 128, **sizes}))
    preset = read_source(str(config))
    assert preset.architecture.name == "llama (config.json)"
    browser = PresetsBrowser(Document(preset.architecture, str(config)))
    qtbot.addWidget(browser)
    browser.show()
    offered: list[str] = []

    def accept_as_offered(dialog: QWidget) -> None:
        offered.append(dialog.findChild(QLineEdit, "presetId").text())
        modals.click_button(dialog, "Save")

    modals.expect(accept_as_offered, "save as offered")
    qtbot.mouseClick(browser.buttons["Save"], Qt.MouseButton.LeftButton)
    assert offered == ["llama-config"]
    assert user_presets.load("llama-config") == browser.document.architecture


def test_file_export_preset_writes_the_model_on_screen(
    qtbot: QtBot, modals: Modals, tmp_path: Path, type_into: TypeInto
) -> None:
    """QA: File → Export Preset… wrote the stored preset (the plain built-in Llama-3-8B), not the
    edits on screen. Now it writes the open model with its scenario, as Save Preset As does; the
    browser's Export… keeps exporting the preset selected in the list."""
    from paramtally.gui.main_window import MainWindow

    window = MainWindow(Document(presets.load_builtin("llama-3-8b"), "llama-3-8b", preset_id="llama-3-8b"))
    qtbot.addWidget(window)
    window.resize(1440, 900)
    window.show()
    qtbot.waitExposed(window)
    type_into(window.form.editor(("decoder", "num_layers")), "40")
    type_into(window.memory.controls.editors["context"], "16384")
    window.findChild(QAction, "actionBrowsePresets").trigger()
    window.presets_browser.presets.select("gpt3-175b")  # the File menu is about the open model
    headline = window.findChild(QWidget, "totalParams")
    shown = window.document.report.total
    assert f"{shown:,}" in headline.text()
    bar = window.menuBar()
    file_action = next(action for action in bar.actions() if action.menu() is window.file_menu)
    exported = tmp_path / "on-screen.json"
    modals.choose("Export Preset…")
    modals.save_as(str(exported))
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.actionGeometry(file_action).center())
    modals.wait_done()
    result = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "count", str(exported), "--format", "json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=os.environ.copy(),
        check=True,
    )
    assert json.loads(result.stdout)["total"] == shown != 8_030_261_248  # 40 layers, not 32
    saved = read_source(str(exported))
    assert saved.architecture == window.document.architecture
    assert saved.scenario is not None and saved.scenario["context"] == 16384
    # The browser's Export… writes the selected stored preset as it is.
    stored = tmp_path / "stored.json"
    modals.save_as(str(stored))
    qtbot.mouseClick(window.presets_browser.buttons["Export…"], Qt.MouseButton.LeftButton)
    modals.wait_done()
    assert presets.load_preset_file(stored) == presets.load_builtin("gpt3-175b")


def test_no_to_replacing_on_import_goes_back_to_the_id(
    browser: PresetsBrowser, dialogs: Dialogs, tmp_path: Path
) -> None:
    """QA: answering No to 'exists. Replace it?' cancelled the whole import."""
    source = tmp_path / "shared.json"
    source.write_text(presets.dump_preset(presets.load_builtin("gpt2")), encoding="utf-8")
    user_presets.save("taken", presets.load_builtin("gpt3-175b"))
    before = user_presets.load("taken")
    dialogs.file(source, "Open")
    dialogs.preset_id("taken")
    dialogs.answer("No")
    dialogs.preset_id("free")
    assert browser.ops.import_file()
    assert dialogs.asked == ["Replace preset? A user preset “taken” exists. Replace it?"]
    assert dialogs.suggested == ["shared", "taken"]  # asked again, with the id typed
    assert user_presets.load("taken") == before  # left as it was
    assert user_presets.load("free") == presets.load_builtin("gpt2")
