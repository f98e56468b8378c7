"""What the window shows, written to a JSON file, for tests that drive it with real X events.

Off unless the environment names a file in ``PARAMTALLY_STATE_FILE``. The real-display tests
(tests/real_display) start the app under Xvfb, move the mouse and type with xdotool, and read
here what the window then shows: each named field's text, whether it is marked red, where it is
on the screen (so the tests can click it), the headline, the open menu and the open dialog. The
file is rewritten (atomically) whenever that changes, checked ten times a second.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QRect, QTimer
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QTreeView,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from paramtally.core.io.atomic import write_text_atomic
from paramtally.gui.form.field_frame import marked

__all__ = ["ENVIRONMENT", "StateProbe"]

ENVIRONMENT = "PARAMTALLY_STATE_FILE"
# A scroll area too: where its fields show (a field below it is scrolled to before a click).
_SHOWN = (QAbstractSpinBox, QComboBox, QLineEdit, QCheckBox, QLabel, QScrollArea)


def _rect(widget: QWidget, rect: QRect | None = None) -> list[int]:
    """A widget's rectangle (or one inside it) in screen coordinates: where xdotool clicks."""
    rect = rect if rect is not None else widget.rect()
    corner = widget.mapToGlobal(rect.topLeft())
    return [corner.x(), corner.y(), rect.width(), rect.height()]


def _tree_rows(tree: QTreeView) -> list[dict[str, Any]]:
    """The rows a person can see (expanded), top to bottom, with their depth and rectangle."""
    rows: list[dict[str, Any]] = []
    index = tree.model().index(0, 0)
    while index.isValid():
        depth, parent = 0, index.parent()
        while parent.isValid():
            depth, parent = depth + 1, parent.parent()
        rect = _rect(tree.viewport(), tree.visualRect(index))
        rows.append({"text": str(index.data()), "depth": depth, "rect": rect})
        index = tree.indexBelow(index)
    return rows


def _tree_items(item: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    found: list[QTreeWidgetItem] = []
    for number in range(item.childCount()):
        child = item.child(number)
        found += [child, *_tree_items(child)]
    return found


def _depth(item: QTreeWidgetItem) -> int:
    depth, parent = 0, item.parent()
    while parent is not None:
        depth, parent = depth + 1, parent.parent()
    return depth


def _text(widget: QWidget) -> str:
    if isinstance(widget, QAbstractSpinBox):
        return widget.lineEdit().text()
    if isinstance(widget, QComboBox):
        return widget.currentText()
    if isinstance(widget, QCheckBox):
        return "checked" if widget.isChecked() else ""
    if isinstance(widget, QLabel | QLineEdit):
        return widget.text()
    return ""


class StateProbe(QObject):
    def __init__(self, window: QMainWindow, path: Path) -> None:
        super().__init__(window)
        self.window, self.path = window, path
        self._last = ""
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.write)
        self._timer.start(100)

    def state(self) -> dict[str, Any]:
        window = self.window
        document = getattr(window, "document", None)
        state: dict[str, Any] = {"title": window.windowTitle(), "views_loaded": window.views_loaded}
        state["status"] = window.statusBar().currentMessage()  # "Opened …", what the scenario kept
        if document is not None:
            state["total"] = document.report.total
            state["layers"] = [group.layers for group in document.architecture.main_stack.layers]
            state["scenario"] = document.scenario.model_dump(mode="json")
            state["undo"] = document.undo_stack.undoText()
        tabs = getattr(window, "tabs", None)
        if tabs is not None:
            bar = tabs.tabBar()
            state["tab"] = tabs.currentIndex()
            state["tabs"] = [
                {"text": bar.tabText(i), "rect": _rect(bar, bar.tabRect(i))} for i in range(bar.count())
            ]
        state["widgets"] = {
            widget.objectName(): {
                "text": _text(widget),
                "visible": widget.isVisible(),
                "red": marked(widget) == "error",
                "rect": _rect(widget),
            }
            for widget in window.findChildren(QWidget)
            if isinstance(widget, _SHOWN)
            and widget.objectName()
            and not widget.objectName().startswith("qt_")
        }
        tree = getattr(window, "tree", None)
        if tree is not None:
            state["layer_rows"] = _tree_rows(tree)
        state["popup"] = self._popup()
        state["modal"] = self._modal()
        focus = QApplication.focusWidget()
        state["focus"] = focus.objectName() if focus is not None else ""
        return state

    @staticmethod
    def _popup() -> dict[str, Any] | None:
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            return None
        actions = [
            {
                "text": action.text(),
                "enabled": action.isEnabled(),
                "rect": _rect(menu, menu.actionGeometry(action)),
            }
            for action in menu.actions()
            if not action.isSeparator()
        ]
        return {"actions": actions}

    @staticmethod
    def _modal() -> dict[str, Any] | None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            return None
        text = dialog.text() if isinstance(dialog, QMessageBox) else ""
        found = {"class": type(dialog).__name__, "title": dialog.windowTitle(), "text": text}
        found["buttons"] = [
            {"text": button.text().replace("&", ""), "rect": _rect(button)}
            for button in dialog.findChildren(QPushButton)
            if button.isVisible()
        ]
        lists = dialog.findChildren(QTreeWidget)  # e.g. the groups a pattern makes, before OK
        if lists:
            found["items"] = [
                {"text": item.text(0), "depth": _depth(item)}
                for item in _tree_items(lists[0].invisibleRootItem())
            ]
        return found

    def write(self) -> None:
        text = json.dumps(self.state(), ensure_ascii=False, indent=1)
        if text != self._last:
            write_text_atomic(self.path, text)
            self._last = text
