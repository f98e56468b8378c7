"""The memory-budget panel: what fits, the scenario controls, the per-GPU memory bar, serving
figures, FLOPs and the GPU setups.

It shows ``document.memory``, ``document.setups`` and ``document.flops`` and edits
``document.scenario``. A value the core refuses stays in its field, red, and the line under the
controls says why and which value is in force; the figures are those of the scenario in force.
Notes under the controls say what the GPU count means for the layout
(``core.memory.layout_advice``, as ``paramtally memory`` says it) and, for a model with LoRA or
adapter layers, what training means. Every figure and every choice is the core's.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QCheckBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from paramtally.core.errors import ParamTallyError
from paramtally.core.io.export import scenario_text
from paramtally.core.memory.fit import smallest_fit
from paramtally.core.memory.gpus import find_gpu
from paramtally.core.memory.layout_advice import layout_note
from paramtally.core.memory.vision import images_text
from paramtally.gui.form.field_frame import AMBER
from paramtally.gui.i18n import core_text, said_text, translate
from paramtally.gui.shown_text import TITLE_CHARS, shown
from paramtally.gui.views.deferred import DeferredRefresh
from paramtally.gui.views.export import laid_out, save_view
from paramtally.gui.views.flops_summary import FlopsSummary
from paramtally.gui.views.format import bytes_scaled, gib, problem_text
from paramtally.gui.views.memory_chart import MemoryChart
from paramtally.gui.views.scenario_controls import ScenarioControls
from paramtally.gui.views.serving_summary import ServingSummary
from paramtally.gui.views.setups_table import SetupsTable
from paramtally.gui.views.stale import StaleNote

if TYPE_CHECKING:
    from paramtally.core.memory.fit import SetupFit
    from paramtally.gui.document import Document

__all__ = ["MemoryPanel"]

ADAPTER_PARTS = ("lora", "adapters")
_PROBLEM_STYLE = "color: #C0392B; font-weight: 600;"
_Capacity = tuple[int | None, str]  # the GPU's usable bytes (None: not in the catalog) and its name


def _note(name: str, style: str = "") -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if style:
        label.setStyleSheet(style)
    label.hide()
    return label


def _show(label: QLabel, text: str) -> None:
    label.setText(text)
    label.setVisible(bool(text))


class MemoryPanel(QWidget):
    """objectName ``memoryBudget``; children: ``memoryStale``, ``fitSummary``, scenario controls,
    ``scenarioProblem``, ``scenarioHint``, ``layoutNote``, ``adapterNote``, ``cacheNote``,
    ``omissionNote``, ``memoryChart``, ``servingSummary``, ``flopsSummary``, ``gpuFilter``,
    ``gpuFilterCount``, ``fitsOnly``, ``gpuSetups``."""

    chart_kinds = ("memory",)

    def __init__(self, document: Document, columns: int = 3, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("memoryBudget")
        self._document = document
        self._general_problem = ""  # a refusal not tied to a control (e.g. the GPU catalog)
        # The model (``document.opened``) the figures shown are of: a scenario that does not fit a
        # model just opened (expert parallel 2 from Mixtral, on Llama) left the other's figures up.
        self._drawn = document.opened
        self.summary = _note("fitSummary", "font-weight: 600;")
        self.stale_note = StaleNote("memoryStale")  # the figures are the last valid model's
        self.controls = ScenarioControls(document, columns=columns)
        self.problem = _note("scenarioProblem", _PROBLEM_STYLE)
        self.hint = _note("scenarioHint", f"color: {AMBER};")  # advice that changes nothing
        self.layout_note = _note("layoutNote")
        self.adapter_note = _note("adapterNote")
        self.cache_note = _note("cacheNote")  # KV cache, recurrent state, cross-attention: each on its own
        self.images_note = _note("imagesNote")  # a vision-language model's images: their tokens
        self.omission_note = _note("omissionNote")
        self.chart = MemoryChart()
        self.flops = FlopsSummary()
        self.serving = ServingSummary()
        self.fits_only = QCheckBox(translate("Memory", "Only setups that fit"))
        self.fits_only.setObjectName("fitsOnly")
        self.fits_only.setToolTip(
            translate("Memory", "Hide the GPU kinds and counts on which the scenario does not fit")
        )
        self.setups = SetupsTable()
        self.fits_only.toggled.connect(self.setups.set_fits_only)
        self.gpu_filter, self.gpu_filter_count = self._gpu_filter()
        self._build()
        self.controls.problems_changed.connect(self._show_problems)
        self.controls.hints_changed.connect(self._show_hints)
        self._show_hints()  # the controls found their first advice while being made
        self.deferred = DeferredRefresh(self, self.refresh)
        document.changed.connect(self.deferred.request)
        # Built on a hidden tab (the window shows the parameters first), it draws when first shown:
        # a screenshot or a start that never opens the tab skips the GPU setups' figures.
        self.deferred.request()

    def _build(self) -> None:
        scenario_box = QGroupBox(translate("Memory", "Scenario"))
        box_layout = QVBoxLayout(scenario_box)
        box_layout.addWidget(self.controls)
        # Under the fields, not over them: a line appearing above moved the field being typed in
        # and every one below it (in a narrow window, where the controls are one long column, the
        # status bar and the red field's tooltip say the reason too).
        box_layout.addWidget(self.problem)
        box_layout.addWidget(self.hint)
        for note in (
            self.images_note,
            self.layout_note,
            self.adapter_note,
            self.cache_note,
            self.omission_note,
        ):
            box_layout.addWidget(note)
        self.figures = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self.figures.setContentsMargins(0, 0, 0, 0)
        self.figures.addWidget(self.chart, 3)
        numbers = QVBoxLayout()
        numbers.setContentsMargins(0, 0, 0, 0)
        numbers.addWidget(self.serving)
        numbers.addWidget(self.flops)
        numbers.addStretch(1)
        self.figures.addLayout(numbers, 2)
        filter_row = QHBoxLayout()
        title = QLabel(translate("Memory", "<b>GPU setups</b>"))
        title.setToolTip(
            translate(
                "Memory",
                "Every GPU kind × count with the layout core picks; hover a column's title for its meaning",
            )
        )
        filter_row.addWidget(title)
        filter_row.addWidget(self.gpu_filter, 1)
        filter_row.addWidget(self.gpu_filter_count)
        filter_row.addStretch(0)
        filter_row.addWidget(self.fits_only)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stale_note)
        layout.addWidget(self.summary)
        layout.addWidget(scenario_box)
        layout.addLayout(self.figures, 2)
        layout.addLayout(filter_row)
        layout.addWidget(self.setups, 3)

    def _gpu_filter(self) -> tuple[QLineEdit, QLabel]:
        """The GPU filter's field (Escape empties it) and the line saying how many rows it keeps."""
        edit = QLineEdit()
        edit.setObjectName("gpuFilter")
        edit.setAccessibleName(translate("Memory", "GPU filter"))
        edit.setPlaceholderText(translate("Memory", "Filter by GPU: H100, RTX 4090…"))
        edit.setClearButtonEnabled(True)
        edit.setMinimumWidth(150)
        edit.setMaximumWidth(320)
        edit.setToolTip(
            translate(
                "Memory",
                "Only the GPUs whose name holds every word typed, in any letter case; commas separate "
                "alternatives (“RTX 4090, a100” keeps the 4090 and both A100s). Escape empties it.",
            )
        )
        clear = QAction(translate("Memory", "Empty the GPU filter"), edit)
        clear.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        clear.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        clear.triggered.connect(edit.clear)
        edit.addAction(clear)
        count = QLabel()
        count.setObjectName("gpuFilterCount")
        edit.textChanged.connect(self.setups.set_gpu_filter)
        edit.textChanged.connect(self._count_shown)
        proxy = self.setups.proxy
        for signal in (proxy.rowsInserted, proxy.rowsRemoved, proxy.modelReset, proxy.layoutChanged):
            signal.connect(self._count_shown)
        return edit, count

    def _count_shown(self, *_: object) -> None:
        """How many setups the GPU filter keeps ('14 of 98'); nothing while it is empty."""
        text = self.gpu_filter.text().strip()
        if not text.strip(", "):
            self.gpu_filter_count.setText("")
        elif self.setups.names_any_gpu(text):
            shown, every = self.setups.proxy.rowCount(), self.setups.setups_model.rowCount()
            self.gpu_filter_count.setText(
                translate("Memory", "{shown} of {every}").format(shown=shown, every=every)
            )
        else:
            self.gpu_filter_count.setText(translate("Memory", "no GPU matches “{text}”").format(text=text))

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.deferred.shown()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        # Chart and FLOPs side by side while both have room, one over the other in a narrow window.
        side_by_side = event.size().width() >= self.chart.minimumWidth() + self.flops.comfortable_width()
        self.figures.setDirection(
            QBoxLayout.Direction.LeftToRight if side_by_side else QBoxLayout.Direction.TopToBottom
        )

    # --- figures ---------------------------------------------------------------------------------

    def refresh(self) -> None:
        document = self._document
        memory = document.memory  # None when refused: the document says why (``problems``)
        capacity = self._capacity(document.scenario)  # the catalog is read once per refresh
        if memory is not None:
            self._draw(self.chart, memory, gpu=capacity)
            self.chart.set_tool_tip_source(lambda: _terms_text(memory))
            self._drawn = self._document.opened
        training = document.scenario.mode == "training"
        self.flops.set_flops(document.flops, capacity[1], training)
        self.serving.set_serving(document.serving, training)
        setups = document.setups
        if setups or memory is not None:
            self.setups.set_setups(setups)
            _show(self.summary, self._summary(setups))
        note = layout_note(document.architecture, document.scenario, document.layout_note)
        _show(self.layout_note, said_text(note))
        _show(self.adapter_note, self._adapter_note(memory))
        _show(self.cache_note, _cache_note(memory))
        images = images_text(document.architecture, document.scenario)
        _show(
            self.images_note,
            translate("Memory", "Images: {images}.").format(images=said_text(images)) if images else "",
        )
        if memory is not None:
            omitted = translate("Memory", "Not modelled: {note}.")
            _show(
                self.omission_note,
                " ".join(omitted.format(note=said_text(note)) for note in memory.omissions),
            )
        for view in (self.chart, self.flops, self.setups, self.fits_only, self.gpu_filter):
            view.setVisible(not self.stale)
        self.gpu_filter_count.setVisible(not self.stale)
        if self.stale:
            for view in (self.serving, self.summary, self.omission_note, self.cache_note, self.adapter_note):
                view.hide()
            self.images_note.hide()
        self.stale_note.follow(document)
        refusal = document.figures_refusal  # one no scenario field says (the GPU catalog)
        self._general_problem = problem_text(refusal) if refusal else ""
        self._show_problems()

    def _draw(
        self, chart: MemoryChart, memory: Any, scenario: str = "", gpu: _Capacity | None = None
    ) -> None:
        capacity, gpu_name = gpu or self._capacity(self._document.scenario)
        model = html.escape(shown(self._document.architecture.name, TITLE_CHARS))  # the title is HTML
        gpu_name = html.escape(shown(gpu_name))  # a scenario file's own id when it is no known GPU
        chart.set_memory(
            memory.by_part(), capacity, gpu_name, memory.total_bytes, model, scenario, memory.part_titles()
        )

    def save_chart(self, path: str | Path, chart: str = "memory") -> Path:
        """The memory bar of the scenario in force as PNG or SVG; its title says the scenario in words."""
        memory = self._document.memory
        if memory is None:
            raise ParamTallyError("no memory figures for the current scenario (see the memory tab)")
        with laid_out(MemoryChart()) as copy:
            self._draw(copy, memory, scenario_text(self._document.scenario, self._document.architecture))
            per_gpu = translate("MemoryChart", "Memory per GPU")
            return save_view(copy, Path(path), f"{per_gpu} — {shown(self._document.architecture.name)}")

    @staticmethod
    def _capacity(scenario: Any) -> _Capacity:
        try:
            gpu = find_gpu(scenario.gpu)
        except (ParamTallyError, ValueError):
            return None, scenario.gpu
        return gpu.capacity_bytes(scenario.utilization_cap), gpu.name

    # --- what the figures mean ----------------------------------------------------------------------

    def _summary(self, setups: tuple[SetupFit, ...]) -> str:
        scenario = self._document.scenario
        fitting = sum(fit.fits for fit in setups)
        best = smallest_fit(setups)
        if best is None:
            return translate(
                "Memory", "No setup in the table fits (up to {count} GPUs of each kind)."
            ).format(count=max(f.count for f in setups))
        text = translate("Memory", "Fits on {fitting} of {setups} setups. Smallest: {best}.").format(
            fitting=fitting, setups=len(setups), best=_setup_text(best)
        )
        own = smallest_fit(setups, scenario.gpu)
        if own is not None and own is not best:
            text += translate("Memory", " On {gpu}: {setup}.").format(
                gpu=own.gpu_name, setup=_setup_text(own, with_name=False)
            )
        elif own is None:
            text += translate("Memory", " No count of {gpu} in the table fits.").format(
                gpu=self._capacity(scenario)[1]
            )
        return text

    def _adapter_note(self, memory: Any) -> str:
        report = self._document.report
        added = sum(report.by_part.get(part, 0) for part in ADAPTER_PARTS)
        if not added:
            return ""
        if self._document.scenario.mode == "training" and memory is not None:
            return translate(
                "Memory",
                "Training means frozen base + adapters: this model has LoRA/adapter layers, so only their "
                "{count} parameters get gradients and optimizer states; the base is frozen.",
            ).format(count=f"{memory.trainable_params:,}")
        return translate(
            "Memory",
            "This model has LoRA/adapter layers ({count} parameters): training it means frozen "
            "base + adapters.",
        ).format(count=f"{added:,}")

    # --- refused values ---------------------------------------------------------------------------

    def _named(self, reason: str) -> str:
        """The reason with a field path in brackets, "(scenario.gpus)", given as its label, "(GPUs)"."""
        for name, label in self.controls.labels.items():
            reason = reason.replace(f"(scenario.{name})", f"({label.text()})")
        return reason

    @property
    def stale(self) -> bool:
        """True while the figures drawn are another model's (none fit the one open): they are hidden."""
        return self._drawn != self._document.opened

    def _show_problems(self) -> None:
        controls, scenario = self.controls, self._document.scenario
        pending = self._document.scenario_drafts
        kept = (
            translate("Memory", "No figures for this model until it fits.")
            if self.stale
            else translate("Memory", "The figures are the last valid ones.")
        )
        lines = []
        for name, problem in controls.problems.items():
            label = controls.labels[name].text()
            reason = self._named(said_text(problem))
            if name in controls.unread:  # text that is no number: the field says what was typed
                value = getattr(scenario, name)
                stays = f"{value:,}" if isinstance(value, int) else translate("Memory", "empty")
                said = translate(
                    "Memory",
                    "Not applied: {label}: {reason} ({label} stays {stays}; the figures are for it).",
                )
                lines.append(said.format(label=label, reason=reason, stays=stays))
            elif name in pending:
                said = translate(
                    "Memory",
                    "Not applied: {label} {typed} — {reason} "
                    "({label} stays {stays}; the figures are for it).",
                )
                lines.append(
                    said.format(
                        label=label,
                        typed=pending[name],
                        reason=problem_text(reason),
                        stays=getattr(scenario, name),
                    )
                )
            elif not pending:
                said = translate("Memory", "The scenario does not fit this model: {label}: {reason}. {kept}")
                lines.append(said.format(label=label, reason=problem_text(reason), kept=kept))
        if self._general_problem:
            said = translate("Memory", "Scenario refused: {reason}. {kept}")
            lines.append(said.format(reason=said_text(self._general_problem), kept=kept))
        _show(self.problem, "\n".join(dict.fromkeys(lines)))

    def _show_hints(self) -> None:
        _show(self.hint, "\n".join(f"{said_text(advice)}." for advice in self.controls.hints.values()))


def _setup_text(fit: SetupFit, with_name: bool = True) -> str:
    if with_name:
        kind = f" × {fit.gpu_name}"
    else:
        kind = translate("Memory", " GPUs") if fit.count > 1 else translate("Memory", " GPU")
    return translate("Memory", "{count}{kind} ({layout}), {free} free each").format(
        count=fit.count, kind=kind, layout=core_text(fit.layout), free=gib(fit.free_bytes)
    )


def _cache_note(memory: Any) -> str:
    """What the per-sequence memory is made of, when there is more than one plain KV cache: sliding
    and global layers, the recurrent state of SSM layers, the cross-attention's cache."""
    terms = [term for term in (memory.terms if memory is not None else ()) if term.part == "kv_cache"]
    if not terms or [term.name for term in terms] == ["KV cache"]:
        return ""
    parts = " + ".join(f"{core_text(term.name)} {bytes_scaled(term.value)}" for term in terms)
    return translate("Memory", "Per GPU for the sequences served: {parts}.").format(parts=parts)


def _terms_text(memory: Any) -> str:
    return "\n".join(
        f"{term.name}: {term.value:,} B = {term.formula}  [{term.source}]" for term in memory.terms
    )
