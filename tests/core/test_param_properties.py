"""Invariants of the calculator over many random architectures."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing.edits import with_value, without_biases
from paramtally.core.schema import Architecture
from tests.core.strategies import architectures


@given(architectures())
def test_leaves_and_parts_sum_to_total(arch: Architecture) -> None:
    report = count_parameters(arch)
    assert sum(node.value for _, node in report.tree.leaves()) == report.total
    assert sum(report.by_part.values()) == report.total
    assert sum(node.value for _, node in report.tree.leaves() if node.added) == report.added
    if report.mtp_tree is not None:
        assert report.mtp == report.mtp_tree.value > 0


@given(architectures())
def test_paths_are_unique_tuples(arch: Architecture) -> None:
    paths = [path for path, _, _ in count_parameters(arch).tree.walk()]
    assert all(isinstance(path, tuple) for path in paths)
    assert len(set(paths)) == len(paths)


@given(architectures())
def test_every_node_is_the_sum_of_its_children(arch: Architecture) -> None:
    for _, _, node in count_parameters(arch).tree.walk():
        if node.children:
            assert node.value == sum(child.value for child in node.children)


@given(architectures())
def test_layer_rows_are_every_layer_once(arch: Architecture) -> None:
    report = count_parameters(arch)
    stacks = arch.stacks_with_vision  # the vision tower's layers are rows too, listed first
    assert len(report.layers) == sum(stack.num_layers for _, stack in stacks)
    for role, stack in stacks:
        indices = [row.index for row in report.layers if row.stack == role]
        assert indices == list(range(stack.num_layers))
    in_runs = sum(row.params * row.layers for row in report.layer_groups)
    assert sum(row.params for row in report.layers) == in_runs


@given(architectures(), st.integers(0, 40), st.integers(0, 40))
def test_runs_count_layers_in_any_range_without_visiting_them(arch: Architecture, a: int, b: int) -> None:
    first, stop = min(a, b), max(a, b)
    report = count_parameters(arch)
    for run, row in zip(arch.runs, report.groups, strict=True):
        visited = sum(1 for i in row.layer_indices() if first <= i < stop)
        assert run.layers_in(first, stop) == visited


@given(architectures())
def test_tying_saves_exactly_the_head_matrix(arch: Architecture) -> None:
    untied = with_value(with_value(arch, ("head", "present"), True), ("head", "tied"), False)
    tied = with_value(untied, ("head", "tied"), True)
    saved = count_parameters(untied).total - count_parameters(tied).total
    growth = arch.added_vocab
    assert saved == (arch.embeddings.vocab_size + growth) * arch.embed_dim


@given(architectures(), st.integers(0, 3))
def test_more_layers_never_fewer_parameters(arch: Architecture, extra: int) -> None:
    first = arch.main_stack.layers[0]
    role = "decoder" if arch.decoder is not None else "encoder"
    grown = with_value(arch, (role, "layers", 0, "count"), first.count + extra)
    before, after = count_parameters(arch), count_parameters(grown)
    rows = [row for row in before.groups if row.stack == role and row.group == 0]
    # One more count is one more layer of a plain group, one more repetition of a pattern.
    one_repetition = sum(row.params * row.count for row in rows) if first.pattern else rows[0].params
    assert after.total >= before.total
    assert after.total - before.total == extra * one_repetition


@given(architectures())
def test_active_never_exceeds_total_and_equals_it_without_moe(arch: Architecture) -> None:
    report = count_parameters(arch)
    assert 0 < report.active <= report.total
    routed = ("moe", "moa")  # routed experts in the FFN or (JetMoE's) in the attention
    if not any(block.ffn.kind in routed or block.mixer.kind in routed for block in arch.layers_by_block()):
        assert report.active == report.total


@given(architectures())
def test_removing_biases_never_adds_parameters(arch: Architecture) -> None:
    assert count_parameters(without_biases(arch)).total <= count_parameters(arch).total


@given(architectures())
def test_schema_json_round_trips(arch: Architecture) -> None:
    again = Architecture.model_validate_json(arch.model_dump_json())
    assert again == arch
    assert count_parameters(again).total == count_parameters(arch).total
