"""The architectures pinned side by side: the open document (live) and any number of others.

Column 0 is always the open document as it is now, so the comparison follows every edit. The
others are fixed: a snapshot of the open document ("Pin"), a preset (built-in or the user's) or a
preset JSON / config.json file, each loaded by core. The comparison itself is
``core.explore.compare``'s, under the document's scenario.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from paramtally.core.sources import load_source

if TYPE_CHECKING:
    from paramtally.core.explore.compare import Column, Comparison
    from paramtally.core.schema import Architecture
    from paramtally.gui.document import Document

__all__ = ["Pin", "Pins"]


@dataclass(frozen=True, slots=True)
class Pin:
    """A column: what it is called (a preset id, a file, "<model> · pin 2") and its architecture;
    ``None`` is the open document, whatever it holds now."""

    source: str
    arch: Architecture | None = None


class Pins(QObject):
    """The pinned columns and the baseline; ``changed`` after any of them changes."""

    changed = Signal()

    def __init__(self, document: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.pins: list[Pin] = [Pin("")]
        self.baseline = 0
        self._snapshots = 0

    def label(self, index: int) -> str:
        pin = self.pins[index]
        return pin.source if pin.arch is not None else f"{self.document.source_label} (open)"

    def columns(self) -> list[Column]:
        # Late: the comparison loads the memory engine, which the window loads after its first paint.
        from paramtally.core.explore.compare import Column

        return [
            Column(self.label(index), pin.arch if pin.arch is not None else self.document.architecture)
            for index, pin in enumerate(self.pins)
        ]

    def comparison(self) -> Comparison:
        from paramtally.core.explore.compare import compare

        return compare(self.columns(), self.document.scenario, self.baseline)

    # --- edits -------------------------------------------------------------------------------------

    def pin_open(self) -> Pin:
        """Snapshot the open document as it is now: a column that stays when it is edited further."""
        self._snapshots += 1
        label = f"{self.document.source_label} · pin {self._snapshots}"
        return self._add(Pin(label, self.document.architecture))

    def add_source(self, source: str) -> Pin:
        """A preset id or a file, loaded by core (ParamTallyError, one line, when it cannot be)."""
        return self._add(Pin(source, load_source(source)))

    def remove(self, index: int) -> None:
        """Drop a pinned column (not the open document's); the baseline stays on its column, or
        falls back to the open document when it was the one removed."""
        if index <= 0 or index >= len(self.pins):
            return
        del self.pins[index]
        if self.baseline == index:
            self.baseline = 0
        elif self.baseline > index:
            self.baseline -= 1
        self.changed.emit()

    def set_baseline(self, index: int) -> None:
        if 0 <= index < len(self.pins) and index != self.baseline:
            self.baseline = index
            self.changed.emit()

    def _add(self, pin: Pin) -> Pin:
        self.pins.append(pin)
        self.changed.emit()
        return pin
