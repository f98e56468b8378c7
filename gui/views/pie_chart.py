"""A pie of shares drawn with QGraphicsEllipseItem slices, with share labels and a legend.

Every item is created once per key; an update moves and resizes items in place. The legend is
part of the scene so an exported picture carries it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen, QResizeEvent
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsTextItem,
    QGraphicsView,
    QWidget,
)

from paramtally.gui.views import PIE_MINIMUM

__all__ = ["FULL_CIRCLE", "PieView", "Slice", "slice_angles"]

FULL_CIRCLE = 360 * 16  # Qt angles are in sixteenths of a degree
_MIN_LABEL_SHARE = 0.03  # thinner slices are named in the legend only
_MARGIN = 8.0
_SWATCH = 12.0
_RIM = 4.0  # a share label's distance from the rim
_LABEL_GAP = _RIM + 2.0


@dataclass(frozen=True, slots=True)
class Slice:
    key: str
    label: str
    value: int
    color: QColor
    detail: str = ""  # legend text after the label, e.g. '642.72M · 0.37 %'
    short: str = ""  # the same for a narrow view, e.g. '0.37 %'


def slice_angles(values: Sequence[int]) -> list[tuple[int, int]]:
    """(start, span) per value in 1/16°, from 12 o'clock clockwise; spans add up to a full circle.

    Rounding the running sum (not each span) keeps the slices closing exactly.
    """
    total = sum(values)
    angles: list[tuple[int, int]] = []
    running = 0
    for value in values:
        start = round(FULL_CIRCLE * running / total) if total else 0
        running += value
        end = round(FULL_CIRCLE * running / total) if total else 0
        # Qt counts counter-clockwise from 3 o'clock: start at 90° and go negative.
        angles.append((FULL_CIRCLE // 4 - start, -(end - start)))
    return angles


class _Entry:
    """The scene items of one key: slice, share label, legend swatch and legend text."""

    def __init__(self, scene: QGraphicsScene) -> None:
        self.wedge = QGraphicsEllipseItem()
        self.label = QGraphicsSimpleTextItem()
        self.swatch = QGraphicsRectItem(0, 0, _SWATCH, _SWATCH)
        self.legend = QGraphicsSimpleTextItem()
        self.texts = ("", "")  # the legend line, full and short
        self.color: QColor | None = None  # the brush's, as last set
        self.shown = False
        for item in (self.wedge, self.label, self.swatch, self.legend):
            scene.addItem(item)


class PieView(QGraphicsView):
    """Shares of a whole; ``set_slices`` updates the items in place."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setMinimumSize(*PIE_MINIMUM)
        self.entries: dict[str, _Entry] = {}
        self._slices: list[Slice] = []
        self._title = QGraphicsTextItem()  # wraps in a narrow view instead of being cut off
        self.scene().addItem(self._title)

    def set_title(self, text: str) -> None:
        self._title.setPlainText(text)
        self._layout()

    def title(self) -> str:
        return self._title.toPlainText()

    def set_slices(self, slices: Sequence[Slice], title: str | None = None) -> None:
        """The slices (and, given, the title) in place, laid out once."""
        if title is not None and title != self._title.toPlainText():
            self._title.setPlainText(title)
        self._slices = [item for item in slices if item.value > 0]
        angles = slice_angles([item.value for item in self._slices])
        shown = {item.key for item in self._slices}
        total = sum(item.value for item in self._slices)
        for item, (start, span) in zip(self._slices, angles, strict=True):
            entry = self.entries.get(item.key) or self._new_entry(item.key)
            entry.wedge.setStartAngle(start)
            entry.wedge.setSpanAngle(span)
            if entry.color is None or entry.color != item.color:  # a colour changes with the theme only
                entry.color = item.color
                brush = QBrush(item.color)
                entry.wedge.setBrush(brush)
                entry.swatch.setBrush(brush)
            entry.wedge.setToolTip(f"{item.label}: {item.value:,} ({item.detail})")
            share = item.value / total
            label = f"{100 * share:.1f} %" if share >= _MIN_LABEL_SHARE else ""
            if entry.label.text() != label:
                entry.label.setText(label)
            entry.texts = (f"{item.label}  {item.detail}".rstrip(), f"{item.label}  {item.short}".rstrip())
        for key, entry in self.entries.items():
            if entry.shown != (key in shown):  # a part appears or goes: not on the usual edit
                entry.shown = key in shown
                for graphic in (entry.wedge, entry.label, entry.swatch, entry.legend):
                    graphic.setVisible(entry.shown)
        self._layout()

    def set_text_color(self, color: QColor) -> None:
        for entry in self.entries.values():
            entry.label.setBrush(QBrush(color))
            entry.legend.setBrush(QBrush(color))
        self._title.setDefaultTextColor(color)
        self._text_color = color

    def _new_entry(self, key: str) -> _Entry:
        entry = _Entry(self.scene())
        entry.wedge.setPen(QPen(self.palette().base().color(), 1.5))
        entry.swatch.setPen(QPen(Qt.PenStyle.NoPen))
        color = getattr(self, "_text_color", self.palette().text().color())
        entry.label.setBrush(QBrush(color))
        entry.legend.setBrush(QBrush(color))
        self.entries[key] = entry
        return entry

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._layout()

    def _legend_lines(self, room: float) -> list[QRectF]:
        """The legend's lines, full while the widest fits ``room``, otherwise the short ones."""
        entries = [self.entries[item.key] for item in self._slices]
        for choice in (0, 1):
            for entry in entries:
                if entry.legend.text() != entry.texts[choice]:
                    entry.legend.setText(entry.texts[choice])
            lines = [entry.legend.boundingRect() for entry in entries]
            if max((line.width() for line in lines), default=0.0) <= room:
                break
        return lines

    def _layout(self) -> None:
        """Pie and legend at the view's size, fonts unscaled; the legend goes beside or below,
        whichever leaves the bigger pie."""
        width, height = float(self.viewport().width()), float(self.viewport().height())
        legends = self._legend_lines(width - 2 * _MARGIN - _SWATCH - 6)
        line = max((r.height() for r in legends), default=14.0) + 2
        legend_w = max((r.width() for r in legends), default=0.0) + _SWATCH + 6
        legend_h = line * len(legends)
        self._title.setTextWidth(max(40.0, width - 2 * _MARGIN))
        title_h = self._title.boundingRect().height() if self._title.toPlainText() else 0.0
        self._title.setPos(_MARGIN, _MARGIN / 2)
        # Share labels sit just outside the rim: as wide as the widest beside it, as tall as a line
        # above and below it (a label at 3 or 9 o'clock was cut at the view's edge).
        widest = max(
            (self.entries[item.key].label.boundingRect().width() for item in self._slices), default=0.0
        )
        room_x, room_y = max(widest, line) + _LABEL_GAP, line + _LABEL_GAP
        free_h = height - title_h - 2 * _MARGIN - 2 * room_y
        beside = min(free_h, width - legend_w - 3 * _MARGIN - 2 * room_x)
        below = min(free_h - legend_h - _MARGIN, width - 2 * _MARGIN - 2 * room_x)
        diameter = max(40.0, beside, below)
        rect = QRectF(_MARGIN + room_x, title_h + _MARGIN + room_y, diameter, diameter)
        if beside >= below:
            legend_x = rect.right() + room_x + _MARGIN
            legend_y = max(title_h + _MARGIN, rect.center().y() - legend_h / 2)
        else:
            rect.moveLeft((width - diameter) / 2)
            legend_x = max(_MARGIN, (width - legend_w) / 2)
            legend_y = rect.bottom() + room_y + _MARGIN
        center, radius = rect.center(), diameter / 2
        for row, item in enumerate(self._slices):
            entry = self.entries[item.key]
            entry.wedge.setRect(rect)
            middle = math.radians((entry.wedge.startAngle() + entry.wedge.spanAngle() / 2) / 16)
            text = entry.label.boundingRect()
            x = center.x() + (radius + _RIM + text.width() / 2) * math.cos(middle) - text.width() / 2
            y = center.y() - (radius + _RIM + text.height() / 2) * math.sin(middle) - text.height() / 2
            entry.label.setPos(x, y)
            entry.swatch.setPos(legend_x, legend_y + row * line + (line - _SWATCH) / 2)
            entry.legend.setPos(legend_x + _SWATCH + 6, legend_y + row * line)
        self.scene().setSceneRect(0, 0, width, height)
