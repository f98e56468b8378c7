"""What the window tells besides its figures: ParamTally's warnings (a user file partly skipped)
in the status bar, once each; and a bug — an exception no code caught — in a dialog."""

from __future__ import annotations

import sys
import warnings
from types import TracebackType
from typing import Any, Protocol

from PySide6.QtWidgets import QWidget

from paramtally.core.errors import ParamTallyWarning, one_line
from paramtally.core.io.error_log import log_exception
from paramtally.gui.i18n import core_text, translate

__all__ = ["route_uncaught_to", "route_warnings_to"]


class _ShowsNotices(Protocol):
    def show_notice(self, text: str) -> None: ...


def route_warnings_to(window: _ShowsNotices) -> None:
    """From now on a ParamTallyWarning goes to ``window.show_notice``; others print as usual."""
    default = warnings.showwarning
    shown: set[str] = set()

    def show(message: Warning | str, category: type[Warning], *where: Any, **more: Any) -> None:
        if not issubclass(category, ParamTallyWarning):
            default(message, category, *where, **more)
        elif str(message) not in shown:
            shown.add(str(message))
            # The sentence core said, in the window's language (its English copy is str(message)).
            said = one_line(message) if isinstance(message, Warning) else message
            window.show_notice(core_text(said))

    warnings.simplefilter("always", ParamTallyWarning)
    warnings.showwarning = show


def route_uncaught_to(window: QWidget) -> None:
    """From now on an exception no code caught is said in a dialog over ``window`` and logged.

    Raised inside Qt's event loop (a slot, an event filter, a paint), such an exception is
    handed to ``sys.excepthook`` and the loop goes on: printed only, it would reach no one who
    started the window from a desktop. The traceback still goes to stderr as well. While one
    such dialog is open, further ones (the same bug repeating on each repaint) are only logged.
    """
    from paramtally.core.files.package_data import version
    from paramtally.gui.dialogs import warn

    previous = sys.excepthook
    showing: list[bool] = []

    def hook(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        previous(kind, error, trace)
        if not issubclass(kind, Exception):  # Ctrl+C in the terminal, SystemExit: not a bug
            return
        log = log_exception(kind, error, trace, version())
        if showing:
            return
        where = (
            translate("Notices", "The details are in {log}; please add them to a bug report.").format(log=log)
            if log
            else ""
        )
        showing.append(True)
        try:
            warn(
                window,
                translate("Notices", "ParamTally hit a bug"),
                f"{kind.__name__}: {_first_line(error)}\n\n"
                + translate("Notices", "What you last did may not have finished; the model stays open.")
                + f"\n{where}",
            )
        finally:
            showing.clear()

    sys.excepthook = hook


def _first_line(error: BaseException) -> str:
    return next(iter(one_line(error).splitlines()), "")
