"""File → Export: CSV of the breakdown, per-layer, memory and GPU tables, all as JSON, charts as PNG/SVG.

The rows come from ``core.export``; files are written atomically. A place that cannot be written
gets one clear message and nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMainWindow, QMenu, QMessageBox, QWidget

from paramtally.core import export
from paramtally.core.errors import ParamTallyError
from paramtally.gui.dialogs import ask_save_path, attempt
from paramtally.gui.document import Document

__all__ = ["TABLES", "Exporter", "add_export_menu"]

# kind → (menu text, default file stem, columns)
TABLES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "breakdown": ("Breakdown as CSV…", "breakdown", export.BREAKDOWN_COLUMNS),
    "layers": ("Per-layer table as CSV…", "layers", export.LAYER_COLUMNS),
    "memory": ("Memory terms as CSV…", "memory", export.MEMORY_COLUMNS),
    "gpus": ("GPU setups as CSV…", "gpu-setups", export.GPU_COLUMNS),
}
CHARTS = {"bar": "Bar chart as PNG/SVG…", "pie": "Pie chart as PNG/SVG…"}
_CSV_FILTER = "CSV (*.csv)"
_IMAGE_FILTERS = "PNG image (*.png);;SVG image (*.svg)"


class Exporter(QObject):
    """Writes the document's tables and the window's charts; each method returns the file or None."""

    def __init__(self, window: QWidget, document: Document) -> None:
        super().__init__(window)
        self.window, self.document = window, document

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

    def _needed(self, value: Any, what: str) -> Any:
        if not value:
            raise ParamTallyError(f"no {what} for the current scenario (see the memory panel)")
        return value

    def _stem(self, suffix: str) -> str:
        label = self.document.source_label or self.document.architecture.name
        return "".join(c if c.isalnum() or c in "._-" else "-" for c in label) + suffix

    # --- actions --------------------------------------------------------------------------------------

    def export_table(self, kind: str, path: Path | None = None) -> Path | None:
        text, stem, columns = TABLES[kind]
        target = path or ask_save_path(
            self.window, text.rstrip("…"), self._stem(f"-{stem}.csv"), _CSV_FILTER, ".csv"
        )
        if target is None:
            return None
        return self._write(target, lambda: export.to_csv(self.rows(kind), columns))

    def export_json(self, path: Path | None = None) -> Path | None:
        target = path or ask_save_path(
            self.window, "Export as JSON", self._stem(".json"), "JSON (*.json)", ".json"
        )
        if target is None:
            return None
        document = self.document

        def text() -> str:
            return export.to_json(
                export.export_json(document.report, document.memory, document.setups or None)
            )

        return self._write(target, text)

    def export_chart(self, chart: str, path: Path | None = None) -> Path | None:
        charts = self._charts()
        if charts is None:
            self._warn("There is no chart to export in this window.")
            return None
        target = path or ask_save_path(
            self.window, CHARTS[chart].rstrip("…"), self._stem(f"-{chart}.png"), _IMAGE_FILTERS, ".png"
        )
        if target is None:
            return None
        return self._finish(target, lambda: charts.save_chart(target, chart))

    # --- helpers -----------------------------------------------------------------------------------------

    def _charts(self) -> Any:
        for widget in self.window.findChildren(QWidget):
            if callable(getattr(widget, "save_chart", None)):
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
    """Adds File → Export ▸ with one action per table, JSON and the two charts."""
    exporter = Exporter(window, document)
    submenu = menu.addMenu("&Export")
    submenu.setObjectName("menuExport")

    def add(text: str, name: str, slot: Callable[[], object]) -> None:
        submenu.addAction(text, slot).setObjectName(name)  # the slot is called without "checked"

    for kind, (text, _, _) in TABLES.items():
        add(text, f"actionExport_{kind}", lambda kind=kind: exporter.export_table(kind))
    add("Everything as JSON…", "actionExport_json", exporter.export_json)
    submenu.addSeparator()
    for chart, text in CHARTS.items():
        add(text, f"actionExport_{chart}", lambda chart=chart: exporter.export_chart(chart))
    return exporter
