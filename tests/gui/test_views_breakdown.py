"""Headline, bar/pie charts and breakdown table show the calculator's figures, updated in place."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from paramtally.core.count.breakdown import PARTS, human
from paramtally.core.count.parameters import count_parameters
from paramtally.gui.views.breakdown_charts import BreakdownCharts
from paramtally.gui.views.breakdown_table import RAW_ROLE, BreakdownTable
from paramtally.gui.views.headline import Headline
from paramtally.gui.views.pie_chart import FULL_CIRCLE
from tests.gui.views_support import make_document, moe_variant


@pytest.fixture
def document():  # type: ignore[no-untyped-def]
    return make_document()


def _bar_values(charts: BreakdownCharts) -> dict[str, int]:
    opts = charts.bar.part_bars.opts
    return {part: int(width) for part, width in zip(charts.bar.parts_shown, opts["width"], strict=True)}


def _spans(charts: BreakdownCharts) -> dict[str, int]:
    return {key: -e.wedge.spanAngle() for key, e in charts.pie.entries.items() if e.wedge.isVisible()}


def _assert_charts_match(charts: BreakdownCharts, by_part: dict[str, int], total: int) -> None:
    assert _bar_values(charts) == {part: value for part, value in by_part.items() if value}
    spans = _spans(charts)
    assert sum(spans.values()) == FULL_CIRCLE
    for part, value in by_part.items():
        if value:
            # A slice's span is its share of the circle, rounded to Qt's 1/16°.
            assert abs(spans[part] - FULL_CIRCLE * value / total) <= 1


def test_headline_follows_hidden_size_edits_and_moe(qtbot: QtBot, document) -> None:  # type: ignore[no-untyped-def]
    headline = Headline(document)
    qtbot.addWidget(headline)
    assert headline.objectName() == "totalParams"
    assert "175,221,817,344" in headline.text() and "175.22B" in headline.text()

    document.set_field(("hidden_size",), 8192)
    total = count_parameters(document.architecture).total
    assert f"{total:,}" in headline.text() and human(total) in headline.text()
    assert "active" not in headline.text()

    document.set_architecture(moe_variant(document.architecture), "MoE")
    report = count_parameters(document.architecture)
    assert report.active < report.total and report.added > 0
    text = headline.text()
    assert f"{report.total:,}" in text and f"{report.active:,}" in text and "active" in text
    assert f"{report.base:,}" in text and f"{report.added:,}" in text and "LoRA" in text


def test_bars_and_pie_equal_the_calculator_after_edits(qtbot: QtBot, document) -> None:  # type: ignore[no-untyped-def]
    charts = BreakdownCharts(document)
    qtbot.addWidget(charts)
    assert charts.bar.objectName() == "breakdownBar" and charts.pie.objectName() == "breakdownPie"
    report = document.report
    _assert_charts_match(charts, dict(report.by_part), report.total)
    bars, wedges = charts.bar.part_bars, {k: e.wedge for k, e in charts.pie.entries.items()}

    document.set_field(("blocks", "default", "ffn", "width"), 4 * 8192)
    report = count_parameters(document.architecture)
    _assert_charts_match(charts, dict(report.by_part), report.total)

    document.set_architecture(moe_variant(document.architecture), "MoE")
    report = count_parameters(document.architecture)
    _assert_charts_match(charts, dict(report.by_part), report.total)
    assert {"moe_experts", "shared_experts", "router", "lora"} <= set(charts.bar.parts_shown)
    # Updated in place: the same plot and scene items, no new ones added.
    assert charts.bar.part_bars is bars
    assert all(charts.pie.entries[key].wedge is wedge for key, wedge in wedges.items())
    # The part bars; a value label per part and for the MTP modules; a stack of bars per part;
    # the four halves of a layer for the bars by kind.
    assert len(charts.bar.getPlotItem().items) == 1 + (len(PARTS) + 1) + len(PARTS) + 4

    document.undo_stack.undo()
    document.undo_stack.undo()
    report = count_parameters(document.architecture)
    assert report.total == 175_221_817_344
    _assert_charts_match(charts, dict(report.by_part), report.total)


def test_per_layer_bars_stack_each_layers_parts(qtbot: QtBot, document) -> None:  # type: ignore[no-untyped-def]
    charts = BreakdownCharts(document)
    qtbot.addWidget(charts)
    charts.show()
    qtbot.waitExposed(charts)
    # "P" picks the first "Per layer" like a person typing in the combo; "Per" was three searches
    # when a busy machine left more than Qt's keyboard-search interval (400 ms) between keys.
    qtbot.keyClick(charts.mode_box, "P")
    assert charts.bar.mode == "layer"
    document.set_architecture(moe_variant(document.architecture), "MoE")
    report = count_parameters(document.architecture)
    tops = np.zeros(len(report.layers))
    for part in PARTS:
        bars = charts.bar.layer_bars[part]
        expected = [row.by_part.get(part, 0) for row in report.layers]
        assert bars.opts["height"].tolist() == expected
        assert bars.opts["y0"].tolist() == tops.tolist()  # stacked on the parts below
        assert bars.isVisible() == any(expected)
        tops += np.array(expected)
    assert tops.tolist() == [row.params for row in report.layers]
    assert not charts.bar.part_bars.isVisible()


def test_table_rows_carry_each_term_with_its_formula(qtbot, qtmodeltester, document) -> None:  # type: ignore[no-untyped-def]
    table = BreakdownTable(document)
    qtbot.addWidget(table)
    model = table.model()
    qtmodeltester.check(model)
    root = model.index(0, 0)
    assert model.index(0, 4).data(RAW_ROLE) == 175_221_817_344

    document.set_field(("hidden_size",), 8192)
    report = count_parameters(document.architecture)
    rows = {}
    pending = [root]
    while pending:
        index = pending.pop()
        rows[model.path(index)] = [model.index(index.row(), c, index.parent()) for c in range(7)]
        pending.extend(model.index(r, 0, index) for r in range(model.rowCount(index)))
    nodes = {path: node for path, _, node in report.tree.walk()}
    assert rows.keys() == nodes.keys()
    for path, node in nodes.items():
        cells = rows[path]
        assert cells[4].data() == f"{node.value:,}"
        assert cells[4].data(RAW_ROLE) == node.value
        assert cells[6].data() == node.formula
        if node.count > 1:
            assert cells[2].data() == f"{node.unit_value:,}" and cells[3].data() == f"× {node.count:,}"
    assert model.resets == 0  # same shape: updated in place

    table.collapseAll()
    table.expand(root)
    document.set_architecture(moe_variant(document.architecture), "MoE")
    assert model.resets == 1
    qtmodeltester.check(model)
    assert any(
        "(added)" in model.index(r, 0, i).data() for i in _all(model) for r in range(model.rowCount(i))
    )


def _all(model):  # type: ignore[no-untyped-def]
    pending, found = [model.index(0, 0)], []
    while pending:
        index = pending.pop()
        found.append(index)
        pending.extend(model.index(r, 0, index) for r in range(model.rowCount(index)))
    return found


@pytest.mark.parametrize("chart", ["bar", "pie"])
@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_chart_export_writes_png_and_svg(
    qtbot: QtBot, document, tmp_path: Path, chart: str, suffix: str
) -> None:  # type: ignore[no-untyped-def]
    charts = BreakdownCharts(document)
    qtbot.addWidget(charts)
    charts.resize(900, 400)
    charts.show()
    qtbot.waitExposed(charts)
    target = charts.save_chart(tmp_path / f"chart{suffix}", chart=chart)
    data = target.read_bytes()
    assert len(data) > 1000
    if suffix == ".png":
        assert data.startswith(b"\x89PNG")
    else:
        assert b"<svg" in data and b"</svg>" in data
    assert [p.name for p in tmp_path.iterdir()] == [target.name]  # no temporary file left


def test_views_update_their_items_in_place(qtbot: QtBot, document) -> None:  # type: ignore[no-untyped-def]
    """An edit moves the charts' items and rewrites the table's cells; it makes no new ones, which
    is what keeps a refresh cheap (its time is measured in bench/gui_latency.py, not here)."""
    charts, table, headline = BreakdownCharts(document), BreakdownTable(document), Headline(document)
    for widget in (charts, table, headline):
        qtbot.addWidget(widget)
    document.set_architecture(moe_variant(document.architecture), "MoE")

    def items() -> tuple[set[int], set[int], int]:
        return (
            {id(item) for item in charts.bar.scene().items()},
            {id(item) for item in charts.pie.scene().items()},
            table.model().rowCount(),
        )

    before = items()
    for width in range(20):
        document.set_field(("blocks", "default", "ffn", "width"), 40000 + width)
        assert f"{document.report.total:,}" in headline.text()
        assert items() == before, f"edit {width} made or dropped chart items or table rows"


def test_a_document_outliving_its_window_edits_without_calling_into_deleted_views(
    qtbot: QtBot,
    document,  # type: ignore[no-untyped-def]
) -> None:
    """The views that wait while hidden hear of changes through a child of theirs: once the window
    is gone, an edit of the document (a script, the explore tools) reaches no deleted widget."""
    import shiboken6

    from paramtally.gui.main_window import MainWindow

    window = MainWindow(document)
    window.show()
    qtbot.waitExposed(window)
    window.close()
    window.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(window))
    document.set_field(("hidden_size",), 8192)  # pytest-qt fails the test on an error in a slot
    assert document.report.total == count_parameters(document.architecture).total
