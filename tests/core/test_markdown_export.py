"""Markdown export (``--format md``): GitHub-flavoured tables under the facts the CSV records,
judged as rendered by GitHub's own renderer (``tests/markdown_text.py``): the same table as the
CSV, cell for cell, and a name from a file shows as written."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from paramtally.core.cli import main
from paramtally.core.count.parameters import count_parameters
from paramtally.core.io.export import about_rows
from paramtally.core.io.formats import Exported, Table, export_text, find_format
from paramtally.core.io.model_sources import load_source
from paramtally.core.io.subjects import everything_export
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.fit import fit_setups
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema import Architecture
from paramtally.core.text import escaped
from tests.csv_text import read_csv_text
from tests.markdown_text import read_markdown

GPT3_TOTAL = 175_221_817_344
SWEEP = ["sweep", "llama-3-8b", "--x", "hidden_size=2048:4096:1024", "--y", "num_layers=16,32", "--iso", "7B"]


def _written(tmp_path: Path, argv: list[str], form: str) -> str:
    target = tmp_path / f"out.{form}"
    assert main([*argv, "--format", form, "--output", str(target)]) == 0
    return target.read_text(encoding="utf-8")


def _same_cell(markdown: str, csv: str) -> bool:
    """A number reads with separators in Markdown and plain in the CSV; any other cell is the same text."""
    plain = markdown.replace(",", "")
    try:
        return int(plain) == int(csv)
    except ValueError:
        pass
    try:
        return math.isclose(float(plain), float(csv), rel_tol=1e-7)
    except ValueError:
        return markdown == csv


@pytest.mark.parametrize(
    "argv",
    [
        ["count", "gpt3-175b"],
        ["count", "mixtral-8x7b", "--layers"],
        ["memory", "llama-3-70b", "--gpus", "4"],
        ["memory", "llama-3-70b", "--setups"],
        ["compare", "llama-3-8b", "mixtral-8x7b"],
        SWEEP,
    ],
    ids=["count", "layers", "memory", "setups", "compare", "sweep"],
)
def test_the_rendered_table_and_facts_are_the_csv_s(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rendered = read_markdown(_written(tmp_path, argv, "md"))
    _, about, csv_rows = read_csv_text(_written(tmp_path, argv, "csv"))
    assert rendered.facts() == about  # every '#' line, the JSON ones whole
    assert len(rendered.tables) == 1 and rendered.tables[0][0] == list(csv_rows[0])
    rows = rendered.rows()
    assert len(rows) == len(csv_rows)
    for shown, written in zip(rows, csv_rows, strict=True):
        differ = {
            key: (shown[key], written[key]) for key in written if not _same_cell(shown[key], written[key])
        }
        assert not differ
    assert rendered.headings[0][0] == "h1"
    capsys.readouterr()


def test_the_breakdown_sums_to_the_total_as_read_off_the_page(tmp_path: Path) -> None:
    rendered = read_markdown(_written(tmp_path, ["count", "gpt3-175b"], "md"))
    assert rendered.headings[0] == ("h1", "GPT-3 175B: parameter breakdown")
    leaves = [row for row in rendered.rows() if row["is_leaf"] == "true"]
    assert sum(int(row["params"].replace(",", "")) for row in leaves) == GPT3_TOTAL
    assert rendered.rows()[0]["params"] == "175,221,817,344"
    # Numbers are right-aligned, as a spreadsheet shows them; text stays left.
    assert '<th align="right">params</th>' in rendered.html and "<th>formula</th>" in rendered.html


def test_a_name_from_a_file_shows_as_written_and_adds_no_markup() -> None:
    hostile = [
        "a|b",
        "*bold* and _it_",
        "q_proj_x_",
        "<script>alert(1)</script>",
        "`code` ``more``",
        "back\\slash \\| \\*",
        "line\nbreak",
        "&amp; &lt;",
        "$x^2$ costs $5",
        "~~struck~~",
        "[link](https://example.com) ![img](x.png)",
        "# not a heading",
        "\u202egnp.exe",
    ]
    rows = [{"name": text, "params": index} for index, text in enumerate(hostile)]
    content = Exported(
        "breakdown",
        "a | *title* <b>",
        (("model", "m_1 <i>x</i>"),),
        lambda: (Table(("name", "params"), rows),),
    )
    rendered = read_markdown(export_text("md", content))
    assert rendered.headings[0] == ("h1", "a | *title* <b>")
    assert rendered.items == ["model: m_1 <i>x</i>"]
    assert [row["name"] for row in rendered.rows()] == [escaped(text, keep="") for text in hostile]
    assert [row["params"] for row in rendered.rows()] == [str(index) for index in range(len(hostile))]
    # No markup but the page's own; a bare address is a link, as GitHub makes any text's.
    assert rendered.tags <= {
        "h1",
        "ul",
        "li",
        "strong",
        "p",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "a",
    }
    assert rendered.html.count("<a ") == 1 and '<a href="https://example.com">' in rendered.html


def test_json_facts_copy_back_whole_even_with_backticks_inside() -> None:
    arch = load_source("gpt2").model_copy(update={"description": "a ```fenced``` note"})
    scenario = Scenario(context=4096, batch=2)
    report = count_parameters(arch)
    memory = estimate_memory(arch, scenario)
    setups = fit_setups(arch, scenario)
    content = everything_export(
        report, memory, setups, arch, scenario, None, about_rows(arch, scenario, "gpt2")
    )
    rendered = read_markdown(export_text("md", content))
    facts = rendered.facts()
    assert Architecture.model_validate_json(facts["architecture json"]) == arch
    assert Scenario.model_validate_json(facts["scenario json"]) == scenario
    # Everything at once: each table under its own heading, in the order of the window's tables.
    titles = [text for tag, text in rendered.headings if tag == "h2"]
    assert titles == ["Parameter breakdown", "Parameters per layer", "Memory per GPU", "GPU setups"]
    assert len(rendered.tables) == 4 and len(rendered.rows(3)) == len(setups)
    assert sum(int(row["bytes"].replace(",", "")) for row in rendered.rows(2)) == memory.total_bytes
    data = json.loads(export_text("json", content))  # the same content's JSON holds the same tables
    assert len(data["breakdown"]) == len(rendered.rows(0)) and len(data["layers"]) == len(rendered.rows(1))


def test_markdown_is_a_table_format_of_every_command() -> None:
    form = find_format("md")
    assert form.suffix == ".md" and form.writes_facts and not form.picture
    for subject in ("breakdown", "layers", "memory", "gpus", "compare", "sweep", "everything"):
        assert form.can_export(subject)
