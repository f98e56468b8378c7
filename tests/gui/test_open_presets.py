"""Every built-in preset (all schema 2) opened from File → Open Built-in Preset: the window's
headline shows the count ``paramtally count`` prints for it, and the tree shows its stacks."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMenu
from pytestqt.qtbot import QtBot

from paramtally.core.cli import main as cli
from paramtally.core.io import presets
from paramtally.core.io.model_sources import load_source
from paramtally.gui.document import Document
from paramtally.gui.main_window import MainWindow

PRESETS = presets.builtin_ids()


@pytest.fixture(scope="module")
def shared_window(qapp: QApplication) -> Iterator[MainWindow]:
    """One window for all presets: opening one replaces the last, as File → Open does."""
    window = MainWindow(Document(load_source("gpt2"), "gpt2"))
    window.show()
    yield window
    window.close()
    window.deleteLater()


def _cli_total(preset_id: str, capsys: pytest.CaptureFixture[str]) -> int:
    assert cli(["count", preset_id]) == 0
    first = capsys.readouterr().out.splitlines()[0]  # "GPT-2: 124,439,808 parameters (124.44M)"
    match = re.search(r": ([\d,]+) parameters", first)
    assert match is not None, first
    return int(match[1].replace(",", ""))


def test_every_preset_is_schema_2() -> None:
    assert PRESETS and all(presets.load_builtin(p).schema_version == 2 for p in PRESETS)


@pytest.mark.parametrize("preset_id", PRESETS)
def test_opening_a_preset_shows_the_cli_count(
    qtbot: QtBot, shared_window: MainWindow, capsys: pytest.CaptureFixture[str], preset_id: str
) -> None:
    window = shared_window
    builtin = next(a.menu() for a in window.file_menu.actions() if a.menu() and "Built-in" in a.text())
    assert isinstance(builtin, QMenu)
    action = next(a for a in builtin.actions() if a.text() == preset_id)
    assert isinstance(action, QAction)
    action.trigger()
    total = _cli_total(preset_id, capsys)
    assert window.document.report.total == total
    assert f"{total:,}" in window.headline.text()
    model = window.tree.tree_model
    stacks = [model.data(model.index(i, 0)).split(":")[0] for i in range(model.rowCount())]
    arch = window.document.architecture
    vision = ["Vision tower"] if arch.vision else []  # a vision-language model's tower comes first
    expected = vision + [role.capitalize() for role, _ in arch.stacks] + (["MTP"] if arch.mtp else [])
    assert stacks == expected
