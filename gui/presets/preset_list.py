"""The searchable list of built-in and user presets, kept in step with the preset folder.

Rows come from ``core.io.user_presets.list_presets`` (reading never writes); each row keeps its id
and origin in item data roles. The user folder is watched, so a preset saved by the CLI or
another window shows up without a restart.
"""

from __future__ import annotations

from PySide6.QtCore import QFileSystemWatcher, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from paramtally.core.io import user_presets
from paramtally.core.io.user_presets import PresetEntry
from paramtally.gui.i18n import schema_text, translate
from paramtally.gui.shown_text import MESSAGE_CHARS, PATH_CHARS, shown

__all__ = ["BROKEN_COLOR", "ID_ROLE", "ORIGIN_ROLE", "PresetList", "preset_item"]

ID_ROLE = Qt.ItemDataRole.UserRole
ORIGIN_ROLE = Qt.ItemDataRole.UserRole + 1
BROKEN_COLOR = "#b3261e"
# A wrapped row breaks before its tag, never inside it: "[built-" / "in]" read as two words. The
# no-break space and hyphen (U+00A0, U+2011) glue it, as Unicode's line breaking rules (UAX #14) say.
_GLUED = str.maketrans({" ": "\u00a0", "-": "\u2011"})
_PLAIN = str.maketrans({"\u00a0": " ", "\u2011": "-"})


def preset_item(entry: PresetEntry) -> QListWidgetItem:
    """One row: "id — name [built-in]"; a broken file shows its problem in red."""
    detail = shown(entry.problem, MESSAGE_CHARS) if entry.broken else shown(entry.name)
    tag = f"[{schema_text(entry.label)}]".translate(_GLUED)
    item = QListWidgetItem(f"{shown(entry.id)}  —  {detail}  {tag}")
    item.setData(ID_ROLE, entry.id)
    item.setData(ORIGIN_ROLE, entry.origin)
    where = shown(str(entry.path), PATH_CHARS, middle=True)
    item.setToolTip(f"{where}\n{shown(entry.problem or entry.name, MESSAGE_CHARS)}")
    if entry.broken:
        item.setForeground(QColor(BROKEN_COLOR))
    return item


class PresetList(QWidget):
    """A filter line over the list; children ``presetFilter`` and ``presetList``."""

    activated = Signal(str)  # a preset id was opened by double-click or Return
    selection_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.filter = QLineEdit(
            placeholderText=translate("Presets", "Search presets…"), clearButtonEnabled=True
        )
        self.filter.setObjectName("presetFilter")
        self.list = QListWidget()
        self.list.setObjectName("presetList")
        # Long rows (a broken file's reason) wrap to the dock's width instead of hiding off to the right.
        self.list.setWordWrap(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setResizeMode(QListWidget.ResizeMode.Adjust)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.filter)
        layout.addWidget(self.list, 1)
        self._watcher = QFileSystemWatcher(self)
        self.filter.textChanged.connect(self._apply_filter)
        self.list.itemActivated.connect(lambda item: self.activated.emit(item.data(ID_ROLE)))
        self.list.itemSelectionChanged.connect(self.selection_changed.emit)
        self._watcher.directoryChanged.connect(lambda _path: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        """Re-read the preset folders (files changed by the CLI or another window show up)."""
        selected = self.selected()
        self.list.clear()
        for entry in user_presets.list_presets():
            self.list.addItem(preset_item(entry))
        self._watch()
        self._apply_filter(self.filter.text())
        if selected:
            self.select(*selected)
        self.selection_changed.emit()

    def items(self) -> list[QListWidgetItem]:
        return [self.list.item(row) for row in range(self.list.count())]

    def visible_ids(self) -> list[str]:
        return [item.data(ID_ROLE) for item in self.items() if not item.isHidden()]

    def selected(self) -> tuple[str, str] | None:
        """(id, origin) of the highlighted row, or None: what Rename and Delete act on."""
        items = self.list.selectedItems()
        return (items[0].data(ID_ROLE), items[0].data(ORIGIN_ROLE)) if items else None

    def clear_selection(self) -> None:
        self.list.clearSelection()
        self.list.setCurrentItem(None)

    def select(self, preset_id: str, origin: str | None = None) -> bool:
        for item in self.items():
            if item.data(ID_ROLE) == preset_id and origin in (None, item.data(ORIGIN_ROLE)):
                self.list.setCurrentItem(item)
                return True
        return False

    def select_preset(self, preset_id: str) -> bool:
        """Select what opening ``preset_id`` would load: the user preset when one shadows the built-in."""
        return self.select(preset_id, "user") or self.select(preset_id)

    def _watch(self) -> None:
        folder = user_presets.presets_dir()
        if folder.is_dir() and str(folder) not in self._watcher.directories():
            self._watcher.addPath(str(folder))

    def _apply_filter(self, text: str) -> None:
        """Show the rows that say ``text``. A selected row the filter hides gives the selection to the
        first row shown, or to none: a hidden selection left Open, Rename and Delete acting on a
        preset no one could see. With none selected, a filter that shows rows selects the first."""
        needle = text.strip().lower()
        for item in self.items():
            item.setHidden(bool(needle) and needle not in item.text().translate(_PLAIN).lower())
        chosen = self.list.selectedItems()
        if (chosen and not chosen[0].isHidden()) or not (chosen or needle):
            return
        shown = next((item for item in self.items() if not item.isHidden()), None)
        if shown is None:
            self.clear_selection()
        else:
            self.list.setCurrentItem(shown)
