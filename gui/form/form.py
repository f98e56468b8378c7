"""The architecture form, generated from the schema: one collapsible section per nested model.

The sections follow the open architecture itself, recursively: the model's own fields, its
embeddings, each stack, each named base block (its mixer and FFN — a kind switch and the fields
of the kind in force — its norms, and what it has of cross-attention, a parallel mixer, LoRA or an
adapter), the MTP modules and the head. Labels come from ``Field(title=…)``, visibility from
``json_schema_extra``; nothing here names a field. When the architecture's shape changes (another
kind, another block) the sections are built anew.

A file may name thousands of base blocks: their sections cost ~35 ms and 2 MB each (5,000 blocks
ran out of memory, issue 30). Past ``BLOCKS_IN_FULL`` the form shows one of them, picked in a
"Base blocks" section (the selected layer group's by default), so its cost does not grow with them.

Each editor is found by its field path (a tuple); its objectName is that path joined with dots.
An edit goes to the document; the form only writes back what the document holds, with signals
blocked, so there is no feedback loop (napari's binding pattern). A refused edit is shown at its
field: a red frame and the reason under the editor; the figures elsewhere stay. So is text that
is not a number at all (``1e-3`` for a whole number): it stays in its field, red with the reason,
and the document never sees it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPalette, QShowEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QFormLayout,
    QFrame,
    QLabel,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from paramtally.core.count.layer_tree_rows import BLOCK_PARTS, stack_rows
from paramtally.core.editing.edits import DERIVED, FieldPath, get_value
from paramtally.core.errors import ParamTallyError, format_loc
from paramtally.core.schema import Architecture, Block
from paramtally.core.schema.field_specs import FieldSpec, field_spec, kind_title, model_fields
from paramtally.core.schema.field_visibility import applies, has_parts
from paramtally.core.schema.group_addresses import (
    field_origin,
    group_at,
    group_block,
    split_value_path,
)
from paramtally.gui.document import Document
from paramtally.gui.form.editors import Editor, NumberBox, make_editor
from paramtally.gui.form.ffn_width import ffn_width_button, ffn_width_path
from paramtally.gui.form.field_frame import AMBER, RED, framed, mark, marked
from paramtally.gui.form.section import Section
from paramtally.gui.i18n import said_text, schema_text, translate
from paramtally.gui.shown_text import MESSAGE_CHARS, shown

__all__ = ["BLOCKS_IN_FULL", "ArchitectureForm"]

TOP_TITLE = "Model"
BLOCKS_IN_FULL = 8  # more named blocks than this: one at a time (T5's two, a hybrid's few show all)
BLOCK_NAME_CHARS = 40  # of a block's name in a section's title
CHOOSER_TITLE = "Base blocks"


@dataclass
class _Row:
    path: FieldPath
    spec: FieldSpec
    editor: Editor
    error: QLabel | None  # made when the field first shows an error
    layout: QFormLayout
    frame: QFrame
    section: Section
    prefix: FieldPath  # the path of the model the field belongs to
    # The model the value and the row's visibility were last read from, and that value. Models
    # are frozen and an edit hands on the ones it did not touch: the same object, the same value.
    read: tuple[BaseModel, object] | None = None
    painted: tuple[str, str] = ("", "")  # (state, message) last shown: a row made plain is plain


@dataclass(frozen=True)
class _Plan:
    """A section to build: its title, the path of its model, the model's fields to show."""

    title: str
    prefix: FieldPath
    specs: tuple[FieldSpec, ...]


def _error_label(frame: QFrame, path: FieldPath) -> QLabel:
    """The reason line under a field's frame, made the first time the field is refused."""
    field = frame.parentWidget()
    layout = field.layout() if field is not None else None
    assert field is not None and layout is not None
    error = QLabel(field)
    error.setObjectName(f"{format_loc(path)}.error")
    error.setWordWrap(True)
    layout.addWidget(error)
    return error


_LABEL_CHARS = 16  # the label column's least widest, in average characters (96 pixels in DejaVu Sans 9pt)


def _label_width(label: QLabel) -> int:
    """The width ``label`` needs in its font, upright or italic, whichever is wider."""
    italic = QFont(label.font())
    italic.setItalic(True)
    extra = QFontMetrics(italic).horizontalAdvance(label.text()) - label.fontMetrics().horizontalAdvance(
        label.text()
    )
    return label.sizeHint().width() + max(extra, 0)


