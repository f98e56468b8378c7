"""The architecture form, generated from the schema: one collapsible section per nested model.

Each editor's objectName is its field path (``attention.num_kv_heads``). An edit goes to the
document; the form only writes back what the document holds, with signals blocked, so there is
no feedback loop (napari's binding pattern). A refused edit is shown at its field: a red frame
and the reason under the editor; the figures elsewhere stay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from paramtally.core.edit import DERIVED, get_value
from paramtally.core.schema import Architecture
from paramtally.gui.document import Document
from paramtally.gui.form.editors import Editor, make_editor
from paramtally.gui.form.ffn_width import PATH as FFN_WIDTH
from paramtally.gui.form.ffn_width import ffn_width_button
from paramtally.gui.form.fields import FieldSpec, field_spec, model_fields
from paramtally.gui.form.section import Section

__all__ = ["SECTION_TITLES", "ArchitectureForm"]

# Section titles for the nested models; a nested model not named here gets its label.
SECTION_TITLES = {
    "embeddings": "Embeddings",
    "attention": "Attention",
    "ffn": "FFN / MoE",
    "norms": "Norms",
    "head": "Head",
}
SECTION_NOTES = {
    "ffn": "Mixture-of-experts blocks, LoRA and adapters are set per layer group "
    "in the layer tree below (right-click a group)."
}
TOP_TITLE = "Model"
HIDDEN = {"schema_version"}
# One style sheet for the whole form, by objectName and a "state" property, so that the frame
# (not the native editor inside it) turns red or amber, and a change restyles that frame alone.
RED, AMBER = "#d9534f", "#d08a00"
FIELD_STYLE = (
    f'QFrame#fieldFrame[state="error"] {{ border: 2px solid {RED}; border-radius: 4px; }}'
    f'QFrame#fieldFrame[state="hint"] {{ border: 2px solid {AMBER}; border-radius: 4px; }}'
)


@dataclass
class _Row:
    path: str
    spec: FieldSpec
    editor: Editor
    error: QLabel | None  # made when the field first shows an error (44 fewer labels at start)
    layout: QFormLayout
    frame: QFrame
    section: Section
    condition: tuple[tuple[str, Any], ...]  # (sibling path, value it needs): the schema's visible_when


def _error_label(frame: QFrame, path: str) -> QLabel:
    """The reason line under a field's frame, made the first time the field is refused."""
    field = frame.parentWidget()
    layout = field.layout() if field is not None else None
    assert field is not None and layout is not None
    error = QLabel(field)
    error.setObjectName(f"{path}.error")
    error.setWordWrap(True)
    layout.addWidget(error)
    return error


