"""Preset file commands: open, save, save as, rename, duplicate, delete, import, export.

Every file operation goes through ``core.io.user_presets`` (atomic writes; reading never writes).
A preset is saved with the memory scenario, which comes back when it is opened. Before the
document is replaced (switching presets, quitting) the person is asked whether to save changes.
Every question is a real dialog from ``gui.dialogs`` (or Save As's own), with Alt mnemonics.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QObject, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from paramtally.core.errors import ParamTallyError, one_line
from paramtally.core.io import presets, user_presets
from paramtally.core.io.recent import forget_source
from paramtally.gui.dialogs import ask_open_path, ask_question, ask_save_path, ask_text, attempt, warn
from paramtally.gui.document import Document
from paramtally.gui.i18n import said_text, translate
from paramtally.gui.presets.preset_list import PresetList
from paramtally.gui.presets.save_dialog import ask_name_and_id
from paramtally.gui.shown_text import PATH_CHARS, shown

__all__ = ["PresetActions"]

_Button = QMessageBox.StandardButton
# Alt+S, Alt+D, Alt+C on every desktop (GNOME's "Close without Saving" shared Cancel's Alt+C).
_SAVE_CHANGES = {
    _Button.Save: QT_TRANSLATE_NOOP("Dialogs", "&Save"),
    _Button.Discard: QT_TRANSLATE_NOOP("Dialogs", "&Don't Save"),
    _Button.Cancel: QT_TRANSLATE_NOOP("Dialogs", "&Cancel"),
}


class PresetActions(QObject):
    """The commands behind the browser's buttons and the File menu; each returns True if it happened."""

    opened = Signal(str)  # a preset id was loaded into the document
    current_changed = Signal()  # the preset the document holds was opened, saved, renamed

    def __init__(self, document: Document, preset_list: PresetList, dialog_parent: QWidget) -> None:
        super().__init__(dialog_parent)
        self.document = document
        self.preset_list = preset_list
        self.dialog_parent = dialog_parent
        self.close_guard: _CloseGuard | None = None

    @property
    def current_id(self) -> str | None:
        """The preset the document holds; None when it came from a file (a config.json)."""
        return self.document.preset_id

    # --- switching and saving -----------------------------------------------------------------------

    def maybe_save(self) -> bool:
        """Ask to save unsaved changes; False means the person cancelled (stay where we are)."""
        if not self.document.dirty:
            return True
        answer = ask_question(
            self.dialog_parent,
            translate("Presets", "Save changes?"),
            translate("Presets", "“{name}” has unsaved changes. Save them as a preset?").format(
                name=shown(self.current_id or self.document.source_label, PATH_CHARS, middle=True)
            ),
            _Button.Save | _Button.Discard | _Button.Cancel,
            _Button.Save,
            _SAVE_CHANGES,
        )
        if answer == _Button.Save:
            return self.save()
        return answer == _Button.Discard

    def request_quit(self, window: QWidget) -> bool:
        """File → Quit: close ``window`` after "save changes?"; False if the person cancelled."""
        if self.close_guard is None:
            return self.maybe_save() and window.close()
        self.close_guard.asked_by_person = True
        try:
            return window.close()
        finally:
            self.close_guard.asked_by_person = False

    def guard_close(self, window: QWidget) -> None:
        """Ask "save changes?" when a person closes ``window``."""
        self.close_guard = _CloseGuard(self)
        window.installEventFilter(self.close_guard)

    def open_selected(self) -> bool:
        chosen = self.preset_list.selected()
        if chosen is not None and chosen[1] == "builtin":
            return self.open_builtin(chosen[0])
        return self.open_preset(chosen[0]) if chosen else False

    def open_builtin(self, preset_id: str) -> bool:
        """The built-in preset itself, even when a user preset of that id shadows it (the id opens
        the user's): then it opens as an unsaved model, which Save saves under a new id, so the
        user's preset is never written over by it."""
        if not user_presets.is_user(preset_id):
            return self.open_preset(preset_id)
        if not self.maybe_save():
            return False
        arch = presets.load_builtin(preset_id)
        self.document.load(arch, f"{preset_id} (built-in)", None)
        self.current_changed.emit()
        return True

    def open_preset(self, preset_id: str) -> bool:
        if preset_id == self.current_id and not self.document.dirty:
            return True
        if not self.maybe_save():
            return False
        try:
            preset = user_presets.load_preset(preset_id)
        except ParamTallyError as exc:
            warn(self.dialog_parent, translate("Presets", "Cannot open preset"), said_text(one_line(exc)))
            return False
        self.document.load(preset.architecture, preset_id, preset_id, preset.scenario)
        self.current_changed.emit()
        self.opened.emit(preset_id)
        return True

    def save(self) -> bool:
        """Save over the current user preset; a built-in (or unnamed) model goes through Save As."""
        if self.current_id is None or not user_presets.is_user(self.current_id):
            return self.save_as()
        return self._write(self.current_id)

    def save_as(self) -> bool:
        """Ask a display name and an id; the model takes the name, the file the id."""
        name = self.document.architecture.name
        name = (
            name if self.current_id is None or user_presets.is_user(self.current_id) else f"{name} (custom)"
        )
        # Asked inside the dialog: a No goes back to it with the id selected (it closed the save).
        parent, suggested = self.dialog_parent, user_presets.id_from_name(name)
        answer = ask_name_and_id(
            parent, translate("Presets", "Save preset as"), name, suggested, self._confirm_overwrite
        )
        if answer is None:
            return False
        name, preset_id = answer
        if name != self.document.architecture.name:
            self.document.set_field(("name",), name)  # an undo step of its own, before the save
        if not self._write(preset_id):
            return False
        self.document.set_source(preset_id, preset_id)
        self.current_changed.emit()
        return True

    def _write(self, preset_id: str) -> bool:
        doc = self.document
        saved = self._run(
            translate("Presets", "Cannot save preset"),
            lambda: user_presets.save(preset_id, doc.architecture, scenario=doc.scenario_data()),
        )
        if saved:
            self.document.undo_stack.setClean()
            self._after_change(preset_id)
        return saved

    # --- managing files ------------------------------------------------------------------------------

    def rename_selected(self) -> bool:
        chosen = self.preset_list.selected()
        if chosen is None or chosen[1] != "user":
            return False
        new_id = self._ask_id(translate("Presets", "Rename preset"), chosen[0])
        if new_id is None or new_id == chosen[0]:
            return False
        if new_id in presets.builtin_ids() and not self._yes(
            translate("Presets", "Rename preset?"),
            translate("Presets", "“{id}” is a built-in id. Rename to it, shadowing the built-in?").format(
                id=new_id
            ),
        ):
            return False  # as Save As asks: the id would then open this preset, not the built-in
        done = self._run(
            translate("Presets", "Cannot rename preset"), lambda: user_presets.rename(chosen[0], new_id)
        )
        if done:
            forget_source(chosen[0])
        if done and self.current_id == chosen[0]:
            self.document.set_source(new_id, new_id)
        self._after_change(new_id if done else chosen[0])
        return done

    def duplicate_selected(self) -> bool:
        chosen = self.preset_list.selected()
        if chosen is None:
            return False
        new_id = self._ask_id(translate("Presets", "Duplicate preset"), f"{chosen[0]}-copy")
        if new_id is None:
            return False
        done = self._run(
            translate("Presets", "Cannot duplicate preset"), lambda: user_presets.duplicate(chosen[0], new_id)
        )
        self._after_change(new_id if done else chosen[0])
        return done

    def delete_selected(self) -> bool:
        chosen = self.preset_list.selected()
        if chosen is None or chosen[1] != "user":
            return False
        shadow = (
            translate("Presets", " The built-in preset of that id will show again.")
            if chosen[0] in presets.builtin_ids()
            else ""
        )
        question = (
            translate("Presets", "Delete the user preset “{id}” ({path})? This cannot be undone.").format(
                id=chosen[0], path=user_presets.user_path(chosen[0])
            )
            + shadow
        )
        if not self._yes(translate("Presets", "Delete preset?"), question):
            return False
        done = self._run(translate("Presets", "Cannot delete preset"), lambda: user_presets.delete(chosen[0]))
        if done and chosen[0] not in presets.builtin_ids():
            forget_source(chosen[0])
        self._after_change(chosen[0])
        return done

    def import_file(self) -> bool:
        path = ask_open_path(
            self.dialog_parent,
            translate("Presets", "Import preset"),
            translate("Presets", "Presets and config.json (*.json);;All files (*)"),
        )
        if path is None:
            return False
        suggestion = user_presets.id_for_file(path)
        while True:
            preset_id = self._ask_id(translate("Presets", "Import as preset"), suggestion)
            if preset_id is None:
                return False
            if self._confirm_overwrite(preset_id):
                break
            suggestion = preset_id  # No to replacing it: back to the id, to type another
        done = self._run(
            translate("Presets", "Cannot import preset"),
            lambda: user_presets.import_file(path, preset_id, overwrite=True),
        )
        self._after_change(preset_id)
        return done

    def export_selected(self) -> bool:
        """The browser's Export…: the stored preset selected in the list, as saved."""
        chosen = self.preset_list.selected()
        if chosen is None:
            return False
        target = self._ask_export_path(chosen[0])
        if target is None:
            return False
        # The file dialog has already asked before replacing an existing file.
        return self._run(
            translate("Presets", "Cannot export preset"),
            lambda: user_presets.export(chosen[0], target, overwrite=True),
        )

    def export_open_model(self) -> bool:
        """File → Export Preset…: the model open in the window as shown, with its scenario — the
        file Save Preset As would write (it wrote the stored preset, without the edits on screen)."""
        doc = self.document
        target = self._ask_export_path(user_presets.id_from_name(doc.architecture.name) or "model")
        if target is None:
            return False
        return self._run(
            translate("Presets", "Cannot export preset"),
            lambda: user_presets.export_model(
                doc.architecture, target, scenario=doc.scenario_data(), overwrite=True
            ),
        )

    def _ask_export_path(self, stem: str) -> Path | None:
        return ask_save_path(
            self.dialog_parent,
            translate("Presets", "Export preset"),
            f"{stem}.json",
            translate("Presets", "Presets (*.json)"),
            ".json",
        )

    # --- helpers ---------------------------------------------------------------------------------------

    def _ask_id(self, title: str, suggestion: str) -> str | None:
        while True:
            text = ask_text(
                self.dialog_parent,
                title,
                translate("Presets", "Preset id (letters, digits, . _ + -):"),
                suggestion,
            )
            if text is None or not text.strip():
                return None
            try:
                return presets.check_preset_id(text.strip())
            except ParamTallyError as exc:
                warn(self.dialog_parent, title, said_text(one_line(exc)))
                suggestion = text.strip()

    def _confirm_overwrite(self, preset_id: str, parent: QWidget | None = None) -> bool:
        if user_presets.is_user(preset_id):
            return self._yes(
                translate("Presets", "Replace preset?"),
                translate("Presets", "A user preset “{id}” exists. Replace it?").format(id=preset_id),
                parent,
            )
        if preset_id in presets.builtin_ids():
            question = translate("Presets", "“{id}” is a built-in id. Save a user preset that shadows it?")
            question = question.format(id=preset_id)
            return self._yes(translate("Presets", "Replace preset?"), question, parent)
        return True

    def _yes(self, title: str, question: str, parent: QWidget | None = None) -> bool:
        return ask_question(parent or self.dialog_parent, title, question) == _Button.Yes

    def _run(self, title: str, action: Callable[[], object]) -> bool:
        return attempt(self.dialog_parent, title, action)

    def _after_change(self, select_id: str) -> None:
        self.preset_list.refresh()
        self.preset_list.select_preset(select_id)
        self.current_changed.emit()


class _CloseGuard(QObject):
    """Asks "save changes?" before a person closes the window; a cancel keeps it open.

    Only closes a person asks for: the window manager's close button (a spontaneous event) or
    File → Quit through ``PresetActions.request_quit``. A program closing the window (tests,
    ``--screenshot``) is never stopped by a modal question.
    """

    def __init__(self, actions: PresetActions) -> None:
        super().__init__(actions)
        self.actions = actions
        self.asked_by_person = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.Close or not (event.spontaneous() or self.asked_by_person):
            return False
        if self.actions.maybe_save():
            return False
        event.ignore()
        return True
