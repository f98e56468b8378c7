"""Issue 31: a red field left the headline showing the last valid figures with no mark that they
are not the model as typed. While a typed value waits unapplied, the headline, the charts of the
parameters tab and the memory tab say so, naming the value; applied, the mark goes."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing.edits import with_values
from paramtally.core.io.model_sources import load_source
from paramtally.gui.main_window import MainWindow
from tests.gui.conftest import TypeInto
from tests.gui.views_support import click_tab

HEADS = ("blocks", "default", "mixer", "num_heads")
MARK = "⚠ Last valid figures, not the model as typed: Hidden size 8,192 is not applied"


def _note(window: MainWindow, name: str) -> QLabel:
    label = window.findChild(QLabel, name)
    assert label is not None, name
    return label


def test_a_red_field_marks_the_figures_as_the_last_valid_ones(
    qtbot: QtBot, window: MainWindow, type_into: TypeInto
) -> None:
    headline = window.headline
    assert not headline.stale and "Last valid" not in headline.text()
    type_into(window.form.editor(("hidden_size",)), "8192")  # 96 heads do not divide it: red
    assert window.form.field_state(("hidden_size",)) == "error"
    assert "175,221,817,344" in headline.text()  # the last valid figures stay …
    assert headline.stale and MARK in headline.text()  # … said to be so
    charts = _note(window, "chartsStale")
    assert charts.isVisible() and charts.text() == "⚠ Last valid figures" and charts.toolTip() == MARK
    click_tab(qtbot, window, "Memory and GPU fit")
    memory = _note(window, "memoryStale")
    assert memory.isVisible() and memory.text() == "⚠ Last valid figures" and memory.toolTip() == MARK

    type_into(window.form.editor(HEADS), "64")  # now it fits: both apply
    expected = count_parameters(with_values(load_source("gpt3-175b"), {("hidden_size",): 8192, HEADS: 64}))
    assert f"{expected.total:,}" in headline.text()
    assert not headline.stale and "Last valid" not in headline.text()
    assert not memory.isVisible()
    click_tab(qtbot, window, "Parameters")
    assert not charts.isVisible()
