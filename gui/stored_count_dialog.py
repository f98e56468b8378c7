"""File → Open Folder… on weights whose architecture ParamTally cannot read: their stored count.

Every view of the window shows and edits one architecture; a checkpoint of an unknown type has
none, only tensors. So rather than a read-only mode in each view, a dialog says what the headers
hold — the stored total, one line saying why it cannot be edited, the split by part, what was
left out, the bytes on disk — and the model in the window stays as it was. Every figure and
sentence is core's (``core.io.importers.stored_count``); names from the file are shown as plain
text, escaped and cut (``shown``).
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from paramtally.core.count.breakdown import human
from paramtally.core.io.importers.stored_count import StoredCount
from paramtally.gui.dialogs import add_mnemonics
from paramtally.gui.form.field_frame import RED
from paramtally.gui.i18n import translate
from paramtally.gui.shown_text import MESSAGE_CHARS, SHOWN_CHARS, TITLE_CHARS, shown

__all__ = ["StoredCountDialog", "headline"]

COLUMNS = (
    QT_TRANSLATE_NOOP("StoredCount", "Part"),
    QT_TRANSLATE_NOOP("StoredCount", "Parameters"),
    "",
    QT_TRANSLATE_NOOP("StoredCount", "Share"),
)


def headline(stored: StoredCount) -> str:
    """The dialog's first line, and the status bar's once it closes."""
    return translate("StoredCount", "{name}: {total} parameters stored ({human})").format(
        name=shown(stored.name, SHOWN_CHARS), total=f"{stored.total:,}", human=human(stored.total)
    )


def _label(text: str, name: str, selectable: bool = True) -> QLabel:
    label = QLabel(text)
    label.setObjectName(name)
    label.setTextFormat(Qt.TextFormat.PlainText)  # a folder's or a tensor's name may hold '<b>'
    label.setWordWrap(True)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class StoredCountDialog(QDialog):
    """objectName ``storedCountDialog``: labels ``storedHeadline``, ``storedNotice``,
    ``storedApart`` (multi-token prediction), ``storedNotes``, ``storedOnDisk``; the table
    ``storedParts``."""

    def __init__(self, stored: StoredCount, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("storedCountDialog")
        self.setWindowTitle(
            translate("StoredCount", "Stored Count — {name}").format(name=shown(stored.name, TITLE_CHARS))
        )
        layout = QVBoxLayout(self)
        top = _label(headline(stored), "storedHeadline")
        font = top.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        top.setFont(font)
        layout.addWidget(top)
        notice = _label(f"⚠ {shown(stored.notice, MESSAGE_CHARS)}", "storedNotice")
        notice.setStyleSheet(f"color: {RED};")
        layout.addWidget(notice)
        if stored.mtp:
            apart = translate(
                "StoredCount",
                "+ multi-token prediction {mtp} ({mtp_human}), counted apart: "
                "{total} ({total_human}) with it",
            ).format(
                mtp=f"{stored.mtp:,}",
                mtp_human=human(stored.mtp),
                total=f"{stored.total_with_mtp:,}",
                total_human=human(stored.total_with_mtp),
            )
            layout.addWidget(_label(apart, "storedApart"))
        self.table = self._parts_table(stored)
        layout.addWidget(self.table)
        notes = "\n".join(shown(note, MESSAGE_CHARS) for note in stored.notes)
        layout.addWidget(_label(notes, "storedNotes"))
        layout.addWidget(_label(shown(stored.on_disk, MESSAGE_CHARS), "storedOnDisk"))
        layout.addStretch(1)  # a taller dialog grows here, not between the wrapped lines
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        add_mnemonics(buttons)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        # Wrapped labels ask for the height of their narrowest width: lay out at the width shown.
        width = max(640, self.sizeHint().width())
        layout.activate()
        self.resize(width, layout.totalHeightForWidth(width))

    def _parts_table(self, stored: StoredCount) -> QTableWidget:
        rows = stored.part_rows
        table = QTableWidget(len(rows), len(COLUMNS))
        table.setObjectName("storedParts")
        table.setHorizontalHeaderLabels([translate("StoredCount", text) if text else "" for text in COLUMNS])
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setTabKeyNavigation(False)
        table.verticalHeader().setVisible(False)
        table.setAlternatingRowColors(True)
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        for row, (_, label, params, share) in enumerate(rows):
            for column, text in enumerate((label, f"{params:,}", human(params), f"{100 * share:.2f}%")):
                item = QTableWidgetItem(text)
                if column:
                    item.setTextAlignment(right)
                table.setItem(row, column, item)
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # Every part in view without scrolling (a dozen at most: one a STORED_PART_LABELS entry).
        row_height = self.fontMetrics().height() + 8
        table.verticalHeader().setDefaultSectionSize(row_height)
        table.setFixedHeight(header.sizeHint().height() + row_height * len(rows) + 2 * table.frameWidth())
        return table