class ArchitectureForm(QScrollArea):
    """Editors for every scalar field of the architecture, grouped by nested model."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("architectureForm")
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.document = document
        self._rows: dict[str, _Row] = {}
        self._errors: dict[str, str] = {}  # path → reason, as the document said
        self._hints: dict[str, str] = {}
        self._labels: list[QLabel] = []
        self.sections: dict[str, Section] = {}
        body = QWidget(self)
        body.setStyleSheet(FIELD_STYLE)
        self._layout = QVBoxLayout(body)
        self._layout.setContentsMargins(4, 4, 4, 4)
        self._layout.setSpacing(2)
        self._build(Architecture)
        self._layout.addStretch(1)
        self.setWidget(body)
        # One label column for all sections, so editors line up across them.
        width = max(label.sizeHint().width() for label in self._labels)
        for label in self._labels:
            label.setMinimumWidth(width)
        document.changed.connect(self.refresh)
        document.invalid.connect(self.show_error)
        document.validity.connect(self.show_error)
        document.hints_changed.connect(self._show_hints)
        self.add_button(FFN_WIDTH, ffn_width_button(document))
        self.refresh()

    # --- building --------------------------------------------------------------------------------

    def _build(self, model: type[BaseModel]) -> None:
        top = [spec for spec in model_fields(model) if spec.name not in HIDDEN]
        scalars = [spec for spec in top if spec.kind not in {"model", "models"}]
        derived = [field_spec(name, value.info) for name, value in DERIVED.items()]  # e.g. the layers
        self._add_section("", TOP_TITLE, scalars + derived)
        for spec in top:
            if spec.kind == "model" and spec.model is not None:
                children = list(model_fields(spec.model))
                self._add_section(
                    f"{spec.name}.",
                    SECTION_TITLES.get(spec.name, spec.label),
                    children,
                    SECTION_NOTES.get(spec.name, ""),
                )

    def _add_section(self, prefix: str, title: str, specs: list[FieldSpec], note: str = "") -> None:
        section = Section(title, self)
        content = QWidget(section)
        layout = QFormLayout(content)
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        layout.setContentsMargins(6, 2, 6, 6)
        for spec in specs:
            self._add_row(section, layout, prefix, spec)
        if note:
            hint = QLabel(note, content)
            hint.setWordWrap(True)
            hint.setEnabled(False)  # greyed, as help text
            layout.addRow(hint)
        section.addWidget(content)
        section.expand(animate=False)
        self.sections[title] = section
        self._layout.addWidget(section)

    def _add_row(
        self,
        section: Section,
        layout: QFormLayout,
        prefix: str,
        spec: FieldSpec,
    ) -> None:
        editor = make_editor(spec)
        if editor is None:
            return
        path = f"{prefix}{spec.name}"
        editor.setObjectName(path)
        field = QWidget()
        box = QVBoxLayout(field)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(1)
        frame = QFrame(field)
        frame.setObjectName("fieldFrame")
        inner = QHBoxLayout(frame)  # the editor, and any button added next to it (add_button)
        inner.setContentsMargins(2, 2, 2, 2)
        inner.setSpacing(2)
        inner.addWidget(editor, 1)
        box.addWidget(frame)
        label = QLabel(spec.label)
        label.setToolTip(spec.description)
        layout.addRow(label, field)
        editor.committed.connect(lambda value, merge, p=path: self._commit(p, value, merge))
        self._labels.append(label)
        condition = tuple((f"{prefix}{sibling}", value) for sibling, value in spec.visible_when)
        self._rows[path] = _Row(path, spec, editor, None, layout, frame, section, condition)

    # --- binding ---------------------------------------------------------------------------------

    def editor(self, path: str) -> Editor:
        return self._rows[path].editor

    def add_button(self, path: str, button: QAbstractButton) -> None:
        """Put ``button`` right of the field's editor (a helper that computes its value)."""
        frame = self._rows[path].frame
        button.setParent(frame)
        layout = frame.layout()
        assert layout is not None
        layout.addWidget(button)

    def _commit(self, path: str, value: Any, merge: bool) -> None:
        self.document.set_field(path, value, merge_key=path if merge else None)

    def refresh(self) -> None:
        """Write the document's values into the editors (only those that differ); a field with a
        draft (a typed value that does not fit yet) keeps showing the draft."""
        arch = self.document.architecture
        drafts = self.document.drafts
        for row in self._rows.values():
            value = drafts[row.path] if row.path in drafts else get_value(arch, row.path)
            if row.editor.value() != value:
                row.editor.blockSignals(True)
                row.editor.set_value(value)
                row.editor.blockSignals(False)
            if row.condition:
                applies = all(get_value(arch, where) == needed for where, needed in row.condition)
                row.layout.setRowVisible(row.frame.parentWidget(), applies)
        self._show_hints()

    def _show_hints(self) -> None:
        hints = self.document.hints
        for path in set(hints) | set(self._hints):
            if hints.get(path) != self._hints.get(path) and path in self._rows:
                self._hints[path] = hints.get(path, "")
                self._paint(self._rows[path])
        self._hints = hints

    def show_error(self, path: str, reason: str) -> None:
        """Mark a field invalid with its reason, or clear it when ``reason`` is empty."""
        row = self._rows.get(path)
        if row is None:
            return
        self._errors[path] = reason
        self._paint(row)

    def _paint(self, row: _Row) -> None:
        """Red with the reason when refused, else amber with the hint, else plain."""
        reason = self._errors.get(row.path, "")
        hint = "" if reason else self._hints.get(row.path, "")
        text = reason or hint
        state = "error" if reason else "hint" if hint else ""
        if row.frame.property("state") != state:
            row.frame.setProperty("state", state)
            row.frame.style().unpolish(row.frame)
            row.frame.style().polish(row.frame)
        if row.error is None and text:
            row.error = _error_label(row.frame, row.path)
        if row.error is not None:
            palette = row.error.palette()
            palette.setColor(QPalette.ColorRole.WindowText, QColor(RED if reason else AMBER))
            row.error.setPalette(palette)
            row.error.setText(text[:1].upper() + text[1:])  # a sentence under the field
            row.error.setVisible(bool(text))
        tip = row.spec.description
        row.editor.setToolTip(f"{tip}\n\n⚠ {text}" if text else tip)

    def field_state(self, path: str) -> str:
        """How a field is marked: 'error' (red), 'hint' (amber) or ''."""
        return str(self._rows[path].frame.property("state") or "")

    def error_text(self, path: str) -> str:
        """The reason a field is refused ('' when it is not)."""
        return self._errors.get(path, "") if self._rows[path].error is not None else ""

    def hint_text(self, path: str) -> str:
        """The hint shown at a field ('' when none, or while the field is refused)."""
        return "" if self._errors.get(path) else self._hints.get(path, "")
