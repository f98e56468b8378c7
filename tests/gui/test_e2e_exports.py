"""Scenario h: export CSV, PNG and SVG from a small window through File → Export and the real
save dialog, then read every file back: the SVG parsed and its labels placed inside the plot,
the PNGs landscape and drawn edge to edge, the CSV a spreadsheet's table.

Bug 3 of issue 11: the bar chart's SVG had its value labels, grid and categories misplaced, and
the PNGs took the on-screen widget's shape (1200×1760 with a label cut off; a pie a third blank).

Bug 1 of issue 31: the SVGs were whole in Qt only. librsvg drew the pie's title alone (99.5 % of
the PNG's drawing lost), the bar chart without axes or grid (16 %), the memory chart without its
dashed capacity line (10 %): each SVG is now drawn by librsvg and by Chromium and compared with
the PNG export.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QAction, QColor, QImage
from pytestqt.qtbot import QtBot

from paramtally.core.count.breakdown import PART_LABELS
from paramtally.core.io.export import BREAKDOWN_COLUMNS
from paramtally.gui.main_window import MainWindow
from paramtally.gui.views.breakdown_charts import BreakdownBar
from paramtally.gui.views.export import EXPORT_SIZE, PNG_SCALE, laid_out, settle
from paramtally.gui.views.memory_chart import CAPACITY_COLOR
from tests.csv_text import read_csv
from tests.gui.modals import Modals
from tests.gui.picture_checks import (
    MOST_LOST,
    VIEWERS,
    SvgText,
    content_box,
    drawn_in,
    lost_drawing,
    rgb,
    svg_texts,
)

PAGE = QRectF(0, 0, EXPORT_SIZE.width(), EXPORT_SIZE.height())


@pytest.fixture
def small_window(window: MainWindow, qtbot: QtBot) -> MainWindow:
    """The default window at 1024×700 with the presets dock open, where the bugs showed."""
    window.presets_dock.show()
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: window.width() == 1024)
    return window


def _export(modals: Modals, window: MainWindow, action: str, path: Path) -> Path:
    modals.save_as(str(path))
    found = window.findChild(QAction, action)
    assert found is not None, action
    found.trigger()
    modals.wait_done()
    assert path.is_file(), f"{action} wrote nothing"
    return path


def _plot_area(window: MainWindow) -> QRectF:
    """Where the bars are drawn in an exported bar chart: a chart laid out as the export lays it."""
    with laid_out(BreakdownBar()) as bar:
        bar.update_from(window.document.report)
        settle()
        return bar.getPlotItem().getViewBox().sceneBoundingRect()


def _by_text(texts: list[SvgText]) -> dict[str, SvgText]:
    return {text.text: text for text in texts}


def _overlapping(texts: list[SvgText]) -> list[tuple[str, str]]:
    """Pairs of labels drawn over each other (a pixel of touching is allowed)."""
    boxes = [(text.text, text.box().adjusted(1, 1, -1, -1)) for text in texts]
    return [
        (a, b) for i, (a, box) in enumerate(boxes) for b, other in boxes[i + 1 :] if box.intersects(other)
    ]


def test_bar_chart_svg_places_every_label_in_its_row(
    modals: Modals, small_window: MainWindow, tmp_path: Path
) -> None:
    svg = _export(modals, small_window, "actionExport_bar_chart", tmp_path / "bar.svg")
    texts = svg_texts(svg)
    report = small_window.document.report
    area = _plot_area(small_window)
    by_text = _by_text(texts)
    title = by_text[f"Parameters by part — {report.name}"]
    assert title.box().bottom() <= area.top() + 1 and PAGE.contains(title.box())
    parts = [part for part, value in report.by_part.items() if value]
    row_height = area.height() / len(parts)
    for row, part in enumerate(parts):
        category = by_text[PART_LABELS[part]]
        # The export's plot is wider than the window's: its label may be the long form or the short.
        forms = {form.strip() for form in small_window.charts.bar._label_texts[part]}
        values = [text for text in texts if text.text in forms]
        assert len(values) == 1, part
        value = values[0]
        # The value label is inside the plot area, right of where its bar starts...
        assert area.contains(value.box()), (part, value.box(), area)
        # ...on the bar's row, as is the category name left of the axis.
        middle = area.top() + (row + 0.5) * row_height
        assert abs(value.box().center().y() - middle) < row_height / 4, part
        assert abs(category.box().center().y() - middle) < row_height / 4, part
        assert category.box().right() <= area.left() + 1 and category.box().left() >= 0
    assert not _overlapping(texts)
    ticks = [text for text in texts if text.text.endswith("B") and text.text[:-1].isdigit()]
    assert ticks and all(area.bottom() - 1 <= tick.box().top() <= PAGE.bottom() for tick in ticks)
    assert all(area.left() - 1 <= tick.box().center().x() <= PAGE.right() for tick in ticks)


def test_pie_and_memory_svgs_name_the_model_and_stay_on_the_page(
    modals: Modals, small_window: MainWindow, tmp_path: Path
) -> None:
    document = small_window.document
    pie = svg_texts(_export(modals, small_window, "actionExport_pie_chart", tmp_path / "pie.svg"))
    assert pie[0].text.startswith(f"{document.architecture.name}: share of 175,221,817,344")
    assert all(PAGE.contains(text.box()) for text in pie), [t for t in pie if not PAGE.contains(t.box())]
    assert {"33.1 %", "66.2 %"} <= {text.text for text in pie}
    assert not _overlapping(pie)
    memory = svg_texts(_export(modals, small_window, "actionExport_memory_chart", tmp_path / "memory.svg"))
    words = " ".join(text.text for text in memory)
    assert f"Memory per GPU — {document.architecture.name}" in words
    assert "capacity of NVIDIA H100 SXM 80GB" in words and "context 2,048" in words  # GPT-3's positions
    assert not _overlapping(memory)  # the thin parts' names are pushed apart, under the title
    assert all(PAGE.contains(text.box()) for text in memory), [
        t for t in memory if not PAGE.contains(t.box())
    ]


@pytest.mark.parametrize("chart", ["bar", "pie", "memory"])
def test_pngs_are_landscape_and_drawn_edge_to_edge(
    modals: Modals, small_window: MainWindow, tmp_path: Path, chart: str
) -> None:
    image = QImage(
        str(_export(modals, small_window, f"actionExport_{chart}_chart", tmp_path / f"{chart}.png"))
    )
    assert (image.width(), image.height()) == (
        EXPORT_SIZE.width() * PNG_SCALE,
        EXPORT_SIZE.height() * PNG_SCALE,
    )
    drawn = content_box(image)
    # No third left blank: the drawing spans the picture both ways.
    assert drawn.width() > 0.75 * image.width() and drawn.height() > 0.85 * image.height(), drawn


def test_csv_from_the_small_window(modals: Modals, small_window: MainWindow, tmp_path: Path) -> None:
    _, about, rows = read_csv(_export(modals, small_window, "actionExport_breakdown", tmp_path / "b.csv"))
    assert about["model"] == "GPT-3 175B" and tuple(rows[0]) == BREAKDOWN_COLUMNS
    assert int(rows[0]["params"]) == small_window.document.report.total


def _ink(image: QImage, box: QRectF) -> int:
    """How many pixels in ``box`` of ``image`` are dark, as text is (the charts' text is black)."""
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    pixels = np.frombuffer(
        image.constBits(), dtype=np.uint32, count=image.height() * image.bytesPerLine() // 4
    ).reshape(image.height(), image.bytesPerLine() // 4)
    area = pixels[int(box.top()) : int(box.bottom()) + 1, int(box.left()) : int(box.right()) + 1]
    red, green, blue = (area >> 16) & 0xFF, (area >> 8) & 0xFF, area & 0xFF
    return int(np.count_nonzero((red < 96) & (green < 96) & (blue < 96)))


@pytest.mark.parametrize(("chart", "label"), [("bar", " · "), ("memory", "Weights")])
def test_png_labels_are_as_large_as_in_the_svg(
    modals: Modals, small_window: MainWindow, tmp_path: Path, chart: str, label: str
) -> None:
    """A PNG is the SVG's picture at twice the resolution: each value label (the bars' counts, the
    memory parts' names) covers its whole place, twice as large, not the first half of it."""
    action = f"actionExport_{chart}_chart"
    texts = [
        t for t in svg_texts(_export(modals, small_window, action, tmp_path / "c.svg")) if label in t.text
    ]
    image = QImage(str(_export(modals, small_window, action, tmp_path / "c.png")))
    assert texts
    for text in texts:
        box = text.box()
        scaled = QRectF(
            box.left() * PNG_SCALE, box.top() * PNG_SCALE, box.width() * PNG_SCALE, box.height() * PNG_SCALE
        )
        last_third = scaled.adjusted(2 * scaled.width() / 3, 0, 0, 0)
        assert _ink(image, last_third) > 0, f"{text.text!r}: nothing drawn in the last third of its place"


def _png_and_svg(modals: Modals, window: MainWindow, chart: str, folder: Path) -> tuple[QImage, Path]:
    action = f"actionExport_{chart}_chart"
    png = QImage(str(_export(modals, window, action, folder / f"{chart}.png")))
    return png, _export(modals, window, action, folder / f"{chart}.svg")


@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("chart", ["bar", "pie", "memory"])
def test_svgs_draw_whole_outside_qt(
    modals: Modals, small_window: MainWindow, tmp_path: Path, chart: str, viewer: str
) -> None:
    png, svg = _png_and_svg(modals, small_window, chart, tmp_path)
    assert lost_drawing(png, drawn_in(viewer, svg, png)) <= MOST_LOST


def test_the_memory_svg_draws_its_dashed_capacity_line_in_librsvg(
    modals: Modals, small_window: MainWindow, tmp_path: Path
) -> None:
    png, svg = _png_and_svg(modals, small_window, "memory", tmp_path)
    pixels = rgb(drawn_in("librsvg", svg, png))
    orange = np.array(QColor(CAPACITY_COLOR).getRgb()[:3])
    on_line = (np.abs(pixels - orange).max(axis=2) <= 40).sum(axis=1)
    # A row across the plot is mostly dashes; the title's orange words cover far less of theirs.
    assert on_line.max() > 0.4 * png.width(), on_line.max()
