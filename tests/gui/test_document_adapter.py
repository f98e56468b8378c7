"""The window's document is an adapter over the core document (issue 32): a Qt signal for each core
event, a QUndoStack for the history, and every other member the core document's own — none kept by
hand, so a member core gains needs no change in gui/document.py."""

from __future__ import annotations

import inspect
from collections.abc import Iterable

import pytest
from pytestqt.qtbot import QtBot

from paramtally.core.editing import document as core_document
from paramtally.core.io.model_sources import load_source
from paramtally.gui import document as qt_document
from paramtally.gui.document import Document


def _public(names: Iterable[str]) -> set[str]:
    return {name for name in names if not name.startswith("_")}


def test_every_core_member_is_the_core_documents_own(qtbot: QtBot) -> None:
    doc = Document(load_source("llama-3-8b"), "llama-3-8b")
    core = doc.core
    assert doc.set_field(("hidden_size",), 4160)  # an edit through the adapter, on the core document
    for name in _public(vars(core_document.Document)) | _public(vars(core)):
        if name in core_document.EVENTS:
            continue  # Qt signals of the same names (below)
        mine, its = getattr(doc, name), getattr(core, name)
        if inspect.ismethod(its):
            assert mine == its, name  # the core document's own method, bound to it
        else:
            assert mine is its or mine == its, name
    assert doc.undo_stack.undoText() == core.history.undo_text() == "Set Hidden size"


def test_the_adapter_keeps_no_twin_of_a_core_member() -> None:
    """What gui/document.py defines itself: the Qt parts, and nothing core has."""
    source = inspect.getsource(qt_document)
    for name in _public(vars(core_document.Document)):
        assert f"def {name}(" not in source, name
    own = {name for name, member in vars(Document).items() if not isinstance(member, property)}
    assert _public(own) <= {"undo_stack", "core"} | {"staticMetaObject"}


def test_a_member_core_gains_is_reached_without_a_change_here(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = Document(load_source("gpt2"))
    monkeypatch.setattr(
        core_document.Document, "novel_figure", property(lambda self: self.report.total), raising=False
    )
    assert doc.novel_figure == doc.report.total
    doc.core.novel_attribute = "added later"
    assert doc.novel_attribute == "added later"
    with pytest.raises(AttributeError):
        doc.no_such_member  # noqa: B018


def test_each_core_event_is_a_qt_signal_of_the_same_name(qtbot: QtBot) -> None:
    doc = Document(load_source("gpt2"))
    heard: list[tuple[object, ...]] = []
    for name, arguments in core_document.EVENTS.items():
        getattr(doc, name).connect(lambda *args, name=name: heard.append((name, *args)))
        getattr(doc.core, name).emit(*range(arguments))
    assert heard == [(name, *range(n)) for name, n in core_document.EVENTS.items()]
