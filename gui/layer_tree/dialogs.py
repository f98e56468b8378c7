"""The layer tree's small dialogs: one block (MoE, LoRA, adapter), generated from its schema like
the form, and one whole number (split at layer, heads, width).

The values are checked on OK; a refusal is shown in the dialog, which stays open, so a person
never loses what they typed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from paramtally.core.errors import FieldError, ParamTallyError, field_problems, one_line
from paramtally.core.schema.field_specs import model_fields
from paramtally.core.schema.field_titles import label_for
from paramtally.core.typed_numbers import NumberError, parse_whole
from paramtally.gui.dialogs import add_mnemonics
from paramtally.gui.form.editors import Editor, NumberBox, make_editor
from paramtally.gui.i18n import said_text, schema_text, translate
from paramtally.gui.problem_label import ProblemLabel

__all__ = ["NumberDialog", "SpecDialog", "ask_number", "ask_spec"]

M = TypeVar("M", bound=BaseModel)
_OK_CANCEL = QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
_STEPS = {Qt.Key.Key_Up: 1, Qt.Key.Key_Down: -1, Qt.Key.Key_PageUp: 10, Qt.Key.Key_PageDown: -10}


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
        self.labels: dict[str, str] = {}  # each field's label, as its row shows it
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
            label = QLabel(schema_text(spec.label), self)
            label.setToolTip(schema_text(spec.description))
            form.addRow(label, editor)
            self.editors[spec.name] = editor
            self.labels[spec.name] = spec.label
        layout.addLayout(form)
        self.error = ProblemLabel(self)
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(_OK_CANCEL)
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
        values = self.values()
        for name, editor in self.editors.items():
            if isinstance(editor, NumberBox) and editor.reason:  # text that is no number: kept, said
                self.error.say(f"{schema_text(self.labels[name])}: {said_text(editor.reason)}")
                editor.setFocus()
                return
        try:
            value = self.model.model_validate(values)
            if self.check is not None:
                self.check(value)
        except (ValidationError, ParamTallyError) as exc:
            self.error.say(_plain(exc))
            return
        self._value = value
        super().accept()

    def result_value(self) -> BaseModel | None:
        return self._value


class NumberDialog(QDialog):
    """A whole number from ``low`` to ``high``, typed, or stepped with the arrow keys; objectNames
    ``number`` and ``error``. A number outside the range is said under the field with the range,
    and OK keeps the dialog open. (Qt's integer spin box dropped the keystroke instead: a typed 99,
    at most 31, read 9, and OK took it.)"""

    def __init__(
        self, title: str, label: str, value: int, low: int, high: int, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.low, self.high = low, high
        self.edit = _NumberEdit(self)
        self.edit.setObjectName("number")
        self.edit.setText(str(value))
        self.edit.selectAll()
        self.edit.setToolTip(self.allowed())
        # As wide as the message for a number just past the top, which then reads on one line (a
        # word-wrapped label breaks a little before its full width).
        widest = _more(high + 1, high, self.allowed()) + "MM"
        self.edit.setMinimumWidth(self.fontMetrics().horizontalAdvance(widest))
        caption = QLabel(label, self)
        caption.setBuddy(self.edit)
        self.error = ProblemLabel(self)
        buttons = QDialogButtonBox(_OK_CANCEL)
        add_mnemonics(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(caption)
        layout.addWidget(self.edit)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.edit.textEdited.connect(lambda _text: self._say(self.problem(), typing=True))

    def allowed(self) -> str:
        return translate("NumberDialog", "a whole number from {low} to {high}").format(
            low=f"{self.low:,}", high=f"{self.high:,}"
        )

    def number(self) -> int | None:
        """The typed number (in the one syntax: "40,000", "4e4", "40k"), or None when it is not one."""
        try:
            return parse_whole(self.edit.text())
        except NumberError:
            return None

    def problem(self) -> str:
        number, text = self.number(), self.edit.text().strip()
        if number is None and not text:
            return translate("NumberDialog", "Type {allowed}.").format(allowed=self.allowed())
        if number is None:
            return translate("NumberDialog", "“{text}” is not a whole number: type {allowed}.").format(
                text=text, allowed=self.allowed()
            )
        if number > self.high:
            return _more(number, self.high, self.allowed())
        if number < self.low:
            return translate("NumberDialog", "{number} is less than {low}: type {allowed}.").format(
                number=f"{number:,}", low=f"{self.low:,}", allowed=self.allowed()
            )
        return ""

    def _say(self, problem: str, typing: bool = False) -> None:
        """While typing, an empty field is not yet a mistake."""
        self.error.say("" if typing and not self.edit.text().strip() else problem)

    def accept(self) -> None:
        problem = self.problem()
        if problem:
            self._say(problem)
            self.edit.setFocus()
            self.edit.selectAll()
            return
        super().accept()

    def value(self) -> int | None:
        return self.number() if not self.problem() else None


class _NumberEdit(QLineEdit):
    """Up and Down step by one, Page Up and Page Down by ten, within the dialog's range."""

    def __init__(self, dialog: NumberDialog) -> None:
        super().__init__(dialog)
        self.dialog = dialog

    def keyPressEvent(self, event: QKeyEvent) -> None:
        step, number = _STEPS.get(Qt.Key(event.key())), self.dialog.number()
        if step is None or number is None:
            super().keyPressEvent(event)
            return
        self.setText(str(min(max(number + step, self.dialog.low), self.dialog.high)))
        self.selectAll()
        self.textEdited.emit(self.text())


def ask_number(parent: QWidget, title: str, label: str, value: int, low: int, high: int) -> int | None:
    """A whole number from ``low`` to ``high``, or None when cancelled."""
    dialog = NumberDialog(title, label, value, low, high, parent)
    return dialog.value() if dialog.exec() == QDialog.DialogCode.Accepted else None


def _plain(exc: ValidationError | ParamTallyError) -> str:
    """'Top k: experts per token (6) exceed the experts (4)': the dialog's field label, not its path."""
    if isinstance(exc, ValidationError) and field_problems(exc):
        where, reason = field_problems(exc)[0]
        name = where[-1] if where else ""
        return (
            f"{label_for(name)}: {said_text(reason)}" if isinstance(name, str) and name else said_text(reason)
        )
    return said_text(exc.reason if isinstance(exc, FieldError) else one_line(exc))


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


def _more(number: int, high: int, allowed: str) -> str:
    return translate("NumberDialog", "{number} is more than {high}: type {allowed}.").format(
        number=f"{number:,}", high=f"{high:,}", allowed=allowed
    )
