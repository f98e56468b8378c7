"""One registry of export formats (``core.io.formats``): the commands' ``--format`` choices come
from it, and each format it lists for a command writes a file that opens where people open it
(a CSV in pandas with ``comment="#"``, JSON with ``json.loads``)."""

from __future__ import annotations

import argparse
import io
import json
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from paramtally.core.cli import build_parser, main
from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.explore.compare import compare, load_columns
from paramtally.core.io.export import BOM, about_rows
from paramtally.core.io.formats import (
    CHARTS,
    FORMATS,
    Exported,
    Options,
    Subject,
    Table,
    export_text,
    find_format,
    format_names,
    formats_for,
)
from paramtally.core.io.model_sources import load_source
from paramtally.core.io.subjects import breakdown_export, comparison_export, everything_export, layers_export
from paramtally.core.memory.scenario import Scenario
from tests.markdown_text import Rendered, read_markdown

GPT3_TOTAL = 175_221_817_344
# What each command exports, and its own forms (text for the terminal) before the registry's.
COMMANDS: dict[str, tuple[Subject, tuple[str, ...]]] = {
    "count": ("breakdown", ("table",)),
    "memory": ("memory", ("table",)),
    "compare": ("compare", ("table",)),
    "sweep": ("sweep", ()),
}
ARGV = {
    "count": ["count", "gpt3-175b"],
    "memory": ["memory", "gpt3-175b", "--gpus", "8"],
    "compare": ["compare", "gpt3-175b", "llama-3-8b"],
    "sweep": ["sweep", "llama-3-8b", "--x", "hidden_size=2048:4096:1024", "--y", "num_layers=16,32"],
}


def _format_choices(command: str) -> list[str]:
    parser = build_parser(command)
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    action = next(a for a in subparsers.choices[command]._actions if "--format" in a.option_strings)
    return list(action.choices or [])


def _csv(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text.removeprefix(BOM)), comment="#")


# How people open each text format: what a check below reads from the file.
READERS: dict[str, Callable[[str], Any]] = {"csv": _csv, "json": json.loads, "md": read_markdown}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_offers_the_formats_of_the_registry(command: str) -> None:
    subject, own = COMMANDS[command]
    assert _format_choices(command) == [*own, *format_names(subject)]
    assert {"csv", "json"} <= set(format_names(subject))


def test_the_registry_lists_each_format_once_with_what_it_exports() -> None:
    names = [form.name for form in FORMATS]
    assert len(set(names)) == len(names) and len({form.suffix for form in FORMATS}) == len(FORMATS)
    for form in FORMATS:
        assert form.suffix.startswith(".") and form.file_filter == f"{form.kind} (*{form.suffix})"
        # Charts are the window's pictures; every other format writes text for tables and data.
        assert form.exports <= CHARTS if form.picture else not form.exports & CHARTS
    for subject in typing.get_args(Subject):
        assert formats_for(subject), f"no format exports {subject}"
    assert [form.name for form in formats_for("bar_chart")] == ["png", "svg"]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_format_a_command_offers_writes_a_file_people_can_open(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    subject = COMMANDS[command][0]
    for name in format_names(subject):
        target = tmp_path / f"{command}{find_format(name).suffix}"
        assert main([*ARGV[command], "--format", name, "--output", str(target)]) == 0, capsys.readouterr().err
        assert name in READERS, f"how do people open {name}? add its reader"
        opened = READERS[name](target.read_text(encoding="utf-8"))
        _check(command, name, opened)


def _check(command: str, form: str, opened: Any) -> None:
    if (command, form) == ("count", "csv"):
        assert opened[opened["is_leaf"]]["params"].sum() == GPT3_TOTAL
    elif (command, form) == ("count", "json"):
        assert opened["total"] == GPT3_TOTAL == sum(part["params"] for part in opened["parts"])
    elif (command, form) == ("memory", "csv"):
        assert list(opened.columns)[:3] == ["term", "part", "bytes"] and opened["bytes"].sum() > 0
    elif (command, form) == ("memory", "json"):
        assert opened["total_bytes"] == sum(term["bytes"] for term in opened["terms"])
    elif (command, form) == ("compare", "csv"):
        totals = opened[(opened["section"] == "headline") & (opened["item"] == "total")]
        # The column also holds the schema diff's text, so pandas reads it as text.
        assert [int(value) for value in totals["value"]] == [
            GPT3_TOTAL,
            count_parameters(load_source("llama-3-8b")).total,
        ]
    elif (command, form) == ("compare", "json"):
        totals = [column["total"] for column in opened["columns"]]
        assert totals == [GPT3_TOTAL, count_parameters(load_source("llama-3-8b")).total]
    elif (command, form) == ("sweep", "csv"):
        assert len(opened) == 3 * 2 and list(opened.columns) == ["hidden_size", "num_layers", "total"]
    elif (command, form) == ("sweep", "json"):
        assert opened["x"]["values"] == [2048, 3072, 4096] and len(opened["values"]) == 2
    elif form == "md":
        _check_markdown(command, opened)
    else:
        raise AssertionError(f"no check of {command} as {form}")


def _check_markdown(command: str, opened: Rendered) -> None:
    rows = opened.rows()
    if command == "count":
        assert (
            sum(int(row["params"].replace(",", "")) for row in rows if row["is_leaf"] == "true") == GPT3_TOTAL
        )
    elif command == "memory":
        assert opened.facts()["model"] == "GPT-3 175B" and [*rows[0]][:3] == ["term", "part", "bytes"]
    elif command == "compare":
        assert rows[0]["value"] == f"{GPT3_TOTAL:,}"
    else:
        assert len(rows) == 3 * 2 and [*rows[0]] == ["hidden_size", "num_layers", "total"]


def test_a_format_refuses_a_subject_it_cannot_write() -> None:
    arch = load_source("gpt2")
    report = count_parameters(arch)
    everything = everything_export(report, None, (), arch, Scenario(), None)
    with pytest.raises(ParamTallyError, match="GPT-2 cannot be exported as CSV"):
        export_text("csv", everything)  # many tables: CSV holds one
    with pytest.raises(ParamTallyError, match="parameters per layer cannot be exported as JSON"):
        export_text("json", layers_export(report))  # its JSON is the count's
    with pytest.raises(ParamTallyError, match="PNG is drawn by the window"):
        export_text("png", breakdown_export(report))
    with pytest.raises(ParamTallyError, match="no export format 'xlsx'"):
        find_format("xlsx")
    two = Exported("breakdown", "two tables", blocks=lambda: (Table(("a",), []), Table(("b",), [])))
    with pytest.raises(ParamTallyError, match="two tables: 2 tables, not one"):
        export_text("csv", two)


def test_everything_holds_every_table_and_the_json_of_the_window() -> None:
    arch = load_source("gpt2")
    report = count_parameters(arch)
    content = everything_export(report, None, (), arch, Scenario(), None, about_rows(arch))
    assert [table.title for table in content.blocks()] == ["Parameter breakdown", "Parameters per layer"]
    data = json.loads(export_text("json", content))
    assert data["total"] == report.total and "memory" not in data and "gpus" not in data


def test_the_excel_option_is_a_byte_order_mark_on_csv_only() -> None:
    columns = load_columns(["gpt2", "gpt2-medium"])
    content = comparison_export(compare(columns, Scenario(), 0))
    assert export_text("csv", content, Options(excel=True)).startswith(BOM)
    assert not export_text("csv", content).startswith(BOM)
    assert not export_text("json", content, Options(excel=True)).startswith(BOM)
