"""The window's document: ``core.editing.document.Document`` with Qt signals and a QUndoStack.

Everything is decided in core (what an edit does, drafts, refusals, the figures); this adapter
forwards core's events to Qt signals of the same names, so widgets connect as to any QObject,
and keeps the history in a ``QUndoStack`` (``undo_stack``), so the Edit menu's actions, the
clean state of the title bar and the presets browser's marker work as Qt's do. A core ``Edit``
becomes one QUndoCommand that runs it; merging and dropping a drag that ends where it began
follow the core edit's own rules.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import shiboken6
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from paramtally.core.count.breakdown import ParamReport
from paramtally.core.editing import document as core_document
from paramtally.core.editing.edits import FieldPath
from paramtally.core.editing.history import Edit
from paramtally.core.schema import Architecture, StackRole

if TYPE_CHECKING:
    from paramtally.core.memory.estimate import MemoryReport
    from paramtally.core.memory.fit import SetupFit
    from paramtally.core.memory.flops import FlopsReport
    from paramtally.core.memory.scenario import Scenario
    from paramtally.core.memory.serving import ServingReport

__all__ = ["SCENARIO", "Document"]

SCENARIO = core_document.SCENARIO


class _Command(QUndoCommand):
    """One core edit on Qt's undo stack."""

    _ids: ClassVar[dict[str, int]] = {}  # merge key → QUndoCommand id, stable for the session

    def __init__(self, edit: Edit) -> None:
        super().__init__(edit.text)
        self.edit = edit

    def redo(self) -> None:
        self.edit.redo()

    def undo(self) -> None:
        self.edit.undo()

    def id(self) -> int:
        key = self.edit.merge_key
        return -1 if key is None else _Command._ids.setdefault(key, len(_Command._ids) + 1)

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, _Command) or not self.edit.merge(other.edit):
            return False
        self.setObsolete(self.edit.obsolete)
        return True


class _QtHistory:
    """The core history protocol (``core.editing.history.HistoryLike``) on a QUndoStack."""

    def __init__(self, stack: QUndoStack) -> None:
        self.stack = stack

    def push(self, edit: Edit) -> None:
        self.stack.push(_Command(edit))

    def undo(self) -> None:
        self.stack.undo()

    def redo(self) -> None:
        self.stack.redo()

    def clear(self) -> None:
        self.stack.clear()

    def set_clean(self) -> None:
        self.stack.setClean()

    def is_clean(self) -> bool:
        # The stack announces cleanChanged while it is being destroyed; it is not dirty then.
        return not shiboken6.isValid(self.stack) or self.stack.isClean()

    def count(self) -> int:
        return self.stack.count()

    def undo_text(self) -> str:
        return self.stack.undoText()


def _forward(document: Document, name: str) -> Callable[..., None]:
    """Core's event ``name`` → the Qt signal of that name. Through a weak reference: the core
    document must not keep its Qt document alive (a cycle Python would collect at any moment,
    maybe while Qt is painting the views that read it)."""
    ref = weakref.ref(document)

    def emit(*args: Any) -> None:
        target = ref()
        if target is not None and shiboken6.isValid(target):
            getattr(target, name).emit(*args)

    return emit


