"""Invariants of the calculator over many random architectures."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from paramtally.core.edit import with_value, without_biases
from paramtally.core.params import count_parameters
from paramtally.core.schema import Architecture
from tests.core.strategies import architectures

settings.register_profile("paramtally", max_examples=150, deadline=None)
settings.load_profile("paramtally")


@given(architectures())
def test_leaves_and_parts_sum_to_total(arch: Architecture) -> None:
    report = count_parameters(arch)
    assert sum(node.params for _, node in report.tree.leaves()) == report.total
    assert sum(report.by_part.values()) == report.total
    assert sum(node.params for _, node in report.tree.leaves() if node.added) == report.added


@given(architectures())
def test_every_node_is_the_sum_of_its_children(arch: Architecture) -> None:
    for _, _, node in count_parameters(arch).tree.walk():
        if node.children:
            assert node.params == sum(child.params for child in node.children)


@given(architectures())
def test_layer_rows_add_up_to_the_layer_groups(arch: Architecture) -> None:
    report = count_parameters(arch)
    groups = [node for node in report.tree.children if node.name.startswith("layer")]
    assert sum(row.params for row in report.layers) == sum(node.params for node in groups)
    assert len(report.layers) == arch.num_layers


@given(architectures())
def test_tying_saves_exactly_the_head_matrix(arch: Architecture) -> None:
    untied = with_value(with_value(arch, "head.present", True), "head.tied", False)
    tied = with_value(untied, "head.tied", True)
    saved = count_parameters(untied).total - count_parameters(tied).total
    growth = arch.added_vocab
    assert saved == (arch.embeddings.vocab_size + growth) * arch.embed_dim


@given(architectures(), st.integers(0, 3))
def test_more_layers_never_fewer_parameters(arch: Architecture, extra: int) -> None:
    grown = with_value(arch, "layers.0.count", arch.layers[0].count + extra)
    before, after = count_parameters(arch), count_parameters(grown)
    assert after.total >= before.total
    assert after.total - before.total == extra * before.layers[0].params


@given(architectures())
def test_active_never_exceeds_total_and_equals_it_without_moe(arch: Architecture) -> None:
    report = count_parameters(arch)
    assert 0 < report.active <= report.total
    if not any(group.moe for group in arch.layers):
        assert report.active == report.total


@given(architectures())
def test_removing_biases_never_adds_parameters(arch: Architecture) -> None:
    assert count_parameters(without_biases(arch)).total <= count_parameters(arch).total


@given(architectures())
def test_schema_json_round_trips(arch: Architecture) -> None:
    again = Architecture.model_validate_json(arch.model_dump_json())
    assert again == arch
    assert count_parameters(again).total == count_parameters(arch).total