def _kind_spec(spec: FieldSpec) -> FieldSpec | None:
    """The kind switch of a part: a mixer's or FFN's choices are the registry's kinds, a part of one
    kind (cross-attention) has that one; each is shown by title (a preset file names them by kind,
    as the tooltip says). None for a part not tagged by a kind (LoRA, the norms)."""
    models = spec.models or ((spec.model,) if spec.model is not None else ())
    tagged = [model for model in models if "kind" in model.model_fields]
    if not tagged or len(field_spec("kind", tagged[0].model_fields["kind"]).choices) != 1:
        return None  # no kind, or a choice within the part (the norms' LayerNorm or RMSNorm)
    choices = tuple(model.model_fields["kind"].default for model in models)
    labels = tuple(kind_title(model) for model in models)
    titles = ", ".join(f"{schema_text(title)} = {kind}" for kind, title in zip(choices, labels, strict=True))
    return FieldSpec(
        name="kind",
        kind="choice",
        label="Kind",
        choices=choices,
        choice_labels=labels,
        description=translate("Form", "{description} In a preset file: {titles}.").format(
            description=schema_text(spec.description), titles=titles
        ),
    )


def plan(arch: Architecture, group: FieldPath | None = None, block: str | None = None) -> list[_Plan]:
    """The sections the form shows for ``arch``, in order: the selected layer group's block (its
    fields under ``(*group, "override", …)``), then the model's own fields and the rest; of the
    named base blocks, only ``block`` when one is given."""
    plans: list[_Plan] = []
    if group is not None:
        _plan_model(group_block(arch, group), (*group, "override"), group_title(arch, group), plans)
    _plan_model(arch, (), TOP_TITLE, plans, only=block)
    return plans


def group_title(arch: Architecture, group: FieldPath) -> str:
    """'Layer group: layers 0–31 (dense)' — the selected group's section, named as the tree names it."""
    row = next((row for row in stack_rows(arch) if row.group == group and row.part is None), None)
    return f"Layer group: {row.text}" if row is not None else "Layer group"


def _plan_model(
    model: BaseModel,
    prefix: FieldPath,
    title: str,
    plans: list[_Plan],
    kind: FieldSpec | None = None,
    only: str | None = None,
) -> None:
    own: list[FieldSpec] = [kind] if kind else []
    nested: list[tuple[FieldSpec, Any]] = []
    for spec in model_fields(type(model)):
        if not spec.in_form or (kind and spec.name == "kind"):
            continue
        # Needs one of its sibling parts (a vocabulary needs a language stack); their presence is in
        # the form's shape, so the sections are planned again when it changes.
        if not has_parts(spec, model):
            continue
        value = getattr(model, spec.name)
        if spec.kind in ("model", "union", "mapping", "models"):
            if value:  # an optional part that is absent (or no items): nothing to edit
                nested.append((spec, value))
        else:
            own.append(spec)
    own += [field_spec(path[-1], derived.info) for path, derived in DERIVED.items() if path[:-1] == prefix]
    if own:
        plans.append(_Plan(title, prefix, tuple(own)))
    for spec, value in nested:
        path = (*prefix, spec.name)
        if spec.kind == "mapping":
            for key in (only,) if only is not None else value:
                heading = f"{spec.item_label} «{shown(key, BLOCK_NAME_CHARS)}»"
                _plan_model(value[key], (*path, key), heading, plans)
            continue
        if spec.kind == "models":  # a list of parts (the projector's steps): one section each
            kind = _kind_spec(spec) if spec.models else None
            for index, item in enumerate(value):
                _plan_model(item, (*path, index), f"{title} · {spec.item_label} {index + 1}", plans, kind)
            continue
        nested_title = prefix and (prefix[0] == "blocks" or "override" in prefix)
        heading = f"{title} · {spec.label}" if nested_title else spec.label
        _plan_model(value, path, heading, plans, _kind_spec(spec))


def _kinds(block: Block) -> tuple[str, ...]:
    def kind(part: BaseModel | None) -> str:
        return "" if part is None else str(getattr(part, "kind", "present"))

    return tuple(kind(getattr(block, name)) for name in BLOCK_PARTS if name != "norms")


