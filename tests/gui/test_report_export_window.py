"""File → Export → Design report… through Qt's own save dialog, typed into: the window's model
and scenario written as ``paramtally report`` writes them, HTML or Markdown by the suffix typed,
in Chinese when the window's language is, atomically; a place that cannot be written is one
message."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QAction

from paramtally.core.io.export import scenario_text
from paramtally.gui.export_actions import LANGUAGE_KEY
from paramtally.gui.main_window import MainWindow
from paramtally.gui.settings import settings
from tests.gui.modals import Modals
from tests.markdown_text import read_markdown

GPT3_TOTAL = 175_221_817_344


def _export_report(modals: Modals, window: MainWindow, target: Path) -> None:
    action = window.findChild(QAction, "actionExport_report")
    assert action is not None and action.text() == "Design &report…"
    assert action in window.findChild(object, "menuExport").actions()  # reachable from File → Export
    modals.save_as(str(target))
    action.trigger()
    modals.wait_done()
    assert modals.kinds[0] == "QFileDialog"  # Qt's own dialog, typed into


def test_the_design_report_as_html_is_the_window_s_model_and_scenario(
    modals: Modals, window: MainWindow, tmp_path: Path
) -> None:
    target = tmp_path / "gpt3-report.html"
    _export_report(modals, window, target)
    text = target.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and f"{GPT3_TOTAL:,}" in text and text.count("<svg") == 2
    assert f"<dd>{scenario_text(window.document.scenario)}</dd>" in text
    assert "<h1>GPT-3 175B: design report</h1>" in text
    assert [path.name for path in tmp_path.iterdir()] == [target.name]  # no temporary file left
    assert window.statusBar().currentMessage() == f"Exported {target}"


def test_a_md_suffix_writes_markdown_with_its_charts_beside_it(
    modals: Modals, window: MainWindow, tmp_path: Path
) -> None:
    target = tmp_path / "design.md"
    _export_report(modals, window, target)
    rendered = read_markdown(target.read_text(encoding="utf-8"))
    assert rendered.headings[0] == ("h1", "GPT-3 175B: design report")
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "design-memory.svg",
        "design-parts.svg",
        "design.md",
    ]
    assert 'src="design-parts.svg"' in rendered.html and 'src="design-memory.svg"' in rendered.html


def test_the_report_is_chinese_when_the_window_s_language_is(
    modals: Modals, window: MainWindow, tmp_path: Path
) -> None:
    settings().setValue(LANGUAGE_KEY, "zh_CN")
    target = tmp_path / "设计报告 GPT-3.html"  # a Chinese name, typed as an input method commits it
    _export_report(modals, window, target)
    assert [path.name for path in tmp_path.iterdir()] == [target.name]
    text = target.read_text(encoding="utf-8")
    assert "<h1>GPT-3 175B：设计报告</h1>" in text and "<h2>参数量：推导过程</h2>" in text
    assert f"{GPT3_TOTAL:,}" in text


def test_an_unwritable_place_is_one_message_and_nothing_is_written(
    modals: Modals, window: MainWindow, tmp_path: Path
) -> None:
    target = tmp_path / "missing" / "report.md"
    modals.save_as(str(target))
    modals.click("OK")
    window.findChild(QAction, "actionExport_report").trigger()
    modals.wait_done()
    assert modals.kinds == ["QFileDialog", "QMessageBox"] and modals.seen[1] == "Export failed"
    assert modals.said == [f"cannot write {target.parent / 'report-parts.svg'}: No such file or directory"]
    assert list(tmp_path.iterdir()) == []
