"""A cell an item model could not answer: logged, shown as such, and the window goes on.

Qt asks a model's ``data()`` from C++: an exception escaping there takes the whole window down,
so the models catch every one. Caught, it is a bug all the same: the trace goes to the error log
(``core.io.error_log``), once per distinct error (Qt asks again at every paint), and the cell
says it could not be shown, its tooltip why and where the details are, instead of staying blank.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt

from paramtally.core.io.error_log import log_exception
from paramtally.gui.shown_text import MESSAGE_CHARS, shown

__all__ = ["FAILED_TEXT", "FailedCells"]

FAILED_TEXT = "⚠ error"  # short: it fits the narrowest column (a share's "100.0 %")
_KEPT = 64  # distinct errors remembered as logged; past it, the log takes each again
Index = QModelIndex | QPersistentModelIndex


def _cell(index: Index) -> tuple[int, int]:
    return index.internalId(), index.column()


class FailedCells:
    """``answer(error, role, index)``: what the cell at ``index`` shows in ``role`` when its
    ``data()`` raised ``error``; ``tooltip(index)``: why a cell shows ``FAILED_TEXT`` (None for a
    cell that did not fail), until the model ``forget``s its failures (new figures)."""

    def __init__(self) -> None:
        self._logged: dict[str, str] = {}  # error in one line → where its trace went ("" if nowhere)
        self._cells: dict[tuple[int, int], str] = {}  # a cell that failed → its tooltip

    def answer(self, error: Exception, role: int, index: Index) -> Any:
        said = f"{type(error).__name__}: {error}"
        if said not in self._logged:
            if len(self._logged) >= _KEPT:
                self._logged.clear()
            self._logged[said] = self._log(error)
        log = self._logged[said]
        where = f" The details are in {log}; please add them to a bug report." if log else ""
        tip = shown(f"ParamTally could not show this cell ({said}).{where}", MESSAGE_CHARS)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            self._cells[_cell(index)] = tip
        if role == Qt.ItemDataRole.DisplayRole:
            return FAILED_TEXT
        return tip if role == Qt.ItemDataRole.ToolTipRole else None

    def tooltip(self, index: Index) -> str | None:
        return self._cells.get(_cell(index)) if self._cells else None

    def forget(self) -> None:
        """New figures: every cell is asked afresh."""
        self._cells.clear()

    @staticmethod
    def _log(error: Exception) -> str:
        from paramtally.core.cli import version  # late: only a bug needs it

        path = log_exception(type(error), error, error.__traceback__, version())
        return str(path) if path is not None else ""
