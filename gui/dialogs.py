"""The two dialog steps every file command shares: ask where to save, and say why it failed.

Both go through Qt's static helpers (``QFileDialog.getSaveFileName``, ``QMessageBox.warning``)
so tests can replace them with scripted answers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from paramtally.core.errors import ParamTallyError

__all__ = ["ask_save_path", "attempt"]

_FILTER_SUFFIX = re.compile(r"\(\*(\.\w+)")


def ask_save_path(parent: QWidget, title: str, name: str, filters: str, default_suffix: str) -> Path | None:
    """The file to write, or None if cancelled; a name typed without a suffix takes the chosen filter's.

    The dialog itself has asked before replacing an existing file.
    """
    chosen, selected = QFileDialog.getSaveFileName(parent, title, name, filters)
    if not chosen:
        return None
    path = Path(chosen)
    if not path.suffix:
        match = _FILTER_SUFFIX.search(selected)
        path = path.with_suffix(match.group(1) if match else default_suffix)
    return path


def attempt(parent: QWidget, title: str, action: Callable[[], object]) -> bool:
    """Run ``action``; a user error becomes one warning titled ``title`` and False (nothing else changes)."""
    try:
        action()
    except ParamTallyError as exc:
        QMessageBox.warning(parent, title, str(exc))
        return False
    return True
