"""Where the explore views join the main window: two tabs beside the figures and an Explore menu.

The tabs' views are built the first time they are shown (pyqtgraph, the sweep and the GPU
setups of every column cost nothing until then), and each refreshes only while shown. The
pinned columns live here, so pinning works before the compare tab was ever opened. The tabs are
in the window's first paint (``add_explore``), the menu's entries follow it (``add_explore_menu``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QKeySequence, QShowEvent
from PySide6.QtWidgets import QMainWindow, QMenu, QTabWidget, QVBoxLayout, QWidget

from paramtally.gui.explore.pins import Pins
from paramtally.gui.i18n import translate

if TYPE_CHECKING:
    from paramtally.gui.document import Document
    from paramtally.gui.explore.compare_view import CompareView
    from paramtally.gui.explore.design_space import DesignSpaceView

__all__ = ["Explore", "LazyTab", "add_explore", "add_explore_menu"]


class LazyTab(QWidget):
    """A tab page that builds its view the first time it is shown (or asked for)."""

    def __init__(self, build: Callable[[], QWidget], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._build = build
        self._view: QWidget | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)

    @property
    def built(self) -> bool:
        return self._view is not None

    @property
    def view(self) -> QWidget:
        if self._view is None:
            self._view = self._build()
            layout = self.layout()
            assert layout is not None
            layout.addWidget(self._view)
        return self._view

    def showEvent(self, event: QShowEvent) -> None:
        self.view  # noqa: B018 - built on first show
        super().showEvent(event)


class Explore(QObject):
    """The pinned columns, the two tabs and the Explore menu's actions of one window."""

    def __init__(
        self, window: QMainWindow, document: Document, tabs: QTabWidget, pins: Pins | None = None
    ) -> None:
        super().__init__(window)
        self.window, self.document, self.tabs = window, document, tabs
        self.pins = pins if pins is not None else Pins(document, self)
        self.pins.setParent(self)
        self.compare_tab = LazyTab(self._build_compare)
        self.compare_tab.setObjectName("compareTab")
        self.design_tab = LazyTab(self._build_design)
        self.design_tab.setObjectName("designSpaceTab")
        tabs.setTabToolTip(
            tabs.addTab(self.compare_tab, translate("Explore", "Compare")),
            translate("Explore", "Architectures side by side"),
        )
        tabs.setTabToolTip(
            tabs.addTab(self.design_tab, translate("Explore", "Design space")),
            translate("Explore", "A figure over two fields of the open model"),
        )
        self.pins.changed.connect(self._say_pinned)
        self._pinned_before = len(self.pins.pins)

    @property
    def compare_view(self) -> CompareView:
        from paramtally.gui.explore.compare_view import CompareView

        view = self.compare_tab.view
        assert isinstance(view, CompareView)
        return view

    @property
    def design_view(self) -> DesignSpaceView:
        from paramtally.gui.explore.design_space import DesignSpaceView

        view = self.design_tab.view
        assert isinstance(view, DesignSpaceView)
        return view

    def _build_compare(self) -> QWidget:
        from paramtally.gui.explore.compare_view import CompareView

        return CompareView(self.document, self.pins)

    def _build_design(self) -> QWidget:
        from paramtally.gui.explore.design_space import DesignSpaceView

        return DesignSpaceView(self.document)

    # --- actions ------------------------------------------------------------------------------------

    def show_compare(self) -> None:
        self.tabs.setCurrentWidget(self.compare_tab)

    def show_design_space(self) -> None:
        self.tabs.setCurrentWidget(self.design_tab)

    def pin(self) -> None:
        self.pins.pin_open()

    def goal_seek(self) -> bool:
        """The goal-seek dialog over the open model; True when its answer was applied."""
        from paramtally.gui.explore.goal_seek import GoalSeekDialog

        dialog = GoalSeekDialog(self.document, self.window)
        applied = bool(dialog.exec()) and dialog.applied is not None
        if applied:
            said = translate("GoalSeek", "Goal seek: {what}").format(what=dialog.applied)
            self.window.statusBar().showMessage(said, 8000)
        dialog.deleteLater()
        return applied

    def retire(self) -> None:
        """Before this Explore goes (the window built anew): its design space stops its worker."""
        if self.design_tab.built:
            self.design_view.stop_fits()

    def _say_pinned(self) -> None:
        count = len(self.pins.pins)
        if count > self._pinned_before and self.tabs.currentWidget() is not self.compare_tab:
            label = self.pins.tip(count - 1)
            said = translate("Explore", "Pinned {label}: see the Compare tab").format(label=label)
            self.window.statusBar().showMessage(said, 8000)
        self._pinned_before = count


def add_explore(
    window: QMainWindow, document: Document, tabs: QTabWidget, pins: Pins | None = None
) -> Explore:
    """The Compare and Design space tabs in ``tabs`` (their views are built when first shown);
    ``pins``: the pinned columns of the Explore this one replaces (the window built anew)."""
    return Explore(window, document, tabs, pins)


def add_explore_menu(menu: QMenu, explore: Explore) -> None:
    """The Explore menu's entries, in ``menu`` (the window's "E&xplore")."""

    def add(text: str, name: str, slot: Callable[[], object], shortcut: str = "") -> None:
        action = menu.addAction(text, slot)
        action.setObjectName(name)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))

    add(translate("Explore", "&Pin Open Model for Comparison"), "actionPin", explore.pin, "Ctrl+Shift+P")
    add(translate("Explore", "&Compare"), "actionCompare", explore.show_compare)
    menu.addSeparator()
    add(translate("Explore", "&Goal Seek…"), "actionGoalSeek", explore.goal_seek, "Ctrl+G")
    add(translate("Explore", "&Design Space"), "actionDesignSpace", explore.show_design_space)
