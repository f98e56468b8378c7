"""A pyqtgraph plot that follows the window's light or dark palette and keeps its title inside."""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QEvent
from PySide6.QtGui import QColor, QResizeEvent

from paramtally.gui.views.palette import chart_colors
from paramtally.gui.views.value_label import ValueLabel

__all__ = ["ThemedPlot", "fit_title_row", "small_line", "titles_with_note"]

_TITLE_PADDING = 12  # pixels left free beside the title
_NOTE_LINES = 3  # a note under a title is broken over at most this many lines


class ThemedPlot(pg.PlotWidget):
    """Background, axes, title and ``themed_labels()`` take the palette's base and text colours.

    ``set_titles`` takes the title in decreasing length; the longest that fits the width shows
    (pyqtgraph cuts a title that is too wide at both ends).
    """

    themed_axes: tuple[str, ...] = ("left",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Never shown, yet linked to the view: pyqtgraph re-wrote their labels (HTML) for an SI
        # prefix on every new range, ~0.2 ms an edit.
        for name in ("top", "right"):
            self.getPlotItem().getAxis(name).enableAutoSIPrefix(False)

    def themed_labels(self) -> Iterable[pg.TextItem | ValueLabel]:
        return ()

    def changeEvent(self, event: QEvent) -> None:
        # A child hears of a new palette after its parent: only here is its own palette current.
        # Qt may send one while pyqtgraph is still building the plot: nothing to colour yet.
        if event.type() == QEvent.Type.PaletteChange and getattr(self, "plotItem", None) is not None:
            self.apply_colors()
        super().changeEvent(event)

    def apply_colors(self) -> None:
        background, text = chart_colors(self)
        self.setBackground(background)
        item = self.getPlotItem()
        for name in self.themed_axes:
            axis = item.getAxis(name)
            axis.setTextPen(text)
            axis.setPen(text)
        # setAttr alone keeps the rendered title; setting the text again repaints it in the new colour.
        item.titleLabel.setText(item.titleLabel.text, color=text)
        for label in self.themed_labels():
            label.setColor(text)

    def color_legend(self, legend: pg.LegendItem) -> None:
        """The legend's box and every label in the theme's colours: ``setLabelTextColor`` alone
        colours the labels added later (a pin made in the dark stayed white on the light theme)."""
        background, text = chart_colors(self)
        legend.setLabelTextColor(text)
        fill = QColor(background)
        fill.setAlpha(220)
        legend.setBrush(fill)
        for _sample, label in legend.items:
            label.setText(label.text, color=text)

    def settle_view(self) -> None:
        """Apply a range just set to the view now rather than when it is painted. pyqtgraph moves
        the view's items to a new range while painting them, which leaves the scene dirty again,
        and every QGraphicsScene with dirty items paints its window at once (Qt's
        ``dispatchPendingUpdateRequests``): after an edit the parameters tab was painted three
        times, the bar chart and the breakdown table twice each (the memory tab paints once
        without it: there it only added work)."""
        self.getPlotItem().getViewBox().prepareForPaint()

    # --- title --------------------------------------------------------------------------------

    def set_titles(self, *titles: str) -> None:
        """The title, longest first; each later one is shorter (HTML, ``<br>`` for two lines)."""
        self._titles = titles
        self._fit_title()

    def title_fits(self) -> bool:
        """True when the title shown is no wider than the plot (tests and the layout check read it)."""
        return self._title_width() <= self._title_room()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if getattr(self, "plotItem", None) is not None:  # None while pyqtgraph builds or closes it
            self._fit_title()

    def _title_room(self) -> float:
        # The title sits over the plot area, right of the left axis: as wide as the axis is set to
        # be (its least width), not as laid out last — a preset whose part names are longer
        # (Nemotron-Nano-9B-v2's 'SSM / linear attn') had the title wrapped for the old, narrower
        # axis, and the plot, widened to hold it, ran past its widget with a bar label cut off.
        left = self.getPlotItem().getAxis("left")
        axis = max(left.width(), left.minimumWidth()) if left.isVisible() else 0.0
        return float(self.width() - axis - _TITLE_PADDING)

    def _title_width(self) -> float:
        return float(self.getPlotItem().titleLabel.item.boundingRect().width())

    def _fit_title(self) -> None:
        item = self.getPlotItem()
        titles = getattr(self, "_titles", ())
        if item.titleLabel.item.textWidth() >= 0:  # wrapped to fit an earlier width: unwrapped again
            _wrap(item.titleLabel, -1.0)
        for title in titles:
            if item.titleLabel.text != title or not item.titleLabel.isVisible():
                item.setTitle(title)
            if self._title_width() <= self._title_room():
                break
        else:
            if titles:  # none fits (a model's name of 120 letters): the last one wraps at the width
                _wrap(item.titleLabel, max(self._title_room(), 40.0))
        if titles:
            fit_title_row(item)
            # A longer title tried first widened the plot past the view to its own width, and a
            # plot never narrows by itself: the per-layer bars of DeepSeek-V3 at 1024×700 lost their
            # last 14 layers and the legend its end. The plot takes the view's size again.
            if item.geometry() != self.range:
                item.setGeometry(self.range)


def _wrap(label: pg.LabelItem, width: float) -> None:
    """Wrap ``label``'s text at ``width`` pixels (-1: never), laid out again as its ``setText`` does."""
    label.item.setTextWidth(width)
    label.updateMin()
    label.resizeEvent(None)
    label.updateGeometry()


def fit_title_row(item: pg.PlotItem) -> None:
    """pyqtgraph gives the title one 30-pixel row; a title of two or three lines needs more."""
    height = max(30.0, item.titleLabel.itemRect().height())
    layout = item.layout
    if item.titleLabel.maximumHeight() == height == layout.rowMinimumHeight(0) == layout.rowMaximumHeight(0):
        return  # each call re-lays the plot out, and a paint of the window follows: twice per edit
    item.titleLabel.setMaximumHeight(height)
    layout.setRowFixedHeight(0, height)


def titles_with_note(heads: Sequence[str], note: str) -> list[str]:
    """Titles for ``set_titles``: each head (HTML, longest first) with ``note`` (plain text) in small
    type under it, on one line, then broken after its commas over two and three lines; the heads
    alone come last. An export's note is its scenario, which a picture has nowhere else: a title
    offered only the note on one line lost it whenever the scenario was long (training, ZeRO, EP)."""
    noted = [head + small_line(lines) for head in heads for lines in _broken(note)]
    return [*noted, *heads]


def _broken(note: str) -> list[str]:
    """``note`` as HTML on 1, 2 … ``_NOTE_LINES`` lines of about equal length, broken after commas."""
    pieces = [html.escape(piece) for piece in note.split(", ")]
    variants: list[str] = []
    for count in range(1, min(_NOTE_LINES, len(pieces)) + 1):
        target = len(note) / count
        lines, line = [], ""
        for piece in pieces:
            if line and len(line) >= target and len(lines) < count - 1:
                lines.append(line)
                line = ""
            line = f"{line}, {piece}" if line else piece
        variants.append(",<br>".join([*lines, line]))
    return variants


def small_line(text: str, color: str = "") -> str:
    """``text`` (HTML) as a line of small type under a title."""
    style = f"color:{color}; " if color else ""
    return f"<br><span style='{style}font-size:9pt'>{text}</span>"
