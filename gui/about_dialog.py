"""Help → About: the version, the licence and where ParamTally keeps its files on this machine.

The places are core's (``core.io.about.locations``, asked of platformdirs as the code that writes
them asks) with the window's own settings file beside them; "Copy Details" puts it all on the
clipboard as plain text, for a bug report.
"""

from __future__ import annotations

import platform

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, qVersion
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from paramtally.core.io.about import Location, licence, locations, version
from paramtally.gui.dialogs import add_mnemonics
from paramtally.gui.i18n import said_text, translate
from paramtally.gui.settings import settings_path

__all__ = ["AboutDialog", "window_locations"]

SUMMARY = QT_TRANSLATE_NOOP(
    "About", "Exact parameter counts, memory and FLOPs of transformer language models, live as you edit."
)


# The places' titles core gives (core.io.about.locations), listed for the translators.
_PLACE_TITLES = (
    QT_TRANSLATE_NOOP("About", "Your presets"),
    QT_TRANSLATE_NOOP("About", "Built-in presets"),
    QT_TRANSLATE_NOOP("About", "Your GPU catalog"),
    QT_TRANSLATE_NOOP("About", "Recent models"),
    QT_TRANSLATE_NOOP("About", "Error log"),
    QT_TRANSLATE_NOOP("About", "Desktop entry"),
    QT_TRANSLATE_NOOP("About", "User guide"),
    QT_TRANSLATE_NOOP("About", "Window settings"),
)


def window_locations() -> tuple[Location, ...]:
    """Core's places and the window's settings file (geometry, theme, Goal Seek's last choice)."""
    what = translate("About", "size, splitters, theme and the dialogs' last choices")
    ours = Location("Window settings", settings_path(), what)
    found = locations()
    return (*found[:4], ours, *found[4:])


class AboutDialog(QDialog):
    """objectName ``aboutDialog``; each place is a selectable label named ``about:<title>``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.setWindowTitle(translate("About", "About ParamTally"))
        self.places = window_locations()
        summary, licence_word = translate("About", SUMMARY), translate("About", "Licence:")
        head = QLabel(
            f"<h2>ParamTally {version()}</h2><p>{summary}</p>"
            f"<p>{licence_word} {licence()} · Qt {qVersion()} · PySide6 {pyside_version} · "
            f"Python {platform.python_version()}</p>"
        )
        head.setObjectName("aboutHead")
        head.setWordWrap(True)
        head.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        grid = QGridLayout()
        grid.setColumnStretch(1, 1)
        grid.addWidget(QLabel(translate("About", "<b>Where ParamTally keeps its files</b>")), 0, 0, 1, 2)
        for row, place in enumerate(self.places, start=1):
            title = QLabel(translate("About", place.title))
            title.setToolTip(said_text(place.what))
            missing = "" if place.path.exists() else translate("About", "  (not created yet)")
            path = QLabel(f"{place.path}{missing}")
            path.setObjectName(f"about:{place.title}")
            path.setToolTip(said_text(place.what))
            path.setWordWrap(True)
            path.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            grid.addWidget(title, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(path, row, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        copy = buttons.addButton(translate("About", "Copy Details"), QDialogButtonBox.ButtonRole.ActionRole)
        copy.setObjectName("aboutCopy")
        copy.setToolTip(translate("About", "The version and these places as plain text, for a bug report"))
        copy.clicked.connect(self.copy_details)
        add_mnemonics(buttons)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(head)
        layout.addLayout(grid)
        layout.addWidget(buttons)
        width = min(760, self._room())
        # As tall as its wrapped lines at that width (the size hint took the labels unwrapped,
        # leaving a third of the dialog empty).
        self.resize(width, layout.totalHeightForWidth(width))

    def details(self) -> str:
        lines = [
            f"ParamTally {version()} (licence {licence()}), Qt {qVersion()}, PySide6 {pyside_version}, "
            f"Python {platform.python_version()} on {platform.platform()}"
        ]
        lines += [f"{place.title}: {place.path}" for place in self.places]
        return "\n".join(lines)

    def copy_details(self) -> None:
        clipboard = QApplication.clipboard()
        clipboard.setText(self.details())

    def _room(self) -> int:
        screen = self.parentWidget().screen() if self.parentWidget() is not None else self.screen()
        return screen.availableGeometry().width() - 40 if screen is not None else 760
