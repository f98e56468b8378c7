"""Answer the real dialogs and menus the window opens, with real key and mouse events.

A modal dialog or a popup menu runs its own event loop, so the test cannot act after the call
that opens it. ``Modals`` polls from a timer (which keeps firing inside those loops), and hands
each new modal widget to the next queued handler. A handler drives the widget as a person
would: ``qtbot.keyClicks`` into its line edits, ``qtbot.mouseClick`` on its real buttons,
clicks on a menu entry. Nothing is replaced: the dialog the window shows is the one answered.

A dialog nobody expected is rejected after a short wait and reported as a failure, so a test
never hangs on it. Qt's own QFileDialog and QMessageBox are answered the same way (``save_as``,
``cancel``, ``click``); ``kinds`` and ``said`` record each one's class and a message box's text.
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QPoint, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent, QInputMethodEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QDialog,
    QFileDialog,
    QLineEdit,
    QMenu,
    QMessageBox,
    QWidget,
)
from pytestqt.qtbot import QtBot

Handler = Callable[[QWidget], None]
UNEXPECTED_AFTER = 3.0  # seconds a dialog may wait with no handler before it is rejected


def type_as_a_person(qtbot: QtBot, widget: QWidget, text: str) -> None:
    """Type ``text`` into ``widget``: ASCII as key presses, anything else (设计报告, é) as an input
    method commits it, the way a person's IME does. QTest's key clicks know ASCII keys only (they
    abort the process on any other character)."""
    for run in re.findall(r"[\x00-\x7f]+|[^\x00-\x7f]+", text):
        if run.isascii():
            qtbot.keyClicks(widget, run)
        else:
            event = QInputMethodEvent()
            event.setCommitString(run)
            QApplication.sendEvent(widget, event)


def plain(text: str) -> str:
    """A button or action text without its mnemonic marker and shortcut: '&Save' → 'Save'."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").split("\t")[0]


