"""What a person arranged in the window besides the document, carried over when its content is
built anew (View → Language, ``MainWindow.retranslate``): the splitters, the tab in front, the
layer tree's selection and open rows, each pane's scroll position, the form's closed sections and
shown block, the charts' mode, the table's open rows, the GPU filter, the presets' filter, the
control the keys were in (else its pane), the block copied in the tree, and the choices made in
the Compare and Design space tabs (their named controls). The document itself (its model, history
and figures) is not part of it: the new widgets read the same one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLineEdit,
    QScrollBar,
    QSpinBox,
    QSplitter,
    QTabWidget,
    QWidget,
)

if TYPE_CHECKING:
    from paramtally.core.schema.group_addresses import FieldPath
    from paramtally.gui.main_window import MainWindow

__all__ = ["WindowState", "capture", "restore"]

RowKey = tuple["FieldPath", str | None]  # a layer tree row: its group and part


@dataclass(slots=True)
class WindowState:
    splitters: dict[str, QByteArray] = field(default_factory=dict)
    tab: int = 0
    tree_current: RowKey | None = None
    tree_selected: list[RowKey] = field(default_factory=list)
    tree_open: set[RowKey] = field(default_factory=set)
    scrolls: dict[str, tuple[int, int]] = field(default_factory=dict)  # pane → (across, down)
    form_block: str | None = None
    form_closed: set[str] = field(default_factory=set)  # the form's closed sections, by title
    chart_mode: Any = None
    table_open: set[Any] = field(default_factory=set)
    fits_only: bool = False
    gpu_filter: str = ""
    preset_filter: str = ""
    pane: int | None = None
    focus: str = ""  # the objectName of the control the keys were in (a form field's: its path)
    tree_copied: Any = None  # the block (or part) the tree would paste
    explore: dict[str, dict[str, Any]] = field(default_factory=dict)  # tab → control → value
    problem: Any = None  # the field whose refusal the status line says


def _splitters(window: MainWindow) -> dict[str, QSplitter]:
    found = {s.objectName(): s for s in (window.split, window.left, window.right_split)}
    if hasattr(window, "charts"):
        inner = window.charts.findChild(QSplitter)  # the bar beside the pie
        if inner is not None:
            found["chartsSplitter"] = inner
    return found


def _scrolled(window: MainWindow) -> dict[str, QAbstractScrollArea]:
    found: dict[str, QAbstractScrollArea] = {
        "form": window.form,
        "tree": window.tree,
        "memory": window.memory_scroll,
    }
    if hasattr(window, "table"):
        found["table"] = window.table  # type: ignore[assignment]
    if hasattr(window, "presets_browser"):
        found["presets"] = window.presets_browser.presets.list
    return found


def capture(window: MainWindow) -> WindowState:
    """What ``restore`` gives the window's new widgets back."""
    state = WindowState(tab=window.tabs.currentIndex())
    state.splitters = {name: splitter.saveState() for name, splitter in _splitters(window).items()}
    state.scrolls = {
        name: (area.horizontalScrollBar().value(), area.verticalScrollBar().value())
        for name, area in _scrolled(window).items()
    }
    tree, model = window.tree, window.tree.tree_model
    current = model.row_of(tree.currentIndex())
    state.tree_current = (current.group, current.part) if current is not None else None
    state.tree_selected = [
        (row.group, row.part)
        for index in tree.selectionModel().selectedRows()
        if (row := model.row_of(index)) is not None
    ]
    state.tree_open = {
        (row.group, row.part) for row in model.rows() if tree.isExpanded(model.find(row.group, row.part))
    }
    form = window.form
    state.form_block = form.block
    state.form_closed = {title for title, section in form.sections.items() if not section.isExpanded()}
    if hasattr(window, "charts"):
        state.chart_mode = window.charts.mode_box.currentData()
        state.table_open = window.table.open_paths()
    if hasattr(window, "memory"):
        state.fits_only = window.memory.fits_only.isChecked()
        state.gpu_filter = window.memory.gpu_filter.text()
    if hasattr(window, "presets_browser"):
        state.preset_filter = window.presets_browser.presets.filter.text()
    if hasattr(window, "pane_keys"):
        state.pane = window.pane_keys.current()
    focus = QApplication.focusWidget()
    if focus is not None and window.isAncestorOf(focus):
        state.focus = focus.objectName()
    state.tree_copied = window.tree.copied
    state.problem = window.problem_status.path
    for name, tab in _explore_tabs(window).items():
        if tab.built:
            state.explore[name] = {key: _value(control) for key, control in _controls(tab.view).items()}
    return state


