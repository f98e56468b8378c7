"""Help → User Guide: the README shipped in the package, shown in the window.

ParamTally works offline, so the guide is the installed README (``core.io.about.readme_path``),
rendered by Qt's own Markdown reader: no browser and no network needed. The sections are listed
beside it to jump to; "Open in Browser" hands the file to the desktop's viewer, and says so in
the dialog when this machine has none (a server, a container) — the guide stays on screen.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QTextBlock
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from paramtally.core.io.about import readme_path
from paramtally.gui.dialogs import add_mnemonics
from paramtally.gui.i18n import translate

__all__ = ["GuideDialog", "without_pictures"]

# '![The parameters tab in English](docs/screenshot-parameters-en.png)': the README's screenshots.
_PICTURE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")


def without_pictures(markdown: str) -> str:
    """The README's pictures as their words: the guide is read inside the window they show, and a
    wheel ships the README without docs/, so Qt drew a broken-image mark for each."""
    return _PICTURE.sub(lambda found: f"*{found.group(1)}*", markdown)


class GuideDialog(QDialog):
    """objectName ``guideDialog``; children ``guideSections``, ``guideText``, ``guideNote``."""

    def __init__(self, parent: QWidget | None = None, path: Path | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("guideDialog")
        self.setWindowTitle(translate("Guide", "User Guide — ParamTally"))
        self.path = path or readme_path()
        self._headings: list[QTextBlock] = []
        self.sections = QListWidget()
        self.sections.setObjectName("guideSections")
        self.sections.setAccessibleName(translate("Guide", "Sections of the guide"))
        self.sections.setWordWrap(True)  # long titles wrap rather than scroll sideways
        self.sections.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.text = QTextBrowser()
        self.text.setObjectName("guideText")
        self.text.setOpenLinks(False)  # every link comes to _link: offline, a web link is said, not followed
        self.note = QLabel()
        self.note.setObjectName("guideNote")
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.sections)
        split.addWidget(self.text)
        split.setStretchFactor(1, 1)
        split.setSizes([230, 700])
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.open_button = self.buttons.addButton(
            translate("Guide", "Open in Browser"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.open_button.setObjectName("guideOpen")
        self.open_button.setToolTip(
            translate("Guide", "Hand README.md to the desktop's browser or Markdown viewer")
        )
        add_mnemonics(self.buttons)
        self.buttons.rejected.connect(self.reject)
        self.open_button.clicked.connect(self.open_outside)
        layout = QVBoxLayout(self)
        layout.addWidget(split, 1)
        layout.addWidget(self.note)
        layout.addWidget(self.buttons)
        self.sections.currentRowChanged.connect(self._jump)
        self.text.anchorClicked.connect(self._link)
        self._load()
        self._fit(parent)

    def _load(self) -> None:
        try:
            markdown = self.path.read_text(encoding="utf-8")
        except OSError as exc:
            self.text.setPlainText(
                translate(
                    "Guide", "The guide is not installed here: {path} cannot be read ({reason})."
                ).format(path=self.path, reason=exc.strerror or exc)
            )
            self.open_button.setEnabled(False)
            self._say(
                translate("Guide", "The guide is missing from this installation ({path}).").format(
                    path=self.path
                )
            )
            return
        self.text.setMarkdown(without_pictures(markdown))
        blocks = _blocks(self.text)
        self._headings = [block for block in blocks if block.blockFormat().headingLevel() in (1, 2)]
        for block in self._headings:
            self.sections.addItem(block.text())
        self._say(translate("Guide", "From {path}").format(path=self.path))

    def _jump(self, row: int) -> None:
        """Scroll the section of ``row`` to the top of the text."""
        if not 0 <= row < len(self._headings):
            return
        layout = self.text.document().documentLayout()
        top = layout.blockBoundingRect(self._headings[row]).top()
        self.text.verticalScrollBar().setValue(int(top))

    def open_outside(self) -> bool:
        """Hand the README to the desktop's viewer; when none takes it, say so (the guide stays here)."""
        opened = QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.path)))
        if opened:
            self._say(translate("Guide", "Opened {path} outside ParamTally.").format(path=self.path))
        else:
            self._say(
                translate(
                    "Guide",
                    "No browser or viewer opens files on this machine, so the guide stays here; "
                    "the file is {path}",
                ).format(path=self.path)
            )
        return opened

    def _link(self, url: QUrl) -> None:
        """A link in the guide: a section of it is scrolled to; one elsewhere is named, not followed
        (ParamTally never goes online)."""
        if url.hasFragment() and not url.host():
            self.text.scrollToAnchor(url.fragment())
            return
        self._say(
            translate("Guide", "The guide links to {url} (not opened: ParamTally works offline).").format(
                url=url.toString()
            )
        )

    def _say(self, text: str) -> None:
        self.note.setText(text)

    def _fit(self, parent: QWidget | None) -> None:
        width, height = 960, 640
        screen = parent.screen() if parent is not None else self.screen()
        if screen is not None:
            room = screen.availableGeometry()
            width, height = min(width, room.width() - 40), min(height, room.height() - 80)
        self.resize(width, height)


def _blocks(browser: QTextBrowser) -> list[QTextBlock]:
    found = []
    block = browser.document().begin()
    while block.isValid():
        found.append(block)
        block = block.next()
    return found
