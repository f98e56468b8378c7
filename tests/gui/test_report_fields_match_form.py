"""The design report's architecture table lists what the window's form shows for the model (one
rule, ``core.schema.field_visibility``): the form driven as a person opens a preset, the report
made as ``paramtally report`` makes it."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from paramtally.core.editing.edits import DERIVED, get_value
from paramtally.core.io.formats.content import Table
from paramtally.core.io.model_sources import load_source
from paramtally.core.io.report import report_export
from paramtally.core.memory.scenario import opening_scenario
from paramtally.core.schema.field_visibility import shown_fields
from paramtally.gui.document import Document
from paramtally.gui.form import ArchitectureForm
from paramtally.gui.form.form import BLOCKS_IN_FULL

PRESETS = ["llama-3-70b", "gpt3-175b", "bert-base-uncased", "modernbert-base", "flan-t5-base", "jamba-v0.1"]


def _dotted(path: tuple[str | int, ...]) -> str:
    return "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in path).lstrip(".")


def _ids(path: tuple[str | int, ...], value: Any) -> set[str]:
    """The report's ids of a field that is not off (0, false, empty, auto): a list item by item."""
    if isinstance(value, tuple):
        return {f"{_dotted(path)}[{index}]" for index, _ in enumerate(value)}
    if value is None or value is False or (not isinstance(value, str) and value == 0):
        return set()
    return {_dotted(path)}


def _report_ids(preset_id: str) -> set[str]:
    arch = load_source(preset_id)
    exported = report_export(arch, opening_scenario(arch))
    table = next(block for block in exported.blocks() if isinstance(block, Table))
    return {str(row["field"]) for row in table.rows}


@pytest.mark.parametrize("preset_id", PRESETS)
def test_the_report_lists_the_fields_the_form_shows(qtbot: QtBot, preset_id: str) -> None:
    form = ArchitectureForm(Document(load_source(preset_id)))
    qtbot.addWidget(form)
    form.show()
    qtbot.waitExposed(form)
    arch = form.document.architecture
    assert len(arch.blocks) <= BLOCKS_IN_FULL  # every block's fields in the form at once
    in_form: set[str] = set()
    for path in form.paths():
        editor = form.findChild(QWidget, ".".join(map(str, path)))
        assert editor is form.editor(path)
        if path not in DERIVED and form.editor(path).isVisible():
            in_form |= _ids(path, get_value(arch, path))
    # What the layer tree edits (the groups, their base block, their changes) is listed too.
    in_tree = {
        _dotted(field.path)
        for field in shown_fields(arch)
        if not field.in_form and field.path != ("schema_version",)
    }
    assert all(".layers[" in name or name.endswith(".block") for name in in_tree), in_tree
    listed = _report_ids(preset_id)
    assert {name for name in listed if not any(name.startswith(tree) for tree in in_tree)} == in_form - {
        "name",  # the report's title and facts say it
        "description",  # its first paragraph
    }
    assert in_form and "hidden_size" in in_form


def test_a_field_the_form_hides_is_not_in_the_report(qtbot: QtBot) -> None:
    """RMSNorm has no β and Llama-3-70B no head transform: the form hides both, the report too."""
    form = ArchitectureForm(Document(load_source("llama-3-70b")))
    qtbot.addWidget(form)
    form.show()
    qtbot.waitExposed(form)
    for path in (("blocks", "default", "norms", "bias"), ("head", "transform_bias")):
        assert not form.editor(path).isVisible()
        assert _dotted(path) not in _report_ids("llama-3-70b")
