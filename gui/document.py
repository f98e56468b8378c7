"""The window's document: ``core.editing.document.Document`` with Qt signals and a QUndoStack.

Everything is decided in core (what an edit does, drafts, refusals, the figures); this adapter
forwards core's events to Qt signals of the same names, so widgets connect as to any QObject,
and keeps the history in a ``QUndoStack`` (``undo_stack``), so the Edit menu's actions, the
clean state of the title bar and the presets browser's marker work as Qt's do. A core ``Edit``
becomes one QUndoCommand that runs it; merging and dropping a drag that ends where it began
follow the core edit's own rules.
"""

from __future__ import annotations

import operator
import weakref
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar

import shiboken6
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from paramtally.core.editing import document as core_document
from paramtally.core.editing.history import Edit
from paramtally.core.schema import Architecture
from paramtally.gui.i18n import said_text

__all__ = ["SCENARIO", "Document"]

SCENARIO = core_document.SCENARIO


class _Command(QUndoCommand):
    """One core edit on Qt's undo stack."""

    _ids: ClassVar[dict[str, int]] = {}  # merge key → QUndoCommand id, stable for the session

    def __init__(self, edit: Edit) -> None:
        super().__init__(said_text(edit.text))  # the Edit menu's "Undo …", in the window's language
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


# One Qt signal per core event, of the same name and number of arguments (``EVENTS``).
_Signals = type(QObject)(
    "_Signals",
    (QObject,),
    {name: Signal(*(object,) * arguments) for name, arguments in core_document.EVENTS.items()},
)


class Document(_Signals):  # type: ignore[misc, valid-type]  # a class made from core's events
    """The core document (``core``) with a Qt signal for each of its events and a QUndoStack.

    Every other member is the core document's, reached through this one: its state, figures and
    edits are not repeated here, so a member core gains needs no change in the window.
    """

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
        _forward_members(type(self), vars(self.core), lambda name: None)

    if not TYPE_CHECKING:  # to a type checker, the core document's members are this one's (below)

        def __getattr__(self, name: str) -> Any:
            if name == "core":  # not set yet (a signal emitted during construction)
                raise AttributeError(name)
            return getattr(self.core, name)  # an attribute core gained after this class was made


def _forward_members(cls: type, names: Iterable[str], docs: Callable[[str], str | None]) -> None:
    """Give ``cls`` a member for each of ``names`` it lacks that reads the core document's: the views
    read them on every paint, and a member found on the class costs less than ``__getattr__``."""
    for name in names:
        if not name.startswith("_") and not hasattr(cls, name):
            setattr(cls, name, property(operator.attrgetter(f"core.{name}"), doc=docs(name)))


# The core document's properties and methods; its attributes once one is made (``Document.__init__``).
_forward_members(
    Document, vars(core_document.Document), lambda name: getattr(core_document.Document, name).__doc__
)

if TYPE_CHECKING:  # what a type checker sees: the core document's members, with their types

    class Document(core_document.Document, QObject):  # type: ignore[no-redef]
        undo_stack: QUndoStack
        core: core_document.Document
