"""Markdown in the window: File → Export and the Compare tab's Export offer it because the format
registry does, and write what the command line writes; read as GitHub renders it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from paramtally.core.cli import main
from paramtally.gui.main_window import MainWindow
from tests.gui.modals import Modals
from tests.gui.test_explore_compare import add_preset, open_compare
from tests.markdown_text import read_markdown


def _export(modals: Modals, window: MainWindow, entry: str, target: Path) -> None:
    action = next(a for a in window.findChild(QMenu, "menuExport").actions() if a.text() == entry)
    modals.save_as(str(target))
    action.trigger()
    modals.wait_done()
    assert modals.kinds[-1] == "QFileDialog"  # Qt's own dialog, typed into


def test_everything_as_markdown_holds_every_table_under_the_model_s_facts(
    modals: Modals, window: MainWindow, tmp_path: Path
) -> None:
    document = window.document
    _export(modals, window, "Everything as Markdown…", tmp_path / "gpt3")  # typed without a suffix
    rendered = read_markdown((tmp_path / "gpt3.md").read_text(encoding="utf-8"))
    assert rendered.headings[0] == ("h1", "GPT-3 175B")
    facts = rendered.facts()
    assert facts["model"] == "GPT-3 175B" and facts["source"] == "gpt3-175b" and "scenario" in facts
    titles = [text for tag, text in rendered.headings if tag == "h2"]
    assert titles == ["Parameter breakdown", "Parameters per layer", "Memory per GPU", "GPU setups"]
    leaves = [row for row in rendered.rows(0) if row["is_leaf"] == "true"]
    assert sum(int(row["params"].replace(",", "")) for row in leaves) == 175_221_817_344
    assert len(rendered.rows(1)) == 96  # GPT-3's layers
    memory = document.memory
    assert memory is not None
    assert sum(int(row["bytes"].replace(",", "")) for row in rendered.rows(2)) == memory.total_bytes
    assert [row["fits"] for row in rendered.rows(3)] == [str(fit.fits).lower() for fit in document.setups]
    assert window.statusBar().currentMessage() == f"Exported {tmp_path / 'gpt3.md'}"


def test_breakdown_as_markdown_is_what_count_writes_under_the_window_s_facts(
    modals: Modals, window: MainWindow, tmp_path: Path
) -> None:
    _export(modals, window, "Breakdown as Markdown…", tmp_path / "window.md")
    written, cli = (tmp_path / "window.md").read_text(encoding="utf-8"), tmp_path / "cli.md"
    assert main(["count", "gpt3-175b", "--format", "md", "--output", str(cli)]) == 0
    # The command's count records nothing (as its CSV); the window's says what it was computed for.
    window_page, cli_page = read_markdown(written), read_markdown(cli.read_text(encoding="utf-8"))
    assert window_page.tables == cli_page.tables and window_page.headings[0] == cli_page.headings[0]
    assert window_page.facts()["model"] == "GPT-3 175B" and cli_page.facts() == {}


def test_the_compare_tab_writes_the_markdown_compare_writes(
    qtbot: QtBot, llama_window: MainWindow, modals: Modals, tmp_path: Path
) -> None:
    view = open_compare(qtbot, llama_window)
    add_preset(qtbot, modals, view, "mixtral-8x7b")
    target, cli = tmp_path / "window.md", tmp_path / "cli.md"
    modals.choose("Comparison as Markdown…")
    modals.save_as(str(target))
    qtbot.mouseClick(view.export_button, Qt.MouseButton.LeftButton)
    modals.wait_done()
    assert main(["compare", "llama-3-8b", "mixtral-8x7b", "--format", "md", "--output", str(cli)]) == 0
    written = target.read_text(encoding="utf-8")
    # The one difference: the window calls the open document's column "llama-3-8b (open)".
    assert written.replace("llama-3-8b (open)", "llama-3-8b") == cli.read_text(encoding="utf-8")
    rendered = read_markdown(written)
    assert rendered.headings[0] == ("h1", "Comparison against llama-3-8b (open)")
    assert {row["source"] for row in rendered.rows()} == {"llama-3-8b (open)", "mixtral-8x7b"}
