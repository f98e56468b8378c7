"""What the window remembers between runs, in one INI file in the user's config dir."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_config_path
from PySide6.QtCore import QSettings

__all__ = ["APP", "settings", "settings_path"]

APP = "paramtally"


def settings_path() -> Path:
    """The INI file in the user's config dir (XDG_CONFIG_HOME on Linux; tests point it to tmp)."""
    return user_config_path(APP, appauthor=False) / "window.ini"


def settings() -> QSettings:
    """The window's settings, kept in ``settings_path()``."""
    return QSettings(str(settings_path()), QSettings.Format.IniFormat)
