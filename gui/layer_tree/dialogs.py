"""A small dialog for one block (MoE, LoRA, adapter), generated from its schema like the form.

The values are validated by the schema on OK; a refusal is shown in the dialog, which stays
open, so a person never loses what they typed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from paramtally.core.errors import FieldError, ParamTallyError, field_problems, one_line
from paramtally.core.fields import model_fields
from paramtally.core.labels import label_for
from paramtally.gui.dialogs import add_mnemonics
from paramtally.gui.form.editors import Editor, make_editor

__all__ = ["SpecDialog", "ask_spec"]

M = TypeVar("M", bound=BaseModel)


class SpecDialog(QDialog):
    """Edit the fields of ``model`` starting from ``initial``; ``result_value()`` after accept."""

    def __init__(
        self,
        model: type[BaseModel],
        initial: dict[str, Any],
        title: str,
        parent: QWidget | None = None,
        check: Callable[[Any], object] | None = None,
    ) -> None:
        super().__init__(parent)
        self.check = check  # raises ValidationError when the block does not fit the architecture
        self.setWindowTitle(title)
        self.model = model
        self.editors: dict[str, Editor] = {}
        self._value: BaseModel | None = None
        layout = QVBoxLayout(self)
        form = QFormLayout()
        for spec in model_fields(model):
            if spec.name == "kind" or not spec.in_form:  # a kind is what the dialog is for
                continue
            editor = make_editor(spec, self)
            if editor is None:
                continue
            editor.setObjectName(spec.name)
            value = initial.get(spec.name, spec.default)
            if value is not None or spec.optional:
                editor.set_value(value)
            label = QLabel(spec.label, self)
            label.setToolTip(spec.description)
            form.addRow(label, editor)
            self.editors[spec.name] = editor
        layout.addLayout(form)
        self.error = QLabel(self)
        self.error.setObjectName("error")
        self.error.setStyleSheet("color: #d9534f;")
        self.error.setWordWrap(True)
        self.error.hide()
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        add_mnemonics(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def values(self) -> dict[str, Any]:
        # A typed number counts even before Enter: read the text the person sees.
        for editor in self.editors.values():
            editor.finish_typing()
        kind = self.model.model_fields.get("kind")  # a kind's dialog makes that kind
        return {
            **({"kind": kind.default} if kind else {}),
            **{name: e.value() for name, e in self.editors.items()},
        }

    def accept(self) -> None:
        try:
            value = self.model.model_validate(self.values())
            if self.check is not None:
                self.check(value)
        except (ValidationError, ParamTallyError) as exc:
            self.error.setText(_plain(exc))
            self.error.show()
            return
        self._value = value
        super().accept()

    def result_value(self) -> BaseModel | None:
        return self._value


def _plain(exc: ValidationError | ParamTallyError) -> str:
    """'Top k: experts per token (6) exceed the experts (4)': the dialog's field label, not its path."""
    if isinstance(exc, ValidationError) and field_problems(exc):
        where, reason = field_problems(exc)[0]
        name = where[-1] if where else ""
        return f"{label_for(name)}: {reason}" if isinstance(name, str) and name else reason
    return exc.reason if isinstance(exc, FieldError) else one_line(exc)


def ask_spec(
    model: type[M],
    initial: dict[str, Any],
    title: str,
    parent: QWidget | None = None,
    check: Callable[[Any], object] | None = None,
) -> M | None:
    """Show the dialog modally; the validated block, or None when cancelled."""
    dialog = SpecDialog(model, initial, title, parent, check)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    value = dialog.result_value()
    return value if isinstance(value, model) else None
