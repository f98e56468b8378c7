"""ParamTally's warnings (a user file partly skipped) shown in the window's status bar, once each."""

from __future__ import annotations

import warnings
from typing import Any, Protocol

from paramtally.core.errors import ParamTallyWarning

__all__ = ["route_warnings_to"]


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
            window.show_notice(str(message))

    warnings.simplefilter("always", ParamTallyWarning)
    warnings.showwarning = show
