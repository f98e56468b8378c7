"""An edit paints each chart and table once: a second paint is time the person waits for nothing.

Every QGraphicsScene with dirty items paints its whole window at once when Qt processes them, so a
chart whose items pyqtgraph moves while painting (a range set but applied at paint time) had the
window painted again, the parameters tab's bar chart and breakdown table with it.
"""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from tests.gui.conftest import TypeInto
from tests.gui.settle import settle
from tests.gui.views_support import click_tab, preset_window


class _Paints(QObject):
    """Counts the paint events each watched widget receives."""

    def __init__(self, widgets: dict[str, QWidget]) -> None:
        super().__init__()
        self.names = {id(widget): name for name, widget in widgets.items()}
        self.count: Counter[str] = Counter()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and id(watched) in self.names:
            self.count[self.names[id(watched)]] += 1
        return False


def _paints_of_an_edit(
    qtbot: QtBot, type_into: TypeInto, window: QWidget, widgets: dict[str, QWidget]
) -> Counter[str]:
    editor = window.form.editor(("hidden_size",))  # type: ignore[attr-defined]
    type_into(editor, "5120")  # one edit, then its paint, before counting starts
    settle()
    paints = _Paints(widgets)
    app = QApplication.instance()
    assert app is not None
    app.installEventFilter(paints)
    try:
        type_into(editor, "6144")
        assert window.document.architecture.hidden_size == 6144  # type: ignore[attr-defined]
        settle()  # every repaint the edit asked for, however long the machine takes
    finally:
        app.removeEventFilter(paints)
    return paints.count


def test_an_edit_paints_the_parameters_tab_once(qtbot: QtBot, type_into: TypeInto) -> None:
    window = preset_window(qtbot, "llama-3-8b")
    charts, table = window.charts, window.table
    widgets = {"bar chart": charts.bar.viewport(), "breakdown table": table.viewport()}
    assert _paints_of_an_edit(qtbot, type_into, window, widgets) == {"bar chart": 1, "breakdown table": 1}


def test_an_edit_paints_the_memory_tab_once(qtbot: QtBot, type_into: TypeInto) -> None:
    window = preset_window(qtbot, "llama-3-8b")
    click_tab(qtbot, window, "Memory and GPU fit")
    panel = window.memory
    widgets = {"memory chart": panel.chart.viewport(), "GPU setups": panel.setups.viewport()}
    assert _paints_of_an_edit(qtbot, type_into, window, widgets) == {"memory chart": 1, "GPU setups": 1}
