"""The window's cost follows what it shows, not what a file holds (issue 30).

A preset naming thousands of base blocks builds the form of one of them, picked in a list; a
name of megabytes reaches every widget cut to a line; text that reorders, hides or breaks what is
around it (a right-to-left override, NUL, a lone surrogate, a newline) reaches no widget raw.
The files are opened as a person opens them: File → Open through Qt's own dialog, or the path on
the command line. The verdicts count widgets and characters, never seconds: the timings are in
bench/hostile_inputs.py.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QGraphicsSimpleTextItem,
    QGraphicsTextItem,
    QGraphicsView,
    QLabel,
    QLineEdit,
    QTabBar,
    QWidget,
)
from pytestqt.qtbot import QtBot

from paramtally.core.presets import MAX_PRESET_BYTES
from paramtally.gui.app import build_parser, open_window
from paramtally.gui.form.editors import TextEdit
from paramtally.gui.form.form import BLOCKS_IN_FULL
from paramtally.gui.main_window import MainWindow
from paramtally.gui.shown_text import MESSAGE_CHARS, shown
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals, give_focus
from tests.gui.views_support import click_tab
from tests.hostile.big_presets import HOSTILE_TEXT, hostile_texts, long_name, many_blocks, write

# Offscreen Qt says it cannot raise a window or grab the keyboard for a modal dialog; harmless here.
pytestmark = pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing the keyboard")

# What must never reach a widget raw: controls but the newline (the window's own tooltips have
# lines), bidirectional controls, line separators, lone surrogates.
_RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")
_ROWS_READ = 2_000  # of each item view, parents first


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


# --- long and hostile text ----------------------------------------------------------------------


def _rows(view: QAbstractItemView) -> Iterator[QModelIndex]:
    model, pending, seen = view.model(), [QModelIndex()], 0
    while pending and seen < _ROWS_READ:
        parent = pending.pop(0)
        for row in range(model.rowCount(parent)):
            column = 0
            while (index := model.index(row, column, parent)).isValid():  # a list's columnCount is private
                seen += 1
                column += 1
                yield index
            pending.append(model.index(row, 0, parent))


def _texts(window: MainWindow) -> Iterator[tuple[str, str]]:
    """(where, text) of every text the window hands Qt, but what the form's text fields hold:
    titles, labels, buttons, tabs, tooltips, the items of lists, trees and tables, chart titles and
    labels, menu entries, the status bar."""
    yield "window title", window.windowTitle()
    yield "status bar", window.statusBar().currentMessage()
    window.recent_menu.aboutToShow.emit()  # File → Open Recent fills itself when it opens
    for action in window.findChildren(QAction):
        yield f"action {action.text()[:20]!r}", action.text()
        yield "action tooltip", action.toolTip()
    for widget in window.findChildren(QWidget):
        where = f"{type(widget).__name__} {widget.objectName()!r}"
        yield f"{where} tooltip", widget.toolTip()
        yield f"{where} window title", widget.windowTitle()
        if isinstance(widget, QLabel | QAbstractButton):
            yield where, widget.text()
        if isinstance(widget, QLineEdit) and not isinstance(widget, TextEdit):
            yield where, widget.text()
        if isinstance(widget, QComboBox):
            yield from ((f"{where} item", widget.itemText(i)) for i in range(widget.count()))
        if isinstance(widget, QTabBar):
            for i in range(widget.count()):
                yield f"{where} tab", widget.tabText(i)
                yield f"{where} tab tooltip", widget.tabToolTip(i)
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            for index in _rows(widget):
                for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                    value = index.data(role)
                    yield f"{where} row", value if isinstance(value, str) else ""
        if isinstance(widget, QGraphicsView) and widget.scene() is not None:
            for item in widget.scene().items():
                if isinstance(item, QGraphicsTextItem):
                    yield f"{where} text", item.toPlainText()
                elif isinstance(item, QGraphicsSimpleTextItem):
                    yield f"{where} text", item.text()
                yield f"{where} item tooltip", item.toolTip()


def _visit_tabs(qtbot: QtBot, window: MainWindow) -> None:
    """Every tab shown once: a view fills itself when it is first shown."""
    bar = window.tabs.tabBar()
    for index in range(bar.count()):
        click_tab(qtbot, window, bar.tabText(index))
    click_tab(qtbot, window, "Parameters")


def test_a_name_of_4_mb_reaches_every_widget_cut_to_a_line(
    qtbot: QtBot, window: MainWindow, modals: Modals, tmp_path: Path
) -> None:
    """The window hung on it (still rendering after 400 s; 300,000 characters took 20 s). Whatever
    the name's length, every widget gets the same text: 64 KB or the whole 4 MB a preset may hold."""
    path = tmp_path / "long.json"
    lengths = []
    for size in (64 * 1024, MAX_PRESET_BYTES):
        _open_through_the_dialog(qtbot, window, modals, write(path, long_name(size)))
        assert len(window.document.architecture.name) > size - 300
        _visit_tabs(qtbot, window)
        texts = list(_texts(window))
        longest = max(texts, key=lambda pair: len(pair[1]))
        assert len(longest[1]) <= 2 * MESSAGE_CHARS, (longest[0], len(longest[1]))
        name_field = window.form.editor(("name",))
        assert isinstance(name_field, QLineEdit) and len(name_field.text()) <= name_field.maxLength()
        lengths.append(Counter((where, len(text)) for where, text in texts if "N" * 20 in text))
    assert lengths[0] == lengths[1] and lengths[0]
    assert not window.grab().isNull()
    # Its field holds the 32,767 characters Qt keeps; Enter there, untouched, keeps the whole name.
    field = window.form.editor(("name",))
    give_focus(qtbot, field)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert len(window.document.architecture.name) > MAX_PRESET_BYTES - 300 and not window.document.dirty


