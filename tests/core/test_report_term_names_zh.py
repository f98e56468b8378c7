"""A Chinese design report names the memory terms in Chinese, their qualifiers too: it wrote
'激活值（prefill working set）' and 'logits (fp32, last token)', the qualifier kept in English
whole and a known name whose translation is itself ('logits') left untranslated with it."""

from __future__ import annotations

import pytest

from paramtally.core.io.formats import Terms
from paramtally.core.io.model_sources import load_source
from paramtally.core.io.report import report_export
from paramtally.core.memory.scenario import Scenario, opening_scenario


def _memory_names(source: str, scenario: Scenario | None, language: str) -> list[str]:
    architecture = load_source(source)
    content = report_export(
        architecture, scenario or opening_scenario(architecture), source, language=language
    )
    memory = [block for block in content.blocks() if isinstance(block, Terms)][1]  # after the derivation
    return [row.name for row in memory.rows]


@pytest.mark.parametrize(
    ("source", "scenario", "expected"),
    [
        ("gpt3-175b", None, {"激活值（预填充工作集）", "logits（fp32，最后一个 token）"}),
        (
            "llama-2-7b",
            Scenario(mode="training", activations="hf-sdpa"),
            {"激活值（token id，嵌入 dropout）", "激活值（最终归一化，输出头输入）"},
        ),
        (
            "mixtral-8x7b",
            Scenario(mode="training", tp=2, ep=8, gpus=16),
            {"路由专家权重（bf16）", "路由专家优化器状态（AdamW m + v fp32 + fp32 主权重）"},
        ),
        (
            "gpt3-175b",
            Scenario(mode="training", tp=8, pp=8, gpus=64, vocab_padding=True),
            {"词表填充权重（bf16）"},
        ),
    ],
)
def test_memory_terms_and_their_qualifiers_read_in_chinese(
    source: str, scenario: Scenario | None, expected: set[str]
) -> None:
    names = _memory_names(source, scenario, "zh_CN")
    assert expected <= set(names), names


def test_english_reports_keep_the_calculator_s_names() -> None:
    names = _memory_names("gpt3-175b", None, "en")
    assert "activations (prefill working set)" in names and "logits (fp32, last token)" in names


def test_flops_terms_qualifiers_read_in_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    from paramtally.core.cli import main

    assert main(["report", "gpt3-175b", "--lang", "zh_CN", "--format", "md"]) == 0
    text = capsys.readouterr().out
    assert "每 token 注意力（预填充，前向）" in text and "每 token 训练（完整注意力）" in text
    assert "（prefill" not in text and "forward）" not in text