class Document(QObject):
    changed = Signal()  # architecture or scenario changed; the results below are fresh
    invalid = Signal(object, str)  # (field path, reason): refused (and, if typed, kept as a draft)
    validity = Signal(object, str)  # (field path, "") when a field's error is gone
    source_changed = Signal()  # another model was opened, or this one saved under a new name
    hints_changed = Signal()  # the scenario changed: its advice may have
    about_to_open = Signal()  # another model is being opened (``source_changed`` follows)

    def __init__(
        self,
        architecture: Architecture,
        label: str = "",
        parent: QObject | None = None,
        preset_id: str | None = None,
        scenario: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.core = core_document.Document(
            architecture, label, preset_id, scenario, history=_QtHistory(self.undo_stack)
        )
        for name in core_document.EVENTS:
            getattr(self.core, name).connect(_forward(self, name))

    # --- state and results (core's) -------------------------------------------------------------

    @property
    def architecture(self) -> Architecture:
        return self.core.architecture

    @property
    def scenario(self) -> Scenario:
        return self.core.scenario

    @property
    def hints(self) -> dict[FieldPath, str]:
        return self.core.hints

    @property
    def drafts(self) -> dict[FieldPath, Any]:
        return self.core.drafts

    @property
    def problems(self) -> dict[FieldPath, str]:
        return self.core.problems

    @property
    def dirty(self) -> bool:
        return self.core.dirty

    @property
    def source_label(self) -> str:
        return self.core.source_label

    @property
    def preset_id(self) -> str | None:
        return self.core.preset_id

    @property
    def opened(self) -> int:
        return self.core.opened

    @property
    def opening_note(self) -> str:
        return self.core.opening_note

    @property
    def scenario_drafts(self) -> dict[str, Any]:
        return self.core.scenario_drafts

    @property
    def layout_marks(self) -> dict[str, Any]:
        return self.core.layout_marks

    @property
    def layout_note(self) -> str:
        return self.core.layout_note

    @property
    def figures_refusal(self) -> str:
        return self.core.figures_refusal

    @property
    def report(self) -> ParamReport:
        return self.core.report

    @property
    def memory(self) -> MemoryReport | None:
        return self.core.memory

    @property
    def flops(self) -> FlopsReport | None:
        return self.core.flops

    @property
    def serving(self) -> ServingReport | None:
        return self.core.serving

    @property
    def setups(self) -> tuple[SetupFit, ...]:
        return self.core.setups

    def scenario_data(self) -> dict[str, Any]:
        return self.core.scenario_data()

    def title_of(self, path: FieldPath) -> str:
        return self.core.title_of(path)

    # --- edits (core's, each one undo step) -------------------------------------------------------

    def set_field(self, path: FieldPath, value: Any, merge_key: str | None = None, keep: bool = True) -> bool:
        return self.core.set_field(path, value, merge_key, keep)

    def set_architecture(self, architecture: Architecture, text: str) -> None:
        self.core.set_architecture(architecture, text)

    def edit_architecture(
        self, change: Callable[[Architecture], Architecture], text: str, path: FieldPath
    ) -> bool:
        return self.core.edit_architecture(change, text, path)

    def set_group_value(self, group: FieldPath, block_path: FieldPath, value: Any) -> bool:
        return self.core.set_group_value(group, block_path, value)

    def set_groups_value(self, groups: list[FieldPath], block_path: FieldPath, value: Any) -> bool:
        return self.core.set_groups_value(groups, block_path, value)

    def reset_group_value(self, group: FieldPath, block_path: FieldPath) -> bool:
        return self.core.reset_group_value(group, block_path)

    def set_scenario_values(self, values: dict[str, Any], merge_key: str | None = None) -> bool:
        return self.core.set_scenario_values(values, merge_key)

    def set_scenario_field(self, name: str, value: Any, merge_key: str | None = None) -> bool:
        return self.core.set_scenario_field(name, value, merge_key)

    def type_scenario_value(self, name: str, value: Any, merge: bool = False) -> bool:
        return self.core.type_scenario_value(name, value, merge)

    def apply_variant(self, architecture: Architecture, scenario: Scenario, text: str) -> bool:
        return self.core.apply_variant(architecture, scenario, text)

    def apply_pattern(self, stack: StackRole, text: str) -> bool:
        return self.core.apply_pattern(stack, text)

    def load(
        self,
        architecture: Architecture,
        label: str,
        preset_id: str | None = None,
        scenario: dict[str, Any] | None = None,
    ) -> None:
        self.core.load(architecture, label, preset_id, scenario)

    def set_source(self, label: str, preset_id: str | None) -> None:
        self.core.set_source(label, preset_id)

    def report_problem(self, path: FieldPath, reason: str) -> None:
        self.core.report_problem(path, reason)
