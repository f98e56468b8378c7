"""A pie of shares drawn with QGraphicsEllipseItem slices, with share labels and a legend.

Every item is created once per key; an update moves and resizes items in place. The legend is
part of the scene so an exported picture carries it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
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

__all__ = ["FULL_CIRCLE", "PieView", "Slice", "slice_angles", "spread_labels"]

FULL_CIRCLE = 360 * 16  # Qt angles are in sixteenths of a degree
_MIN_LABEL_SHARE = 0.03  # thinner slices are named in the legend only
_MARGIN = 8.0
_SWATCH = 12.0
_RIM = 4.0  # a share label's distance from the rim
_LABEL_GAP = _RIM + 2.0
_LABEL_SPACE = 2.0  # pixels kept between two share labels
_SPREAD_STEP = 1.0  # degrees a label moves along the rim per round, away from a label it touches
_SPREAD_LIMIT = 40.0  # degrees a label may end from its slice's middle before it is left out


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


def _label_rect(center: QPointF, radius: float, angle: float, size: QSizeF) -> QRectF:
    """A share label just outside the rim at ``angle`` (degrees, Qt's: counter-clockwise from 3
    o'clock), its nearest side or corner ``_RIM`` pixels from the circle."""
    middle = math.radians(angle)
    width, height = size.width(), size.height()
    x = center.x() + (radius + _RIM + width / 2) * math.cos(middle) - width / 2
    y = center.y() - (radius + _RIM + height / 2) * math.sin(middle) - height / 2
    return QRectF(x, y, width, height)


def _apart(one: QRectF, other: QRectF) -> bool:
    return not one.adjusted(-_LABEL_SPACE, -_LABEL_SPACE, _LABEL_SPACE, _LABEL_SPACE).intersects(other)


def spread_labels(
    center: QPointF, radius: float, angles: Sequence[float], sizes: Sequence[QSizeF], weights: Sequence[int]
) -> list[QRectF | None]:
    """Where each share label goes (``None``: left out, its share is in the legend).

    Labels in the slices' order (clockwise) start at their slice's middle; two neighbours that
    touch move apart along the rim, a degree a round, so that they stay at the rim's distance and
    within the room kept around the pie (Pixtral-12B's LM head, vision tower and embeddings,
    5.3 %, 3.2 % and 5.3 % around 12 o'clock, were drawn over each other at 1024×700). A label
    that would end more than ``_SPREAD_LIMIT`` degrees from its slice, or that still touches one
    kept before it (the larger slices' labels are kept first, by ``weights``), is left out.
    """
    count = len(angles)
    placed = list(angles)
    for _ in range(round(2 * _SPREAD_LIMIT / _SPREAD_STEP)):  # half a step a side: up to the limit
        rects = [_label_rect(center, radius, angle, size) for angle, size in zip(placed, sizes, strict=True)]
        moved = False
        for index in range(count if count > 2 else count - 1):
            after = (index + 1) % count  # clockwise: the next slice, at a smaller Qt angle
            if not _apart(rects[index], rects[after]):
                placed[index] += _SPREAD_STEP / 2
                placed[after] -= _SPREAD_STEP / 2
                moved = True
        if not moved:
            break
    kept: list[QRectF] = []
    places: list[QRectF | None] = [None] * count
    for index in sorted(range(count), key=lambda i: -weights[i]):
        rect = _label_rect(center, radius, placed[index], sizes[index])
        near = abs((placed[index] - angles[index] + 180) % 360 - 180) <= _SPREAD_LIMIT
        if near and all(_apart(rect, other) for other in kept):
            kept.append(rect)
            places[index] = rect
    return places


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
        entries = [self.entries[item.key] for item in self._slices]
        labelled = [entry for entry in entries if entry.label.text()]
        places = spread_labels(
            rect.center(),
            diameter / 2,
            [(entry.wedge.startAngle() + entry.wedge.spanAngle() / 2) / 16 for entry in labelled],
            [entry.label.boundingRect().size() for entry in labelled],
            [-entry.wedge.spanAngle() for entry in labelled],
        )
        for entry, place in zip(labelled, places, strict=True):
            if place is not None:
                entry.label.setPos(place.topLeft())
            entry.label.setVisible(entry.shown and place is not None)
        for row, entry in enumerate(entries):
            entry.wedge.setRect(rect)
            entry.swatch.setPos(legend_x, legend_y + row * line + (line - _SWATCH) / 2)
            entry.legend.setPos(legend_x + _SWATCH + 6, legend_y + row * line)
        self.scene().setSceneRect(0, 0, width, height)
