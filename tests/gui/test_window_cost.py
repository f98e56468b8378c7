"""The window's cost follows what it shows, not what a file holds (issue 30).

A preset naming thousands of base blocks builds the form of one of them, picked in a list.
The files are opened as a person opens them: File → Open through Qt's own dialog, or the path on
the command line. The verdicts count widgets and characters, never seconds: the timings are in
bench/hostile_inputs.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from paramtally.gui.app import build_parser, open_window
from paramtally.gui.form.form import BLOCKS_IN_FULL
from paramtally.gui.main_window import MainWindow
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals, give_focus
from tests.hostile.big_presets import many_blocks, write

# Offscreen Qt says it cannot raise a window or grab the keyboard for a modal dialog; harmless here.
pytestmark = pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing the keyboard")


def _from_command_line(qtbot: QtBot, path: Path) -> MainWindow:
    """``paramtally PATH``: the window as the start path builds it, shown with its views."""
    window = open_window(build_parser().parse_args([str(path)]))
    assert isinstance(window, MainWindow)
    qtbot.addWidget(window)
    window.show()
    window.load_views()
    qtbot.waitExposed(window)
    return window


def _open_through_the_dialog(qtbot: QtBot, window: MainWindow, modals: Modals, path: Path) -> None:
    """Ctrl+O; Qt's own file dialog gets the path typed and Open clicked."""
    modals.choose_file(str(path), "Open")
    give_focus(qtbot, window)  # offscreen, no window manager gives it back after a dialog
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    modals.wait_done(30_000)


def _form_size(window: MainWindow) -> tuple[int, int]:
    """(fields, widgets) of the form: what it built."""
    return len(window.form.paths()), len(window.form.findChildren(QWidget))


# --- thousands of named blocks ------------------------------------------------------------------


def test_a_file_of_2000_named_blocks_builds_the_form_of_one(qtbot: QtBot, tmp_path: Path) -> None:
    """Each block's sections cost ~35 ms and 2 MB: 5,000 blocks ran the window out of memory."""
    sizes = {}
    for count in (BLOCKS_IN_FULL + 1, 2_000):
        window = _from_command_line(qtbot, write(tmp_path / f"{count}.json", many_blocks(count)))
        chooser = window.form.block_chooser
        assert chooser is not None and chooser.count() == count
        assert chooser.currentText() == "b0"  # the decoder's own base block
        assert [title for title in window.form.sections if title.startswith("Block «")] == [
            "Block «b0» · Mixer",
            "Block «b0» · FFN",
            "Block «b0» · Norms",
        ]
        assert f"Base blocks ({count:,})" in window.form.sections
        sizes[count] = _form_size(window)
        window.close()
    assert sizes[2_000] == sizes[BLOCKS_IN_FULL + 1]


def test_a_few_named_blocks_all_show(qtbot: QtBot, tmp_path: Path) -> None:
    window = _from_command_line(qtbot, write(tmp_path / "few.json", many_blocks(BLOCKS_IN_FULL)))
    assert window.form.block_chooser is None
    titles = [title for title in window.form.sections if title.endswith("· FFN")]
    assert titles == [f"Block «b{i}» · FFN" for i in range(BLOCKS_IN_FULL)]


def test_selecting_a_group_shows_the_block_it_starts_from(
    qtbot: QtBot, window: MainWindow, modals: Modals, type_into: TypeInto, tmp_path: Path
) -> None:
    _open_through_the_dialog(qtbot, window, modals, write(tmp_path / "blocks.json", many_blocks(2_000)))
    doc, form, tree = window.document, window.form, window.tree
    assert len(doc.architecture.blocks) == 2_000 and form.block == "b0"
    # Click the group of layer 1,234 (the second pattern's 235th run), as a person would.
    group = ("decoder", "layers", 1, "pattern", 234)
    index = tree.tree_model.find(group)
    tree.scrollTo(index)  # opens the pattern's row
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center())
    assert form.group == group and form.block == "b1234"
    assert form.block_chooser is not None and form.block_chooser.currentText() == "b1234"
    titles = list(form.sections)
    assert titles[0].startswith("Layer group: ") and "Block «b1234» · FFN" in titles
    assert not any("«b0»" in title for title in titles)
    # The block's own width, typed in its section, reaches that block alone.
    type_into(form.editor(("blocks", "b1234", "ffn", "width")), "8192")
    assert doc.architecture.blocks["b1234"].ffn.width == 8192  # type: ignore[union-attr]
    assert doc.architecture.blocks["b1233"].ffn.width == 128 * 1234  # type: ignore[union-attr]
    # Another block, chosen with the keyboard in the list: its sections follow, the keys stay there.
    chooser = form.block_chooser
    give_focus(qtbot, chooser)
    qtbot.keyClick(chooser, Qt.Key.Key_End)
    assert form.block == "b1999" and "Block «b1999» · Mixer" in form.sections
    assert form.block_chooser is not None and form.block_chooser.hasFocus()
    assert form.editor(("blocks", "b1999", "ffn", "width")).value() == 128 * 2000
