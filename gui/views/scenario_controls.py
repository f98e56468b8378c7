"""Controls of the memory scenario, generated from ``core.memory.scenario.Scenario``'s fields.

The field → editor mapping is the form's (gui/form): a field's type and limits give the widget
and its range, its title the label, its description the tooltip, so a new Scenario field
appears here without GUI code. Two fields get a better editor than their type implies: ``gpu``
picks from the GPU catalog and an optional choice (``quant``) offers "none". A value typed goes to
``document.type_scenario_value`` (undoable; a spin-box drag merges into one step): the document
keeps a refused value as a draft (``scenario_drafts``, shown in its field until it applies) and,
while serving, lays a GPU count out as the command line's ``--gpus`` does, keeping the TP, PP and
EP set by hand (``layout_marks``). The controls only show.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSize, Signal
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QLayout, QWidget

from paramtally.core.memory.fit import LAYOUT_FIELDS
from paramtally.core.memory.gpus import load_catalog
from paramtally.core.memory.scenario import Mode, Scenario, mode_only_fields, unused_fields
from paramtally.core.schema.field_specs import FieldSpec, model_fields
from paramtally.gui.form.editors import ComboBox, Editor, IntSpinBox, NumberBox, make_editor
from paramtally.gui.form.field_frame import framed, mark, marked
from paramtally.gui.i18n import said_text, schema_text
from paramtally.gui.views.deferred import DeferredRefresh

if TYPE_CHECKING:
    from paramtally.gui.document import Document

__all__ = ["ScenarioControls"]

NONE_TEXT = "none"
WIDE = {"gpu"}  # the GPU's name is long: it takes a whole line, as the check-box rows do
_SPACING = 8
_RETYPED = LAYOUT_FIELDS | {"gpus"}  # typed again at the value shown, they still lay the model out


def _editor_for(spec: FieldSpec, parent: QWidget) -> Editor | None:
    if spec.name == "gpu":
        catalog = load_catalog()
        ids, names = tuple(gpu.id for gpu in catalog), tuple(gpu.name for gpu in catalog)
        editor: Editor | None = ComboBox(ids, names, parent)
        editor.setToolTip(schema_text(spec.description))  # type: ignore[union-attr]
        return editor
    editor = make_editor(spec, parent)
    if isinstance(editor, ComboBox) and spec.optional:
        editor.insertItem(0, schema_text(NONE_TEXT), None)
    return editor


class ScenarioControls(QWidget):
    """A grid of label + editor pairs; each editor's objectName is ``scenario.<field>``.

    Each editor sits in a frame that turns red with a refusal or amber with advice, as the
    architecture form's fields do (the frame, not the native editor, is styled).

    The grid has as many label + editor columns as the width allows, up to ``columns``: a narrow
    window gets one column instead of controls cut off at the right edge. Fields that matter only
    in the other mode (training's optimizer while serving, serving's generated tokens while
    training) are left out of the grid, so a narrow window keeps the chart in reach.
    """

    problems_changed = Signal()  # a field turned red or lost its red frame
    hints_changed = Signal()  # a field's advice (amber) came or went

    def __init__(self, document: Document, columns: int = 2, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("scenarioControls")
        self._document = document
        self.editors: dict[str, Editor] = {}
        self.frames: dict[str, QFrame] = {}  # each editor's, marked red or amber
        self.labels: dict[str, QLabel] = {}
        self._wide: set[str] = set()
        self.unread: set[str] = set()  # fields whose text is no number (red with why; kept as typed)
        self.problems: dict[str, str] = {}  # field → why it is red
        self.hints: dict[str, str] = {}  # field → the document's advice at it (amber; a red one outranks it)
        self.max_columns = columns
        self.columns = 0
        self._shown: frozenset[str] = frozenset()  # the fields of the scenario's mode, in the grid
        self._scenario_shown: Scenario | None = None  # the scenario the fields were last set from
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setHorizontalSpacing(_SPACING)
        self._grid.setVerticalSpacing(0)  # the frames keep 2 px around each editor
        # The width decides the columns, so the grid must not hold the widget at its widest.
        self._grid.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        for spec in model_fields(Scenario):
            editor = _editor_for(spec, self)
            if editor is None:
                continue
            editor.setObjectName(f"scenario.{spec.name}")
            label = QLabel(schema_text(spec.label), self)  # the field's title in core.memory.scenario
            label.setToolTip(schema_text(spec.description))
            label.setBuddy(editor)
            if spec.kind == "choices" or spec.name in WIDE:  # a row of check boxes takes a whole line
                self._wide.add(spec.name)
            editor.committed.connect(lambda value, merge, name=spec.name: self._commit(name, value, merge))
            if isinstance(editor, NumberBox):
                editor.unread.connect(lambda reason, name=spec.name: self._show_unread(name, reason))
            if spec.name in _RETYPED:
                self._watch_retyping(spec.name, editor)
            self.editors[spec.name] = editor
            self.frames[spec.name] = framed(editor, self)
            self.labels[spec.name] = label
        self.setMinimumWidth(self.width_for(1))
        self._shown = self._fields_of(document.scenario.mode)
        self.set_columns(1)
        self.deferred = DeferredRefresh(self, self._follow)  # on a hidden tab: when it is shown
        document.changed.connect(self.deferred.request)
        document.invalid.connect(self._show_problem)
        document.validity.connect(self._show_problem)
        document.hints_changed.connect(self._show_hints)
        document.source_changed.connect(self._opened)
        self.refresh()
        for path, reason in document.problems.items():  # a saved scenario this model cannot run
            self._show_problem(path, reason)

    def width_for(self, columns: int) -> int:
        """The width ``columns`` label + editor pairs need, every editor at its natural width."""
        label = max(label.sizeHint().width() for label in self.labels.values())
        editor = max(f.sizeHint().width() for name, f in self.frames.items() if name not in self._wide)
        wide = max((self.frames[name].sizeHint().width() for name in self._wide), default=0)
        pairs = columns * (label + editor) + (2 * columns - 1) * _SPACING
        # One column puts a wide editor under its label; more columns give it a row beside its label.
        return max(pairs, wide if columns == 1 else label + _SPACING + wide)

    def set_columns(self, columns: int, force: bool = False) -> None:
        if columns == self.columns and not force:
            return
        grid = self._grid
        for name, frame in self.frames.items():
            grid.removeWidget(self.labels[name])
            grid.removeWidget(frame)
            for widget in (self.labels[name], frame, self.editors[name]):
                widget.setVisible(name in self._shown)
        for column in range(2 * max(self.columns, columns)):
            grid.setColumnStretch(column, 0)
        cell = 0
        for name, frame in self.frames.items():
            if name not in self._shown:
                continue
            wide = name in self._wide
            if wide and cell % columns:
                cell += columns - cell % columns
            row, column = divmod(cell, columns)
            if wide and columns == 1:
                grid.addWidget(self.labels[name], row, 0, 1, 2)
                grid.addWidget(frame, row + 1, 0, 1, 2)
                cell += 2
                continue
            grid.addWidget(self.labels[name], row, 2 * column)
            grid.addWidget(frame, row, 2 * column + 1, 1, 2 * columns - 1 if wide else 1)
            cell += columns if wide else 1
        for column in range(columns):
            grid.setColumnStretch(2 * column + 1, 1)
        self.columns = columns
        self.updateGeometry()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.deferred.shown()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        width = event.size().width()
        fitting = [n for n in range(1, self.max_columns + 1) if self.width_for(n) <= width]
        self.set_columns(max(fitting, default=1))

    def sizeHint(self) -> QSize:
        return QSize(self.width_for(self.max_columns), self._grid.sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        return QSize(self.width_for(1), self._grid.minimumSize().height())

    def hasHeightForWidth(self) -> bool:
        return False

    # --- edits -----------------------------------------------------------------------------------

    def _commit(self, name: str, value: Any, merge: bool) -> None:
        """Give the document a value typed; a refused one stays in its field, red with its reason,
        until it is replaced or another value typed makes it valid."""
        document = self._document
        waiting = {*document.scenario_drafts, name}
        document.type_scenario_value(name, value, merge)
        for applied in waiting - set(document.scenario_drafts):
            self._mark(applied, "")
        self.refresh()

    def _watch_retyping(self, name: str, editor: Editor) -> None:
        """A GPU count, TP, PP or EP typed again at the size in force changes no value, so the editor
        commits nothing; it is typed all the same: the count lays the model out again, a size becomes
        the person's (as the command line's flag would), and both may change the other sizes."""
        if not isinstance(editor, IntSpinBox):
            return
        line = editor.lineEdit()
        edited: list[str] = []  # the texts typed since the last value committed
        line.textEdited.connect(edited.append)
        editor.committed.connect(lambda _value, _merge: edited.clear())  # a new value: committed

        def finished() -> None:
            value = editor.value()
            if (
                edited
                and editor.parse(edited[-1]) == value  # not a box emptied and put back
                and name not in self._document.scenario_drafts
                and value == getattr(self._document.scenario, name)
            ):
                self._commit(name, value, False)
            edited.clear()

        editor.editingFinished.connect(finished)

    def _opened(self) -> None:
        """Another model: its fields show its scenario (the values refused for the last model went
        with it, never this model's scenario)."""
        self._scenario_shown = None
        self.deferred.request()

    def _fields_of(self, mode: str) -> frozenset[str]:
        """The fields shown: those of ``mode`` the open model has a use for."""
        other: Mode = "training" if mode == "inference" else "inference"
        return frozenset(self.editors) - mode_only_fields(other) - unused_fields(self._document.architecture)

    def _follow(self) -> None:
        """After a document change: an architecture edit keeps the scenario (the same object), so
        with no refused value waiting the fields already show it, unless the model gained or lost
        the encoder some fields are for."""
        scenario = self._document.scenario
        moved = scenario is not self._scenario_shown or self._fields_of(scenario.mode) != self._shown
        if self._document.scenario_drafts or moved:
            self.refresh()
        else:
            self._show_hints()  # the advice may follow the model too (its maximum positions)

    def refresh(self) -> None:
        """Show the document's scenario; a pending (refused) value keeps its field."""
        scenario = self._scenario_shown = self._document.scenario
        pending = self._document.scenario_drafts
        shown = self._fields_of(scenario.mode)
        if shown != self._shown:
            self._shown = shown
            self.set_columns(self.columns, force=True)
        for name, editor in self.editors.items():
            value = pending.get(name, getattr(scenario, name))
            if editor.value() != value:
                editor.blockSignals(True)
                editor.set_value(value)
                editor.blockSignals(False)
                self._show_unread(name, "")  # the text typed is gone
        self._show_hints()

    def _show_problem(self, path: tuple[str | int, ...], reason: str) -> None:
        if len(path) != 2 or path[0] != "scenario":
            return
        name = str(path[1])
        typed = self._document.scenario_drafts
        if name not in self.editors or name in self.unread or (not reason and name in typed):
            return  # a refused value stays red until it is replaced or applied; text no number too
        self._mark(name, reason)

    def _show_unread(self, name: str, reason: str) -> None:
        """Red with ``reason`` while the field's text is no number; once it reads, what the document
        says of the field again."""
        if reason:
            self.unread.add(name)
            self._mark(name, reason)
        elif name in self.unread:
            self.unread.discard(name)
            self._mark(name, self._document.problems.get(("scenario", name), ""))

    def _show_hints(self) -> None:
        """Amber at the fields the document has advice for (a context beyond the model's positions)."""
        hints = {
            str(path[1]): advice
            for path, advice in self._document.hints.items()
            if len(path) == 2 and path[0] == "scenario" and path[1] in self.editors
        }
        if hints == self.hints:
            return
        changed = hints.keys() | self.hints.keys()
        self.hints = hints
        for name in changed:
            self._paint(name)
        self.hints_changed.emit()

    def _mark(self, name: str, reason: str) -> None:
        if reason:
            self.problems[name] = reason
        else:
            self.problems.pop(name, None)
        self._paint(name)
        self.problems_changed.emit()

    def _paint(self, name: str) -> None:
        """Red with the reason when refused, else amber with the advice, else plain."""
        reason, advice = self.problems.get(name, ""), self.hints.get(name, "")
        text = said_text(reason or advice)
        state = "error" if reason else "hint" if advice else ""
        mark(self.frames[name], state)
        spec_tip = self.labels[name].toolTip()
        self.editors[name].setToolTip(f"⚠ {text}\n\n{spec_tip}" if text else spec_tip)

    def field_state(self, name: str) -> str:
        """How a field is marked: 'error' (red), 'hint' (amber) or ''."""
        return marked(self.editors[name])
