"""Fixtures for the window tests: a Document on a preset, the main window, typing into a field.

The root conftest points XDG_CONFIG_HOME at a fresh folder, so the window's QSettings never
touch the real config dir; ``config_dir`` checks that promise where geometry is saved.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from paramtally.core.io.model_sources import load_source
from paramtally.gui.document import Document
from paramtally.gui.main_window import MainWindow
from tests.gui.modals import Modals
from tests.gui.views_support import preset_window

TypeInto = Callable[[QWidget, str], None]


@pytest.fixture(autouse=True)
def patient_type_ahead(qapp: QApplication) -> Iterator[None]:
    """Qt's type-ahead in combo boxes and lists forgets typed letters after 400 ms; a loaded CI
    machine can pause that long between two synthetic keys, so typed choices would land elsewhere."""
    interval = qapp.keyboardInputInterval()
    qapp.setKeyboardInputInterval(60_000)
    yield
    qapp.setKeyboardInputInterval(interval)


@pytest.fixture(autouse=True)
def widgets_held_until_closed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each widget given to ``qtbot.addWidget`` lives until pytest-qt's teardown has closed it.

    pytest-qt keeps a weak reference only, so a widget whose last name was the test's local
    variable lived on after the test in reference cycles alone (a pyqtgraph plot always is in
    some), shown: the events pytest-qt processes after the test painted it, and a collection by
    Python's collector inside that paint freed it under its own paintEvent — a worker's segfault,
    rare and in no fixed test (tests/gui/test_widget_lifetime.py makes the collection fall there).
    """
    held: list[QWidget] = []
    add_widget = QtBot.addWidget

    def holding(
        bot: QtBot, widget: QWidget, *, before_close_func: Callable[[QWidget], None] | None = None
    ) -> None:
        held.append(widget)
        add_widget(bot, widget, before_close_func=before_close_func)

    monkeypatch.setattr(QtBot, "addWidget", holding)
    yield
    held.clear()  # after pytest-qt's teardown hook closed them: hidden, never painted again


@pytest.fixture
def document() -> Document:
    return Document(load_source("gpt3-175b"), "gpt3-175b", preset_id="gpt3-175b")


@pytest.fixture
def window(qtbot: QtBot, document: Document) -> MainWindow:
    win = MainWindow(document)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    return win


@pytest.fixture
def llama_window(qtbot: QtBot) -> MainWindow:
    """Llama-3-8B in a window of 1440×900 (the explore tabs' tests)."""
    return preset_window(qtbot, "llama-3-8b")


@pytest.fixture
def config_dir(tmp_path: Path) -> Path:
    """Where platformdirs puts our settings now: must be the test's private folder."""
    from platformdirs import user_config_path

    path = user_config_path("paramtally", appauthor=False)
    assert str(path).startswith(os.environ["XDG_CONFIG_HOME"])
    return path


@pytest.fixture
def type_into(qtbot: QtBot) -> TypeInto:
    """Select what a field shows, type ``text`` and press Enter, as a person would."""

    def type_(widget: QWidget, text: str) -> None:
        line = widget.lineEdit() if hasattr(widget, "lineEdit") else widget
        line.setFocus()
        line.selectAll()
        if text:
            qtbot.keyClicks(line, text)
        else:
            qtbot.keyClick(line, Qt.Key.Key_Delete)
        qtbot.keyClick(line, Qt.Key.Key_Return)

    return type_


@pytest.fixture
def modals(qtbot: QtBot) -> Iterator[Modals]:
    """Answers for the real dialogs and menus a test opens (see tests/gui/modals.py)."""
    answering = Modals(qtbot)
    yield answering
    answering.stop()
    answering.check()
