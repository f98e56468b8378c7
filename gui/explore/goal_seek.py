"""The goal-seek dialog: the exact value of one field that meets a target, applied as one edit.

The person picks the field (the design variables the open model has; the last one picked is
chosen again next time), the target (a figure at least or at most a value, or fitting a GPU setup)
and a step ("multiple of"), and whether the FFN widths follow the hidden size; core's ``solve``
finds the value by an exact search and gives its neighbours below and above with their
figures. "Apply" writes the chosen row's value into the document as one undoable edit: the
architecture through ``set_architecture``, a scenario field through ``set_scenario_values``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from paramtally.core.errors import ParamTallyError, one_line
from paramtally.core.explore.figures import FIGURES, find_figure
from paramtally.core.explore.solve import Point, Solution, Target, figure_target, fits_target, solve
from paramtally.core.explore.variables import Variable, available, find_variable
from paramtally.core.memory.fit import column_description
from paramtally.core.memory.gpus import load_catalog
from paramtally.gui.dialogs import add_mnemonics
from paramtally.gui.explore.figure_text import figure_text
from paramtally.gui.i18n import core_text, said_text, schema_text, translate
from paramtally.gui.settings import settings
from paramtally.gui.views.format import bytes_apart

if TYPE_CHECKING:
    from paramtally.gui.document import Document

__all__ = ["GoalSeekDialog"]

FITS = "fits"
_EXAMPLES = {
    "params": "7B, 7e9, 650M",
    "bytes": "80GB, 80GiB, 24e9",
    "FLOP": "15G, 1.5e10",
    "days": "30d, 720h",
}
# Each figure's unit as the hint names it, in the window's language (FLOP stays as engineers write it).
_UNIT_WORDS = {
    "params": QT_TRANSLATE_NOOP("GoalSeek", "params"),
    "bytes": QT_TRANSLATE_NOOP("GoalSeek", "bytes"),
    "FLOP": "FLOP",
    "days": QT_TRANSLATE_NOOP("GoalSeek", "days"),
}
# Columns of the fits target beside the figures, with what they hold (core's SetupFit fields).
_FIT_COLUMNS = (
    ("per_gpu_bytes", QT_TRANSLATE_NOOP("GoalSeek", "Per GPU")),
    ("layout", QT_TRANSLATE_NOOP("GoalSeek", "Layout")),
)  # "meets" is whether it fits
_ROLES = ("below", "answer", "above")
_ROLE_WORDS = {  # each row's header, in the window's language (the keys stay the rows' names)
    "below": QT_TRANSLATE_NOOP("GoalSeek", "below"),
    "answer": QT_TRANSLATE_NOOP("GoalSeek", "answer"),
    "above": QT_TRANSLATE_NOOP("GoalSeek", "above"),
}
_Columns = list[tuple[str, str]]  # (key, title)
# What the dialog opens with next time (the window's settings file).
VARY_KEY, SCALE_FFN_KEY = "goalSeek/vary", "goalSeek/scaleFfn"
_SCALED = "hidden_size"  # the variable the FFN widths may follow
_WIDTHS = ("ffn_width", "expert_width")  # the widths said beside an answer that scaled them


class GoalSeekDialog(QDialog):
    """objectName ``goalSeekDialog``; ``applied`` says what Apply changed (None until it does)."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("goalSeekDialog")
        self.setWindowTitle(translate("GoalSeek", "Goal Seek"))
        self.document = document
        self.solution: Solution | None = None
        self.applied: str | None = None
        self._points: list[Point] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(150)  # typing "7B" solves once, not for "7" too
        self._timer.timeout.connect(self._solve_as_typed)
        self._build()
        self._figure_changed()

    # --- layout -----------------------------------------------------------------------------------

    def _build(self) -> None:
        arch, scenario = self.document.architecture, self.document.scenario
        self.field_box = QComboBox()
        self.field_box.setObjectName("goalField")
        for variable in available(arch, scenario):
            now = translate("GoalSeek", "{title} (now {value})").format(
                title=schema_text(variable.title), value=f"{variable.read(arch, scenario):,}"
            )
            self.field_box.addItem(now, variable.name)
            tip = translate("GoalSeek", "{description}\nAllowed: {constraint}.").format(
                description=schema_text(variable.description), constraint=schema_text(variable.constraint)
            )
            self.field_box.setItemData(self.field_box.count() - 1, tip, Qt.ItemDataRole.ToolTipRole)
        store = settings()
        self.field_box.setCurrentIndex(max(self.field_box.findData(store.value(VARY_KEY, "")), 0))
        self.scale_ffn = QCheckBox(translate("GoalSeek", "Scale the &FFN width with it"))
        self.scale_ffn.setObjectName("goalScaleFfn")
        self.scale_ffn.setToolTip(
            translate(
                "GoalSeek",
                "Varying the hidden size, every FFN width (dense, expert, shared expert) keeps its ratio "
                "to it, w·h'/h rounded up, as a model family scales its FFN with its width; unticked, "
                "the FFN widths stay as they are",
            )
        )
        self.scale_ffn.setChecked(store.value(SCALE_FFN_KEY, False, type=bool))
        self.figure_box = QComboBox()
        self.figure_box.setObjectName("goalFigure")
        for figure in FIGURES:
            self.figure_box.addItem(schema_text(figure.title), figure.name)
            tip = schema_text(figure.description)
            self.figure_box.setItemData(self.figure_box.count() - 1, tip, Qt.ItemDataRole.ToolTipRole)
        self.figure_box.addItem(translate("GoalSeek", "Fits on a GPU setup"), FITS)
        self.op_box = QComboBox()
        self.op_box.setObjectName("goalOp")
        self.op_box.addItem(translate("GoalSeek", "at least"), ">=")
        self.op_box.addItem(translate("GoalSeek", "at most"), "<=")
        self.value_edit = QLineEdit()
        self.value_edit.setObjectName("goalValue")
        self.gpu_box = QComboBox()
        self.gpu_box.setObjectName("goalGpu")
        for gpu in load_catalog():
            self.gpu_box.addItem(gpu.name, gpu.id)
        self.gpu_box.setCurrentIndex(max(self.gpu_box.findData(scenario.gpu), 0))
        self.count_spin = QSpinBox()
        self.count_spin.setObjectName("goalGpuCount")
        self.count_spin.setRange(1, 100_000)
        self.count_spin.setValue(scenario.gpus)
        self.count_spin.setPrefix("× ")
        self.multiple_spin = QSpinBox()
        self.multiple_spin.setObjectName("goalMultiple")
        self.multiple_spin.setRange(1, 1 << 20)
        self.multiple_spin.setMaximumWidth(140)
        self.multiple_spin.setToolTip(
            translate("GoalSeek", "Only values that are multiples of this (e.g. 128 for a hidden size)")
        )

        target = QHBoxLayout()
        target.addWidget(self.figure_box, 1)
        target.addWidget(self.op_box)
        target.addWidget(self.value_edit, 1)
        target.addWidget(self.gpu_box, 1)
        target.addWidget(self.count_spin)
        vary = QHBoxLayout()
        vary.addWidget(self.field_box, 1)
        vary.addWidget(self.scale_ffn)
        vary_label = QLabel(translate("GoalSeek", "&Vary:"))
        vary_label.setBuddy(self.field_box)
        form = QFormLayout()
        form.addRow(vary_label, vary)
        target_label = QLabel(translate("GoalSeek", "&Target:"))
        target_label.setBuddy(self.figure_box)
        form.addRow(target_label, target)
        self.hint = QLabel()
        self.hint.setObjectName("goalHint")
        form.addRow("", self.hint)
        form.addRow(translate("GoalSeek", "&Multiple of:"), self.multiple_spin)

        self.answer = QLabel()
        self.answer.setObjectName("goalAnswer")
        self.answer.setWordWrap(True)
        self.answer.setTextFormat(Qt.TextFormat.RichText)
        self.table = QTableWidget()
        self.table.setObjectName("goalTable")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        self.buttons = QDialogButtonBox()
        # ActionRole: an accept button would become the default, and Enter in the value (which
        # solves) would apply the answer before the person has seen it.
        self.apply_button = self.buttons.addButton(
            translate("GoalSeek", "Apply"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.apply_button.setObjectName("goalApply")
        self.apply_button.setEnabled(False)
        close = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        close.setText(translate("GoalSeek", "Close"))
        add_mnemonics(self.buttons)
        self._apply_text = self.apply_button.text()  # said again once an answer is gone
        for button in (self.apply_button, close):
            button.setAutoDefault(False)
        self.apply_button.clicked.connect(self.apply)
        close.clicked.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.answer)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.buttons)
        self.resize(860, 420)

        for box in (self.op_box, self.gpu_box):
            box.currentIndexChanged.connect(self._changed)
        for box in (self.field_box, self.figure_box):  # varying the GPUs hides their count
            box.currentIndexChanged.connect(self._figure_changed)
        self.value_edit.textEdited.connect(self._changed)
        self.value_edit.returnPressed.connect(self.solve_now)
        self.count_spin.valueChanged.connect(self._changed)
        self.multiple_spin.valueChanged.connect(self._changed)
        self.field_box.currentIndexChanged.connect(self._remember)
        self.scale_ffn.toggled.connect(self._remember)
        self.scale_ffn.toggled.connect(self._changed)

    # --- the question -----------------------------------------------------------------------------

    @property
    def field(self) -> str:
        return str(self.field_box.currentData())

    @property
    def fits_target(self) -> bool:
        return self.figure_box.currentData() == FITS

    @property
    def scaling_ffn(self) -> bool:
        """Whether the FFN widths follow the field (ticked, and the field is the hidden size)."""
        return self.field == _SCALED and self.scale_ffn.isChecked()

    def target(self) -> Target:
        """The target from the fields; a value core cannot read is refused naming the figure by its
        title, as the dialog shows it (the command line's words were '--target total')."""
        if self.fits_target:
            count = None if self.field == "gpus" else self.count_spin.value()  # varying the count
            return fits_target(str(self.gpu_box.currentData()), count)
        name = str(self.figure_box.currentData())
        value = self.value_edit.text().strip()
        return figure_target(name, str(self.op_box.currentData()), value, find_figure(name).title)

    def _remember(self) -> None:
        store = settings()
        store.setValue(VARY_KEY, self.field)
        store.setValue(SCALE_FFN_KEY, self.scale_ffn.isChecked())

    def _figure_changed(self) -> None:
        self.scale_ffn.setEnabled(self.field == _SCALED)
        fits = self.fits_target
        for widget in (self.op_box, self.value_edit):
            widget.setVisible(not fits)
        self.gpu_box.setVisible(fits)
        # The count is what varies when the field is the GPUs: no count to ask for (it showed "× 1").
        self.count_spin.setVisible(fits and self.field != "gpus")
        if fits and self.field == "gpus":
            self.hint.setText(
                translate(
                    "GoalSeek", "The fewest GPUs of the kind that hold the model, laid out as the GPU setups"
                )
            )
        elif fits:
            self.hint.setText(
                translate(
                    "GoalSeek", "The largest (or smallest) value that still fits this many GPUs of the kind"
                )
            )
        else:
            figure = find_figure(str(self.figure_box.currentData()))
            self.op_box.setCurrentIndex(self.op_box.findData("<=" if figure.budget else ">="))
            self.value_edit.setPlaceholderText(_EXAMPLES[figure.unit])
            hint = translate("GoalSeek", "{description}; in {unit} (e.g. {example})")
            self.hint.setText(
                hint.format(
                    description=schema_text(figure.description),
                    unit=translate("GoalSeek", _UNIT_WORDS[figure.unit]),
                    example=_EXAMPLES[figure.unit],
                )
            )
        self._changed()

    def _changed(self) -> None:
        self.apply_button.setEnabled(False)
        self._timer.start()

    def _solve_as_typed(self) -> None:
        """Solve once the question changed; an empty target is where the dialog starts (and where
        clearing the value goes back to), nothing to refuse until the person asks for an answer."""
        if not self.fits_target and not self.value_edit.text().strip():
            self.solution, self._points = None, []
            self._clear_answer()
            return
        self.solve_now()

    def solve_now(self) -> None:
        """Ask core for the answer (Enter in the value asks); a question it cannot answer is said in
        one line."""
        self._timer.stop()
        self.solution, self._points = None, []
        if not self.fits_target and not self.value_edit.text().strip():
            self._show_problem(translate("GoalSeek", "Type the target value."))
            return
        try:
            self.solution = solve(
                self.document.architecture,
                self.document.scenario,
                self.field,
                self.target(),
                self.multiple_spin.value(),
                self.scaling_ffn,
            )
        except (ParamTallyError, ValidationError) as exc:
            self._show_problem(said_text(one_line(exc)))
            return
        self._show_solution(self.solution)

    # --- the answer -------------------------------------------------------------------------------

    def _show_problem(self, text: str) -> None:
        self._clear_answer()
        self.answer.setText(f"<span style='color:#C0392B'>⚠ {_escape(text)}</span>")

    def _clear_answer(self) -> None:
        """Nothing of the answer before stays: its column titles and 'Apply 42' would read as current."""
        self.answer.clear()
        self.table.clear()
        self.table.setRowCount(0)
        self.table.setColumnCount(0)
        self.apply_button.setEnabled(False)
        self.apply_button.setText(self._apply_text)

    def _columns(
        self, solution: Solution, points: list[Point], capacity: str | None
    ) -> list[tuple[str, str]]:
        """``capacity``: the usable bytes of every row's GPU, said once in the Per GPU title."""
        title = find_variable(solution.field, self.document.architecture).title
        columns = [("value", schema_text(title)), ("total", translate("GoalSeek", "Total parameters"))]
        if any(p.figures["active"] != p.figures["total"] for p in points):  # a mixture of experts
            columns.append(("active", translate("GoalSeek", "Active parameters")))
        if solution.target.gpu is not None:
            per_gpu = translate("GoalSeek", "Per GPU")
            per_gpu = (
                per_gpu
                if capacity is None
                else per_gpu + "\n" + translate("GoalSeek", "of {capacity}").format(capacity=capacity)
            )
            columns += [("per_gpu_bytes", per_gpu), *_FIT_COLUMNS[1:]]
        elif solution.target.name not in ("total", "active"):
            columns.append((solution.target.name, schema_text(find_figure(solution.target.name).title)))
        return [*columns, ("meets", translate("GoalSeek", "Meets the target"))]

    def _show_solution(self, solution: Solution) -> None:
        title = find_variable(solution.field, self.document.architecture).title
        neighbours = (solution.below, solution.point, solution.above)
        rows = [(role, point) for role, point in zip(_ROLES, neighbours, strict=True) if point is not None]
        points = [point for _, point in rows]
        cells, against = _bytes_cells(solution, points)
        goal = _escape(self._goal(solution, against))
        text = f"<b>{_escape(schema_text(title))} = {solution.value:,}</b> — {goal}"
        positions = self.document.architecture.max_positions
        if solution.field == "context" and positions and solution.value > positions:
            text += "<br>" + translate("GoalSeek", "Note: beyond the model's {positions} positions.").format(
                positions=f"{positions:,}"
            )
        if solution.scale_ffn:
            text += f"<br>{_escape(self._widths_text(solution))}"
        self.answer.setText(text)
        columns = self._columns(solution, points, against if solution.target.gpu is not None else None)
        self.table.clear()
        self.table.setColumnCount(len(columns))
        self.table.setRowCount(len(rows))
        self.table.setHorizontalHeaderLabels([translate("GoalSeek", header) for _, header in columns])
        self.table.setVerticalHeaderLabels([translate("GoalSeek", _ROLE_WORDS[role]) for role, _ in rows])
        for index, (key, _) in enumerate(columns):
            if key in ("per_gpu_bytes", "fits", "layout"):
                self.table.horizontalHeaderItem(index).setToolTip(schema_text(column_description(key)))
        for row, (role, point) in enumerate(rows):
            for column, (key, _) in enumerate(columns):
                item = QTableWidgetItem(cells[key][row] if key in cells else self._cell(point, key))
                if key not in ("layout", "fits", "meets"):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if role == "answer":
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.table.setItem(row, column, item)
        self._points = points
        self.table.selectRow([role for role, _ in rows].index("answer"))
        self.apply_button.setEnabled(True)
        self._show_every_column()

    def _show_every_column(self) -> None:
        """Widen the dialog (within its screen) until the table shows every column: a mixture of
        experts with a GPU target has six, and "Meets the target" was cut to "the t" at 860 pixels."""
        table = self.table
        header = table.horizontalHeader()
        wanted = sum(
            max(table.sizeHintForColumn(column), header.sectionSizeHint(column))
            for column in range(table.columnCount())
        )
        missing = wanted - table.viewport().width()
        if missing <= 0:
            return
        width = self.width() + missing
        screen = self.screen()
        if screen is not None:
            width = min(width, screen.availableGeometry().width())
        self.resize(max(width, self.width()), self.height())

    def _widths_text(self, solution: Solution) -> str:
        """The FFN widths the answer takes with it: 'FFN width 14,336 → 44,352'."""
        arch, scenario = self.document.architecture, self.document.scenario
        new_arch, new_scenario = solution.variant(arch, scenario)
        said = []
        for name in _WIDTHS:
            variable = find_variable(name, arch)
            try:
                before, after = variable.read(arch, scenario), variable.read(new_arch, new_scenario)
            except ParamTallyError:  # the model has none (or several) of these widths
                continue
            said.append(f"{schema_text(variable.title)} {before:,} → {after:,}")
        if not said:
            return ""
        kept = translate("GoalSeek", "{widths} (kept in proportion to the hidden size)")
        return kept.format(widths=translate("GoalSeek", ", ").join(said))

    def _goal(self, solution: Solution, threshold: str | None) -> str:
        """``threshold``: the target's bytes as the rows beside it read (exact when they are)."""
        target = solution.target
        if target.gpu is not None:
            count = target.count or solution.value
            return translate("GoalSeek", "fits {count} × {gpu}").format(count=count, gpu=target.gpu.name)
        figure = find_figure(target.name)
        op = "≥" if target.op == ">=" else "≤"
        return (
            f"{schema_text(figure.title)} {op} {threshold or figure_text(_threshold(solution), figure.unit)}"
        )

    def _cell(self, point: Point, key: str) -> str:
        if key == "value":
            return f"{point.value:,}"
        if key == "meets":
            return _yes_no(point.meets)
        value: Any = point.figures.get(key)
        if key == "fits":
            return _yes_no(bool(value))
        if key == "layout":
            return core_text(str(value))  # 'TP=2 × PP=3', 'single GPU'

        unit = "params" if key in ("total", "active") else find_figure(key).unit
        return figure_text(value, unit)

    # --- apply ------------------------------------------------------------------------------------

    def chosen(self) -> Point | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows or not self._points:
            return None
        return self._points[rows[0].row()]

    def _selection_changed(self) -> None:
        point = self.chosen()
        self.apply_button.setEnabled(point is not None)
        if point is not None and self.solution is not None:
            self.apply_button.setText(
                translate("GoalSeek", "&Apply {value}").format(value=f"{point.value:,}")
            )

    def apply(self) -> None:
        """Write the chosen value into the document as one undoable edit, and close."""
        if self._timer.isActive():
            self.solve_now()
        point, solution = self.chosen(), self.solution
        if point is None or solution is None:
            return
        document = self.document
        variable: Variable = solution.variable(document.architecture)
        try:
            arch, scenario = solution.variant(document.architecture, document.scenario, point.value)
        except (ParamTallyError, ValidationError) as exc:
            self._show_problem(said_text(one_line(exc)))
            return
        text = f"{schema_text(variable.title)} = {point.value:,}"
        if not document.apply_variant(
            arch, scenario, translate("GoalSeek", "Goal seek: {what}").format(what=text)
        ):
            refused = translate("GoalSeek", "{title}: the scenario refused {value}")
            self._show_problem(refused.format(title=schema_text(variable.title), value=f"{point.value:,}"))
            return
        self.applied = text
        self.accept()