def _shown_block(arch: Architecture, chosen: str | None, group: FieldPath | None = None) -> str | None:
    """The one named block the form shows when there are too many to show all (None: all shown):
    ``chosen`` while it exists, else the one ``group`` starts from, else the main stack's."""
    if len(arch.blocks) <= BLOCKS_IN_FULL:
        return None
    if chosen in arch.blocks:
        return chosen
    base = _base_name(arch, group) if group is not None else None
    return base if base is not None else arch.main_stack.block


def _base_name(arch: Architecture, group: FieldPath) -> str | None:
    """The named block ``group`` starts from: its own, its enclosing group's, or its stack's."""
    node = group_at(arch, group)
    if node.block:
        return node.block
    if len(group) > 3:
        return _base_name(arch, group[:-2])
    stack = getattr(arch, str(group[0]), None)
    return getattr(stack, "block", None)


def _shape(arch: Architecture, group: FieldPath | None, block: str | None) -> tuple[object, ...]:
    """What decides the sections and rows (not the values): the stacks and MTP present, per base
    block shown (and the selected group's block) the kinds in force and the optional parts present,
    and the group's title. Cheap, checked on every edit."""
    names = tuple(arch.blocks) if block is not None else ()  # the chooser's list
    shown_blocks = arch.blocks.items() if block is None else ((block, arch.blocks[block]),)
    blocks = (names, tuple((name, _kinds(b)) for name, b in shown_blocks))
    present = tuple(getattr(arch, name) is not None for name in ("encoder", "decoder", "mtp", "vision"))
    frontends = tuple(stack.frontend is not None for _, stack in arch.stacks)
    if arch.vision is not None and arch.projector is not None:  # the tower's parts, the projector's steps
        projector = arch.projector
        steps = (tuple(step.kind for step in projector.steps),)
        steps += tuple(tuple(step.kind for step in branch.steps) for branch in projector.branches)
        frontends += (arch.vision.tiles is not None, *steps)
    selected = (group, _kinds(group_block(arch, group)), group_title(arch, group)) if group else None
    return (blocks, present, frontends, selected)


def _exists(arch: Architecture, group: FieldPath) -> bool:
    try:
        group_block(arch, group)
    except ParamTallyError:
        return False
    return True


