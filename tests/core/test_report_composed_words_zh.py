"""A Chinese design report says the lines core composes in the window's words (QA, round 3): its
scenario line read 'inference, weights bf16, context 2,048, …' and run titles and part names
'window 1,024', 'no FFN', 'two convolutions', 'embedding copy' in English, which the window shows
in Chinese (``gui.i18n.core_text``; both through ``core.text.word_swapper``)."""

from __future__ import annotations

import re

import pytest

from paramtally.core.cli import main


def _report(source: str, capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    assert main(["report", source, "--lang", "zh_CN", *flags]) == 0
    return capsys.readouterr().out


def test_the_scenario_line_reads_in_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    html = _report("gpt3-175b", capsys)
    line = re.search(r"<dt>场景</dt><dd>([^<]*)</dd>", html)
    assert (
        line is not None
        and line[1] == "推理, 权重 bf16, 上下文长度 2,048, 批大小 1, tp 1 · pp 1 · 1 GPU, KV bf16"
    )
    assert "场景：推理, 权重 bf16, 上下文长度 2,048" in html
    training = _report("llama-3-8b", capsys, "--mode", "training")
    assert "<dt>场景</dt><dd>训练, 权重 bf16, 上下文长度 " in training


@pytest.mark.parametrize(
    ("source", "english", "chinese"),
    [
        ("gemma-3-27b", "window 1,024", "窗口 1,024"),
        ("falcon-mamba-7b", "no FFN", "无前馈网络"),
        ("whisper-large-v3", "two convolutions", "两个卷积"),
        ("deepseek-v3", "embedding copy", "嵌入副本"),
    ],
)
def test_run_titles_and_part_names_read_in_chinese(
    source: str, english: str, chinese: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert english in _report_en(source, capsys)  # the English report names it so
    html = _report(source, capsys)
    assert english not in html and chinese in html


def _report_en(source: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["report", source, "--format", "md"]) == 0
    return capsys.readouterr().out
