"""A widget a test shows lives until pytest-qt's teardown has closed it (tests/gui/conftest.py).

pytest-qt keeps only a weak reference to what ``qtbot.addWidget`` is given. A chart whose last
reference was the test's local variable outlived the test in reference cycles alone (pyqtgraph's
items refer to each other), was painted by the events pytest-qt processes after the test, and was
freed by Python's collector inside its own paint whenever a collection fell there: the rare
worker segfault in pyqtgraph's GraphicsView.paintEvent (after test_chart_export_writes_png_and_svg,
and in test_views_kinds). Here the collection is made to fall inside that paint.
"""

from __future__ import annotations

import gc
import weakref

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsRectItem, QStyleOptionGraphicsItem, QWidget
from pytestqt.qtbot import QtBot

from paramtally.gui.views.breakdown_charts import BreakdownCharts
from paramtally.gui.views.memory_panel import MemoryPanel
from tests.gui.views_support import make_document


class _CollectingItem(QGraphicsRectItem):
    """Runs Python's collector once while its scene is painted, as any allocation in a paint may."""

    def __init__(self, rect: QRectF) -> None:
        super().__init__(rect)
        self.collections = 0

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if not self.collections:
            self.collections += 1
            gc.collect()
        super().paint(painter, option, widget)


@pytest.mark.parametrize("kind", [BreakdownCharts, MemoryPanel])
def test_a_shown_chart_outlives_the_tests_last_name_for_it_through_a_collection_in_its_paint(
    qtbot: QtBot, kind: type[BreakdownCharts | MemoryPanel]
) -> None:
    widget = kind(make_document())
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    # What earlier tests of this worker left to the collector goes now, outside any paint: the
    # collection inside the paint below is about this test's widget alone (once, under load, it
    # freed another test's leftovers there and the worker crashed).
    gc.collect()
    plot = widget.bar if isinstance(widget, BreakdownCharts) else widget.chart
    collector = _CollectingItem(plot.mapToScene(plot.viewport().rect()).boundingRect())
    plot.scene().addItem(collector)  # a new item: the plot is painted again
    alive = weakref.ref(widget)
    del widget, plot  # the test's last names for them; qtbot's hold (and cycles) remain
    qtbot.waitUntil(lambda: collector.collections > 0)
    shown = alive()
    assert shown is not None and shown.isVisible()
