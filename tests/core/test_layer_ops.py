"""Pure edits of the layer stack: split, move, delete, convert; each is checked by its counts."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing import layer_ops
from paramtally.core.editing.edits import get_value, with_values
from paramtally.core.errors import ParamTallyError
from paramtally.core.io.model_sources import load_source
from paramtally.core.io.presets import load_builtin
from paramtally.core.schema import DenseFFN, LayerGroup, LoRA, MoE
from paramtally.core.schema.derived_sizes import ffn_width_from_hidden
from tests.layer_blocks import layer_windows

MOE = MoE(num_experts=8, top_k=2, expert_width=64)


@pytest.fixture
def stack() -> layer_ops.Layers:
    return (
        LayerGroup(count=3),
        LayerGroup(count=5, override={"ffn": MOE.model_dump()}),
        LayerGroup(count=2, override={"lora": LoRA(rank=4).model_dump()}),
    )


def test_split_keeps_blocks_and_total_layers(stack: layer_ops.Layers) -> None:
    result = layer_ops.split_group(stack, 1, 2)
    assert [g.count for g in result] == [3, 2, 3, 2]
    assert result[1].override == result[2].override == stack[1].override
    assert layer_ops.group_starts(result) == (0, 3, 5, 8)


@pytest.mark.parametrize("first", [0, 5, -1])
def test_split_outside_group_is_refused(stack: layer_ops.Layers, first: int) -> None:
    with pytest.raises(ParamTallyError, match=r"layers\.1\.count"):
        layer_ops.split_group(stack, 1, first)


def test_split_then_merge_round_trips() -> None:
    arch = load_builtin("llama-3-8b")
    split = layer_ops.with_layers(arch, layer_ops.split_group(arch.decoder.layers, 0, 10))
    assert layer_ops.merge_with_next(split, ("decoder", "layers", 0)) == arch
    moe = layer_ops.with_group_value(split, ("decoder", "layers", 1), ("ffn", "kind"), "moe")
    assert not layer_ops.mergeable(moe, ("decoder", "layers", 0))
    with pytest.raises(ParamTallyError, match="same blocks"):
        layer_ops.merge_with_next(moe, ("decoder", "layers", 0))
    assert not layer_ops.mergeable(split, ("decoder", "layers", 1))  # the last group: nothing after it


def test_groups_of_the_same_block_merge_however_their_overrides_spell_it() -> None:
    """QA: a pasted block's override spelled out defaults (rope: true) that the next group's did not;
    'Merge with next' said their blocks differ."""
    arch = load_builtin("llama-3-8b")
    layers = layer_ops.split_group(arch.decoder.layers, 0, 10)
    spelled = layers[1].model_copy(update={"override": {"mixer": {"rope": True, "sliding_window": None}}})
    arch = layer_ops.with_layers(arch, (layers[0], spelled))
    assert layer_ops.mergeable(arch, ("decoder", "layers", 0))
    merged = layer_ops.merge_with_next(arch, ("decoder", "layers", 0))
    assert [group.count for group in merged.decoder.layers] == [32]
    assert count_parameters(merged).total == count_parameters(arch).total


def test_move_and_delete(stack: layer_ops.Layers) -> None:
    moved = layer_ops.move_group(stack, 0, 2)
    assert moved == (stack[1], stack[2], stack[0])
    assert layer_ops.move_group(moved, 2, 0) == stack
    assert layer_ops.delete_group(stack, 1) == (stack[0], stack[2])
    with pytest.raises(ParamTallyError, match="at least one"):
        layer_ops.delete_group((stack[0],), 0)
    with pytest.raises(ParamTallyError, match=r"layers\.7"):
        layer_ops.delete_group(stack, 7)


def test_set_blocks_validates(stack: layer_ops.Layers) -> None:
    moe = MoE(num_experts=4, top_k=1, expert_width=32)
    assert layer_ops.set_moe(stack, 0, moe)[0].override["ffn"] == moe.model_dump()
    assert "ffn" not in layer_ops.set_moe(stack, 1, None)[1].override
    assert "lora" not in layer_ops.set_lora(stack, 2, None)[2].override  # back to its base block
    inherited = LoRA(rank=8)  # a base block with LoRA: the group must say it has none
    assert layer_ops.set_lora(stack, 2, None, inherited)[2].override["lora"] is None
    assert "lora" not in layer_ops.set_lora(stack, 2, inherited, inherited)[2].override
    assert layer_ops.set_count(stack, 0, 7)[0].count == 7
    with pytest.raises(ValidationError):
        layer_ops.set_count(stack, 0, 0)


def test_split_and_convert_change_the_count_as_the_calculator_says() -> None:
    arch = load_builtin("gpt3-175b")
    assert arch.decoder is not None
    split = layer_ops.with_layers(arch, layer_ops.split_group(arch.decoder.layers, 0, 48))
    assert count_parameters(split).total == count_parameters(arch).total
    f = 4 * arch.hidden_size
    assert arch.blocks["default"].ffn == DenseFFN(width=f, gated=False, bias=True, activation="gelu_new")
    moe = MoE(num_experts=8, top_k=2, expert_width=f, gated=False)
    assert split.decoder is not None
    mixed = layer_ops.with_layers(split, layer_ops.set_moe(split.decoder.layers, 1, moe))
    report = count_parameters(mixed)
    dense = count_parameters(arch)
    # Top-2 of 8 experts as wide as the dense FFN: more active than dense, far fewer than stored.
    assert report.total > report.active > dense.total
    # The 6 idle experts of each of the 48 MoE layers: a 2-matrix MLP without biases, 2·h·f.
    h = arch.hidden_size
    assert report.total - report.active == 48 * 6 * (2 * h * f)
    with pytest.raises(ValidationError, match="top_k"):
        bad = MoE.model_construct(num_experts=2, top_k=3, expert_width=8)
        layer_ops.with_layers(arch, layer_ops.set_moe(arch.decoder.layers, 0, bad))


def test_total_layers_grow_the_last_group_and_shrink_from_the_end() -> None:
    deepseek = load_source("deepseek-v3")  # 3 dense + 58 MoE layers
    assert deepseek.decoder is not None
    layers = deepseek.decoder.layers
    grown = layer_ops.set_total(layers, 70)
    assert [g.count for g in grown] == [3, 67] and grown[1].override == layers[1].override
    cut = layer_ops.set_total(layers, 2)
    assert [g.count for g in cut] == [2] and not cut[0].override
    assert layer_ops.set_total(layers, 61) == layers
    with pytest.raises(ParamTallyError, match="needs at least 1 layer"):
        layer_ops.set_total(layers, 0)
    # The form's "Layers" value is this edit, and counts as the calculator says.
    arch = with_values(deepseek, {("decoder", "num_layers"): 4})
    assert arch.num_layers == 4 and get_value(arch, ("decoder", "num_layers")) == 4
    block = count_parameters(deepseek).layers[-1].params
    assert (
        count_parameters(with_values(deepseek, {("decoder", "num_layers"): 62})).total
        == count_parameters(deepseek).total + block
    )


def test_total_layers_of_a_pattern_keep_whole_repetitions_and_write_out_the_rest() -> None:
    gemma = load_source("gemma-2-9b")  # 21 × [sliding, global]

    cut = with_values(gemma, {("decoder", "num_layers"): 5})
    assert layer_windows(cut) == [4096, None, 4096, None, 4096]
    grown = with_values(gemma, {("decoder", "num_layers"): 44})
    assert layer_windows(grown) == [4096, None] * 21 + [None, None]  # new layers take the last layer's block


@pytest.mark.parametrize(
    ("preset_id", "multiple_of", "multiplier"),
    [
        ("llama-2-7b", 256, 1.0),
        ("llama-2-13b", 256, 1.0),
        ("llama-3-8b", 1024, 1.3),
        ("llama-2-70b", 4096, 1.3),
        ("llama-3.1-405b", 1024, 1.2),
    ],
)
def test_ffn_width_from_hidden_is_llamas_rule(preset_id: str, multiple_of: int, multiplier: float) -> None:
    arch = load_source(preset_id)
    width = arch.blocks["default"].ffn.width
    assert ffn_width_from_hidden(arch.hidden_size, multiple_of, multiplier, gated=True) == width
    assert (
        ffn_width_from_hidden(12288, 64, gated=False) == load_source("gpt3-175b").blocks["default"].ffn.width
    )


def test_a_moved_group_is_followed_through_the_move_its_undo_and_its_redo() -> None:
    """Issue 31, bug 5: the tree's selection follows the group, not the place it was at."""
    gpt3 = load_source("gpt3-175b")
    split = layer_ops.with_layers(gpt3, layer_ops.split_group(gpt3.decoder.layers, 0, 10))  # type: ignore[union-attr]
    moved = layer_ops.with_layers(split, layer_ops.move_group(split.decoder.layers, 0, 1))  # type: ignore[union-attr]
    first, second = ("decoder", "layers", 0), ("decoder", "layers", 1)
    assert layer_ops.moved_groups(split, moved, [first, second]) == [second, first]
    assert layer_ops.moved_groups(moved, split, [second]) == [first]  # the undo
    # Not a reordering (a count changed): every address stays.
    recounted = layer_ops.with_layers(split, layer_ops.set_count(split.decoder.layers, 0, 20))  # type: ignore[union-attr]
    assert layer_ops.moved_groups(split, recounted, [first]) == [first]
    assert layer_ops.moved_groups(split, split, [first, second]) == [first, second]
