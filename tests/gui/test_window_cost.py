"""The window's cost follows what it shows, not what a file holds (issue 30).

A preset naming thousands of base blocks builds the form of one of them, picked in a list; a
name of megabytes reaches every widget cut to a line; text that reorders, hides or breaks what is
around it (a right-to-left override, NUL, a lone surrogate, a newline) reaches no widget raw.
The files are opened as a person opens them: File → Open through Qt's own dialog, or the path on
the command line. The verdicts count widgets and characters, never seconds: the timings are in
bench/hostile_inputs.py.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
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

from paramtally.core.io.presets import MAX_PRESET_BYTES
from paramtally.core.schema import Architecture
from paramtally.gui.app import build_parser, open_window
from paramtally.gui.form.editors import TextEdit
from paramtally.gui.form.form import BLOCKS_IN_FULL
from paramtally.gui.main_window import MainWindow
from paramtally.gui.shown_text import MESSAGE_CHARS, shown
from tests.gui.conftest import TypeInto
from tests.gui.modals import Modals, give_focus
from tests.gui.views_support import click_tab
from tests.hostile.big_presets import HOSTILE_TEXT, hostile_texts, many_blocks, write

# Offscreen Qt says it cannot raise a window or grab the keyboard for a modal dialog; harmless here.
pytestmark = pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing the keyboard")

# What must never reach a widget raw: controls but the newline (the window's own tooltips have
# lines), bidirectional controls, line separators, lone surrogates.
_RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")
_ROWS_READ = 2_000  # of each item view, parents first
ESCAPED = r"A\ud800B\x00C\u202eD<b>E</b>&F\x0aG\x09H\u2028I"  # HOSTILE_TEXT as a widget shows it


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


# --- many named blocks --------------------------------------------------------------------------

BLOCKS = 250  # the core refuses more than 256 (core.schema.limits); the window's cost must not rest on it


def test_a_file_of_250_named_blocks_builds_the_form_of_one(qtbot: QtBot, tmp_path: Path) -> None:
    """Each block's sections cost ~35 ms and 2 MB: 5,000 blocks ran the window out of memory. The
    form of 250 blocks is the form of 9 (bench/hostile_inputs.py --window times thousands)."""
    sizes = {}
    for count in (BLOCKS_IN_FULL + 1, BLOCKS):
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
    assert sizes[BLOCKS] == sizes[BLOCKS_IN_FULL + 1]


def test_a_few_named_blocks_all_show(qtbot: QtBot, tmp_path: Path) -> None:
    window = _from_command_line(qtbot, write(tmp_path / "few.json", many_blocks(BLOCKS_IN_FULL)))
    assert window.form.block_chooser is None
    titles = [title for title in window.form.sections if title.endswith("· FFN")]
    assert titles == [f"Block «b{i}» · FFN" for i in range(BLOCKS_IN_FULL)]


def test_selecting_a_group_shows_the_block_it_starts_from(
    qtbot: QtBot, window: MainWindow, modals: Modals, type_into: TypeInto, tmp_path: Path
) -> None:
    _open_through_the_dialog(qtbot, window, modals, write(tmp_path / "blocks.json", many_blocks(BLOCKS)))
    doc, form, tree = window.document, window.form, window.tree
    assert len(doc.architecture.blocks) == BLOCKS and form.block == "b0"
    assert tree.tree_model.data(tree.tree_model.find(("decoder", "layers", 2))) == (
        "layers 200–249: 1 repetition of 50 layers"  # a pattern once ('1 repetitions' before)
    )
    # Click the group of layer 234 (the third pattern's 35th run), as a person would.
    group = ("decoder", "layers", 2, "pattern", 34)
    index = tree.tree_model.find(group)
    tree.scrollTo(index)  # opens the pattern's row
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center())
    assert form.group == group and form.block == "b234"
    assert form.block_chooser is not None and form.block_chooser.currentText() == "b234"
    titles = list(form.sections)
    assert titles[0].startswith("Layer group: ") and "Block «b234» · FFN" in titles
    assert not any("«b0»" in title for title in titles)
    # The block's own width, typed in its section, reaches that block alone.
    type_into(form.editor(("blocks", "b234", "ffn", "width")), "8192")
    assert doc.architecture.blocks["b234"].ffn.width == 8192  # type: ignore[union-attr]
    assert doc.architecture.blocks["b233"].ffn.width == 128 * 234  # type: ignore[union-attr]
    # Another block, chosen with the keyboard in the list: its sections follow, the keys stay there.
    chooser = form.block_chooser
    give_focus(qtbot, chooser)
    qtbot.keyClick(chooser, Qt.Key.Key_End)
    last = f"b{BLOCKS - 1}"
    assert form.block == last and f"Block «{last}» · Mixer" in form.sections
    assert form.block_chooser is not None and form.block_chooser.hasFocus()
    assert form.editor(("blocks", last, "ffn", "width")).value() == 128 * BLOCKS


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


def _unchecked(arch: Architecture, **texts: str) -> Architecture:
    """``arch`` with these texts, past the core's checks of them (pydantic's own copy, unvalidated):
    what the window shows must not rest on what the core lets through."""
    return BaseModel.model_copy(arch, update=texts)


# The window's own longest text: the FLOPs summary's tooltip, every term with its formula and its
# source (~3,600 characters). A file's text is cut to a line wherever it goes, so a 64 KB name
# would cross this at once.
LONGEST_TEXT = 4 * MESSAGE_CHARS


def _assert_short(window: MainWindow) -> list[tuple[str, str]]:
    """Every text the window hands Qt, each at most ``LONGEST_TEXT`` long; returned for more checks."""
    texts = list(_texts(window))
    longest = max(texts, key=lambda pair: len(pair[1]))
    assert len(longest[1]) <= LONGEST_TEXT, (longest[0], len(longest[1]))
    return texts


def test_a_long_name_opened_reaches_every_widget_cut_to_a_line(
    qtbot: QtBot, window: MainWindow, modals: Modals, tmp_path: Path
) -> None:
    """File → Open of a preset named with 200 characters, the most the core takes (core.schema.limits)."""
    name = "N" * 200
    _open_through_the_dialog(
        qtbot, window, modals, write(tmp_path / "long.json", {**many_blocks(1), "name": name})
    )
    assert window.document.architecture.name == name
    _visit_tabs(qtbot, window)
    named = [text for _, text in _assert_short(window) if "N" * 20 in text]
    assert named and all(name not in text for text in named)  # each one cut


def test_a_name_of_4_mb_costs_the_window_what_one_of_64_kb_does(qtbot: QtBot, window: MainWindow) -> None:
    """The window hung on a name of 4 MB (still rendering after 400 s; 300,000 characters took 20 s).
    The core now refuses a name past 200 characters; the window does not rely on it: a model named
    with 64 KB or with the 4 MB a preset may hold, loaded as File → Open loads a file it has read,
    hands every widget the same texts."""
    base = window.document.architecture
    lengths = []
    for size in (64 * 1024, MAX_PRESET_BYTES):
        window.document.load(_unchecked(base, name="N" * size), "long.json")
        _visit_tabs(qtbot, window)
        texts = _assert_short(window)
        name_field = window.form.editor(("name",))
        assert isinstance(name_field, QLineEdit) and len(name_field.text()) <= name_field.maxLength()
        lengths.append(Counter((where, len(text)) for where, text in texts if "N" * 20 in text))
    assert lengths[0] == lengths[1] and lengths[0]
    assert not window.grab().isNull()
    # Its field holds the 32,767 characters Qt keeps; Enter there, untouched, keeps the whole name.
    field = window.form.editor(("name",))
    give_focus(qtbot, field)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert len(window.document.architecture.name) == MAX_PRESET_BYTES and not window.document.dirty


def test_a_file_name_that_reorders_reaches_no_widget_raw(qtbot: QtBot, tmp_path: Path) -> None:
    """Linux takes any byte but '/' in a file's name: U+202E and \x01 in the one on the command line."""
    window = _from_command_line(qtbot, write(tmp_path / "model\u202e\x01.json", many_blocks(1)))
    _visit_tabs(qtbot, window)
    raw = [(where, text) for where, text in _assert_short(window) if _RAW.search(text)]
    assert not raw, raw[:5]
    assert window.windowTitle().startswith("model\\u202e\\x01.json")


