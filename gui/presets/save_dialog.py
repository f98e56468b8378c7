"""Save As: the display name a person reads in lists and the id the file is named by, asked together.

The id follows the name (``My LLaMA 7B`` → ``my-llama-7b``) until the person edits it. A bad
id is said in the dialog, which stays open, so what was typed is never lost; so does an id the
person, asked whether to replace or shadow a preset of that id, answers No to: the id is selected,
ready for another.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from paramtally.core.errors import ParamTallyError, one_line
from paramtally.core.io import presets, user_presets
from paramtally.gui.dialogs import add_mnemonics
from paramtally.gui.i18n import said_text, translate
from paramtally.gui.problem_label import ProblemLabel

__all__ = ["Confirm", "SaveAsDialog", "ask_name_and_id"]

Confirm = Callable[[str, QWidget], bool]  # (id, the dialog to ask over): may this id be written?


class SaveAsDialog(QDialog):
    """objectNames: ``presetName``, ``presetId``, ``error``."""

    def __init__(
        self,
        title: str,
        name: str,
        preset_id: str,
        parent: QWidget | None = None,
        confirm: Confirm | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.confirm = confirm
        self.name = QLineEdit(name)
        self.name.setObjectName("presetName")
        self.id = QLineEdit(preset_id)
        self.id.setObjectName("presetId")
        self.id.setToolTip(translate("Presets", "The file name of the preset: letters, digits and . _ + -"))
        self._id_follows = not preset_id or preset_id == user_presets.id_from_name(name)
        room = self.fontMetrics().horizontalAdvance("M" * 28)  # a long display name fits unscrolled
        self.name.setMinimumWidth(room)
        self.id.setMinimumWidth(room)
        self.error = ProblemLabel(self)
        form = QFormLayout()
        form.addRow(_label(translate("Presets", "&Name:"), self.name), self.name)
        form.addRow(_label(translate("Presets", "&Id:"), self.id), self.id)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        add_mnemonics(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.name.textEdited.connect(self._name_edited)
        self.id.textEdited.connect(self._id_edited)
        self.name.selectAll()

    def _name_edited(self, text: str) -> None:
        if self._id_follows:
            self.id.setText(user_presets.id_from_name(text) if text.strip() else "")

    def _id_edited(self, _text: str) -> None:
        self._id_follows = False

    def values(self) -> tuple[str, str]:
        return self.name.text().strip(), self.id.text().strip()

    def accept(self) -> None:
        name, preset_id = self.values()
        try:
            if not name:
                raise ParamTallyError("a name is needed (it is what preset lists show)")
            presets.check_preset_id(preset_id)
        except ParamTallyError as exc:
            self.error.say(said_text(one_line(exc)))
            return
        if self.confirm is not None and not self.confirm(preset_id, self):
            self.id.setFocus()
            self.id.selectAll()  # another id is typed over it
            return
        super().accept()


def _label(text: str, buddy: QWidget) -> QLabel:
    label = QLabel(text)
    label.setBuddy(buddy)  # Alt+N / Alt+I move to the field
    return label


def ask_name_and_id(
    parent: QWidget, title: str, name: str, preset_id: str, confirm: Confirm | None = None
) -> tuple[str, str] | None:
    """(display name, id) for a preset, or None when cancelled; ``confirm`` asks about an id in use."""
    dialog = SaveAsDialog(title, name, preset_id, parent, confirm)
    return dialog.values() if dialog.exec() == QDialog.DialogCode.Accepted else None
