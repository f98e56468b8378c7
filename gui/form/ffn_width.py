"""FFN width from the hidden size: the form's "From hidden…" button and its dialog.

The width is LLaMA's rule, computed in ``core.schema.derived_sizes``; the dialog shows the result as the
multiplier and the multiple change, and Apply sets it as one undo step.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from paramtally.core.editing.edits import FieldPath, get_value
from paramtally.core.schema import Architecture
from paramtally.core.schema.derived_sizes import ffn_width_from_hidden
from paramtally.gui.dialogs import add_mnemonics
from paramtally.gui.document import Document
from paramtally.gui.form.editors import IntSpinBox
from paramtally.gui.i18n import translate

__all__ = ["FfnWidthDialog", "ask_ffn_width", "ffn_width_button", "ffn_width_path"]


def ffn_width_path(arch: Architecture) -> FieldPath | None:
    """The width the button sets: the FFN width (the design variable ``ffn_width``: a dense FFN's)
    of the main stack's base block (None without one)."""
    name = arch.main_stack.block
    field = arch.blocks[name].ffn.VARIABLES.get("ffn_width")
    return ("blocks", name, "ffn", field) if field is not None else None


def _gated(document: Document, path: FieldPath) -> bool:
    return bool(get_value(document.architecture, (*path[:-1], "gated")))


class FfnWidthDialog(QDialog):
    """objectNames: ``multiplier``, ``multiple_of``, ``result``."""

    def __init__(self, document: Document, path: FieldPath, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("FfnWidth", "FFN width from the hidden size"))
        self.document, self.path = document, path
        arch = document.architecture
        self.multiplier = QDoubleSpinBox()
        self.multiplier.setObjectName("multiplier")
        self.multiplier.setRange(0.05, 16.0)
        self.multiplier.setDecimals(3)
        self.multiplier.setSingleStep(0.1)
        self.multiplier.setValue(1.0)
        self.multiplier.setToolTip(
            translate("FfnWidth", "LLaMA's ffn_dim_multiplier (Llama 3: 1.3; Llama 3.1 405B: 1.2)")
        )
        self.multiple = IntSpinBox(1, 1 << 20)
        self.multiple.setObjectName("multiple_of")
        self.multiple.set_value(256)
        self.multiple.setToolTip(
            translate(
                "FfnWidth", "LLaMA's multiple_of: the width is rounded up to it (Llama 2: 256, Llama 3: 1024)"
            )
        )
        self.result = QLabel()
        self.result.setObjectName("result")
        self.result.setWordWrap(True)
        form = QFormLayout()
        form.addRow(_buddy(translate("FfnWidth", "&Multiplier:"), self.multiplier), self.multiplier)
        form.addRow(
            _buddy(translate("FfnWidth", "Round up to a multiple &of:"), self.multiple), self.multiple
        )
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Apply | QDialogButtonBox.StandardButton.Cancel
        )
        add_mnemonics(buttons)
        buttons.button(QDialogButtonBox.StandardButton.Apply).clicked.connect(self.accept)
        buttons.button(QDialogButtonBox.StandardButton.Apply).setDefault(True)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(
            QLabel(
                (
                    translate("FfnWidth", "Hidden size {size}, gated FFN")
                    if _gated(document, path)
                    else translate("FfnWidth", "Hidden size {size}, plain FFN")
                ).format(size=f"{arch.hidden_size:,}")
            )
        )
        layout.addLayout(form)
        layout.addWidget(self.result)
        layout.addWidget(buttons)
        self.multiplier.valueChanged.connect(self._show)
        self.multiple.committed.connect(lambda *_: self._show())
        self.multiple.lineEdit().textEdited.connect(lambda _text: self._show())
        self._show()

    def width(self) -> int:
        self.multiple.finish_typing()
        arch = self.document.architecture
        return ffn_width_from_hidden(
            arch.hidden_size,
            self.multiple.value() or 1,
            self.multiplier.value(),
            _gated(self.document, self.path),
        )

    def _show(self) -> None:
        start = "4·h·2/3" if _gated(self.document, self.path) else "4·h"
        said = translate("FfnWidth", "{start}, × {multiplier}, rounded up: FFN width {width}")
        self.result.setText(
            said.format(start=start, multiplier=f"{self.multiplier.value():g}", width=f"{self.width():,}")
        )


def _buddy(text: str, widget: QWidget) -> QLabel:
    label = QLabel(text)
    label.setBuddy(widget)
    return label


def ask_ffn_width(document: Document, path: FieldPath, parent: QWidget | None = None) -> None:
    """Show the dialog; Apply sets the FFN width (one undo step)."""
    dialog = FfnWidthDialog(document, path, parent)
    if dialog.exec() == QDialog.DialogCode.Accepted:
        document.set_field(path, dialog.width())


def ffn_width_button(document: Document, path: FieldPath, parent: QWidget | None = None) -> QToolButton:
    button = QToolButton(parent)
    button.setObjectName("ffnWidthFromHidden")
    button.setText(translate("FfnWidth", "From hidden…"))
    button.setToolTip(
        translate(
            "FfnWidth", "Compute the FFN width from the hidden size, as LLaMA does (multiplier, multiple_of)"
        )
    )
    button.clicked.connect(lambda: ask_ffn_width(document, path, button.window()))
    return button
