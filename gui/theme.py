"""Light, dark, or follow the system: Qt's colour-scheme hint, with a Fusion palette as fallback.

``QStyleHints.setColorScheme`` is honoured only by platform themes that support it (not the
offscreen or a bare X11 session); there the palette is set by hand so the choice still shows.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

__all__ = ["THEMES", "apply_theme", "dark_palette"]

THEMES = ("system", "light", "dark")
_SCHEMES = {"light": Qt.ColorScheme.Light, "dark": Qt.ColorScheme.Dark}


def dark_palette() -> QPalette:
    palette = QPalette()
    roles = QPalette.ColorRole
    for role, color in (
        (roles.Window, "#2b2b2b"),
        (roles.WindowText, "#e6e6e6"),
        (roles.Base, "#1f1f1f"),
        (roles.AlternateBase, "#2a2a2a"),
        (roles.ToolTipBase, "#3a3a3a"),
        (roles.ToolTipText, "#e6e6e6"),
        (roles.Text, "#e6e6e6"),
        (roles.Button, "#353535"),
        (roles.ButtonText, "#e6e6e6"),
        (roles.BrightText, "#ff6b6b"),
        (roles.Highlight, "#3d7bd9"),
        (roles.HighlightedText, "#ffffff"),
        (roles.Link, "#6aa6ff"),
        (roles.PlaceholderText, "#8a8a8a"),
        (roles.Mid, "#444444"),
        (roles.Dark, "#1a1a1a"),
        (roles.Light, "#4a4a4a"),
        (roles.Midlight, "#3c3c3c"),
    ):
        palette.setColor(role, QColor(color))
    for role in (roles.WindowText, roles.Text, roles.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7a7a7a"))
    return palette


def apply_theme(app: QApplication, theme: str, restyle: bool = True) -> None:
    """``theme`` is one of THEMES; 'system' follows the desktop's light/dark setting. ``restyle``:
    polish the widgets already built again (a switch); at start nothing is built yet."""
    hints = app.styleHints()
    if theme not in _SCHEMES:
        hints.unsetColorScheme()
        app.setPalette(app.style().standardPalette())
        if restyle:
            _restyle(app)
        return
    wanted = _SCHEMES[theme]
    hints.setColorScheme(wanted)
    if hints.colorScheme() == wanted:
        app.setPalette(app.style().standardPalette())
    else:  # the platform theme ignored the hint
        app.setPalette(dark_palette() if theme == "dark" else app.style().standardPalette())
    if restyle:
        _restyle(app)


def _restyle(app: QApplication) -> None:
    """Widgets under a style sheet (problem labels, the memory panel's notes) keep the palette they
    were polished with: one built in the dark stayed dark after a switch to light. Setting each
    sheet again polishes it with the new palette."""
    for widget in app.allWidgets():
        sheet = widget.styleSheet()
        if sheet:
            widget.setStyleSheet("")
            widget.setStyleSheet(sheet)
