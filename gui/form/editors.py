"""One editor per field kind, all with one interface (``FieldEditor``): ``value()``,
``set_value()``, ``finish_typing()`` and the signal ``committed(value, merge)``.

A whole number is typed in the one syntax of ``core.typed_numbers`` (``1e3``, ``32k``, ``1,024``, bytes
as ``80GB``). Text that is not such a number stays in the field as typed, and the field says why
(``unread``): it is never replaced by another number (Qt's validator dropped the 'e' of ``1e30``,
and 130 was applied).

``merge`` is True for a step of an arrow/wheel drag, so the document folds the drag into one
undo step; a typed value is committed on Enter or focus-out as a step of its own.
``finish_typing()`` commits text typed but not yet confirmed (a dialog's OK reads every editor
through it); editors without typed text have nothing to finish.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QValidator, QWheelEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from paramtally.core.schema.field_specs import FieldSpec
from paramtally.core.typed_numbers import NumberError, parse_number, parse_whole
from paramtally.gui.i18n import schema_text

__all__ = ["Editor", "FieldEditor", "FloatSpinBox", "IntSpinBox", "NumberBox", "make_editor"]

AUTO = "auto"


class FieldEditor(Protocol):
    """What the form and the block dialogs use of an editor, whatever its widget."""

    def value(self) -> Any: ...

    def set_value(self, value: Any) -> None: ...

    def finish_typing(self) -> None: ...


class _HistoryKeys(QObject):
    """Undo/Redo keys in a text field go to the window's history, not the field's own.

    A focused line edit claims Ctrl+Z for its text, so right after Enter the window's Undo
    did nothing. Now: with typed text not yet committed, Ctrl+Z puts the field back to its
    value (the typing is what is undone); otherwise the key goes on to Edit → Undo / Redo.
    """

    def __init__(self, editor: QWidget, typed: Callable[[], bool], revert: Callable[[], None]) -> None:
        super().__init__(editor)
        self._typed, self._revert = typed, revert
        editor.installEventFilter(self)
        if isinstance(editor, QAbstractSpinBox):  # the focus (and the keys) are in its line edit
            editor.lineEdit().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        keys = (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress)
        if kind not in keys or not isinstance(event, QKeyEvent):
            return False
        undo = event.matches(QKeySequence.StandardKey.Undo)
        if not (undo or event.matches(QKeySequence.StandardKey.Redo)):
            return False
        if kind == QEvent.Type.KeyPress:
            return True  # never the field's own text history
        if self._typed():
            self._revert()
            if undo:
                event.accept()  # this Ctrl+Z undid the typing; it goes no further
                return True
        event.ignore()  # not claimed by the field: the window's shortcut fires
        return True


class _FocusedWheel:
    """The wheel changes the value only of a focused editor; over an unfocused one it is ignored,
    so it goes on to the form (or panel) around it, which scrolls. Mixed in before the Qt class."""

    def wheelEvent(self, event: QWheelEvent) -> None:
        if self.hasFocus():  # type: ignore[attr-defined]
            super().wheelEvent(event)  # type: ignore[misc]
        else:
            event.ignore()


class NumberBox(_FocusedWheel, QAbstractSpinBox):
    """A spin box over a Python number read in the one syntax (no 2³¹ limit, no fixed decimals),
    with an optional 'auto'; subclasses say how a number reads and shows.

    ``unread(reason)``: the text confirmed (Enter, focus out) is not a number, and stays; "" once
    the field reads a number again (typed, stepped or set). A number out of range is committed:
    the document refuses it at the field, as it refuses any value, and keeps it there."""

    committed = Signal(object, bool)
    unread = Signal(str)
    step: float = 1

    def __init__(
        self,
        minimum: float | None,
        maximum: float | None,
        optional: bool,
        parent: QWidget | None,
        unit: str,
    ) -> None:
        super().__init__(parent)
        self.minimum, self.maximum, self.optional, self.unit = minimum, maximum, optional, unit
        self._value: Any = None if optional else (minimum or 0)
        self.reason = ""  # why the text shown is not a number ("" when it is one)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAlignment(Qt.AlignmentFlag.AlignRight)
        if optional:
            self.setSpecialValueText(AUTO)
            self.lineEdit().setPlaceholderText(AUTO)
        self.editingFinished.connect(self._commit_text)
        _HistoryKeys(self, lambda: self.lineEdit().text() != self._text(), self._show)
        self._show()

    def read_number(self, text: str) -> Any:
        """The number ``text`` spells; NumberError when it spells none this field takes."""
        raise NotImplementedError

    def format_number(self, value: Any) -> str:
        raise NotImplementedError

    def value(self) -> Any:
        return self._value

    def set_value(self, value: Any) -> None:
        self._value = value
        self._show()

    def _text(self) -> str:
        return "" if self._value is None else self.format_number(self._value)

    def _show(self) -> None:
        self.lineEdit().setText(self._text())
        self._read("")

    def _read(self, reason: str) -> None:
        if reason != self.reason:
            self.reason = reason
            self.unread.emit(reason)

    def parse(self, text: str) -> Any:
        """The number ``text`` spells, None for empty or 'auto' when optional, or the reason (a
        str) it is not a number."""
        clean = text.strip()
        if self.optional and clean.lower() in {"", AUTO}:
            return None
        try:
            return self.read_number(clean)
        except NumberError as exc:
            return str(exc)

    def validate(self, text: str, pos: int) -> object:
        # Never Invalid: Qt drops a keystroke its validator calls invalid, so '1e30' became 130.
        # Text that is no number yet (typing '1e' on the way to '1e30') is said on Enter.
        acceptable = not isinstance(self.parse(text), str)
        return QValidator.State.Acceptable if acceptable else QValidator.State.Intermediate

    def fixup(self, text: str) -> str:
        return text

    def finish_typing(self) -> None:
        self._commit_text()

    def _commit_text(self) -> None:
        parsed = self.parse(self.lineEdit().text())
        if isinstance(parsed, str):
            self._read(parsed)  # the text stays as typed
            return
        changed = parsed != self._value
        self._value = parsed
        self._show()  # '32k' reads 32,000
        if changed:
            self.committed.emit(parsed, False)

    def stepBy(self, steps: int) -> None:
        low = self.minimum or 0
        start = self._value if self._value is not None else low - (self.step if steps > 0 else 0)
        value = self._stepped(start, steps)
        if self.minimum is not None:
            value = max(self.minimum, value)
        if self.maximum is not None:
            value = min(self.maximum, value)
        changed = value != self._value
        self._value = value
        self._show()  # over text that was no number, too
        if changed:
            self.committed.emit(value, True)

    def _stepped(self, start: Any, steps: int) -> Any:
        return start + steps * self.step

    def stepEnabled(self) -> QAbstractSpinBox.StepEnabledFlag:
        flags = QAbstractSpinBox.StepEnabledFlag.StepNone
        value = self._value
        if value is None or self.maximum is None or value < self.maximum:
            flags |= QAbstractSpinBox.StepEnabledFlag.StepUpEnabled
        if value is not None and (self.minimum is None or value > self.minimum):
            flags |= QAbstractSpinBox.StepEnabledFlag.StepDownEnabled
        return flags


class IntSpinBox(NumberBox):
    """A whole number, shown with thousands separators ('175,221,817,344')."""

    def __init__(
        self,
        minimum: int | None = 0,
        maximum: int | None = None,
        optional: bool = False,
        parent: QWidget | None = None,
        unit: str = "count",
    ) -> None:
        super().__init__(minimum, maximum, optional, parent, unit)

    def read_number(self, text: str) -> int:
        return parse_whole(text, self.unit)

    def format_number(self, value: Any) -> str:
        return f"{value:,}"

    def sizeHint(self) -> QSize:
        # Room for "999,999,999" plus the arrows: QAbstractSpinBox knows no text to measure by.
        hint = super().sizeHint()
        width = self.fontMetrics().horizontalAdvance(" 999,999,999 ") + 32
        return QSize(max(hint.width(), width), hint.height())

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(max(hint.width(), self.fontMetrics().horizontalAdvance(" 99,999 ") + 32), hint.height())


class FloatSpinBox(NumberBox):
    """A share or a rate (MFU 0.4, a dropout 0.1), as exact as typed: Qt's decimal spin box cut
    '0.4567' to 0.456 and read '1e-1' as 1 (it dropped the 'e' and the '-')."""

    step = 0.05

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec.minimum, spec.maximum, spec.optional, parent, spec.unit)

    def read_number(self, text: str) -> float:
        return float(parse_number(text, self.unit))

    def format_number(self, value: Any) -> str:
        return f"{value:.10g}"

    def _stepped(self, start: Any, steps: int) -> Any:
        return round(start + steps * self.step, 10)  # 0.95, not 0.9500000000000001


class CheckBox(QCheckBox):
    committed = Signal(object, bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.toggled.connect(lambda checked: self.committed.emit(checked, False))

    def value(self) -> bool:
        return self.isChecked()

    def set_value(self, value: bool) -> None:
        self.setChecked(bool(value))

    def finish_typing(self) -> None:
        """Nothing is typed into a check box."""


class ComboBox(_FocusedWheel, QComboBox):
    committed = Signal(object, bool)

    def __init__(
        self, choices: tuple[Any, ...], labels: tuple[str, ...] = (), parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        # Not Qt's WheelFocus: a wheel turned to scroll a panel past an unfocused box gave it the
        # focus and then the rest of the turn (the memory tab's GPU went from H100 to M3 Ultra).
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        # Titled choices (a part's kinds) in the window's language; bare values (ids) as they are.
        shown_labels = tuple(map(schema_text, labels)) if labels else tuple(map(str, choices))
        for choice, label in zip(choices, shown_labels, strict=True):
            self.addItem(label, choice)
        self._keyed = False
        self.activated.connect(lambda index: self.committed.emit(self.itemData(index), self._keyed))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Typing a name or arrowing picks every choice on the way ('m', 'ma', 'mam', …); those
        # picks fold into one undo step like an arrow drag in a spin box.
        self._keyed = True
        try:
            super().keyPressEvent(event)
        finally:
            self._keyed = False

    def value(self) -> Any:
        return self.currentData()

    def set_value(self, value: Any) -> None:
        self.setCurrentIndex(max(0, self.findData(value)))

    def finish_typing(self) -> None:
        """A choice is made by picking, not typing."""


class TextEdit(QLineEdit):
    committed = Signal(object, bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._value = ""
        self.editingFinished.connect(self._commit)
        _HistoryKeys(self, self._typed, lambda: self.setText(self._value))

    def _typed(self) -> bool:
        # Qt keeps at most maxLength() characters of a value (32,767): Enter in the field of a
        # name of 4 MB, untouched, would have committed the cut name.
        return self.text() != self._value[: self.maxLength()]

    def _commit(self) -> None:
        if self._typed():
            self._value = self.text()
            self.committed.emit(self._value, False)

    def value(self) -> str:
        return self._value

    def finish_typing(self) -> None:
        self._commit()

    def set_value(self, value: str) -> None:
        self._value = value
        self.setText(value)
        self.setCursorPosition(0)


_CHOICES_PER_ROW = 4


class MultiChoice(QWidget):
    """A tuple of choices (LoRA target matrices) as rows of check boxes, kept in schema order."""

    committed = Signal(object, bool)

    def __init__(self, choices: tuple[Any, ...], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Rows of four (LoRA's q k v o, then gate up down), each as wide as its own boxes: the seven
        # in one row, 312 pixels, made a layer group's form wider than its column at 1024×700 with
        # the presets open.
        rows = QVBoxLayout(self)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.setSpacing(0)
        self._boxes: dict[Any, QCheckBox] = {}
        for index, choice in enumerate(choices):
            if index % _CHOICES_PER_ROW == 0:
                row = QHBoxLayout()
                row.addStretch(1)  # kept last: the boxes go in before it
                rows.addLayout(row)
            box = QCheckBox(str(choice), self)
            box.setObjectName(f"choice_{choice}")
            box.toggled.connect(lambda _checked: self.committed.emit(self.value(), False))
            row.insertWidget(row.count() - 1, box)
            self._boxes[choice] = box

    def value(self) -> tuple[Any, ...]:
        return tuple(choice for choice, box in self._boxes.items() if box.isChecked())

    def set_value(self, value: tuple[Any, ...]) -> None:
        for choice, box in self._boxes.items():
            box.blockSignals(True)
            box.setChecked(choice in value)
            box.blockSignals(False)

    def finish_typing(self) -> None:
        """Check boxes only."""


Editor = IntSpinBox | FloatSpinBox | CheckBox | ComboBox | TextEdit | MultiChoice


def make_editor(spec: FieldSpec, parent: QWidget | None = None) -> Editor | None:
    """The editor for a field kind, or None for kinds the form does not edit (nested lists)."""
    editor: Editor
    if spec.kind == "int":
        low = None if spec.minimum is None else int(spec.minimum)
        high = None if spec.maximum is None else int(spec.maximum)
        editor = IntSpinBox(low, high, spec.optional, parent, spec.unit)
    elif spec.kind == "float":
        editor = FloatSpinBox(spec, parent)
    elif spec.kind == "bool":
        editor = CheckBox(parent)
    elif spec.kind == "choice":
        editor = ComboBox(spec.choices, spec.choice_labels, parent)
    elif spec.kind == "choices":
        editor = MultiChoice(spec.choices, parent)
    elif spec.kind == "text":
        editor = TextEdit(parent)
    else:
        return None
    editor.setToolTip(schema_text(spec.description))
    return editor
