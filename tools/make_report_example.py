"""Writes the README's example design report: GPT-3 175B as trained in the paper (300B tokens on
1,024 A100s, TP 8 × PP 8), by ``paramtally report`` itself, into docs/:

    report-gpt3-175b.html         one self-contained page (English)
    report-gpt3-175b.zh_CN.html   the same in Chinese
    report-gpt3-175b.md           Markdown, with report-gpt3-175b-parts.svg and -memory.svg beside it

Run after a change to the figures or the report (``.venv/bin/python tools/make_report_example.py``);
tests/core/test_report_example.py fails while docs/ is out of date.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = (
    "--mode", "training", "--gpus", "1024", "--tp", "8", "--pp", "8", "--zero", "1",
    "--recompute", "full", "--gpu", "a100-80gb", "--tokens", "300B",
)  # fmt: skip
OUTPUTS = (
    ("report-gpt3-175b.html", "html", "en"),
    ("report-gpt3-175b.zh_CN.html", "html", "zh_CN"),
    ("report-gpt3-175b.md", "md", "en"),
)


def write(folder: Path) -> list[Path]:
    from paramtally.core.cli import main

    folder.mkdir(parents=True, exist_ok=True)
    for name, form, language in OUTPUTS:
        argv = [
            "report",
            "gpt3-175b",
            *SCENARIO,
            "--format",
            form,
            "--lang",
            language,
            "-o",
            str(folder / name),
        ]
        if main(argv) != 0:
            raise SystemExit(f"paramtally {' '.join(argv)} failed")
    return sorted(folder.glob("report-gpt3-175b*"))


if __name__ == "__main__":
    for path in write(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs"):
        print(path)
