"""Keys between the window's panes: F6 and Shift+F6 go round them, Ctrl+1…4 go to one.

Reaching the layer tree from the form's Name field took 52 Tab presses. A pane is the form, the
layer tree, the charts (the Parameters tab), the memory tab and, while it is shown, the presets
browser, as desktop tools cycle their panes with F6. Each pane gives the focus back to the
widget that last had it there (the field being edited), else to its first control; a pane on a
tab brings its tab to the front.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QMenu, QWidget

from paramtally.gui.i18n import translate

if TYPE_CHECKING:
    from paramtally.gui.main_window import MainWindow

__all__ = ["Pane", "PaneKeys"]


@dataclass(frozen=True, slots=True)
class Pane:
    """``root``: the widget the pane's focus lies in; ``first``: its control to start from; ``show``
    brings it in view (its tab); ``shown``: whether it can take the focus at all."""

    title: str
    key: str
    root: Callable[[], QWidget]
    first: Callable[[], QWidget]
    show: Callable[[], None] = lambda: None
    shown: Callable[[], bool] = lambda: True


class PaneKeys(QObject):
    """The panes of one window, their actions (in the View menu) and the widget each had last."""

    def __init__(self, window: MainWindow, menu: QMenu) -> None:
        super().__init__(window)
        self.window = window
        self.panes = _panes(window)
        self._last: dict[int, QWidget] = {}
        self.actions: list[QAction] = []
        for index, pane in enumerate(self.panes):
            if pane.key:
                action = self._action(
                    menu,
                    translate("Panes", "Go to {pane}").format(pane=pane.title),
                    pane.key,
                    lambda i=index: self.go(i),
                )
                action.setObjectName(f"actionPane{index + 1}")
        menu.addSeparator()
        self.next_action = self._action(menu, translate("Panes", "&Next Pane"), "F6", lambda: self.cycle(1))
        self.previous_action = self._action(
            menu, translate("Panes", "Pre&vious Pane"), "Shift+F6", lambda: self.cycle(-1)
        )
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._remember)

    def _action(self, menu: QMenu, text: str, key: str, slot: Callable[[], object]) -> QAction:
        action = menu.addAction(text, slot)
        action.setShortcut(QKeySequence(key))
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.actions.append(action)
        return action

    def current(self) -> int | None:
        """The pane the focus is in (None: outside every pane, e.g. the headline or a tab bar)."""
        focus = QApplication.focusWidget()
        if focus is None:
            return None
        for index, pane in enumerate(self.panes):
            root = pane.root()
            if focus is root or root.isAncestorOf(focus):
                return index
        return None

    def go(self, index: int, reason: Qt.FocusReason = Qt.FocusReason.ShortcutFocusReason) -> None:
        """Bring pane ``index`` in view and give it the focus: where it was last, else its first control
        (a key's ``reason`` selects a line's text, as Tab does; another leaves it as it was)."""
        pane = self.panes[index]
        if not pane.shown():
            return
        pane.show()
        target = self._last.get(index)
        if target is None or not _usable(target):
            target = pane.first()
        target.setFocus(reason)
        scroll = getattr(pane.root(), "ensureWidgetVisible", None)
        if callable(scroll):
            scroll(target)

    def cycle(self, step: int) -> None:
        """F6 (``step`` 1) or Shift+F6 (-1): the next pane that is shown, round the window."""
        shown = [index for index, pane in enumerate(self.panes) if pane.shown()]
        here = self.current()
        if here is None or here not in shown:
            self.go(shown[0] if step > 0 else shown[-1])
            return
        self.go(shown[(shown.index(here) + step) % len(shown)])

    def _remember(self, _old: QWidget | None, new: QWidget | None) -> None:
        if new is None or new.window() is not self.window:
            return
        for index, pane in enumerate(self.panes):
            root = pane.root()
            if new is not root and root.isAncestorOf(new):
                self._last[index] = new
                return


def _usable(widget: QWidget) -> bool:
    """Still there to take the focus: not deleted (a form row rebuilt), shown and enabled."""
    return shiboken6.isValid(widget) and widget.isVisible() and widget.isEnabled()


def _panes(window: MainWindow) -> tuple[Pane, ...]:
    def views() -> MainWindow:
        window.load_views()  # the charts and memory panel are built after the first paint
        return window

    def tree_first() -> QWidget:
        tree = window.tree
        if not tree.currentIndex().isValid() and tree.model().rowCount():
            tree.setCurrentIndex(tree.model().index(0, 0))
        return tree

    return (
        Pane(
            translate("Panes", "&Form"),
            "Ctrl+1",
            lambda: window.form,
            lambda: window.form.editor(window.form.paths()[0]),
        ),
        Pane(translate("Panes", "Layer &Tree"), "Ctrl+2", lambda: window.tree, tree_first),
        Pane(
            translate("Panes", "&Charts"),
            "Ctrl+3",
            lambda: window.right_split,
            lambda: views().charts.mode_box,
            lambda: window.tabs.setCurrentWidget(window.right_split),
        ),
        Pane(
            translate("Panes", "&Memory Tab"),
            "Ctrl+4",
            lambda: window.memory_scroll,
            lambda: next(iter(views().memory.controls.editors.values())),
            lambda: window.tabs.setCurrentWidget(window.memory_scroll),
        ),
        Pane(
            translate("Panes", "&Presets"),
            "",  # Ctrl+P shows and hides the browser
            lambda: window.presets_dock,
            lambda: window.presets_browser.presets.filter,
            shown=lambda: window.presets_dock.isVisible(),
        ),
    )
