"""The one document every editor changes and every view reads: an architecture, a scenario, a history.

Qt-free, so scripts, tests and the explore tools use the same document the window does. Data
flows one way: an edit → an undoable ``Edit`` on the history → ``core`` validates and recomputes
→ ``changed`` → whoever listens redraws. The last valid figures always stay.

A typed value the schema refuses is not lost: it stays a draft (``drafts``), announced with the
reason (``invalid``), and every later edit is tried together with the drafts
(``core.editing.typed_drafts.settle``): as soon as a combination validates it is applied. The state an undo
step swaps is (architecture, drafts), so undoing right after a refused value takes the draft
back, and undoing an edit that applied drafts brings them back as drafts.

The scenario has drafts too (``scenario_drafts``: a TP the GPUs cannot split, kept in its field
until a later value makes it fit) and, while serving, the layout sizes the person set by hand
(``layout_marks``, the command line's flags given): ``type_scenario_value`` is a value typed into a
scenario field, laid out as ``paramtally memory --gpus`` lays a count out. A variant made elsewhere
(``apply_variant``: a goal-seek answer, a design-space cell) and a stack made from a pattern
(``apply_pattern``) are one edit each, however many fields they change.

Reads never announce anything: every event is emitted where the state changes. Events
(``core.editing.events.Event``, named in ``EVENTS`` with their arguments): ``changed()``,
``invalid(path, reason)``, ``validity(path, "")`` when a field's error is gone, ``about_to_open()``
before another model is opened, ``source_changed()`` when another model is opened or this one is
saved under a new name, ``hints_changed()`` when the scenario changed (its advice may have).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from paramtally.core.count.breakdown import ParamReport
from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing import layer_ops
from paramtally.core.editing.edits import FieldPath, with_value
from paramtally.core.editing.events import Event
from paramtally.core.editing.history import Edit, History, HistoryLike
from paramtally.core.editing.layout_marks import Layout, Marks, kept_marks, layout_of, typed_layout
from paramtally.core.editing.typed_drafts import problems_of, settle
from paramtally.core.errors import FieldError, ParamTallyError, field_problems, one_line
from paramtally.core.schema import Architecture, StackRole
from paramtally.core.schema.advice import hints
from paramtally.core.schema.field_titles import field_title
from paramtally.core.schema.group_addresses import group_block, groups_reached
from paramtally.core.text import say

if TYPE_CHECKING:
    from paramtally.core.memory.estimate import MemoryReport
    from paramtally.core.memory.fit import SetupFit
    from paramtally.core.memory.flops import FlopsReport
    from paramtally.core.memory.scenario import Scenario
    from paramtally.core.memory.serving import ServingReport

__all__ = ["EVENTS", "SCENARIO", "Document"]

_State = tuple[Architecture, dict[FieldPath, Any]]  # the architecture and the drafts typed over it
_ScenarioState = tuple["Scenario", Marks]  # the scenario and the layout sizes set by hand in it
SCENARIO: FieldPath = ("scenario",)  # scenario fields are named under it, e.g. ("scenario", "tp")
# The document's events and how many arguments each passes (the window makes a Qt signal of each).
EVENTS: dict[str, int] = {
    "changed": 0,
    "invalid": 2,
    "validity": 2,
    "about_to_open": 0,
    "source_changed": 0,
    "hints_changed": 0,
}


class Document:
    def __init__(
        self,
        architecture: Architecture,
        label: str = "",
        preset_id: str | None = None,
        scenario: dict[str, Any] | None = None,
        history: HistoryLike | None = None,
    ) -> None:
        self.history: HistoryLike = history if history is not None else History()
        self.changed, self.invalid, self.validity = Event(), Event(), Event()
        self.about_to_open, self.source_changed, self.hints_changed = Event(), Event(), Event()
        self._architecture = architecture
        # Made on first use: core.memory.estimate and its scenario models load only when asked for.
        self._scenario: Scenario | None = None
        self._scenario_data = scenario  # as saved in the preset file, judged when first used
        self.source_label = label or architecture.name
        self.preset_id = preset_id  # the preset (built-in or user) this model was opened from or saved as
        # The model as opened: its opening scenario tells the fields the person set from those that
        # follow the model, when another model is opened (core.editing.scenario_carry).
        self._opened_architecture = architecture
        self.opening_note = ""  # what opening this model did to the scenario, in one line
        # Models opened so far: a view keeping its last valid figures keeps them for this model only.
        self.opened = 0
        self._cache: dict[str, tuple[Any, str]] = {}  # figures by name, with why they were refused
        self._drafts: dict[FieldPath, Any] = {}
        self._problems: dict[FieldPath, str] = {}  # field path → reason, for every field refused now
        self._scenario_drafts: dict[str, Any] = {}  # scenario field → a value typed that is refused
        self._marks: Marks = {}  # TP, PP and EP set by hand (at the sizes set) since the model opened
        self._said: tuple[Layout, str] | None = None  # what the last GPU count typed laid out, in words

    # --- state -------------------------------------------------------------------------------

    @property
    def architecture(self) -> Architecture:
        return self._architecture

    @property
    def scenario(self) -> Scenario:
        """The memory scenario: the one saved with the model, else the one the model opened with.

        Made when first asked for (a saved one that this version cannot read is skipped with a
        warning then, as the command line does); it is the same scenario whenever that is."""
        if self._scenario is None:
            self._scenario = self._saved_scenario()
        return self._scenario

    @property
    def hints(self) -> dict[FieldPath, str]:
        """Advice by field path (sizes that run badly on GPUs, a context beyond the positions)."""
        return hints(self._architecture, self._judged_scenario())

    def _judged_scenario(self) -> Scenario | None:
        """The scenario advice and refusals judge; None while it is not made and would be the one
        the model opened with, on the model as opened: that one has neither (``opening_scenario``
        keeps the context within the positions, every size at 1), so nothing loads to say so."""
        if self._scenario is None and self._scenario_data is None:
            if self._architecture is self._opened_architecture:
                return None
        return self.scenario

    def _saved_scenario(self) -> Scenario:
        """The scenario the preset was saved with; the opening one (and a notice) if it does not fit."""
        from paramtally.core.memory.scenario import opening_scenario, saved_scenario_data

        data, self._scenario_data = self._scenario_data, None
        return saved_scenario_data(data, self.source_label) or opening_scenario(self._opened_architecture)

    def scenario_data(self) -> dict[str, Any]:
        """The scenario as a preset file keeps it (every field written out)."""
        return self.scenario.model_dump(mode="json")

    @property
    def drafts(self) -> dict[FieldPath, Any]:
        """Values typed that do not fit yet, by field path (shown in their fields, not counted)."""
        return dict(self._drafts)

    @property
    def scenario_drafts(self) -> dict[str, Any]:
        """Values typed into scenario fields that were refused, by field name, in the order typed:
        shown in their fields, tried again with the next value typed there."""
        return dict(self._scenario_drafts)

    @property
    def layout_marks(self) -> dict[str, Any]:
        """TP, PP and EP set by hand (field → size), which a GPU count typed keeps."""
        return dict(self._marks)

    @property
    def layout_note(self) -> str:
        """What the last GPU count (or EP) typed did to the layout, in words, while that layout is in
        force ("4 GPUs: laid out as TP 4, as the GPU table does"); "" otherwise."""
        if self._said is None or self._scenario is None:
            return ""
        layout, text = self._said
        return text if layout_of(self._scenario) == layout else ""

    @property
    def problems(self) -> dict[FieldPath, str]:
        """Why each refused field is refused, by field path; a scenario this model cannot run says
        so at the scenario field whose rule it breaks."""
        return self._problems | self._scenario_problems()

    def _scenario_problems(self) -> dict[FieldPath, str]:
        scenario = self._judged_scenario()
        if scenario is None:
            return {}
        from paramtally.core.memory.scenario import check_scenario

        try:
            check_scenario(self._architecture, scenario)
        except ValidationError as exc:
            return {(*SCENARIO, *where): reason for where, reason in field_problems(exc)}
        return {}

    @property
    def dirty(self) -> bool:
        return not self.history.is_clean()

    # --- results (computed in core, cached until the next change) -----------------------------

    @property
    def report(self) -> ParamReport:
        return count_parameters(self._architecture)

    @property
    def memory(self) -> MemoryReport | None:
        from paramtally.core.memory.estimate import estimate_memory

        return self._cached("memory", estimate_memory)  # type: ignore[no-any-return]

    @property
    def flops(self) -> FlopsReport | None:
        from paramtally.core.memory.flops import estimate_flops

        return self._cached("flops", estimate_flops)  # type: ignore[no-any-return]

    @property
    def serving(self) -> ServingReport | None:
        """Serving figures of the scenario's own setup; None when training (or refused)."""
        from paramtally.core.memory.serving import estimate_serving

        return self._cached("serving", estimate_serving)  # type: ignore[no-any-return]

    @property
    def setups(self) -> tuple[SetupFit, ...]:
        from paramtally.core.memory.fit import fit_setups

        fits = self._cached("setups", fit_setups)
        return tuple(fits) if fits is not None else ()

    @property
    def figures_refusal(self) -> str:
        """Why figures asked for since the last change were refused, where no scenario field says
        it (``problems`` does: a TP the heads refuse); "" when none was."""
        return next((reason for _, reason in self._cache.values() if reason), "")

    def _cached(self, key: str, function: Callable[[Architecture, Scenario], Any]) -> Any:
        """``function(architecture, scenario)``, once per change; None when refused (said by
        ``problems`` at the scenario's field, or by ``figures_refusal``)."""
        if key not in self._cache:
            try:
                self._cache[key] = (function(self._architecture, self.scenario), "")
            except ValidationError as exc:
                said = self.problems
                problems = [((*SCENARIO, *where), reason) for where, reason in field_problems(exc)]
                unsaid = [reason for where, reason in problems if said.get(where) != reason]
                self._cache[key] = (None, unsaid[0] if unsaid else "")
            except (ParamTallyError, ValueError) as exc:
                self._cache[key] = (None, str(exc))
        return self._cache[key][0]

    def title_of(self, path: FieldPath) -> str:
        """The field at ``path`` as the form titles it ('Blocks › default › FFN width')."""
        if path[: len(SCENARIO)] == SCENARIO:
            return field_title(path[len(SCENARIO) :], self.scenario)
        if "override" in path:  # a layer group's own value: titled from the group's block
            at = path.index("override")
            try:
                block = group_block(self._architecture, path[:at])
            except ParamTallyError:
                block = None
            group = field_title(path[:at], self._architecture)
            inside = path[at + 1 :]  # none: the group's block as a whole (a tree edit)
            return f"{group} › {field_title(inside, block)}" if inside else group
        return field_title(path, self._architecture)

    # --- edits of the architecture -------------------------------------------------------------

    def set_field(self, path: FieldPath, value: Any, merge_key: str | None = None, keep: bool = True) -> bool:
        """Change one architecture field as one undo step; False when refused.

        A refused value is kept as a draft (``keep``) and applied with a later edit that makes
        it fit; without ``keep`` (a field no form shows) it is only reported.
        """
        return self._set_fields({path: value}, merge_key, keep)

    def _set_fields(
        self, values: dict[FieldPath, Any], merge_key: str | None = None, keep: bool = True, what: str = ""
    ) -> bool:
        """``set_field`` for several fields typed as one (a value given to several layer groups):
        one undo step, named ``what`` when given; False unless all of them apply."""
        drafts = {other: v for other, v in self._drafts.items() if other not in values}
        drafts.update(values)
        settled = settle(self._architecture, drafts)
        refused = [path for path in values if path in settled.pending]
        if refused and not keep:
            for path in refused:
                self.report_problem(path, settled.problems.get(path, "refused"))
            return False
        named = ", ".join(self.title_of(where) for where in settled.applied)
        first = next(iter(values))
        text: str
        if refused:
            text = say("Type {title} (not applied yet)", title=self.title_of(first))
        else:
            text = what or say("Set {named}", named=named)
        self._push(self._set_state, self._current, (settled.model, settled.pending), text, merge_key)
        return not refused

    def set_architecture(self, architecture: Architecture, text: str, drop: FieldPath | None = None) -> None:
        """Replace the whole architecture as one undo step (structure edits: the layer tree, a
        pattern); drafts that now fit go in with it (but the one at ``drop``, taken back)."""
        self._push(self._set_state, self._current, self._settled(architecture, drop), text, None)

    def _settled(self, architecture: Architecture, drop: FieldPath | None = None) -> _State:
        drafts = {path: value for path, value in self._drafts.items() if path != drop}
        settled = settle(architecture, drafts)
        return settled.model, settled.pending

    def edit_architecture(
        self,
        change: Callable[[Architecture], Architecture],
        text: str,
        path: FieldPath,
        drop: FieldPath | None = None,
    ) -> bool:
        """Apply a pure edit of the architecture as one undo step; a refusal is said at ``path``
        (or at the field the schema names) and changes nothing. A draft at ``drop`` is dropped."""
        try:
            arch = change(self._architecture)
        except ValidationError as exc:
            problems = field_problems(exc)
            self.report_problem(path, problems[0][1] if problems else one_line(exc))
            return False
        except FieldError as exc:
            self.report_problem(path, exc.reason)
            return False
        except ParamTallyError as exc:
            self.report_problem(path, one_line(exc))
            return False
        self._clear_error(path)
        self.set_architecture(arch, text, drop)
        return True

    def apply_pattern(self, stack: StackRole, text: str) -> bool:
        """Make ``stack`` from the pattern ``text`` (``core.editing.patterns``: "[mamba2 ×7,
        attention] × 4"), as one undo step; a line that cannot be read is said at the stack."""
        from paramtally.core.editing.patterns import stack_from_pattern

        return self.edit_architecture(
            lambda arch: stack_from_pattern(arch, stack, text)[1],
            say("Make the {stack} from a pattern", stack=stack),
            (stack, "layers"),
        )

    def set_group_value(self, group: FieldPath, block_path: FieldPath, value: Any) -> bool:
        """Give a layer group (``("decoder", "layers", 2)``, or inside a pattern) its own value of a
        block field (``("mixer", "sliding_window")``); one undo step. A value equal to what the
        group inherits is no change of its own; a refused one is kept as a draft, as in any field."""
        return self.set_field((*group, "override", *block_path), value)

    def set_groups_value(self, groups: Sequence[FieldPath], block_path: FieldPath, value: Any) -> bool:
        """A value typed into the form with several layer groups selected (the first the one the form
        shows): given to every group it reaches (``core.schema.group_addresses.groups_reached``:
        those whose block has the field, meaning the same), as one undo step that names how many."""
        reached = groups_reached(self._architecture, groups, block_path)
        if len(list(dict.fromkeys(groups))) <= 1 or not reached:
            return self.set_group_value(groups[0], block_path, value)
        title = field_title(block_path, group_block(self._architecture, reached[0]))
        paths = {(*group, "override", *block_path): value for group in reached}
        title = title.split(" › ")[-1]
        if len(reached) == 1:
            return self._set_fields(paths, what=say("Set {title} on 1 group", title=title))
        return self._set_fields(paths, what=say("Set {title} on {n} groups", title=title, n=len(reached)))

    def reset_group_value(self, group: FieldPath, block_path: FieldPath) -> bool:
        """The group follows its base block again for that field, and a value typed there that did
        not fit is dropped (one undo step)."""
        where = (*group, "override", *block_path)
        title = self.title_of(where)

        def change(arch: Architecture) -> Architecture:
            try:
                return layer_ops.without_group_value(arch, group, block_path)
            except ParamTallyError:
                if where in self._drafts:  # a part of the group's own kind: only the typed value goes
                    return arch
                raise

        return self.edit_architecture(change, f"Reset {title}", where, drop=where)

    # --- edits of the scenario -----------------------------------------------------------------

    def set_scenario_values(self, values: dict[str, Any], merge_key: str | None = None) -> bool:
        """Change several scenario fields at once as one undo step (GPUs with the TP and PP core chose
        for them; values refused alone that fit together); False, with the reasons, when refused.

        Accepted, it clears every scenario field's error, also when nothing changed (the value a
        person typed back was the one in force).
        """
        return self._set_scenario_values(values, merge_key)

    def _set_scenario_values(
        self,
        values: dict[str, Any],
        merge_key: str | None = None,
        marks: Marks | None = None,
        drafts: dict[str, Any] | None = None,
    ) -> bool:
        """``set_scenario_values``, leaving the layout sizes set by hand at ``marks`` (by default
        those the values leave in place) and the scenario's drafts at ``drafts`` once accepted."""
        before = self.scenario
        after = self._scenario_after(values, self._architecture)
        if after is None:
            return False
        if drafts is not None:
            self._scenario_drafts = drafts
        for path in [where for where in self._problems if where[:1] == SCENARIO]:
            if path[1:] and path[1] not in self._scenario_drafts:
                self._clear_error(path)
        marks = kept_marks(self._marks, after) if marks is None else marks
        if after == before:
            self._marks = marks  # a size typed again at the value in force: the person's from now on
            return True
        # The undo menu names what the step changes (a count's layout sets TP, PP and EP, some
        # of them unchanged), in the form's titles ('Set GPUs, Tensor parallel').
        changed = [name for name in values if getattr(after, name) != getattr(before, name)] or list(values)
        named = ", ".join(self.title_of((*SCENARIO, name)) for name in changed)
        self._push(
            self._set_scenario,
            (before, self._marks),
            (after, marks),
            say("Set {named}", named=named),
            merge_key,
        )
        return True

    def _scenario_after(
        self, values: dict[str, Any], architecture: Architecture, say: bool = True
    ) -> Scenario | None:
        """The scenario with ``values``, if ``architecture`` can run it; None if not (with the
        reasons said at the fields when ``say``)."""
        from paramtally.core.memory.estimate import estimate_memory

        before, paths = self.scenario, [(*SCENARIO, name) for name in values]
        try:
            after = type(before).model_validate(before.model_dump() | values)
            estimate_memory(architecture, after)  # a scenario this model cannot run is refused
        except ValidationError as exc:
            for path in paths if say else ():
                self._refuse(path, exc, prefix=SCENARIO)
            return None
        except (ParamTallyError, KeyError, TypeError, ValueError) as exc:
            for path in paths if say else ():
                self.report_problem(path, one_line(exc))
            return None
        return after

    def set_scenario_field(self, name: str, value: Any, merge_key: str | None = None) -> bool:
        """Change the scenario field ``name`` as one undo step; False, with the reason, when refused."""
        from paramtally.core.memory.estimate import estimate_memory

        before, path = self.scenario, (*SCENARIO, name)
        try:
            after = with_value(before, (name,), value)
            estimate_memory(self._architecture, after)  # a scenario this model cannot run is refused
        except ValidationError as exc:
            self._refuse(path, exc, prefix=SCENARIO)
            return False
        except (ParamTallyError, KeyError, TypeError, ValueError) as exc:
            self.report_problem(path, one_line(exc))
            return False
        self._clear_error(path)
        marks = kept_marks(self._marks, after)
        self._push(
            self._set_scenario,
            (before, self._marks),
            (after, marks),
            say("Set {named}", named=self.title_of(path)),
            merge_key,
        )
        return True

    def type_scenario_value(self, name: str, value: Any, merge: bool = False) -> bool:
        """A value typed into the scenario field ``name`` (``merge``: a spin box dragged, one step).

        Tried with the values typed before it that were refused (``scenario_drafts``), as one undo
        step; else alone, and then those again. While serving, a GPU count (or a TP, PP, EP) is laid
        out as ``paramtally memory --gpus`` lays it out, the TP, PP and EP set by hand kept
        (``layout_marks``). A value refused stays a draft, its reason at its field, until it is
        typed over or a later value makes it fit. True when it applied."""
        key = f"scenario.{name}" if merge else None
        self._scenario_drafts[name] = value  # a draft while it is tried: its refusal is said as one
        pending = dict(self._scenario_drafts)
        if self._type_values(pending, key, {}):
            return True
        if len(pending) > 1 and self._type_values({name: value}, key, _without(pending, name)):
            self._type_values(self.scenario_drafts, None, {})
            return True
        return False

    def _type_values(self, values: dict[str, Any], key: str | None, drafts_after: dict[str, Any]) -> bool:
        """Set ``values`` typed with the layout a count gives them; the drafts are ``drafts_after``
        once accepted."""
        typed = typed_layout(self._architecture, self.scenario, values, self._marks)
        said = self._said
        if typed.said is not None:  # before the edit: the memory tab redraws its notes on it
            self._said = typed.said
        if not self._set_scenario_values(typed.changes, key, typed.marks, drafts_after):
            self._said = said
            return False
        return True

    def apply_variant(self, architecture: Architecture, scenario: Scenario, text: str) -> bool:
        """Load a variant core made (a goal-seek answer, a design-space cell): the architecture and
        the scenario fields it differs in, as ONE undo step named ``text``; False (the reasons said
        at the scenario's fields) when that architecture cannot run the scenario: then only the
        architecture changes."""
        before = self.scenario
        values = {
            name: value for name, value in scenario.model_dump().items() if getattr(before, name) != value
        }
        if architecture == self._architecture:
            return not values or self.set_scenario_values(values)
        if not values:
            self.set_architecture(architecture, text)
            return True
        state = self._settled(architecture)
        after = self._scenario_after(values, state[0], say=False)
        if after is None:  # the architecture alone; then why the scenario cannot follow it
            self._push(self._set_state, self._current, state, text, None)
            self._scenario_after(values, self._architecture)
            return False
        whole = (state, (after, kept_marks(self._marks, after)))
        self._push(self._set_whole, (self._current, (before, self._marks)), whole, text, None)
        return True

    # --- the model itself ----------------------------------------------------------------------

    def load(
        self,
        architecture: Architecture,
        label: str,
        preset_id: str | None = None,
        scenario: dict[str, Any] | None = None,
    ) -> None:
        """Open another model: no undo across files, no drafts from the last one. The scenario saved
        with a preset comes back with it (a saved one this version cannot read is skipped with a
        warning, before ``source_changed``); without one, what the person set in the current scenario
        carries over and what follows from the model is the new model's
        (``core.editing.scenario_carry``), said in ``opening_note``."""
        self.about_to_open.emit()
        before = self._said_problems()
        self.history.clear()
        self.opened += 1
        self.source_label, self.preset_id = label, preset_id
        self.opening_note = ""
        if scenario is not None:
            self._opened_architecture, self._scenario, self._scenario_data = architecture, None, scenario
            self.opening_note = "scenario as saved with it"
            self._scenario = self._saved_scenario()  # judged now: a notice of it is the opening's
        elif self._scenario is not None:
            self._scenario = self._carried_scenario(architecture, self._scenario)
        else:  # never asked for: the last model's saved scenario is not this one's
            self._scenario_data = None
        self._opened_architecture = architecture
        self._scenario_drafts, self._marks, self._said = {}, {}, None
        self._architecture, self._drafts = architecture, {}
        self._changed(before, scenario_changed=True)
        self.history.set_clean()
        self.source_changed.emit()

    def _carried_scenario(self, architecture: Architecture, scenario: Scenario) -> Scenario:
        from paramtally.core.editing.scenario_carry import carry_scenario
        from paramtally.core.memory.scenario import opening_scenario

        carried = carry_scenario(scenario, opening_scenario(self._opened_architecture), architecture)
        self.opening_note = carried.note
        return carried.scenario

    def set_source(self, label: str, preset_id: str | None) -> None:
        """This model is now ``label`` (saved as or renamed to the preset ``preset_id``)."""
        self.source_label, self.preset_id = label, preset_id
        self.source_changed.emit()

    def report_problem(self, path: FieldPath, reason: str) -> None:
        """Say why an edit at ``path`` is refused, until the next change."""
        self._problems[path] = reason
        self.invalid.emit(path, reason)

    # --- internals -----------------------------------------------------------------------------

    @property
    def _current(self) -> _State:
        return (self._architecture, self._drafts)

    def _push(
        self, apply: Callable[[Any], None], before: Any, after: Any, text: str, key: str | None
    ) -> None:
        if after == before:
            return
        self.history.push(Edit(apply, before, after, text, key))

    def _said_problems(self) -> dict[FieldPath, str]:
        """The problems said so far: ``problems`` without making the scenario to judge it."""
        return self._problems | (self._scenario_problems() if self._scenario is not None else {})

    def _set_state(self, state: _State) -> None:
        before = self._said_problems()
        self._architecture, drafts = state
        self._drafts = dict(drafts)
        self._changed(before)

    def _set_scenario(self, state: _ScenarioState) -> None:
        before = self._said_problems()
        self._scenario, marks = state
        self._marks = dict(marks)
        self._changed(before, scenario_changed=True)

    def _set_whole(self, state: tuple[_State, _ScenarioState]) -> None:
        before = self._said_problems()
        (self._architecture, drafts), (self._scenario, marks) = state
        self._drafts, self._marks = dict(drafts), dict(marks)
        self._changed(before, scenario_changed=True)

    def _changed(self, before: dict[FieldPath, str], scenario_changed: bool = False) -> None:
        """Results are stale; refusals of the last edit are gone; drafts are judged anew, and
        whether the scenario still fits the model. ``before``: the problems said until now."""
        self._cache.clear()
        problems = problems_of(self._architecture, self._drafts) if self._drafts else {}
        for name in self._scenario_drafts:  # a refused scenario value keeps its reason while typed
            where = (*SCENARIO, name)
            problems.setdefault(where, self._problems.get(where) or before.get(where) or "refused")
        self._problems = problems
        after = self.problems
        self.changed.emit()
        if scenario_changed:
            self.hints_changed.emit()
        for path in [path for path in before if path not in after]:
            self.validity.emit(path, "")
        for path, reason in after.items():
            self.invalid.emit(path, reason)

    def _refuse(self, path: FieldPath, exc: ValidationError, prefix: FieldPath = ()) -> None:
        problems = [((*prefix, *where) if where else path, reason) for where, reason in field_problems(exc)]
        for where, reason in problems:
            self.report_problem(where, reason)
        if path not in {where for where, _ in problems}:
            # The rule broken lives at another field (TP vs the heads): say it at both.
            self.report_problem(path, problems[0][1] if problems else one_line(exc))

    def _clear_error(self, path: FieldPath) -> None:
        if self._problems.pop(path, None) is not None:
            self.validity.emit(path, "")


def _without(values: dict[str, Any], name: str) -> dict[str, Any]:
    return {other: value for other, value in values.items() if other != name}
