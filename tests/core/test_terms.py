"""One term type (issue 32): the parameter breakdown, memory, FLOPs and serving are all made of
``core.terms.term.Term``, and a term's figure, its formula and its repetitions agree whatever made it."""

from __future__ import annotations

from pathlib import Path

import pytest

from paramtally.core.count.parameters import count_parameters
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.estimate import Scenario, estimate_memory
from paramtally.core.memory.flops import estimate_flops
from paramtally.core.memory.serving import estimate_serving
from paramtally.core.terms.term import Term, group

ROOT = Path(__file__).resolve().parents[2]


def every_term(preset: str) -> dict[str, list[Term]]:
    arch = load_builtin(preset)
    scenario = Scenario(mode="inference", context=4096)
    report = count_parameters(arch)
    serving = estimate_serving(arch, scenario)
    assert serving is not None
    return {
        "parameters": [term for _, _, term in report.walk()],
        "memory": list(estimate_memory(arch, scenario).terms),
        "flops": list(estimate_flops(arch, scenario).terms),
        "serving": list(serving.terms),
    }


@pytest.mark.parametrize("preset", ["gpt3-175b", "deepseek-v3", "jamba-v0.1"])
def test_parameters_memory_flops_and_serving_are_made_of_one_term_type(preset: str) -> None:
    found = every_term(preset)
    assert all(found.values())
    for figure, terms in found.items():
        assert {type(term) for term in terms} == {Term}, figure


@pytest.mark.parametrize("preset", ["gpt3-175b", "deepseek-v3"])
def test_a_terms_formula_ends_in_its_own_figure(preset: str) -> None:
    for figure, terms in every_term(preset).items():
        for term in terms:
            if term.expr and term.whole:  # a quantity's formula shows four significant digits
                shown = term.formula.rsplit(" = ", 1)[-1].replace(",", "")  # "c = 1073741824": no third
                assert shown == str(term.unit_value), (figure, term)
            if term.count > 1:
                assert term.unit_value * term.count == term.value
            if term.count > 1 and term.formula:  # a group without a note has no formula
                assert term.full_formula.startswith(f"{term.count} × (")
                assert term.full_formula.endswith(f") = {term.value:,}")


def test_a_group_sums_its_children_and_repeats_with_them() -> None:
    report = count_parameters(load_builtin("gpt3-175b"))
    for _, _, term in report.walk():
        if term.children:
            assert term.value == sum(child.value for child in term.children)
    attention = Term.of("attention", "attention", "4·h²", "", h=12288)
    one = group("block", [attention, Term("bias", 3, "norms", "3")])
    assert (one.value, one.formula, one.is_leaf) == (4 * 12288**2 + 3, "", False)
    many = one.repeated(96)
    assert (many.value, many.count, many.unit_value) == (96 * one.value, 96, one.value)
    assert [child.value for child in many.children] == [96 * 4 * 12288**2, 96 * 3]
    assert many.children[0].full_formula == f"96 × (4·h² = 4·12288² = 603,979,776) = {96 * 603_979_776:,}"


def test_no_second_term_type_in_core() -> None:
    assert sorted(path.name for path in (ROOT / "core" / "terms").glob("*.py")) == [
        "__init__.py",
        "formula.py",
        "term.py",
    ]