def test_text_that_reorders_or_hides_reaches_no_widget_raw(qtbot: QtBot, window: MainWindow) -> None:
    """A name, family and description with a lone surrogate, NUL, a right-to-left override, markup,
    '&', a newline and a tab: the core now refuses them in a file (core.text); the window does not
    rely on it (a model loaded with them, as after File → Open)."""
    texts = dict.fromkeys(("name", "family", "description"), HOSTILE_TEXT)
    window.document.load(_unchecked(window.document.architecture, **texts), "hostile.json")
    _visit_tabs(qtbot, window)
    raw = [(where, text) for where, text in _assert_short(window) if _RAW.search(text)]
    assert not raw, raw[:5]
    assert window.table.model().index(0, 0).data() == ESCAPED  # the breakdown's root: the model
    assert (
        ESCAPED in window.charts.pie.title()
        and html.escape(ESCAPED) in window.charts.bar.getPlotItem().titleLabel.text
    )
    assert not window.grab().isNull()


def test_a_block_named_with_such_text_reaches_no_widget_raw(qtbot: QtBot, tmp_path: Path) -> None:
    """Opened from the command line: refused in one line where the core refuses such a name, or shown
    escaped, its '&' as itself in a section's title."""
    path = write(tmp_path / "hostile.json", hostile_texts())
    window = open_window(build_parser().parse_args([str(path)]))
    if isinstance(window, int):  # the core refused the file before Qt started
        assert window == 2
        return
    qtbot.addWidget(window)
    window.show()
    window.load_views()
    _visit_tabs(qtbot, window)
    raw = [(where, text) for where, text in _assert_short(window) if _RAW.search(text)]
    assert not raw, raw[:5]
    assert f"Block «{ESCAPED[:39]}…» · Mixer" in window.form.sections


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
