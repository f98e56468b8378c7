"""The README's example report (docs/report-gpt3-175b.*) is what ``paramtally report`` writes
today: regenerated into a temporary folder and compared file by file. Out of date: run
``tools/make_report_example.py``."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_s_example_report_is_up_to_date(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location(
        "make_report_example", ROOT / "tools" / "make_report_example.py"
    )
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    written = tool.write(tmp_path)
    assert [path.name for path in written] == [
        "report-gpt3-175b-memory.svg",
        "report-gpt3-175b-parts.svg",
        "report-gpt3-175b.html",
        "report-gpt3-175b.md",
        "report-gpt3-175b.zh_CN.html",
    ]
    for path in written:
        shipped = ROOT / "docs" / path.name
        assert shipped.read_text(encoding="utf-8") == path.read_text(encoding="utf-8"), (
            f"{shipped} is out of date: run tools/make_report_example.py"
        )
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("report-gpt3-175b.html", "report-gpt3-175b.zh_CN.html", "report-gpt3-175b.md"):
        assert f"(docs/{name})" in readme