def _bytes_cells(solution: Solution, points: list[Point]) -> tuple[dict[str, list[str]], str | None]:
    """The bytes column's rows (per GPU, or a memory target's figure), formatted together with what
    they are read against, whose text comes second: the GPU's usable bytes when every row shares
    them, or the budget. Rows either side of a boundary get their exact bytes, and so does it."""
    target = solution.target
    if target.gpu is not None:
        used = [point.figures["per_gpu_bytes"] for point in points]
        capacity = _shared_capacity(points)
        if capacity is not None:
            *texts, said = bytes_apart([*used, capacity])
            return {"per_gpu_bytes": texts}, said
        both = bytes_apart([*used, *(point.figures["capacity_bytes"] for point in points)])
        of = translate("GoalSeek", "{part} of {whole}")
        rows = [
            of.format(part=part, whole=whole)
            for part, whole in zip(both[: len(used)], both[len(used) :], strict=True)
        ]
        return {"per_gpu_bytes": rows}, None
    if find_figure(target.name).unit != "bytes":
        return {}, None
    *texts, said = bytes_apart([*(point.figures[target.name] for point in points), _threshold(solution)])
    return {target.name: texts}, said


def _threshold(solution: Solution) -> int | float:
    threshold = solution.target.threshold
    return int(threshold) if threshold.denominator == 1 else float(threshold)


def _shared_capacity(points: list[Point]) -> int | None:
    """The usable bytes per GPU of every point when they are one (the same GPU at one utilization
    cap): said once, in the column's title, it leaves the rows their figure."""
    capacities = {point.figures.get("capacity_bytes") for point in points}
    return capacities.pop() if len(capacities) == 1 else None


def _yes_no(yes: bool) -> str:
    return translate("GoalSeek", "yes") if yes else translate("GoalSeek", "no")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
