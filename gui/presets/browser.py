"""The preset browser panel: the searchable list, a dirty marker, and buttons for the file commands.

The list is ``PresetList``; the commands are ``PresetActions``. ``add_preset_actions`` puts the
same commands in the File menu and the "save changes?" question in front of closing the window.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QGridLayout, QLabel, QMenu, QPushButton, QVBoxLayout, QWidget

from paramtally.core.io import user_presets
from paramtally.gui.document import Document
from paramtally.gui.i18n import translate
from paramtally.gui.presets.actions import PresetActions
from paramtally.gui.presets.preset_list import PresetList
from paramtally.gui.shown_text import PATH_CHARS, shown

__all__ = ["BUTTONS", "PresetsBrowser", "add_preset_actions"]

BUTTONS = (
    QT_TRANSLATE_NOOP("Presets", "Open"),
    QT_TRANSLATE_NOOP("Presets", "Save"),
    QT_TRANSLATE_NOOP("Presets", "Save As…"),
    QT_TRANSLATE_NOOP("Presets", "Rename…"),
    QT_TRANSLATE_NOOP("Presets", "Duplicate…"),
    QT_TRANSLATE_NOOP("Presets", "Delete…"),
    QT_TRANSLATE_NOOP("Presets", "Import…"),
    QT_TRANSLATE_NOOP("Presets", "Export…"),
)
_COLUMNS = 2  # two columns keep the dock narrow enough for a 1024-pixel window (issue 11)


class PresetsBrowser(QWidget):
    """objectName ``presetsBrowser``; children ``presetFilter``, ``presetList``, ``presetDirty``.

    ``presets`` is the list, ``ops`` the file commands (open, save, rename, …).
    """

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("presetsBrowser")
        self.document = document
        self.presets = PresetList()
        self.ops = PresetActions(document, self.presets, self)
        self.marker = QLabel()
        self.marker.setObjectName("presetDirty")
        self.marker.setWordWrap(True)  # a narrow dock: the line wraps rather than widening the dock
        self.buttons = {text: QPushButton(translate("Presets", text)) for text in BUTTONS}
        self._layout()
        self._connect()
        self._follow_document()
        self._update_buttons()
        self._update_marker()

    def maybe_save(self) -> bool:
        """Ask to save unsaved changes; False means the person cancelled (stay where we are)."""
        return self.ops.maybe_save()

    def request_quit(self, window: QWidget) -> bool:
        """File → Quit: close ``window`` after "save changes?"; False if the person cancelled."""
        return self.ops.request_quit(window)

    def _layout(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.presets, 1)
        layout.addWidget(self.marker)
        grid = QGridLayout()  # a grid, so both rows of buttons line up in columns
        for index, text in enumerate(BUTTONS):
            button = self.buttons[text]
            button.setObjectName("preset" + text.strip("…").replace(" ", ""))
            grid.addWidget(button, *divmod(index, _COLUMNS))
        layout.addLayout(grid)

    def _connect(self) -> None:
        self.presets.activated.connect(self.ops.open_preset)
        self.presets.selection_changed.connect(self._update_buttons)
        self.ops.current_changed.connect(self._update_marker)
        # A method, not a lambda: the connection ends with the browser (View → Language builds another).
        self.document.undo_stack.cleanChanged.connect(self._clean_changed)
        self.document.changed.connect(self._update_marker)
        self.document.source_changed.connect(self._follow_document)
        commands = {
            "Open": self.ops.open_selected,
            "Save": self.ops.save,
            "Save As…": self.ops.save_as,
            "Rename…": self.ops.rename_selected,
            "Duplicate…": self.ops.duplicate_selected,
            "Delete…": self.ops.delete_selected,
            "Import…": self.ops.import_file,
            "Export…": self.ops.export_selected,
        }
        for text, slot in commands.items():
            self.buttons[text].clicked.connect(lambda _=False, slot=slot: slot())

    def _update_buttons(self) -> None:
        chosen = self.presets.selected()
        user = chosen is not None and chosen[1] == "user"
        self.buttons["Open"].setEnabled(chosen is not None)
        self.buttons["Rename…"].setEnabled(user)
        self.buttons["Delete…"].setEnabled(user)
        self.buttons["Duplicate…"].setEnabled(chosen is not None)
        self.buttons["Export…"].setEnabled(chosen is not None)

    def _follow_document(self) -> None:
        """Highlight the open preset's row (none for a file), whichever way it was opened."""
        if self.document.preset_id is None or not self.presets.select_preset(self.document.preset_id):
            self.presets.clear_selection()
        self._update_marker()

    def _clean_changed(self, _clean: bool) -> None:
        self._update_marker()

    def _update_marker(self) -> None:
        if not shiboken6.isValid(self.document.undo_stack) or not shiboken6.isValid(self.marker):
            return  # the window is being torn down
        current = self.ops.current_id
        unnamed = translate("Presets", "unsaved model")
        name = shown(current or self.document.source_label or unnamed, PATH_CHARS, middle=True)
        kind = translate("Presets", " (user)") if current and user_presets.is_user(current) else ""
        # Said as the open model's: under a filtered list, the bare name read as the row selected.
        unsaved = translate("Presets", "  ● unsaved changes") if self.document.dirty else ""
        self.marker.setText(
            translate("Presets", "Open in the window: {name}").format(name=name) + kind + unsaved
        )


def add_preset_actions(menu: QMenu, browser: PresetsBrowser, window: QWidget | None = None) -> list[QAction]:
    """File-menu entries for presets; with ``window``, also the "save changes?" on quitting."""
    entries = [
        (QT_TRANSLATE_NOOP("Presets", "Save Preset"), QKeySequence.StandardKey.Save, browser.ops.save),
        (
            QT_TRANSLATE_NOOP("Presets", "Save Preset As…"),
            QKeySequence.StandardKey.SaveAs,
            browser.ops.save_as,
        ),
        (QT_TRANSLATE_NOOP("Presets", "Import Preset…"), None, browser.ops.import_file),
        (QT_TRANSLATE_NOOP("Presets", "Export Preset…"), None, browser.ops.export_open_model),
    ]
    actions = []
    for text, shortcut, slot in entries:
        action = menu.addAction(
            translate("Presets", text), slot
        )  # the slot is called without the "checked" argument
        action.setObjectName("action" + text.strip("…").replace(" ", ""))
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        actions.append(action)
    if window is not None:
        browser.ops.guard_close(window)
    return actions
