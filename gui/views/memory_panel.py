"""The memory-budget panel: scenario controls, per-GPU memory bar, FLOPs, and the GPU setups.

It shows ``document.memory``, ``document.setups`` and ``document.flops`` and edits
``document.scenario``. When the core refuses a scenario (TP not dividing the heads) the last
valid figures stay and the reason is shown above them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QLabel, QSplitter, QVBoxLayout, QWidget

from paramtally.core.errors import ParamTallyError
from paramtally.core.gpus import find_gpu
from paramtally.gui.views.deferred import DeferredRefresh
from paramtally.gui.views.flops_summary import FlopsSummary
from paramtally.gui.views.format import problem_text
from paramtally.gui.views.memory_chart import MemoryChart
from paramtally.gui.views.scenario_controls import ScenarioControls
from paramtally.gui.views.setups_table import SetupsTable

if TYPE_CHECKING:
    from paramtally.gui.document import Document

__all__ = ["MemoryPanel"]


class MemoryPanel(QWidget):
    """objectName ``memoryBudget``; children: scenario controls, ``memoryChart``, ``gpuSetups``."""

    def __init__(self, document: Document, columns: int = 3, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("memoryBudget")
        self._document = document
        self.controls = ScenarioControls(document, columns=columns)
        self.problem = QLabel()
        self.problem.setObjectName("scenarioProblem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #C0392B; font-weight: 600;")
        self.problem.hide()
        self.chart = MemoryChart()
        self.flops = FlopsSummary()
        self.setups = SetupsTable()
        self._build()
        document.invalid.connect(self._invalid)
        self.deferred = DeferredRefresh(self, self.refresh)
        document.changed.connect(self.deferred.request)
        self.refresh()

    def _build(self) -> None:
        scenario_box = QGroupBox("Scenario")
        box_layout = QVBoxLayout(scenario_box)
        box_layout.addWidget(self.controls)
        figures = QWidget()
        row = QHBoxLayout(figures)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.chart, 3)
        row.addWidget(self.flops, 2)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(figures)
        splitter.addWidget(self.setups)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scenario_box)
        layout.addWidget(self.problem)
        layout.addWidget(splitter, 1)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.deferred.shown()

    def refresh(self) -> None:
        self.problem.hide()
        document = self._document
        memory = document.memory  # a refused scenario emits invalid here and gives None
        if memory is not None:
            capacity, gpu_name = self._capacity(document.scenario)
            self.chart.set_memory(memory.by_part(), capacity, gpu_name, memory.total_bytes)
            self.chart.setToolTip(_terms_text(memory))
        self.flops.set_flops(document.flops, self._capacity(document.scenario)[1])
        setups = document.setups
        if setups or memory is not None:
            self.setups.set_setups(setups)

    @staticmethod
    def _capacity(scenario: Any) -> tuple[int | None, str]:
        try:
            gpu = find_gpu(scenario.gpu)
        except (ParamTallyError, ValueError):
            return None, scenario.gpu
        return gpu.capacity_bytes(scenario.utilization_cap), gpu.name

    def _invalid(self, path: str, reason: str) -> None:
        if path != "scenario" and not path.startswith("scenario."):
            return
        label = self.controls.labels.get(path.removeprefix("scenario."))
        where = f"{label.text()}: " if label is not None else ""
        self.problem.setText(
            f"Scenario refused, the figures below are the last valid ones. {where}{problem_text(reason)}"
        )
        self.problem.show()


def _terms_text(memory: Any) -> str:
    return "\n".join(f"{term.name}: {term.value:,} B = {term.formula}" for term in memory.terms)
