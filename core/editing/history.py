"""The edit history of a document: undoable edits that swap one value, and a stack of them.

An ``Edit`` swaps one value of the document (its architecture with the drafts, or its scenario)
between ``before`` and ``after``. Edits with the same ``merge_key`` in a row merge into one
(a spin box dragged through twenty values is one undo step), and an edit that ends where it
began is dropped. ``History`` is the stack; anything with the same methods can stand in for it
(the window uses Qt's QUndoStack through a thin adapter, so its Undo menu and clean state work
as Qt's do). The rules follow QUndoStack's: a push runs the edit and drops what could be redone;
no merge into the step the document was saved at.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from paramtally.core.editing.events import Event

__all__ = ["Edit", "History", "HistoryLike"]


@dataclass
class Edit:
    apply: Callable[[Any], None]
    before: Any
    after: Any
    text: str
    merge_key: str | None = None

    def redo(self) -> None:
        self.apply(self.after)

    def undo(self) -> None:
        self.apply(self.before)

    def merge(self, other: Edit) -> bool:
        """Take ``other``'s result into this step when both have the same merge key."""
        if self.merge_key is None or other.merge_key != self.merge_key:
            return False
        self.after = other.after
        return True

    @property
    def obsolete(self) -> bool:
        """A merged drag that ends where it began leaves nothing to undo."""
        return bool(self.after == self.before)


class HistoryLike(Protocol):
    def push(self, edit: Edit) -> None: ...
    def undo(self) -> None: ...
    def redo(self) -> None: ...
    def clear(self) -> None: ...
    def set_clean(self) -> None: ...
    def is_clean(self) -> bool: ...
    def count(self) -> int: ...
    def undo_text(self) -> str: ...


class History:
    """A stack of edits with an undo position and the position the document was saved at.

    ``changed`` is emitted after every push, undo, redo or clear; ``clean_changed(bool)`` when
    the document comes to (or leaves) its saved state.
    """

    def __init__(self) -> None:
        self._edits: list[Edit] = []
        self._index = 0  # edits below it are done
        self._clean: int | None = 0  # None: the saved state was dropped (undone, then replaced)
        self.changed = Event()
        self.clean_changed = Event()

    def push(self, edit: Edit) -> None:
        was_clean = self.is_clean()
        edit.redo()
        del self._edits[self._index :]
        if self._clean is not None and self._clean > self._index:
            self._clean = None
        top = self._edits[-1] if self._edits else None
        if top is not None and self._clean != self._index and top.merge(edit):
            if top.obsolete:
                self._edits.pop()
        else:
            self._edits.append(edit)
        self._index = len(self._edits)
        self._announce(was_clean)

    def undo(self) -> None:
        if self._index == 0:
            return
        was_clean = self.is_clean()
        self._index -= 1
        self._edits[self._index].undo()
        self._announce(was_clean)

    def redo(self) -> None:
        if self._index == len(self._edits):
            return
        was_clean = self.is_clean()
        self._edits[self._index].redo()
        self._index += 1
        self._announce(was_clean)

    def clear(self) -> None:
        was_clean = self.is_clean()
        self._edits, self._index, self._clean = [], 0, 0
        self._announce(was_clean)

    def set_clean(self) -> None:
        was_clean = self.is_clean()
        self._clean = self._index
        self._announce(was_clean)

    def is_clean(self) -> bool:
        return self._clean == self._index

    def count(self) -> int:
        return len(self._edits)

    def index(self) -> int:
        return self._index

    def undo_text(self) -> str:
        return self._edits[self._index - 1].text if self._index else ""

    def redo_text(self) -> str:
        return self._edits[self._index].text if self._index < len(self._edits) else ""

    def _announce(self, was_clean: bool) -> None:
        self.changed.emit()
        if self.is_clean() != was_clean:
            self.clean_changed.emit(self.is_clean())
