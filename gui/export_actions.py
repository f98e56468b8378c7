"""File → Export: CSV of the breakdown, per-layer, memory and GPU tables, all as JSON, charts as PNG/SVG.

The rows and the text come from ``core.io.export`` (the CLI writes through the same functions);
files are written atomically. A CSV opens with lines recording the model, the architecture and,
for the memory and GPU tables, the scenario. "CSV for Excel" (on by default, remembered) starts
it with a byte-order mark, without which Excel misreads UTF-8. A place that cannot be written
gets one clear message and nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMenu, QMessageBox, QWidget

from paramtally.core.errors import ParamTallyError
from paramtally.core.io import export
from paramtally.gui.dialogs import ask_save_path, attempt
from paramtally.gui.document import Document

__all__ = ["CHARTS", "TABLES", "Exporter", "add_export_menu"]


class Table(NamedTuple):
    menu_text: str
    stem: str  # the default file name's end
    columns: tuple[str, ...]
    of_scenario: bool  # its figures depend on the memory scenario, so the file records it


TABLES: dict[str, Table] = {
    "breakdown": Table("Breakdown as CSV…", "breakdown", export.BREAKDOWN_COLUMNS, False),
    "layers": Table("Per-layer table as CSV…", "layers", export.LAYER_COLUMNS, False),
    "memory": Table("Memory terms as CSV…", "memory", export.MEMORY_COLUMNS, True),
    "gpus": Table("GPU setups as CSV…", "gpu-setups", export.GPU_COLUMNS, True),
}
CHARTS = {
    "bar": "Bar chart as PNG/SVG…",
    "pie": "Pie chart as PNG/SVG…",
    "memory": "Memory chart as PNG/SVG…",
}
EXCEL_KEY = "export/excel_csv"
_CSV_FILTER = "CSV (*.csv)"
_IMAGE_FILTERS = "PNG image (*.png);;SVG image (*.svg)"


def _settings() -> Any:
    from paramtally.gui.main_window import settings  # late: the main window imports this module

    return settings()


class Exporter(QObject):
    """Writes the document's tables and the window's charts; each method returns the file or None."""

    def __init__(self, window: QWidget, document: Document) -> None:
        super().__init__(window)
        self.window, self.document = window, document
        self.excel_action = QAction("CSV for &Excel (UTF-8 with byte-order mark)", self)
        self.excel_action.setObjectName("actionExport_excel")
        self.excel_action.setCheckable(True)
        self.excel_action.setChecked(_settings().value(EXCEL_KEY, True, type=bool))
        self.excel_action.setToolTip(
            "Excel reads a CSV without a byte-order mark in the local code page and garbles ·, ² and ×"
        )
        self.excel_action.toggled.connect(lambda on: _settings().setValue(EXCEL_KEY, on))

    # --- what is exported -------------------------------------------------------------------------

    def rows(self, kind: str) -> list[dict[str, Any]]:
        if kind == "breakdown":
            return export.breakdown_rows(self.document.report)
        if kind == "layers":
            return export.layer_rows(self.document.report)
        if kind == "memory":
            return export.memory_rows(self._needed(self.document.memory, "memory figures"))
        if kind == "gpus":
            return export.gpu_rows(self._needed(self.document.setups, "GPU setups"))
        raise ValueError(kind)

    def csv_text(self, kind: str) -> str:
        table, document = TABLES[kind], self.document
        rows = self.rows(kind)  # first: a refused scenario is said before anything else
        scenario = document.scenario if table.of_scenario else None
        about = export.about_rows(document.architecture, scenario, document.source_label)
        return export.to_csv(rows, table.columns, about, excel=self.excel_action.isChecked())

    def _needed(self, value: Any, what: str) -> Any:
        if not value:
            raise ParamTallyError(f"no {what} for the current scenario (see the memory tab)")
        return value

    def _stem(self, suffix: str) -> str:
        label = self.document.source_label or self.document.architecture.name
        return "".join(c if c.isalnum() or c in "._-" else "-" for c in label) + suffix

    # --- actions --------------------------------------------------------------------------------------

    def export_table(self, kind: str, path: Path | None = None) -> Path | None:
        table = TABLES[kind]
        target = path or ask_save_path(
            self.window, table.menu_text.rstrip("…"), self._stem(f"-{table.stem}.csv"), _CSV_FILTER, ".csv"
        )
        if target is None:
            return None
        return self._write(target, lambda: self.csv_text(kind))

    def export_json(self, path: Path | None = None) -> Path | None:
        target = path or ask_save_path(
            self.window, "Export as JSON", self._stem(".json"), "JSON (*.json)", ".json"
        )
        if target is None:
            return None
        document = self.document

        def text() -> str:
            data = export.export_json(
                document.report,
                document.memory,
                document.setups or None,
                architecture=document.architecture,
                scenario=document.scenario,
                serving=document.serving,
            )
            return export.to_json(data)

        return self._write(target, text)

    def export_chart(self, chart: str, path: Path | None = None) -> Path | None:
        owner = self._chart_owner(chart)
        if owner is None:
            self._warn("There is no such chart to export in this window.")
            return None
        target = path or ask_save_path(
            self.window, CHARTS[chart].rstrip("…"), self._stem(f"-{chart}.png"), _IMAGE_FILTERS, ".png"
        )
        if target is None:
            return None
        return self._finish(target, lambda: owner.save_chart(target, chart))

    # --- helpers -----------------------------------------------------------------------------------------

    def _chart_owner(self, chart: str) -> Any:
        """The view that draws ``chart`` (its ``chart_kinds`` name it), or None before it is built."""
        for widget in self.window.findChildren(QWidget):
            if chart in getattr(widget, "chart_kinds", ()):
                return widget
        return None

    def _write(self, target: Path, text: Callable[[], str]) -> Path | None:
        return self._finish(target, lambda: export.write_export(target, text()))

    def _finish(self, target: Path, write: Callable[[], object]) -> Path | None:
        """Run ``write``; on success say so in the status bar, on a user error warn once."""
        if not attempt(self.window, "Export failed", write):
            return None
        self._done(target)
        return target

    def _done(self, target: Path) -> None:
        if isinstance(self.window, QMainWindow):
            self.window.statusBar().showMessage(f"Exported {target}", 5000)

    def _warn(self, message: str) -> None:
        QMessageBox.warning(self.window, "Export failed", message)


def add_export_menu(menu: QMenu, window: QWidget, document: Document) -> Exporter:
    """Adds File → Export ▸ with one action per table, JSON, the charts and the Excel switch."""
    exporter = Exporter(window, document)
    submenu = menu.addMenu("&Export")
    submenu.setObjectName("menuExport")

    def add(text: str, name: str, slot: Callable[[], object]) -> None:
        submenu.addAction(text, slot).setObjectName(name)  # the slot is called without "checked"

    for kind, table in TABLES.items():
        add(table.menu_text, f"actionExport_{kind}", lambda kind=kind: exporter.export_table(kind))
    submenu.addAction(exporter.excel_action)
    add("Everything as JSON…", "actionExport_json", exporter.export_json)
    submenu.addSeparator()
    for chart, text in CHARTS.items():
        add(text, f"actionExport_{chart}_chart", lambda chart=chart: exporter.export_chart(chart))
    return exporter
