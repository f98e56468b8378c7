"""``with_values`` opens up only the edited branches of a model; it must answer exactly as
validating the whole model's dump with the change does: the same model, or the same refusal
(the same exception, the same field and reason)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from paramtally.core.blocks import KIND_TAGS, retyped
from paramtally.core.editing.edits import FieldPath, with_values
from paramtally.core.errors import field_problems, one_line
from paramtally.core.io.model_sources import load_source
from paramtally.core.io.presets import builtin_ids
from paramtally.core.schema import Architecture, thaw
from tests.core.strategies import architectures


def plain_with_values(model: BaseModel, values: dict[FieldPath, Any]) -> BaseModel:
    """The plain way: the whole model dumped, changed, validated again."""
    data = thaw(model.model_dump())
    for path, value in values.items():
        *parents, last = path
        node: Any = data
        for part in parents:
            node = node[part]
        if last == "kind" and node.get("kind") in KIND_TAGS and value in KIND_TAGS and node["kind"] != value:
            replaced = retyped(node, value, data["hidden_size"])
            node.clear()
            node.update(replaced)
        else:
            node[last] = value
    return type(model).model_validate(data)


def outcome(edit: Any, model: BaseModel, values: dict[FieldPath, Any]) -> tuple[str, Any]:
    """What an edit gives: the model, or the refusal as a person sees it."""
    try:
        return "model", edit(model, values)
    except ValidationError as exc:
        return "refused", (field_problems(exc), one_line(exc))
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        return type(exc).__name__, str(exc)


def assert_same(model: BaseModel, values: dict[FieldPath, Any]) -> None:
    fast, plain = outcome(with_values, model, values), outcome(plain_with_values, model, values)
    assert fast == plain
    if fast[0] == "model":  # equal, and equal all the way down (the dump a file would hold)
        assert fast[1].model_dump() == plain[1].model_dump()


def field_paths(data: Any, path: FieldPath = ()) -> list[FieldPath]:
    """Every path into a dumped model, to its leaves and to the mappings and lists on the way."""
    found = [path] if path else []
    if isinstance(data, dict):
        for key, item in data.items():
            found += field_paths(item, (*path, key))
    elif isinstance(data, list):
        for index, item in enumerate(data):
            found += field_paths(item, (*path, index))
    return found


VALUES = st.one_of(
    st.integers(-2, 300),
    st.sampled_from([0, 1, 4096, 1 << 25]),
    st.none(),
    st.booleans(),
    st.sampled_from(sorted(KIND_TAGS)),
    st.sampled_from(["", "default", "cross", "x", "4096"]),
    st.just({}),
    st.just([]),
)


Edit = tuple[Architecture, dict[FieldPath, Any]]


@st.composite
def edits(draw: st.DrawFn) -> Edit:
    arch = draw(architectures())
    paths = field_paths(thaw(arch.model_dump()))
    # Also paths that do not exist: a key no model has, an index past the end, a step into a leaf.
    odd = [("nonsense",), ("blocks", "missing", "ffn"), ("decoder", "layers", 9, "count"), ("hidden_size", 0)]
    chosen = draw(st.lists(st.sampled_from(paths + odd), min_size=1, max_size=3, unique=True))
    data = thaw(arch.model_dump())
    # Mostly values of the kind in force (as a person types), some of any kind.
    fitting = {path: draw(near(value_at(data, path))) for path in chosen}
    typos = {path: draw(VALUES) for path in chosen if draw(st.integers(0, 3)) == 0}
    return arch, fitting | typos


def value_at(data: Any, path: FieldPath) -> Any:
    try:
        for part in path:
            data = data[part]
    except (KeyError, IndexError, TypeError):
        return None
    return data


def near(value: Any) -> st.SearchStrategy[Any]:
    """Values like the one in force (most edits a person makes are of the right type)."""
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int):
        return st.sampled_from([value + 1, value * 2, max(value - 1, 1), value // 2 or 1])
    return st.just(value)


@given(edits())
def test_any_edit_answers_as_validating_the_whole_dump(case: Edit) -> None:
    assert_same(*case)


@given(architectures(), st.integers(1, 512))
def test_a_new_hidden_size_answers_as_validating_the_whole_dump(arch: Architecture, hidden: int) -> None:
    assert_same(arch, {("hidden_size",): hidden})


PARTS = st.sampled_from(["mixer", "ffn", "parallel_mixer"])


@given(architectures(), st.sampled_from(sorted(KIND_TAGS)), PARTS)
def test_a_new_kind_answers_as_validating_the_whole_dump(arch: Architecture, kind: str, part: str) -> None:
    at = ("blocks", "default", part)
    assert_same(arch, {(*at, "kind"): kind})
    assert_same(arch, {(*at, "num_heads"): 2, (*at, "kind"): kind})


@pytest.mark.parametrize("preset", builtin_ids())
def test_every_preset_answers_as_validating_the_whole_dump(preset: str) -> None:
    arch = load_source(preset)
    block = ("blocks", arch.main_stack.block)
    for values in (
        {("hidden_size",): arch.hidden_size + 64},
        {("hidden_size",): arch.hidden_size + 1},
        {("embeddings", "vocab_size"): 1000, ("added_vocab",): 3},
        {(*block, "mixer", "kind"): "mamba2"},
        {(*block, "ffn", "kind"): "moe"},
        {(*block, "mixer", "num_kv_heads"): 3},
        {("decoder", "layers", 0, "count"): 2},
        {("decoder", "layers", 0, "override"): {"ffn": {"kind": "none"}}},
        {(*block, "lora"): {"rank": 8, "targets": ["q", "v"]}},
        {(*block, "lora", "rank"): 8},
    ):
        assert_same(arch, values)


def test_the_branches_beside_an_edit_are_the_same_objects() -> None:
    """What makes the edit cheap: untouched blocks and layer groups are taken as they are."""
    arch = load_source("deepseek-v3")
    edited = with_values(arch, {("blocks", "default", "ffn", "width"): 4096})
    assert edited.decoder is not None and arch.decoder is not None
    assert edited.decoder.layers[0] is arch.decoder.layers[0]
    assert edited.blocks["default"].mixer is arch.blocks["default"].mixer
    assert edited.blocks["default"].ffn is not arch.blocks["default"].ffn
    assert edited.blocks["default"].ffn.width == 4096  # type: ignore[union-attr]


@given(st.data())
def test_a_scenario_edit_answers_as_validating_the_whole_dump(data: st.DataObject) -> None:
    from paramtally.core.memory.scenario import Scenario

    scenario = Scenario()
    fields = data.draw(st.lists(st.sampled_from(sorted(Scenario.model_fields)), min_size=1, max_size=3))
    values = {(name,): data.draw(near(getattr(scenario, name)) | VALUES) for name in fields}
    assert_same(scenario, values)
