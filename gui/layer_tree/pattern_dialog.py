"""The pattern helper: a stack from a repeating pattern typed in a line, shown before it applies.

The dialog reads the line at every keystroke and lists the layer groups it makes
(``core.editing.patterns.stack_from_pattern``), with the stack's layers and the model's parameters
after it; OK gives the line to the document, which applies it as one undo step
(``Document.apply_pattern``). A line that cannot be read says why, in the dialog, and OK waits for
a good one.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing import patterns
from paramtally.core.editing.layer_ops import Layers
from paramtally.core.errors import ParamTallyError, one_line
from paramtally.core.schema import Architecture, StackRole
from paramtally.gui.dialogs import add_mnemonics
from paramtally.gui.i18n import core_text, said_text, translate

__all__ = ["PatternDialog", "ask_pattern"]

# The pattern language is written in English words whatever the window's language.
EXAMPLES = (
    "[mamba2 ×7, attention ×1] × 4 · MoE every 2nd layer · 5 local : 1 global, window 1024 · "
    "[mamba ×4, attention, mamba ×3] × 4; MoE every 2nd layer"
)


class PatternDialog(QDialog):
    def __init__(self, arch: Architecture, stack: StackRole, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        stack_name = core_text(stack)
        self.setWindowTitle(translate("Pattern", "Make the {stack} from a pattern").format(stack=stack_name))
        self.arch, self.stack = arch, stack
        self.groups: Layers | None = None
        layout = QVBoxLayout(self)
        intro = QLabel(
            translate(
                "Pattern",
                "Layer kinds, counts and rules for the {stack}'s {layers} layers (a repeat count sets the "
                "number of layers; a pattern makes at most {most} layers). Examples: {examples}",
            ).format(
                stack=stack_name,
                layers=f"{getattr(arch, stack).num_layers:,}",
                most=f"{patterns.MAX_PATTERN_LAYERS:,}",
                examples=EXAMPLES,
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.text = QLineEdit(self)
        self.text.setObjectName("patternText")
        self.text.setPlaceholderText("[mamba2 ×7, attention ×1] × 4")
        layout.addWidget(self.text)
        self.preview = QTreeWidget(self)
        self.preview.setObjectName("patternPreview")
        self.preview.setHeaderLabels([translate("Pattern", "Layer groups it makes")])
        self.preview.setMinimumSize(520, 220)
        layout.addWidget(self.preview, 1)
        self.summary = QLabel(self)
        self.summary.setObjectName("patternSummary")
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        add_mnemonics(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.text.textChanged.connect(self._read)
        self._read("")

    def _read(self, text: str) -> None:
        """Show what the line makes, or why it cannot be read; OK only for a good line."""
        self.preview.clear()
        self.groups = None
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        try:
            groups, arch = patterns.stack_from_pattern(self.arch, self.stack, text)
        except (ParamTallyError, ValueError) as exc:
            self.summary.setText(
                f"⚠ {said_text(one_line(exc))}" if text.strip() else translate("Pattern", "Type a pattern.")
            )
            ok.setEnabled(False)
            return
        parents: list[QTreeWidgetItem] = []
        for depth, line in patterns.preview(groups, self.arch.blocks[getattr(self.arch, self.stack).block]):
            item = QTreeWidgetItem([core_text(line)])
            del parents[depth:]
            if parents:
                parents[-1].addChild(item)
            else:
                self.preview.addTopLevelItem(item)
            parents.append(item)
        self.preview.expandAll()
        layers = getattr(arch, self.stack).num_layers
        self.summary.setText(
            translate("Pattern", "{layers} layers; the model then has {total} parameters.").format(
                layers=f"{layers:,}", total=f"{count_parameters(arch).total:,}"
            )
        )
        self.groups = groups
        ok.setEnabled(True)

    def accept(self) -> None:
        if self.groups is not None:
            super().accept()


def ask_pattern(arch: Architecture, stack: StackRole, parent: QWidget | None = None) -> str | None:
    """Show the dialog modally; the pattern's line to apply, or None when cancelled."""
    dialog = PatternDialog(arch, stack, parent)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return dialog.text.text()
