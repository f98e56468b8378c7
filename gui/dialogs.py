"""Every question the window asks, in one place: files, yes/no, a name, a warning (a number from a
range is the layer tree's own, gui/layer_tree/dialogs.py).

Each is Qt's own dialog, shown modally; what this adds is what a person expects of them all:
Alt mnemonics on the buttons, file dialogs that open in the folder used last time, a name typed
without a suffix that takes the chosen filter's. Tests answer these real dialogs with key and
mouse events (tests/gui/modals.py); nothing here is meant to be replaced.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialogButtonBox,
    QFileDialog,
    QInputDialog,
    QLineEdit,
    QMessageBox,
    QWidget,
)

from paramtally.core.errors import ParamTallyError, one_line
from paramtally.gui.i18n import said_text, translate
from paramtally.gui.settings import settings
from paramtally.gui.shown_text import MESSAGE_CHARS, shown

__all__ = [
    "Button",
    "add_mnemonics",
    "ask_open_path",
    "ask_question",
    "ask_save_path",
    "ask_text",
    "attempt",
    "warn",
]

_FILTER_SUFFIX = re.compile(r"\(\*(\.\w+)")
Button = QMessageBox.StandardButton


def add_mnemonics(buttons: QDialogButtonBox | list[QAbstractButton]) -> None:
    """Give each button an Alt mnemonic ('OK' → '&OK') unless it has one: its first letter, or
    its first one no other button has taken (GNOME names Discard 'Close without Saving', which
    took Cancel's Alt+C)."""
    items = buttons.buttons() if isinstance(buttons, QDialogButtonBox) else buttons
    taken = {_mnemonic(button.text()) for button in items} - {""}
    for button in items:
        text = button.text()
        if _mnemonic(text):
            continue
        free = [i for i, char in enumerate(text) if char.isalnum() and char.lower() not in taken]
        at = free[0] if free else 0
        taken.add(text[at : at + 1].lower())
        button.setText(f"{text[:at]}&{text[at:]}")


def _mnemonic(text: str) -> str:
    """The letter after a single '&' ('Do&n't' → 'n'), or ''."""
    found = re.search("&(.)", text.replace("&&", ""))
    return found.group(1).lower() if found else ""


# --- files ---------------------------------------------------------------------------------------


def _folder(key: str) -> str:
    saved = str(settings().value(f"folders/{key}", ""))
    return saved if saved and Path(saved).is_dir() else str(Path.home())


def _remember(key: str, path: Path) -> None:
    settings().setValue(f"folders/{key}", str(path.parent))


def ask_open_path(parent: QWidget, title: str, filters: str, key: str = "open") -> Path | None:
    """The file to read, or None if cancelled; starts in the folder of the last file chosen for ``key``."""
    chosen, _ = QFileDialog.getOpenFileName(parent, title, _folder(key), filters)
    if not chosen:
        return None
    path = Path(chosen)
    _remember(key, path)
    return path


def ask_open_folder(parent: QWidget, title: str, key: str = "open") -> Path | None:
    """The folder to read (a model's, with its config.json), or None if cancelled; starts where the
    last file or folder for ``key`` was chosen."""
    chosen = QFileDialog.getExistingDirectory(parent, title, _folder(key))
    if not chosen:
        return None
    path = Path(chosen)
    _remember(key, path)  # the next dialog starts beside it, among its sibling models
    return path


def ask_save_path(
    parent: QWidget, title: str, name: str, filters: str, default_suffix: str, key: str = "save"
) -> Path | None:
    """The file to write, or None if cancelled; a name typed without a suffix takes the chosen filter's.

    The dialog starts in the folder last saved to (for ``key``) and has itself asked before
    replacing an existing file.
    """
    start = name if Path(name).is_absolute() else str(Path(_folder(key)) / name)
    chosen, selected = QFileDialog.getSaveFileName(parent, title, start, filters)
    if not chosen:
        return None
    path = Path(chosen)
    if not path.suffix:
        match = _FILTER_SUFFIX.search(selected)
        path = path.with_suffix(match.group(1) if match else default_suffix)
    _remember(key, path)
    return path


# --- questions -----------------------------------------------------------------------------------


def ask_question(
    parent: QWidget,
    title: str,
    text: str,
    buttons: Button = Button.Yes | Button.No,
    default: Button = Button.No,
    names: Mapping[Button, str] | None = None,
) -> Button:
    """A question with standard buttons (with mnemonics), ``names`` replacing the texts Qt gives
    some (they differ by desktop); the button chosen (Escape: the cancel one)."""
    box = _message_box(QMessageBox.Icon.Question, title, text, buttons, parent)
    box.setDefaultButton(default)
    for role, name in (names or {}).items():
        box.button(role).setText(translate("Dialogs", name))
    add_mnemonics(box.buttons())
    box.exec()
    return box.standardButton(box.clickedButton()) if box.clickedButton() else Button.Cancel


def warn(parent: QWidget, title: str, text: str) -> None:
    box = _message_box(QMessageBox.Icon.Warning, title, text, Button.Ok, parent)
    add_mnemonics(box.buttons())
    box.exec()


def _message_box(
    icon: QMessageBox.Icon, title: str, text: str, buttons: Button, parent: QWidget
) -> QMessageBox:
    """A message box saying ``text`` as plain text (a file's name may hold '<b>'), at most
    ``MESSAGE_CHARS`` of it with its control characters escaped: a message can quote a file."""
    box = QMessageBox(icon, title, shown(text, MESSAGE_CHARS, lines=True), buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    return box


def _input_dialog(parent: QWidget, title: str, label: str) -> QInputDialog:
    dialog = QInputDialog(parent)
    dialog.setWindowTitle(title)
    dialog.setLabelText(label)
    return dialog


def _run(dialog: QInputDialog) -> bool:
    """Show ``dialog`` with mnemonics on its buttons. Named after its mode and value are set: named
    before, the integer dialog's OK stayed greyed out until the number was edited (Qt 6)."""
    dialog.setOkButtonText(translate("Dialogs", "&OK"))
    dialog.setCancelButtonText(translate("Dialogs", "&Cancel"))
    return bool(dialog.exec())


def ask_text(parent: QWidget, title: str, label: str, text: str = "") -> str | None:
    """One line of text, or None if cancelled."""
    dialog = _input_dialog(parent, title, label)
    dialog.setTextEchoMode(QLineEdit.EchoMode.Normal)
    dialog.setTextValue(text)
    return dialog.textValue() if _run(dialog) else None


def attempt(parent: QWidget, title: str, action: Callable[[], object]) -> bool:
    """Run ``action``; a user error becomes one warning titled ``title`` and False (nothing else changes)."""
    try:
        action()
    except ParamTallyError as exc:
        warn(parent, title, said_text(one_line(exc)))
        return False
    return True