class Modals:
    def __init__(self, qtbot: QtBot) -> None:
        self.qtbot = qtbot
        self.handlers: deque[tuple[str, Handler]] = deque()
        self.errors: list[str] = []
        self.seen: list[str] = []  # window titles (or menu entries) of every widget answered
        self.kinds: list[str] = []  # their classes: "QFileDialog", "QMessageBox", "QMenu", …
        self.said: list[str] = []  # the text of every message box answered
        self._waiting: dict[int, float] = {}
        self._handling: list[QWidget] = []  # widgets whose handler is running (it may open another)
        self._timer = QTimer()
        self._timer.setInterval(15)
        self._timer.timeout.connect(self._poll)
        self._timer.start()

    # --- queueing answers --------------------------------------------------------------------

    def expect(self, handler: Handler, what: str = "") -> None:
        """``handler(widget)`` answers the next modal dialog or popup menu to open."""
        self.handlers.append((what or getattr(handler, "__name__", "dialog"), handler))

    def click(self, button: str) -> None:
        """The next dialog is answered by clicking its button labelled ``button`` ('&' ignored)."""
        self.expect(lambda dialog: self.click_button(dialog, button), f"click {button}")

    def type_and_click(self, text: str, button: str = "OK", field: str | None = None) -> None:
        """The next dialog gets ``text`` typed into its line edit (or ``field``), then ``button``."""

        def answer(dialog: QWidget) -> None:
            self.type_text(dialog, text, field)
            self.click_button(dialog, button)

        self.expect(answer, f"type {text!r}, click {button}")

    def choose_file(self, path: str, button: str) -> None:
        """The next file dialog gets ``path`` typed as the file name, then its ``button`` clicked."""

        def answer(dialog: QWidget) -> None:
            self.type_text(dialog, path, "fileNameEdit")
            self.click_button(dialog, button)

        self.expect(answer, f"file {path}")

    def save_as(self, path: str) -> None:
        """The next file dialog gets ``path`` typed over its file name, then Enter (as a person
        saving does)."""

        def answer(dialog: QWidget) -> None:
            assert isinstance(dialog, QFileDialog), f"expected a file dialog, got {type(dialog).__name__}"
            self.type_text(dialog, path, "fileNameEdit")
            edit = dialog.findChild(QLineEdit, "fileNameEdit")
            self.qtbot.keyClick(edit, Qt.Key.Key_Return)

        self.expect(answer, f"save as {path}")

    def cancel(self) -> None:
        """The next dialog is closed with Escape."""
        self.press(Qt.Key.Key_Escape, "Escape")

    def press(self, key: Qt.Key, what: str = "") -> None:
        """The next menu (or dialog) gets one key press: a mnemonic, an arrow, Return."""
        self.expect(lambda widget: self.qtbot.keyClick(widget, key), what or f"key {key.name}")

    def choose(self, entry: str) -> None:
        """The next popup menu is answered by clicking its entry ``entry``."""
        self.expect(lambda menu: self.click_action(menu, entry), f"menu {entry}")

    # --- acting on a widget ------------------------------------------------------------------

    def button(self, dialog: QWidget, text: str) -> QAbstractButton:
        buttons = [b for b in dialog.findChildren(QAbstractButton) if b.isVisible()]
        for candidate in buttons:
            if plain(candidate.text()).lower() == text.lower():
                return candidate
        raise AssertionError(f"no button {text!r} in {dialog.windowTitle()!r}: {[b.text() for b in buttons]}")

    def click_button(self, dialog: QWidget, text: str) -> None:
        button = self.button(dialog, text)
        assert button.isEnabled(), f"button {text!r} is disabled"
        self.qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    def type_text(self, dialog: QWidget, text: str, field: str | None = None) -> None:
        """Select what the line edit holds and type ``text`` over it."""
        edits = [e for e in dialog.findChildren(QLineEdit) if e.isVisible() and e.isEnabled()]
        if field is not None:
            edits = [e for e in edits if e.objectName() == field]
        assert edits, f"no line edit {field or ''} in {dialog.windowTitle()!r}"
        edit = edits[0]
        edit.setFocus()
        edit.selectAll()
        self.qtbot.keyClick(edit, Qt.Key.Key_Delete)
        type_as_a_person(self.qtbot, edit, text)

    def click_action(self, menu: QWidget, entry: str) -> None:
        assert isinstance(menu, QMenu), f"expected a menu, got {menu!r}"
        actions = {plain(action.text()): action for action in menu.actions() if not action.isSeparator()}
        assert entry in actions, f"no entry {entry!r} in the menu: {sorted(actions)}"
        action = actions[entry]
        assert action.isEnabled(), f"menu entry {entry!r} is disabled"
        self.qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center())

    # --- the loop ----------------------------------------------------------------------------

    def _current(self) -> QWidget | None:
        popup = QApplication.activePopupWidget()  # a menu; not a line edit's completer list
        widget = popup if isinstance(popup, QMenu) else QApplication.activeModalWidget()
        return widget if widget is not None and widget.isVisible() else None

    def _poll(self) -> None:
        widget = self._current()
        if widget is None or any(widget is busy for busy in self._handling):
            return
        if not self.handlers:
            started = self._waiting.setdefault(id(widget), time.monotonic())
            if time.monotonic() - started > UNEXPECTED_AFTER:
                self.errors.append(f"unexpected {type(widget).__name__} {widget.windowTitle()!r}")
                self._dismiss(widget)
            return
        what, handler = self.handlers.popleft()
        self._handling.append(widget)
        # Run from a timer of its own: Qt never re-enters a timer's slot, so the poll must return
        # before the handler opens the next dialog (whose loop needs the poll again).
        QTimer.singleShot(0, lambda: self._run(widget, what, handler))

    def _run(self, widget: QWidget, what: str, handler: Handler) -> None:
        try:
            self.seen.append(widget.windowTitle() if isinstance(widget, QDialog) else what)
            self.kinds.append(type(widget).__name__)
            if isinstance(widget, QMessageBox):
                self.said.append(widget.text())
            handler(widget)
        except Exception as exc:  # reported by check(); the dialog must not stay open
            self.errors.append(f"{what}: {type(exc).__name__}: {exc}")
            self._dismiss(widget)
        finally:
            self._handling.remove(widget)

    @staticmethod
    def _dismiss(widget: QWidget) -> None:
        if isinstance(widget, QDialog):
            widget.reject()
        else:
            widget.close()

    def check(self) -> None:
        """Every queued answer was used and nothing went wrong inside a dialog."""
        assert not self.errors, self.errors
        assert not self.handlers, f"never asked: {[what for what, _ in self.handlers]}"

    def wait_done(self, timeout: int = 5000) -> None:
        """Wait until every queued answer has been given (for dialogs opened from a timer)."""
        self.qtbot.waitUntil(lambda: not self.handlers and not self._handling, timeout=timeout)
        self.check()

    def stop(self) -> None:
        self._timer.stop()


def right_click(qtbot: QtBot, widget: QWidget, pos: QPoint) -> None:
    """A right-click: the button pressed and released on ``widget``, and the context-menu event
    the window system delivers with it (posted, as Qt posts it).

    Why not only the click on the QWindow, which makes Qt synthesize the menu event itself:
    offscreen, that event is placed by a global position that can land on another widget (the
    menu bar) once a window of an earlier test has been shown and closed.
    """
    qtbot.mouseClick(widget, Qt.MouseButton.RightButton, pos=pos)
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, widget.mapToGlobal(pos))
    QApplication.postEvent(widget, event)


def right_click_row(qtbot: QtBot, view: QAbstractItemView, index: QModelIndex, modals: Modals) -> None:
    """Right-click a row and wait until its menu (and what the menu opened) has been answered:
    the context-menu event may be posted rather than sent, as a person's click is."""
    view.scrollTo(index)
    right_click(qtbot, view.viewport(), view.visualRect(index).center())
    modals.wait_done()


def give_focus(qtbot: QtBot, widget: QWidget) -> None:
    """Activate ``widget``'s window and focus it: what the window manager does after a dialog closes
    (offscreen there is none, so the window stays inactive and window shortcuts would not fire)."""
    window = widget.window()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2000)
    widget.setFocus()
