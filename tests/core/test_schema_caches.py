"""The schema's caches answer as the plain computation does: a stack's runs looked up after an
edit equal the runs resolved afresh, group by group; a layer group's or a stack's hash, kept once
made, equals the hash of an equal one built anew, also after a copy with changes."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from paramtally.core.editing.edits import with_values
from paramtally.core.io.model_sources import load_source
from paramtally.core.schema import Architecture, thaw
from paramtally.core.schema.stack import LayerGroup, Stack, flatten
from tests.core.strategies import architectures


def plain_runs(arch: Architecture) -> tuple[Any, ...]:
    """The runs resolved afresh: every stack's groups flattened against the model's blocks."""
    runs: list[Any] = []
    for role, stack in arch.stacks:
        runs += flatten(role, stack.layers, dict(arch.blocks), stack.block)
    return tuple(runs)


@given(architectures(), st.integers(1, 4), st.integers(1, 3))
def test_runs_after_edits_equal_runs_resolved_afresh(arch: Architecture, factor: int, vocab: int) -> None:
    assert arch.runs == plain_runs(arch)
    # A new hidden size, then a new vocabulary: the groups are handed on, their runs looked up.
    wider = with_values(arch, {("hidden_size",): arch.hidden_size * factor})
    assert wider.decoder is arch.decoder or wider.decoder is None
    assert wider.runs == plain_runs(wider) == plain_runs(arch)
    again = with_values(wider, {("embeddings", "vocab_size"): vocab})
    assert again.runs == plain_runs(again)
    # The same model validated from its dump (no object shared) finds the same runs.
    fresh = Architecture.model_validate(thaw(again.model_dump()))
    assert fresh.runs == again.runs and fresh.layers_by_block() == again.layers_by_block()


def test_runs_follow_a_changed_block() -> None:
    # Same groups, a different base block: the runs are resolved again, not taken from before.
    arch = load_source("llama-3-8b")
    edited = with_values(arch, {("blocks", "default", "mixer", "num_kv_heads"): 4})
    assert edited.decoder is arch.decoder
    assert edited.runs == plain_runs(edited) != arch.runs
    assert {run.block.mixer.num_kv_heads for run in edited.runs} == {4}


@given(architectures(encoders=False))
def test_groups_and_stacks_hash_as_built_anew(arch: Architecture) -> None:
    stack = arch.decoder
    assert stack is not None
    for group in stack.layers:
        twin = LayerGroup.model_validate(thaw(group.model_dump()))
        hash(group)
        assert twin == group and hash(twin) == hash(group)
        more = group.model_copy(update={"count": group.count + 1})
        built = LayerGroup.model_validate({**thaw(group.model_dump()), "count": group.count + 1})
        assert more == built and hash(more) == hash(built) and more != group
    hash(stack)
    fewer = stack.model_copy(update={"layers": stack.layers[:1]})
    built = Stack.model_validate({**thaw(stack.model_dump()), "layers": [thaw(stack.layers[0].model_dump())]})
    assert fewer == built and hash(fewer) == hash(built)
    assert (fewer == stack) == (len(stack.layers) == 1)


def plain_layers_by_block(arch: Architecture) -> dict[Any, int]:
    counts: dict[Any, int] = {}
    for run in plain_runs(arch):
        counts[run.block] = counts.get(run.block, 0) + run.layers
    return counts


def plain_first_group_problem(arch: Architecture, h: int) -> tuple[Any, ...] | None:
    """Where validation at hidden size ``h`` first refuses a group's own block, run by run."""
    checked = set(arch.blocks.values())
    for run in plain_runs(arch):
        if run.block in checked:
            continue
        checked.add(run.block)
        for loc, message, _ in run.block.problems(h):
            return (run.stack, "layers", run.group, "override", *loc), message
    return None


@given(architectures(), st.integers(1, 4))
def test_a_stacks_layer_figures_kept_with_its_runs_equal_those_counted_afresh(
    arch: Architecture, factor: int
) -> None:
    for model in (arch, with_values(arch, {("hidden_size",): arch.hidden_size * factor})):
        assert model.num_layers == sum(stack.num_layers for _, stack in model.stacks)
        assert model.layers_by_block() == plain_layers_by_block(model)
        assert list(model.layers_by_block()) == list(plain_layers_by_block(model))  # in run order


@given(architectures(), st.integers(1, 4096))
def test_a_groups_problem_is_found_where_the_runs_in_order_find_it(arch: Architecture, h: int) -> None:
    # A hidden size the groups' heads may not divide: the error names the first group (in layer
    # order) whose own block has a problem, as checking the runs one by one does.
    from paramtally.core.schema.model import _first_problem

    plain = plain_first_group_problem(arch, h)
    if plain is None or any(block.problems(h) for block in arch.blocks.values()):
        return  # a base block's problem is found first; the groups are not reached
    changed = arch.model_construct(**{**dict(arch), "hidden_size": h})
    problem = _first_problem(changed)
    assert problem is not None and problem[:2] == plain
