"""What the window remembers between runs, in one INI file in the user's config dir."""

from __future__ import annotations

from platformdirs import user_config_path
from PySide6.QtCore import QSettings

__all__ = ["APP", "settings"]

APP = "paramtally"


def settings() -> QSettings:
    """Window settings in the user's config dir (XDG_CONFIG_HOME on Linux; tests point it to tmp)."""
    path = user_config_path(APP, appauthor=False) / "window.ini"
    return QSettings(str(path), QSettings.Format.IniFormat)
