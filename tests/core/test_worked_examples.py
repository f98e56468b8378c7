"""The reference worked examples (Brown et al. 2020) out of the GPT-3 preset."""

from __future__ import annotations

from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing.edits import with_value, without_biases
from paramtally.core.io.presets import load_builtin


def _block(report):  # the one layer-group node of a uniform stack
    (group,) = [node for node in report.tree.children if node.name.startswith("layers")]
    return group


def test_gpt3_with_biases() -> None:
    report = count_parameters(load_builtin("gpt3-175b"))
    assert report.total == 175_221_817_344
    assert report.active == report.total
    assert _block(report).count == 96


def test_gpt3_without_biases_and_its_block() -> None:
    report = count_parameters(without_biases(load_builtin("gpt3-175b")))
    assert report.total == 175_211_200_512
    assert _block(report).unit_value == 1_811_988_480


def test_gpt3_tied() -> None:
    tied = with_value(load_builtin("gpt3-175b"), ("head", "tied"), True)
    assert count_parameters(tied).total == 174_604_259_328


def test_attention_formula_is_shown_with_numbers() -> None:
    report = count_parameters(load_builtin("gpt3-175b"))
    formulas = [node.formula for _, node in report.tree.leaves()]
    assert "4·h² = 4·12288² = 603,979,776" in formulas