def restore(window: MainWindow, state: WindowState) -> None:
    """Give the window's new widgets what ``capture`` took from the old ones."""
    for name, splitter in _splitters(window).items():
        if name in state.splitters:
            splitter.restoreState(state.splitters[name])
    window.tabs.setCurrentIndex(state.tab)
    _restore_tree(window, state)
    form = window.form
    if state.form_block is not None:
        form.show_block(state.form_block)
    for title, section in form.sections.items():
        if title in state.form_closed:
            section.collapse()
    if hasattr(window, "charts") and state.chart_mode is not None:
        window.charts.set_mode(state.chart_mode)
        window.table.open_rows(state.table_open)
    if hasattr(window, "memory"):
        window.memory.fits_only.setChecked(state.fits_only)
        window.memory.gpu_filter.setText(state.gpu_filter)
    if hasattr(window, "presets_browser"):
        window.presets_browser.presets.filter.setText(state.preset_filter)
    for name, area in _scrolled(window).items():
        if name in state.scrolls:
            across, down = state.scrolls[name]
            keep_scrolled(area.horizontalScrollBar(), across)
            keep_scrolled(area.verticalScrollBar(), down)
    window.tree.copied = state.tree_copied
    window.problem_status.say_again(state.problem)
    explore = window.explore
    for name, values in state.explore.items():
        view = _explore_tabs(window)[name].view  # built again, as it was
        controls = _controls(view)
        for key, value in values.items():
            if key in controls:
                _set_value(controls[key], value)
        if view is explore.compare_tab.view:
            explore.compare_view.refresh()
        else:
            explore.design_view.recompute()  # once, with every axis and range in place
    # Back in the control it was in, else its pane's first, without selecting its text as a key
    # that moves the focus does: the next key typed would replace the model's name (found by a QA pass).
    if not _focus_named(window, state.focus) and state.pane is not None and hasattr(window, "pane_keys"):
        window.pane_keys.go(state.pane, Qt.FocusReason.OtherFocusReason)


def _focus_named(window: MainWindow, name: str) -> bool:
    """Give the focus to the window's control named ``name`` that is to show; whether there was one."""
    if not name:
        return False
    for widget in window.findChildren(QWidget, name):
        if _to_show(widget, window) and widget.isEnabled() and widget.focusPolicy() != Qt.FocusPolicy.NoFocus:
            widget.setFocus(Qt.FocusReason.OtherFocusReason)  # Qt gives it once the widget shows
            return True
    return False


def _to_show(widget: QWidget, window: QWidget) -> bool:
    """Not hidden on purpose, nor in a widget that is (the old content, hidden till deleted). The new
    content is not visible yet: a layout shows the widgets it was given once the event loop runs."""
    hidden_on_purpose = Qt.WidgetAttribute.WA_WState_ExplicitShowHide
    at: QWidget | None = widget
    while at is not None and at is not window:
        if at.isHidden() and at.testAttribute(hidden_on_purpose):
            return False
        at = at.parentWidget()
    return at is window


def _restore_tree(window: MainWindow, state: WindowState) -> None:
    tree, model = window.tree, window.tree.tree_model
    for row in model.rows():
        key = (row.group, row.part)
        if row.kind != "part":
            tree.setExpanded(model.find(*key), key in state.tree_open)
    if state.tree_current is None:
        return
    current = model.find(*state.tree_current)
    rows = [model.find(*key) for key in state.tree_selected]
    if current.isValid():
        tree._select_rows([index for index in rows if index.isValid()] or [current], current)
    elif rows:
        first: QModelIndex = rows[0]
        tree._select_rows(rows, first)


def _explore_tabs(window: MainWindow) -> dict[str, Any]:
    return {"compare": window.explore.compare_tab, "design": window.explore.design_tab}


_CONTROLS = (QComboBox, QLineEdit, QSpinBox, QDoubleSpinBox, QCheckBox, QTabWidget, QSplitter)


def _controls(view: QWidget) -> dict[str, QWidget]:
    """A view's controls a person sets, by object name (not Qt's own parts, 'qt_spinbox_lineedit')."""
    return {
        widget.objectName(): widget
        for widget in view.findChildren(QWidget)
        if isinstance(widget, _CONTROLS) and widget.objectName() and not widget.objectName().startswith("qt_")
    }


def _value(control: QWidget) -> Any:
    if isinstance(control, QComboBox | QTabWidget):
        return control.currentIndex()  # the same entries in either language, in the same order
    if isinstance(control, QLineEdit):
        return control.text()
    if isinstance(control, QSpinBox | QDoubleSpinBox):
        return control.value()
    if isinstance(control, QCheckBox):
        return control.isChecked()
    assert isinstance(control, QSplitter)
    return control.saveState()


def _set_value(control: QWidget, value: Any) -> None:
    """Set quietly: the view draws once, after every control is set (``restore``)."""
    if isinstance(control, QTabWidget):
        control.setCurrentIndex(value)  # a page is what it shows, not a figure to draw
        return
    if isinstance(control, QSplitter):
        control.restoreState(value)
        return
    blocked = control.blockSignals(True)
    try:
        if isinstance(control, QComboBox):
            control.setCurrentIndex(value)
        elif isinstance(control, QLineEdit):
            control.setText(value)
        elif isinstance(control, QSpinBox | QDoubleSpinBox):
            control.setValue(value)
        elif isinstance(control, QCheckBox):
            control.setChecked(value)
    finally:
        control.blockSignals(blocked)


def keep_scrolled(bar: QScrollBar, value: int) -> None:
    """``bar`` at ``value`` now or, if its range does not reach it yet (the new widgets are laid out
    over the next turns of the event loop), as soon as it does; a bar that never reaches it (a
    window made smaller meanwhile) stays where Qt puts it."""
    bar.setValue(value)
    if value <= bar.maximum():
        return

    def reached(_low: int, high: int) -> None:
        if high >= value:
            bar.rangeChanged.disconnect(reached)
            bar.setValue(value)

    bar.rangeChanged.connect(reached)