class ArchitectureForm(QScrollArea):
    """Editors for every scalar field of the architecture, grouped by nested model."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("architectureForm")
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.document = document
        self._rows: dict[FieldPath, _Row] = {}
        self._errors: dict[FieldPath, str] = {}  # path → reason, as the document said
        self._unread: dict[FieldPath, str] = {}  # path → why the text in its field is no number
        self._hints: dict[FieldPath, str] = {}
        self.sections: dict[str, Section] = {}
        self._shape: tuple[object, ...] = ()
        self.group: FieldPath | None = None  # the layer group whose block is shown first
        self.selection: tuple[FieldPath, ...] = ()  # the layer groups selected in the tree
        self._selection_note: QLabel | None = None
        self.block: str | None = None  # the named block shown when there are too many for all
        self.block_chooser: QComboBox | None = None
        self._resets: dict[FieldPath, QToolButton] = {}
        self._model_labels: list[QLabel] = []  # the model's own fields' titles, the widest allowed
        self._refit = False
        self._build()
        document.changed.connect(self.refresh)
        document.invalid.connect(self.show_error)
        document.validity.connect(self.show_error)
        document.hints_changed.connect(self._show_hints)
        self.refresh()
        # Refused before this form was built (View → Language builds it anew): red at once.
        for path, reason in document.problems.items():
            self.show_error(path, reason)

    # --- building --------------------------------------------------------------------------------

    def _build(self) -> None:
        arch = self.document.architecture
        focused = next((path for path, row in self._rows.items() if row.editor.hasFocus()), None)
        self._rows, self.sections, labels = {}, {}, []
        self._unread = {}  # new editors show the document's values
        body = QWidget(self)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(2)
        self._resets = {}
        self._selection_note = QLabel(body)
        self._selection_note.setObjectName("selectionNote")
        self._selection_note.setWordWrap(True)
        layout.addWidget(self._selection_note)
        self._show_selection_note()
        if self.group is not None and getattr(group_at(arch, self.group), "pattern", ()):
            layout.addWidget(self._pattern_note())
        chooser_focused = self.block_chooser is not None and self.block_chooser.hasFocus()
        self.block = _shown_block(arch, self.block, self.group)
        self.block_chooser = None
        for section in plan(arch, self.group, self.block):
            if self.block is not None and self.block_chooser is None and section.prefix[:1] == ("blocks",):
                labels.append(self._add_block_chooser(layout, arch, self.block))
            added = self._add_section(layout, section)
            if section.prefix == ():
                self._model_labels = added
            labels += added
        layout.addStretch(1)
        scroll = self.verticalScrollBar().value()
        old = self.takeWidget()
        if old is not None:  # later: the edit that changed the shape may come from one of its editors
            old.hide()
            old.deleteLater()
        self.setWidget(body)
        self.verticalScrollBar().setValue(scroll)
        # One label column for all sections, so editors line up across them; wide enough for each
        # label in italics too (a group's inherited fields), so no row grows when one turns italic.
        # No wider than the model's own titles (or _LABEL_CHARS): a longer one ('Frozen correction
        # bias' of a MoE group) goes over two lines rather than widening the form past its column
        # (1024×700 with the presets open).
        width = min(max((_label_width(label) for label in labels), default=0), self._label_room())
        for label in labels:
            label.setWordWrap(True)
            label.setFixedWidth(width)
        self._shape = _shape(arch, self.group, self.block)
        for path in [path for path in self._rows if split_value_path(path)[0] is not None]:
            self._resets[path] = self._reset_button(path)
        width_path = ffn_width_path(arch)
        if width_path in self._rows:
            self.add_button(width_path, ffn_width_button(self.document, width_path))
        for path in self._errors.keys() & self._rows.keys():
            self._paint(self._rows[path])
        body.installEventFilter(self)
        self._fit_width()
        if focused in self._rows:  # a kind switched by keys: the keys go on to the new switch
            self._rows[focused].editor.setFocus()
        elif chooser_focused and self.block_chooser is not None:
            self.block_chooser.setFocus()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # The body's layout asks again whenever a row grows (new rows shown, a label turned
        # italic, a reason under a field): fit the width once that layout has settled.
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest and not self._refit:
            self._refit = True
            QTimer.singleShot(0, self, self._fit_width)  # dropped if the form is gone by then
        return False

    def showEvent(self, event: QShowEvent) -> None:
        # Fit once the rows are laid out as shown, before the first paint: until the window is
        # shown its hidden rows keep stale sizes (an FFN width's button counted 0 pixels), and a
        # form widened only after that paint pushed the panes beside it (1024×700, presets open).
        self._fit_width()
        super().showEvent(event)

    def _label_room(self) -> int:
        model = max((_label_width(label) for label in self._model_labels), default=0)
        return max(model, self.fontMetrics().averageCharWidth() * _LABEL_CHARS)

    def _fit_width(self) -> None:
        """Never narrower than the body needs, with the vertical scroll bar beside it: a group's
        rows end in a ↺ each, which went under the scroll bar once a wider row came (LoRA's
        targets after Ctrl+L), as the width was measured before the new rows were shown."""
        self._refit = False
        body = self.widget()
        if body is None:
            return
        scroll = self.verticalScrollBar().sizeHint().width() + 2 * self.frameWidth()
        self.setMinimumWidth(max(self.minimumWidth(), body.minimumSizeHint().width() + scroll))

    def _pattern_note(self) -> QLabel:
        """What a pattern group's fields are: the block its groups start from, which a group with a
        value of its own keeps (a change here looked as if it reached every layer of the pattern)."""
        note = QLabel(
            translate(
                "Form",
                "A pattern: these fields are the block its groups start from. A change here reaches each "
                "group inside that has no value of its own there; select a group to edit it alone.",
            )
        )
        note.setObjectName("patternNote")
        note.setWordWrap(True)
        return note

    def _add_block_chooser(self, body: QVBoxLayout, arch: Architecture, block: str) -> QLabel:
        """'Base blocks (5,000)': which named block's sections follow, picked from a list."""
        section = Section(f"{CHOOSER_TITLE} ({len(arch.blocks):,})", self)
        content = QWidget(section)
        layout = QFormLayout(content)
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        layout.setContentsMargins(6, 2, 6, 6)
        chooser = QComboBox(content)
        chooser.setObjectName("blockChooser")
        # Its width from a fixed number of characters, not from measuring every name.
        chooser.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        chooser.setMinimumContentsLength(12)
        for name in arch.blocks:
            chooser.addItem(shown(name, BLOCK_NAME_CHARS), name)
        chooser.setCurrentIndex(chooser.findData(block))
        chooser.setToolTip(
            translate(
                "Form",
                "This model names {count} base blocks: the form shows one at a time. Selecting "
                "a layer group shows the block it starts from.",
            ).format(count=f"{len(arch.blocks):,}")
        )
        chooser.currentIndexChanged.connect(lambda index: self.show_block(chooser.itemData(index)))
        label = QLabel(translate("Form", "&Shown"))
        label.setBuddy(chooser)
        label.setToolTip(chooser.toolTip())
        layout.addRow(label, chooser)
        section.addWidget(content)
        self.sections[section.text()] = section
        self.block_chooser = chooser
        body.addWidget(section)
        return label

    def show_block(self, name: str) -> None:
        """Show the named base block ``name`` (when the form shows one at a time)."""
        if name == self.block or name not in self.document.architecture.blocks:
            return
        self.block = name
        self._build()
        self.refresh()

    def _add_section(self, body: QVBoxLayout, plan_: _Plan) -> list[QLabel]:
        section = Section(plan_.title, self)
        content = QWidget(section)
        layout = QFormLayout(content)
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        layout.setContentsMargins(6, 2, 6, 6)
        labels = [
            label for spec in plan_.specs if (label := self._add_row(section, layout, plan_.prefix, spec))
        ]
        section.addWidget(content)
        section.expand(animate=False)
        self.sections[plan_.title] = section
        body.addWidget(section)
        return labels

    def _add_row(
        self, section: Section, layout: QFormLayout, prefix: FieldPath, spec: FieldSpec
    ) -> QLabel | None:
        editor = make_editor(spec)
        if editor is None:
            return None
        path = (*prefix, spec.name)
        editor.setObjectName(format_loc(path))
        field = QWidget()
        box = QVBoxLayout(field)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(1)
        frame = framed(editor, field)  # and any button added next to it (add_button)
        box.addWidget(frame)
        label = QLabel(schema_text(spec.label))
        label.setToolTip(schema_text(spec.description))
        layout.addRow(label, field)
        editor.committed.connect(lambda value, merge, p=path: self._commit(p, value, merge))
        if isinstance(editor, NumberBox):
            editor.unread.connect(lambda reason, p=path: self._show_unread(p, reason))
        self._rows[path] = _Row(path, spec, editor, None, layout, frame, section, prefix)
        return label

    # --- binding ---------------------------------------------------------------------------------

    def editor(self, path: FieldPath) -> Editor:
        return self._rows[path].editor

    def paths(self) -> list[FieldPath]:
        """Every field the form edits, in the order shown."""
        return list(self._rows)

    def add_button(self, path: FieldPath, button: QAbstractButton) -> None:
        """Put ``button`` right of the field's editor (a helper that computes its value)."""
        frame = self._rows[path].frame
        button.setParent(frame)
        layout = frame.layout()
        assert layout is not None
        layout.addWidget(button)

    def _commit(self, path: FieldPath, value: Any, merge: bool) -> None:
        group, inside = split_value_path(path)
        if group is not None:  # the selected layer groups' own value: core says which it reaches
            self.document.set_groups_value(self._edited_groups(group), inside, value)
            return
        self.document.set_field(path, value, merge_key=format_loc(path) if merge else None)

    # --- the selected layer group ------------------------------------------------------------

    def show_selection(self, groups: tuple[FieldPath, ...]) -> None:
        """The groups selected in the tree: a value typed into the shown group's block goes to each
        of them that has the field (as the tree's own edits do), and the form says so above it."""
        before = self._selection_count()
        self.selection = tuple(groups)
        if (self._selection_count() > 1) != (before > 1):
            # Built anew with the note in place: shown in a body already laid out, it left the rows
            # below squeezed over each other until the next resize (Qt's scroll area fits its body
            # to it on a resize only).
            self._build()
            self.refresh()
        else:
            self._show_selection_note()

    def _edited_groups(self, group: FieldPath) -> list[FieldPath]:
        """The group shown first, then the other selected groups that still exist."""
        arch = self.document.architecture
        others = [g for g in self.selection if g != group and _exists(arch, g)]
        return [group, *others] if group in self.selection else [group]

    def _selection_count(self) -> int:
        return len(self._edited_groups(self.group)) if self.group is not None else 0

    def _show_selection_note(self) -> None:
        note, count = self._selection_note, self._selection_count()
        if note is None:
            return
        note.setText(
            translate(
                "Form",
                "{count} layer groups selected: a value typed here goes to each of them that has the field "
                "(Experts: only the MoE groups); ↺ resets the group shown alone.",
            ).format(count=count)
        )
        note.setVisible(count > 1)

    def show_group(self, group: FieldPath | None) -> None:
        """Show ``group``'s block first (None: no group); its inherited fields are marked as such."""
        if group == self.group:
            return
        self.group = group
        arch = self.document.architecture
        if group is not None and len(arch.blocks) > BLOCKS_IN_FULL and _exists(arch, group):
            self.block = _base_name(arch, group)  # the block it starts from
        self._build()
        self.refresh()
        if group is not None:
            self.verticalScrollBar().setValue(0)

    def _reset_button(self, path: FieldPath) -> QToolButton:
        button = QToolButton()
        button.setObjectName(f"{format_loc(path)}.reset")
        button.setText("↺")
        button.setAutoRaise(True)
        group, inside = split_value_path(path)
        assert group is not None
        button.clicked.connect(lambda: self.document.reset_group_value(group, inside))
        self.add_button(path, button)
        return button

    def origin(self, path: FieldPath) -> str:
        """'inherited', 'own' or 'own kind' for a field of the selected group ('' elsewhere)."""
        group, inside = split_value_path(path)
        if group is None:
            return ""
        return field_origin(self.document.architecture, group, inside)

    def _show_origin(self, row: _Row, arch: Architecture) -> None:
        """An inherited field reads grey and italic; one of the group's own can be reset."""
        group, inside = split_value_path(row.path)
        assert group is not None
        origin = field_origin(arch, group, inside)
        label = row.layout.labelForField(row.frame.parentWidget())
        if isinstance(label, QLabel):
            font = label.font()
            font.setItalic(origin == "inherited")
            label.setFont(font)
            label.setEnabled(origin != "inherited")
        resettable = origin == "own" or (origin == "own kind" and inside[-1] == "kind")
        resettable = resettable or row.path in self.document.drafts  # ↺ takes a typed value back too
        button = self._resets[row.path]
        button.setEnabled(resettable)
        tips = {
            "inherited": translate(
                "Form", "Inherited from the base block; type a value to give this group its own"
            ),
            "own": translate("Form", "This group's own value: ↺ takes the base block's back"),
            "own kind": translate(
                "Form", "Part of this group's own kind: reset the kind to take the base block's back"
            ),
        }
        typed = row.path in self.document.drafts
        button.setToolTip(
            translate("Form", "↺ takes back the value typed, which does not fit") if typed else tips[origin]
        )
        row.editor.setProperty("origin", origin)

    def refresh(self) -> None:
        """Write the document's values into the editors (only those that differ); a field with a
        draft (a typed value that does not fit yet) keeps showing the draft. A new shape (another
        kind, another block) builds the sections anew. A field whose model is the one it was last
        read from keeps the value and visibility read then (a 48-group model has ~50 fields)."""
        arch = self.document.architecture
        if self.group is not None and not _exists(arch, self.group):
            self.group = None  # deleted or moved away: the form shows the model alone again
        if _shape(arch, self.group, _shown_block(arch, self.block, self.group)) != self._shape:
            self._build()
        drafts = self.document.drafts
        block = group_block(arch, self.group) if self.group is not None else None
        models: dict[FieldPath, BaseModel] = {}
        for row in self._rows.values():
            group, inside = split_value_path(row.path)
            if group is not None:
                value = drafts[row.path] if row.path in drafts else get_value(block, inside)  # type: ignore[arg-type]
                self._show_origin(row, arch)
                self._show_value(row, value)
                self._show_row(row, arch, block)
                continue
            if row.path in drafts:
                row.read = None
                self._show_value(row, drafts[row.path])
                self._show_row(row, arch)
                continue
            if row.prefix not in models:
                models[row.prefix] = get_value(arch, row.prefix)
            model = models[row.prefix]
            if row.read is not None and row.read[0] is model:
                if row.spec.visible_when_stack:  # the stacks may have changed around the block
                    self._show_row(row, arch)
                continue  # an editor's value changes only by a commit, which makes a new model or a draft
            row.read = (model, get_value(arch, row.path))
            self._show_value(row, row.read[1])
            self._show_row(row, arch)
        self._show_hints()

    def _show_value(self, row: _Row, value: Any) -> None:
        if row.editor.value() != value:
            row.editor.blockSignals(True)
            row.editor.set_value(value)
            row.editor.blockSignals(False)
            if self._unread.pop(row.path, None) is not None:  # the text typed is gone
                self._paint(row)

    def _show_unread(self, path: FieldPath, reason: str) -> None:
        """Red with ``reason`` while the field's text is no number ('' once it is one again)."""
        if reason:
            self._unread[path] = reason
        elif self._unread.pop(path, None) is None:
            return
        self._paint(self._rows[path])

    @staticmethod
    def _show_row(row: _Row, arch: Architecture, block: Block | None = None) -> None:
        """Shown only while the field applies (core's rule, as the report lists it): its
        ``visible_when`` siblings read from the model (for a group's field, from the group's
        ``block``), its ``visible_when_stack`` for a stack holding the block."""
        if not row.spec.visible_when and not row.spec.visible_when_stack:
            return
        inside = split_value_path(row.path)[1][:-1]
        model = get_value(arch, row.prefix) if block is None else get_value(block, inside)
        row.layout.setRowVisible(row.frame.parentWidget(), applies(row.spec, model, arch, row.prefix))

    def _show_hints(self) -> None:
        hints = self.document.hints
        for path in set(hints) | set(self._hints):
            if hints.get(path) != self._hints.get(path) and path in self._rows:
                self._hints[path] = hints.get(path, "")
                self._paint(self._rows[path])
        self._hints = hints

    def show_error(self, path: FieldPath, reason: str) -> None:
        """Mark a field invalid with its reason, or clear it when ``reason`` is empty."""
        self._errors[path] = reason
        row = self._rows.get(path)
        if row is not None:
            self._paint(row)

    def _paint(self, row: _Row) -> None:
        """Red with the reason when refused (or its text is no number), else amber with the hint,
        else plain."""
        reason = self._unread.get(row.path) or self._errors.get(row.path, "")
        hint = "" if reason else self._hints.get(row.path, "")
        text = shown(said_text(reason or hint), MESSAGE_CHARS, lines=True)  # it may quote what was typed
        state = "error" if reason else "hint" if hint else ""
        if row.painted == (state, text):
            return  # every edit clears the edited field's error, most often one it did not have
        row.painted = (state, text)
        mark(row.frame, state)
        if row.error is None and text:
            row.error = _error_label(row.frame, row.path)
        if row.error is not None:
            palette = row.error.palette()
            palette.setColor(QPalette.ColorRole.WindowText, QColor(RED if reason else AMBER))
            row.error.setPalette(palette)
            row.error.setText(text[:1].upper() + text[1:])  # a sentence under the field
            row.error.setVisible(bool(text))
        tip = schema_text(row.spec.description)
        row.editor.setToolTip(f"{tip}\n\n⚠ {text}" if text else tip)

    def field_state(self, path: FieldPath) -> str:
        """How a field is marked: 'error' (red), 'hint' (amber) or ''."""
        return marked(self._rows[path].editor)

    def error_text(self, path: FieldPath) -> str:
        """The reason a field is refused ('' when it is not)."""
        if self._rows[path].error is None:
            return ""
        return self._unread.get(path) or self._errors.get(path, "")

    def hint_text(self, path: FieldPath) -> str:
        """The hint shown at a field ('' when none, or while the field is refused)."""
        return "" if self._errors.get(path) or self._unread.get(path) else self._hints.get(path, "")
