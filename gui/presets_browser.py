"""The preset browser: built-in and user presets, searchable, with a dirty marker.

Every file operation goes through ``core.user_presets`` (atomic writes; reading never writes).
Before the document is replaced (switching presets, quitting) the person is asked whether to
save changes. Dialogs are Qt's static helpers so tests can replace them.
"""

from __future__ import annotations

from pathlib import Path

import shiboken6
from PySide6.QtCore import QEvent, QFileSystemWatcher, QObject, Qt, Signal
from PySide6.QtGui import QAction, QColor, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core import presets, user_presets
from core.errors import ParamTallyError
from core.user_presets import PresetEntry
from gui.document import Document

__all__ = ["ID_ROLE", "ORIGIN_ROLE", "PresetsBrowser", "add_preset_actions"]

ID_ROLE = Qt.ItemDataRole.UserRole
ORIGIN_ROLE = Qt.ItemDataRole.UserRole + 1
_BUTTONS = ("Open", "Save", "Save As…", "Rename…", "Duplicate…", "Delete…", "Import…", "Export…")


class PresetsBrowser(QWidget):
    """objectName ``presetsBrowser``; children ``presetFilter``, ``presetList``, ``presetDirty``."""

    opened = Signal(str)  # a preset id was loaded into the document

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("presetsBrowser")
        self.document = document
        self._current: str | None = None
        self.close_guard: _CloseGuard | None = None
        self.filter = QLineEdit(placeholderText="Search presets…", clearButtonEnabled=True)
        self.filter.setObjectName("presetFilter")
        self.list = QListWidget()
        self.list.setObjectName("presetList")
        self.marker = QLabel()
        self.marker.setObjectName("presetDirty")
        self.buttons = {text: QPushButton(text) for text in _BUTTONS}
        self._layout()
        self._watcher = QFileSystemWatcher(self)
        self._connect()
        self.refresh()
        if document.source_label in {item.data(ID_ROLE) for item in self.items()}:
            self._current = document.source_label  # the window opened a preset by its id
            if not self.select(self._current, "user"):
                self.select(self._current)
        self._update_marker()

    @property
    def current_id(self) -> str | None:
        """The preset the document holds; None once something else was opened (a config.json)."""
        return self._current if self._current == self.document.source_label else None

    @current_id.setter
    def current_id(self, preset_id: str | None) -> None:
        self._current = preset_id

    # --- building ---------------------------------------------------------------------------------

    def _layout(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.filter)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.marker)
        for row in (_BUTTONS[:4], _BUTTONS[4:]):
            line = QHBoxLayout()
            for text in row:
                button = self.buttons[text]
                button.setObjectName("preset" + text.strip("…").replace(" ", ""))
                line.addWidget(button)
            layout.addLayout(line)

    def _connect(self) -> None:
        self.filter.textChanged.connect(self._apply_filter)
        self.list.itemActivated.connect(lambda item: self.open_preset(item.data(ID_ROLE)))
        self.list.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.document.undo_stack.cleanChanged.connect(lambda _clean: self._update_marker())
        self.document.changed.connect(self._update_marker)
        self._watcher.directoryChanged.connect(lambda _path: self.refresh())
        actions = {
            "Open": self.open_selected,
            "Save": self.save,
            "Save As…": self.save_as,
            "Rename…": self.rename_selected,
            "Duplicate…": self.duplicate_selected,
            "Delete…": self.delete_selected,
            "Import…": self.import_file,
            "Export…": self.export_selected,
        }
        for text, slot in actions.items():
            self.buttons[text].clicked.connect(lambda _=False, slot=slot: slot())

    # --- the list -----------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Re-read the preset folders (files changed by the CLI or another window show up)."""
        selected = self.selected()
        self.list.clear()
        for entry in user_presets.list_presets():
            self.list.addItem(self._item(entry))
        self._watch()
        self._apply_filter(self.filter.text())
        if selected:
            self.select(*selected)
        self._update_buttons()

    def _item(self, entry: PresetEntry) -> QListWidgetItem:
        detail = entry.problem if entry.broken else entry.name
        item = QListWidgetItem(f"{entry.id}  —  {detail}  [{entry.label}]")
        item.setData(ID_ROLE, entry.id)
        item.setData(ORIGIN_ROLE, entry.origin)
        item.setToolTip(f"{entry.path}\n{entry.problem or entry.name}")
        if entry.broken:
            item.setForeground(QColor("#b3261e"))
        return item

    def _watch(self) -> None:
        folder = user_presets.presets_dir()
        if folder.is_dir() and str(folder) not in self._watcher.directories():
            self._watcher.addPath(str(folder))

    def _apply_filter(self, text: str) -> None:
        needle = text.strip().lower()
        for row in range(self.list.count()):
            item = self.list.item(row)
            item.setHidden(bool(needle) and needle not in item.text().lower())

    def items(self) -> list[QListWidgetItem]:
        return [self.list.item(row) for row in range(self.list.count())]

    def visible_ids(self) -> list[str]:
        return [item.data(ID_ROLE) for item in self.items() if not item.isHidden()]

    def selected(self) -> tuple[str, str] | None:
        item = self.list.currentItem()
        return (item.data(ID_ROLE), item.data(ORIGIN_ROLE)) if item is not None else None

    def select(self, preset_id: str, origin: str | None = None) -> bool:
        for item in self.items():
            if item.data(ID_ROLE) == preset_id and origin in (None, item.data(ORIGIN_ROLE)):
                self.list.setCurrentItem(item)
                return True
        return False

    def _update_buttons(self) -> None:
        chosen = self.selected()
        user = chosen is not None and chosen[1] == "user"
        self.buttons["Open"].setEnabled(chosen is not None)
        self.buttons["Rename…"].setEnabled(user)
        self.buttons["Delete…"].setEnabled(user)
        self.buttons["Duplicate…"].setEnabled(chosen is not None)
        self.buttons["Export…"].setEnabled(chosen is not None)

    def _update_marker(self) -> None:
        if not shiboken6.isValid(self.document.undo_stack) or not shiboken6.isValid(self.marker):
            return  # the window is being torn down
        name = self.current_id or self.document.source_label or "unsaved model"
        kind = " (user)" if self.current_id and user_presets.is_user(self.current_id) else ""
        self.marker.setText(f"{name}{kind}" + ("  ● unsaved changes" if self.document.dirty else ""))

    # --- switching and saving -----------------------------------------------------------------------

    def maybe_save(self) -> bool:
        """Ask to save unsaved changes; False means the person cancelled (stay where we are)."""
        if not self.document.dirty:
            return True
        answer = QMessageBox.question(
            self,
            "Save changes?",
            f"“{self.current_id or self.document.source_label}” has unsaved changes. Save them as a preset?",
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def request_quit(self, window: QWidget) -> bool:
        """File → Quit: close ``window`` after "save changes?"; False if the person cancelled."""
        if self.close_guard is None:
            return self.maybe_save() and window.close()
        self.close_guard.asked_by_person = True
        try:
            return window.close()
        finally:
            self.close_guard.asked_by_person = False

    def open_selected(self) -> bool:
        chosen = self.selected()
        return self.open_preset(chosen[0]) if chosen else False

    def open_preset(self, preset_id: str) -> bool:
        if preset_id == self.current_id and not self.document.dirty:
            return True
        if not self.maybe_save():
            return False
        try:
            arch = user_presets.load(preset_id)
        except ParamTallyError as exc:
            self._warn("Cannot open preset", str(exc))
            return False
        self.document.load(arch, preset_id)
        self.current_id = preset_id
        self._update_marker()
        self.opened.emit(preset_id)
        return True

    def save(self) -> bool:
        """Save over the current user preset; a built-in (or unnamed) model goes through Save As."""
        if self.current_id is None or not user_presets.is_user(self.current_id):
            return self.save_as()
        return self._write(self.current_id)

    def save_as(self) -> bool:
        suggestion = f"{self.current_id}-custom" if self.current_id else "my-model"
        preset_id = self._ask_id("Save preset as", suggestion)
        if preset_id is None or not self._confirm_overwrite(preset_id):
            return False
        if self._write(preset_id):
            self.current_id = preset_id
            self.document.source_label = preset_id
            self._update_marker()
            return True
        return False

    def _write(self, preset_id: str) -> bool:
        try:
            user_presets.save(preset_id, self.document.architecture)
        except ParamTallyError as exc:
            self._warn("Cannot save preset", str(exc))
            return False
        self.document.undo_stack.setClean()
        self.refresh()
        self.select(preset_id, "user")
        self._update_marker()
        return True

    # --- managing files ------------------------------------------------------------------------------

    def rename_selected(self) -> bool:
        chosen = self.selected()
        if chosen is None or chosen[1] != "user":
            return False
        new_id = self._ask_id("Rename preset", chosen[0])
        if new_id is None or new_id == chosen[0]:
            return False
        done = self._run("Cannot rename preset", lambda: user_presets.rename(chosen[0], new_id))
        if done and self.current_id == chosen[0]:
            self.current_id = new_id
            self.document.source_label = new_id
        self._after_change(new_id if done else chosen[0])
        return done

    def duplicate_selected(self) -> bool:
        chosen = self.selected()
        if chosen is None:
            return False
        new_id = self._ask_id("Duplicate preset", f"{chosen[0]}-copy")
        if new_id is None:
            return False
        done = self._run("Cannot duplicate preset", lambda: user_presets.duplicate(chosen[0], new_id))
        self._after_change(new_id if done else chosen[0])
        return done

    def delete_selected(self) -> bool:
        chosen = self.selected()
        if chosen is None or chosen[1] != "user":
            return False
        shadow = (
            " The built-in preset of that id will show again." if chosen[0] in presets.builtin_ids() else ""
        )
        answer = QMessageBox.question(
            self,
            "Delete preset?",
            f"Delete the user preset “{chosen[0]}” ({user_presets.user_path(chosen[0])})? "
            f"This cannot be undone.{shadow}",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        done = self._run("Cannot delete preset", lambda: user_presets.delete(chosen[0]))
        self._after_change(chosen[0])
        return done

    def import_file(self) -> bool:
        name, _ = QFileDialog.getOpenFileName(
            self, "Import preset", "", "Presets and config.json (*.json);;All files (*)"
        )
        if not name:
            return False
        path = Path(name)
        preset_id = self._ask_id("Import as preset", path.stem if path.stem != "config" else path.parent.name)
        if preset_id is None or not self._confirm_overwrite(preset_id):
            return False
        done = self._run(
            "Cannot import preset", lambda: user_presets.import_file(path, preset_id, overwrite=True)
        )
        self._after_change(preset_id)
        return done

    def export_selected(self) -> bool:
        chosen = self.selected() or ((self.current_id, "") if self.current_id else None)
        if chosen is None:
            return False
        name, _ = QFileDialog.getSaveFileName(self, "Export preset", f"{chosen[0]}.json", "Presets (*.json)")
        if not name:
            return False
        # The file dialog has already asked before replacing an existing file.
        return self._run(
            "Cannot export preset", lambda: user_presets.export(chosen[0], Path(name), overwrite=True)
        )

    # --- helpers ---------------------------------------------------------------------------------------

    def _ask_id(self, title: str, suggestion: str) -> str | None:
        while True:
            text, ok = QInputDialog.getText(
                self, title, "Preset id (letters, digits, . _ + -):", text=suggestion
            )
            if not ok or not text.strip():
                return None
            try:
                return presets.check_preset_id(text.strip())
            except ParamTallyError as exc:
                self._warn(title, str(exc))
                suggestion = text.strip()

    def _confirm_overwrite(self, preset_id: str) -> bool:
        if user_presets.is_user(preset_id):
            question = f"A user preset “{preset_id}” exists. Replace it?"
        elif preset_id in presets.builtin_ids():
            question = f"“{preset_id}” is a built-in id. Save a user preset that shadows it?"
        else:
            return True
        answer = QMessageBox.question(
            self,
            "Replace preset?",
            question,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def _run(self, title: str, action: object) -> bool:
        try:
            action()  # type: ignore[operator]
        except ParamTallyError as exc:
            self._warn(title, str(exc))
            return False
        return True

    def _after_change(self, select_id: str) -> None:
        self.refresh()
        if not self.select(select_id, "user"):
            self.select(select_id)
        self._update_marker()

    def _warn(self, title: str, message: str) -> None:
        QMessageBox.warning(self, title, message)


class _CloseGuard(QObject):
    """Asks "save changes?" before a person closes the window; a cancel keeps it open.

    Only closes a person asks for: the window manager's close button (a spontaneous event) or
    File → Quit through ``PresetsBrowser.request_quit``. A program closing the window (tests,
    ``--screenshot``) is never stopped by a modal question.
    """

    def __init__(self, browser: PresetsBrowser) -> None:
        super().__init__(browser)
        self.browser = browser
        self.asked_by_person = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.Close or not (event.spontaneous() or self.asked_by_person):
            return False
        if self.browser.maybe_save():
            return False
        event.ignore()
        return True


def add_preset_actions(menu: QMenu, browser: PresetsBrowser, window: QWidget | None = None) -> list[QAction]:
    """File-menu entries for presets; with ``window``, also the "save changes?" on quitting."""
    entries = [
        ("Save Preset", QKeySequence.StandardKey.Save, browser.save),
        ("Save Preset As…", QKeySequence.StandardKey.SaveAs, browser.save_as),
        ("Import Preset…", None, browser.import_file),
        ("Export Preset…", None, browser.export_selected),
    ]
    actions = []
    for text, shortcut, slot in entries:
        action = QAction(text, menu)
        action.setObjectName("action" + text.strip("…").replace(" ", ""))
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _=False, slot=slot: slot())
        menu.addAction(action)
        actions.append(action)
    if window is not None:
        browser.close_guard = _CloseGuard(browser)
        window.installEventFilter(browser.close_guard)
    return actions
