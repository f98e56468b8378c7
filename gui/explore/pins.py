"""The architectures pinned side by side: the open document (live) and any number of others.

Column 0 is always the open document as it is now, so the comparison follows every edit. The
others are fixed: a snapshot of the open document ("Pin"), a preset (built-in or the user's) or a
preset JSON / config.json file, each loaded by core. The comparison itself is
``core.explore.compare``'s, under the document's scenario.

A column has two names: its ``label`` says where it came from (a file's path as given; the CSV's
"source" and the tooltips carry it) and its ``name`` is what the view shows: a file's name, with
as many of its folders as set it apart from another column's file of that name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from paramtally.core.io.model_sources import is_path, load_source
from paramtally.gui.i18n import translate
from paramtally.gui.shown_text import MESSAGE_CHARS, PATH_CHARS, shown

if TYPE_CHECKING:
    from paramtally.core.explore.compare import Column, Comparison
    from paramtally.core.schema import Architecture
    from paramtally.gui.document import Document

__all__ = ["Pin", "Pins", "short_names"]


@dataclass(frozen=True, slots=True)
class Pin:
    """A column: what it is called (a preset id, a file, "<model> · pin 2") and its architecture;
    ``None`` is the open document, whatever it holds now."""

    source: str
    arch: Architecture | None = None
    is_file: bool = False  # a preset JSON, config.json or folder: shown by its name, not its path


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
        open_ = translate("Compare", "{name} (open)").format(name=self.document.source_label)
        return pin.source if pin.arch is not None else open_

    def names(self) -> list[str]:
        """What the view calls each column: a file by its name (the QA pass saw whole paths widen
        the toolbar past the screen and cover the chart's bars), the rest by their label; either
        as a widget may show it (a file's name may hold a right-to-left override)."""
        names = short_names(
            [self.label(index) for index in range(len(self.pins))], [p.is_file for p in self.pins]
        )
        return [shown(name, PATH_CHARS, middle=True) for name in names]

    def tip(self, index: int) -> str:
        """The column's label as its tooltip shows it."""
        return shown(self.label(index), MESSAGE_CHARS, middle=True)

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
        label = translate("Compare", "{name} · pin {number}").format(
            name=self.document.source_label, number=self._snapshots
        )
        return self._add(Pin(label, self.document.architecture))

    def add_source(self, source: str) -> Pin:
        """A preset id or a file, loaded by core (ParamTallyError, one line, when it cannot be)."""
        return self._add(Pin(source, load_source(source), is_path(source)))

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


def short_names(labels: Sequence[str], is_file: Sequence[bool]) -> list[str]:
    """A file's name (``mixtral-8x7b.json``, a folder's ``llama``); two files of one name get as
    many of their folders as tell them apart (``a/config.json``, ``b/config.json``). A name still
    shared (the same file or preset twice) is numbered: ``gpt2``, ``gpt2 (2)``."""
    parts = [PurePath(label).parts if file else (label,) for label, file in zip(labels, is_file, strict=True)]
    depth = [1] * len(parts)

    def shown(index: int) -> str:
        return str(PurePath(*parts[index][-depth[index] :])) if is_file[index] else labels[index]

    while True:
        names = [shown(index) for index in range(len(parts))]
        longer = {
            index
            for index, name in enumerate(names)
            if depth[index] < len(parts[index])
            and any(names[other] == name and labels[other] != labels[index] for other in range(len(names)))
        }
        if not longer:
            break
        for index in longer:
            depth[index] += 1
    numbered: list[str] = []
    for index, name in enumerate(names):
        seen = names[:index].count(name)
        numbered.append(f"{name} ({seen + 1})" if seen else name)
    return numbered