def test_text_that_reorders_or_hides_reaches_no_widget_raw(qtbot: QtBot, tmp_path: Path) -> None:
    """A name, family, description and block name with a lone surrogate, NUL, a right-to-left
    override, markup and '&', opened from the command line under a file name with such characters."""
    path = write(tmp_path / "model\u202e\x01.json", hostile_texts())
    window = _from_command_line(qtbot, path)
    assert window.document.architecture.name == HOSTILE_TEXT
    _visit_tabs(qtbot, window)
    raw = [(where, text) for where, text in _texts(window) if _RAW.search(text)]
    assert not raw, raw[:5]
    assert window.windowTitle().startswith("model\\u202e\\x01.json")
    escaped = r"A\ud800B\x00C\u202eD<b>E</b>&F\x0aG\x09H\u2028I"
    assert window.table.model().index(0, 0).data() == escaped  # the breakdown's root: the model
    assert f"Block «{escaped[:39]}…» · Mixer" in window.form.sections
    assert not window.grab().isNull()
    assert QApplication.instance() is not None


@given(st.text(max_size=400), st.integers(min_value=3, max_value=200), st.booleans(), st.booleans())
def test_shown_text_is_short_and_safe_whatever_it_is_given(
    text: str, limit: int, lines: bool, middle: bool
) -> None:
    out = shown(text, limit, lines=lines, middle=middle)
    assert len(out) <= limit
    assert not _RAW.search(out) and ("\n" not in out or lines)
    if not _RAW.search(text) and "\n" not in text:
        kept = out if len(text) <= limit else out.removesuffix("…")
        assert text.startswith(kept) if not middle or len(text) <= limit else "…" in out


def test_shown_text_reads_only_what_it_shows() -> None:
    """A name of 4 MB and one of 200 characters give the same 120."""
    assert shown("N" * MAX_PRESET_BYTES) == shown("N" * 200) == "N" * 119 + "…"
    long_path = "/home/a/" + "d" * 5000 + "/config.json"
    assert shown(long_path, 40, middle=True) == "/home/a/" + "d" * 11 + "…" + "d" * 7 + "/config.json"
    assert shown("a\u202eb\x00c\ud800") == "a\\u202eb\\x00c\\ud800"
