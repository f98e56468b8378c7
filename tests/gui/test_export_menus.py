"""The window's export menus list what the format registry (``core.io.formats``) says each subject
can be exported as, and an entry writes the file the command line writes for that subject and
format. Driven through the real menus and Qt's own save dialog (``Modals``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QToolButton
from pytestqt.qtbot import QtBot

from paramtally.core.cli import main
from paramtally.core.io.formats import FORMATS, Subject, formats_for
from paramtally.gui.export_actions import CHARTS, TABLES
from paramtally.gui.main_window import MainWindow
from tests.gui.modals import Modals
from tests.gui.test_explore_compare import open_compare
from tests.gui.test_explore_design_space import open_design

ROOT = Path(__file__).resolve().parents[2]


def _texts(menu: QMenu) -> list[str]:
    return [action.text().replace("&", "") for action in menu.actions() if not action.isSeparator()]


def _entries(subject: Subject, label: str, pictures: bool) -> list[str]:
    return [f"{label} as {form.title}…" for form in formats_for(subject) if form.picture == pictures]


def test_file_export_lists_each_text_format_with_its_tables_then_the_charts(window: MainWindow) -> None:
    menu = window.findChild(QMenu, "menuExport")
    expected = []
    for form in (form for form in FORMATS if not form.picture):
        expected += [
            f"{label} as {form.title}…" for subject, label in TABLES.items() if form.can_export(subject)
        ]
        if form.name == "csv":
            expected.append("CSV for Excel (UTF-8 with byte-order mark)")
    expected.append("Design report…")  # the formats that write a report: one dialog (HTML or Markdown)
    expected += [f"{label} as PNG/SVG…" for label, _ in CHARTS.values()]
    assert _texts(menu) == expected
    # What the registry says, read off the menu: a per-layer table has no JSON of its own, and
    # everything at once is no single CSV table.
    assert "Breakdown as JSON…" in expected and "Memory terms as JSON…" in expected
    assert "Per-layer table as JSON…" not in expected and "Everything as CSV…" not in expected


@pytest.mark.parametrize(
    ("entry", "argv"),
    [
        ("Breakdown as JSON…", ["count", "gpt3-175b"]),
        ("Memory terms as JSON…", ["memory", "gpt3-175b"]),
    ],
)
def test_a_json_entry_writes_what_the_command_writes(
    modals: Modals, window: MainWindow, tmp_path: Path, entry: str, argv: list[str]
) -> None:
    target, cli = tmp_path / "window.json", tmp_path / "cli.json"
    action = next(a for a in window.findChild(QMenu, "menuExport").actions() if a.text() == entry)
    modals.save_as(str(target))
    action.trigger()
    modals.wait_done()
    assert main([*argv, "--format", "json", "--output", str(cli)]) == 0
    written = target.read_text(encoding="utf-8")
    assert written == cli.read_text(encoding="utf-8")
    data = json.loads(written)
    if argv[0] == "count":
        assert data["total"] == window.document.report.total == 175_221_817_344
    else:  # every setup with its largest batch, as the command has them
        assert data["total_bytes"] == window.document.memory.total_bytes
        assert any(setup["max_batch"] for setup in data["setups"])


def test_the_compare_and_design_space_menus_list_the_registry_formats(
    qtbot: QtBot, llama_window: MainWindow
) -> None:
    compare = open_compare(qtbot, llama_window)
    assert _texts(compare.export_button.menu()) == [
        *_entries("compare", "Comparison", False),
        *_entries("compare_chart", "Chart", True),
    ]
    design = open_design(qtbot, llama_window)
    button = design.findChild(QToolButton, "designExport")
    assert _texts(button.menu()) == [
        *_entries("sweep", "Design space", False),
        *_entries("heatmap", "Heatmap", True),
    ]
    # Each entry's mnemonic is its format's first letter, unique in the menu.
    mnemonics = [re.search("&(.)", action.text()) for action in button.menu().actions() if action.text()]
    letters = [match.group(1) for match in mnemonics if match]
    assert len(letters) == len(set(letters)) == len(button.menu().actions()) - 1  # one separator


def test_the_excel_switch_is_read_in_one_place() -> None:
    """Issue 32: the setting was read in three modules; the window's exports ask ``excel_csv``."""
    readers = [
        path.relative_to(ROOT)
        for path in sorted((ROOT / "gui").rglob("*.py"))
        if re.search(r"value\(\s*EXCEL_KEY", path.read_text(encoding="utf-8"))
    ]
    assert readers == [Path("gui/export_actions.py")]
    text = (ROOT / "gui" / "export_actions.py").read_text(encoding="utf-8")
    assert len(re.findall(r"value\(\s*EXCEL_KEY", text)) == 1


def test_the_excel_switch_reaches_the_compare_tab(
    qtbot: QtBot, llama_window: MainWindow, tmp_path: Path, modals: Modals
) -> None:
    """Switched off in File → Export, the Compare tab's CSV has no byte-order mark either."""
    excel = llama_window.findChild(QAction, "actionExport_excel")
    assert excel.isChecked()
    excel.trigger()
    view = open_compare(qtbot, llama_window)
    target = tmp_path / "plain.csv"
    modals.choose("Comparison as CSV…")
    modals.save_as(str(target))
    qtbot.mouseClick(view.export_button, Qt.MouseButton.LeftButton)
    modals.wait_done()
    assert not target.read_bytes().startswith(b"\xef\xbb\xbf")
    assert target.read_text(encoding="utf-8").startswith("# paramtally,")
