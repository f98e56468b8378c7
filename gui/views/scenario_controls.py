"""Controls of the memory scenario, generated from ``core.scenario.Scenario``'s fields.

The field → editor mapping is the form's (gui/form): a field's type and limits give the widget
and its range, its description the tooltip, so a new Scenario field appears here without GUI
code. Two fields get a better editor than their type implies: ``gpu`` picks from the GPU
catalog and an optional choice (``quant``) offers "none". Edits go to
``document.set_scenario_field`` (undoable; a spin-box drag merges into one step).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

from paramtally.core.gpus import load_catalog
from paramtally.core.scenario import Scenario, training_only_fields
from paramtally.gui.form.editors import ComboBox, Editor, make_editor
from paramtally.gui.form.fields import FieldSpec, model_fields

if TYPE_CHECKING:
    from paramtally.gui.document import Document

__all__ = ["ScenarioControls"]

_ERROR_STYLE = "border: 1px solid #D55E00;"
# Display names where the field name's words read poorly (acronyms); other fields use the form's.
LABELS = {
    "keep_embeddings_16bit": "16-bit embeddings",
    "kv_dtype": "KV cache dtype",
    "context": "Context (tokens)",
    "grad_dtype": "Gradient dtype",
    "zero": "ZeRO stage",
    "tp": "Tensor parallel",
    "pp": "Pipeline parallel",
    "gpus": "GPUs",
    "flash_attention": "FlashAttention",
    "lora_rank": "LoRA rank",
    "lora_targets": "LoRA targets",
    "qlora": "QLoRA",
    "tokens": "Training tokens",
    "mfu": "MFU",
    "gpu": "GPU",
    "cuda_context_bytes": "CUDA context (bytes)",
}
NONE_TEXT = "none"


def _editor_for(spec: FieldSpec, parent: QWidget) -> Editor | None:
    if spec.name == "gpu":
        catalog = load_catalog()
        editor: Editor | None = ComboBox(tuple(gpu.id for gpu in catalog), parent)
        for index, gpu in enumerate(catalog):
            editor.setItemText(index, gpu.name)  # type: ignore[union-attr]
        editor.setToolTip(spec.description)  # type: ignore[union-attr]
        return editor
    editor = make_editor(spec, parent)
    if isinstance(editor, ComboBox) and spec.optional:
        editor.insertItem(0, NONE_TEXT, None)
    return editor


class ScenarioControls(QWidget):
    """A grid of label + editor pairs; each editor's objectName is ``scenario.<field>``."""

    def __init__(self, document: Document, columns: int = 2, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("scenarioControls")
        self._document = document
        self.editors: dict[str, Editor] = {}
        self.labels: dict[str, QLabel] = {}
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(3)
        cell = 0
        for spec in model_fields(Scenario):
            editor = _editor_for(spec, self)
            if editor is None:
                continue
            editor.setObjectName(f"scenario.{spec.name}")
            label = QLabel(LABELS.get(spec.name, spec.label), self)
            label.setToolTip(spec.description)
            label.setBuddy(editor)
            wide = spec.kind == "choices"  # a row of check boxes takes a whole line
            if wide and cell % columns:
                cell += columns - cell % columns
            row, column = divmod(cell, columns)
            grid.addWidget(label, row, 2 * column)
            grid.addWidget(editor, row, 2 * column + 1, 1, 2 * columns - 1 if wide else 1)
            cell += columns if wide else 1
            editor.committed.connect(lambda value, merge, name=spec.name: self._commit(name, value, merge))
            self.editors[spec.name] = editor
            self.labels[spec.name] = label
        for column in range(columns):
            grid.setColumnStretch(2 * column + 1, 1)
        document.changed.connect(self.refresh)
        document.invalid.connect(self._show_problem)
        document.validity.connect(self._show_problem)
        self.refresh()

    def _commit(self, name: str, value: Any, merge: bool) -> None:
        key = f"scenario.{name}" if merge else None
        if not self._document.set_scenario_field(name, value, merge_key=key):
            self.refresh()  # refused: the editor shows the last valid value again (the reason stays)

    def refresh(self) -> None:
        scenario = self._document.scenario
        training_only = training_only_fields()
        for name, editor in self.editors.items():
            relevant = scenario.mode == "training" or name not in training_only
            editor.setEnabled(relevant)
            self.labels[name].setEnabled(relevant)
            value = getattr(scenario, name)
            if editor.value() != value:
                editor.blockSignals(True)
                editor.set_value(value)
                editor.blockSignals(False)

    def _show_problem(self, path: str, reason: str) -> None:
        name = path.removeprefix("scenario.")
        editor = self.editors.get(name)
        if editor is None:
            return
        editor.setStyleSheet(_ERROR_STYLE if reason else "")
        spec_tip = self.labels[name].toolTip()
        editor.setToolTip(f"{reason}\n\n{spec_tip}" if reason else spec_tip)
