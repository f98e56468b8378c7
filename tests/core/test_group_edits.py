"""Edits of one layer group's block (also inside a pattern), copy and paste, and ranges of layers."""

from __future__ import annotations

import pytest

from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing import layer_ops
from paramtally.core.errors import ParamTallyError
from paramtally.core.io.model_sources import load_source
from paramtally.core.schema import Architecture
from paramtally.core.schema.group_addresses import difference, field_origin, group_block, inherited_block

ATTENTION = ("decoder", "layers", 0, "pattern", 4)  # Jamba's attention layer in its 8-layer pattern


def _kinds(arch: Architecture) -> list[tuple[str, str]]:
    """(mixer, FFN) of every layer of the decoder, in order."""
    layers: dict[int, tuple[str, str]] = {}
    for run in arch.runs:
        for start in run.starts():
            for layer in range(start, start + run.count):
                layers[layer] = (run.block.mixer.kind, run.block.ffn.kind)
    return [layers[i] for i in sorted(layers)]


def test_a_group_value_is_written_as_a_change_and_reset_back() -> None:
    jamba = load_source("jamba-v0.1")
    windowed = layer_ops.with_group_value(jamba, ATTENTION, ("mixer", "sliding_window"), 1024)
    assert group_block(windowed, ATTENTION).mixer.sliding_window == 1024  # type: ignore[union-attr]
    assert count_parameters(windowed).total == count_parameters(jamba).total  # a window has no weights
    # Jamba's base block is Mamba: the attention layer's mixer is its own as a whole.
    assert field_origin(windowed, ATTENTION, ("mixer", "sliding_window")) == "own kind"
    assert field_origin(windowed, ATTENTION, ("ffn", "width")) == "inherited"
    with pytest.raises(ParamTallyError, match="reset its kind"):
        layer_ops.without_group_value(windowed, ATTENTION, ("mixer", "sliding_window"))
    back = layer_ops.without_group_value(windowed, ATTENTION, ("mixer", "kind"))
    assert group_block(back, ATTENTION).mixer == jamba.blocks["default"].mixer


def test_a_value_equal_to_the_inherited_one_is_no_change() -> None:
    llama = load_source("llama-3-8b")
    group = ("decoder", "layers", 0)
    wider = layer_ops.with_group_value(llama, group, ("ffn", "width"), 20000)
    assert wider.decoder.layers[0].override == {"ffn": {"width": 20000}}  # type: ignore[union-attr]
    assert field_origin(wider, group, ("ffn", "width")) == "own"
    assert layer_ops.without_group_value(wider, group, ("ffn", "width")) == llama
    same = layer_ops.with_group_value(wider, group, ("ffn", "width"), 14336)
    assert same == llama


def test_another_mixer_kind_keeps_what_the_kinds_share() -> None:
    llama = load_source("llama-3-8b")
    group = ("decoder", "layers", 0)
    mamba2 = layer_ops.with_group_value(llama, group, ("mixer", "kind"), "mamba2")
    assert group_block(mamba2, group).mixer.kind == "mamba2"
    mla = layer_ops.with_group_value(llama, group, ("mixer", "kind"), "mla")
    assert group_block(mla, group).mixer.num_heads == 32  # type: ignore[union-attr]
    reset = layer_ops.without_group_value(mla, group, ("mixer", "kind"))
    assert reset == llama


@pytest.mark.parametrize("through", [("mamba2",), ("mla", "mamba", "gated_deltanet")])
def test_a_mixer_switched_back_to_its_inherited_kind_is_the_inherited_one(through: tuple[str, ...]) -> None:
    """QA: GPT-3's group through Mamba-2 and back to attention lost its q/k/v/o biases (a new attention
    from the kind's defaults): 175,219,458,048 instead of 175,221,817,344."""
    gpt3 = load_source("gpt3-175b")
    gpt3 = layer_ops.with_layers(gpt3, layer_ops.split_group(gpt3.decoder.layers, 0, 48))
    group = ("decoder", "layers", 1)
    arch = gpt3
    for kind in (*through, "attention"):
        arch = layer_ops.with_group_value(arch, group, ("mixer", "kind"), kind)
    assert count_parameters(arch).total == 175_221_817_344
    assert arch == gpt3 and field_origin(arch, group, ("mixer", "kind")) == "inherited"


def test_a_pattern_group_inherits_its_enclosing_groups_block() -> None:
    jamba = load_source("jamba-v0.1")
    assert inherited_block(jamba, ATTENTION) == group_block(jamba, ("decoder", "layers", 0))
    assert group_block(jamba, ATTENTION).mixer.kind == "attention"


def test_difference_is_sparse_and_writes_a_new_kind_whole_but_its_defaults() -> None:
    base = {"mixer": {"kind": "attention", "num_heads": 8, "sliding_window": None}, "lora": None}
    window = {"mixer": {"kind": "attention", "num_heads": 8, "sliding_window": 64}, "lora": None}
    assert difference(base, window) == {"mixer": {"sliding_window": 64}}
    mamba = {"mixer": {"kind": "mamba", "state": 32, "conv_kernel": 4}, "lora": None}  # 4: the default
    assert difference(base, mamba) == {"mixer": {"kind": "mamba", "state": 32}}
    assert difference(base, base) == {}


def test_copy_and_paste_a_block_or_one_part() -> None:
    jamba = load_source("jamba-v0.1")
    attention = group_block(jamba, ATTENTION)
    target = ("decoder", "layers", 0, "pattern", 1)  # Mamba with an MoE
    whole = layer_ops.paste_block(jamba, [target], attention)
    assert group_block(whole, target) == attention
    mixer_only = layer_ops.paste_block(jamba, [target], attention, part="mixer")
    block = group_block(mixer_only, target)
    assert block.mixer == attention.mixer and block.ffn.kind == "moe"
    assert count_parameters(mixer_only).total < count_parameters(jamba).total  # attention is smaller


def test_a_pasted_block_keeps_to_its_stack_s_cross_attention() -> None:
    """QA: T5's encoder block pasted onto its decoder took the decoder's cross-attention away
    (222,903,552 → 194,582,784: a decoder that cannot see the input), and the decoder's block pasted
    onto the encoder was refused."""
    t5 = load_source("t5-base")
    encoder, decoder = ("encoder", "layers", 0), ("decoder", "layers", 0)
    cross = group_block(t5, decoder).cross_attention
    onto_decoder = layer_ops.paste_block(t5, [decoder], group_block(t5, encoder))
    assert group_block(onto_decoder, decoder).cross_attention == cross is not None
    assert count_parameters(onto_decoder).total == count_parameters(t5).total  # T5's blocks differ only there
    onto_encoder = layer_ops.paste_block(t5, [encoder], group_block(t5, decoder))
    assert group_block(onto_encoder, encoder).cross_attention is None
    assert group_block(onto_encoder, encoder) == group_block(t5, encoder)


def test_edit_range_splits_the_groups_it_cuts() -> None:
    llama = load_source("llama-3-8b")
    changed = layer_ops.edit_range(
        llama, "decoder", 8, 12, lambda b: layer_ops.block_with_value(b, ("mixer", "kind"), "mamba2", 4096)
    )
    assert [group.count for group in changed.decoder.layers] == [8, 4, 20]  # type: ignore[union-attr]
    kinds = _kinds(changed)
    assert [i for i, (mixer, _) in enumerate(kinds) if mixer == "mamba2"] == [8, 9, 10, 11]


def test_edit_range_through_a_pattern_writes_out_the_repetition_it_cuts() -> None:
    jamba = load_source("jamba-v0.1")
    before = _kinds(jamba)
    changed = layer_ops.edit_range(
        jamba, "decoder", 3, 13, lambda b: layer_ops.block_with_value(b, ("ffn", "kind"), "none", 4096)
    )
    after = _kinds(changed)
    assert changed.decoder.num_layers == 32  # type: ignore[union-attr]
    assert [ffn for _, ffn in after[3:13]] == ["none"] * 10
    assert after[:3] == before[:3] and after[13:] == before[13:]
    assert [mixer for mixer, _ in after] == [mixer for mixer, _ in before]


def test_split_at_a_repetition_boundary_keeps_the_pattern() -> None:
    jamba = load_source("jamba-v0.1")
    layers = layer_ops.split_at(jamba.decoder.layers, 16)  # type: ignore[union-attr]
    assert [(group.count, group.period) for group in layers] == [(2, 8), (2, 8)]


def test_within_a_pattern_the_siblings_can_be_split_and_merged() -> None:
    jamba = load_source("jamba-v0.1")
    pattern = jamba.decoder.layers[0].pattern  # type: ignore[union-attr]
    parent = ("decoder", "layers", 0, "pattern")
    moved = layer_ops.with_siblings(jamba, parent, layer_ops.move_group(pattern, 4, 0))
    assert group_block(moved, ("decoder", "layers", 0, "pattern", 0)).mixer.kind == "attention"
    assert count_parameters(moved).total == count_parameters(jamba).total
    with pytest.raises(ParamTallyError, match="at least one"):
        layer_ops.with_siblings(jamba, parent, ())


def test_an_address_that_leads_nowhere_is_refused() -> None:
    llama = load_source("llama-3-8b")
    with pytest.raises(ParamTallyError, match="no layer group 3"):
        layer_ops.with_group_value(llama, ("decoder", "layers", 2), ("ffn", "width"), 8)
    with pytest.raises(ParamTallyError, match="no encoder"):
        layer_ops.with_group_value(llama, ("encoder", "layers", 0), ("ffn", "width"), 8)
    with pytest.raises(ParamTallyError, match="no lora"):
        layer_ops.with_group_value(llama, ("decoder", "layers", 0), ("lora", "rank"), 8)


def test_a_relative_position_bias_has_the_first_layers_heads() -> None:
    """QA: T5's decoder given 16 heads of its own kept a bias of 32·12 (the base block's heads):
    the bias is the first layer's attention's, buckets × its heads (transformers T5Attention)."""
    t5 = load_source("flan-t5-base")  # 32 buckets, 12 heads; the head width follows h / a
    sixteen = layer_ops.with_group_value(t5, ("decoder", "layers", 0), ("mixer", "num_heads"), 16)

    def biases(arch: Architecture) -> list[int]:
        leaves = count_parameters(arch).tree.leaves()
        return [leaf.value for _, leaf in leaves if leaf.name == "relative position bias"]

    assert biases(t5) == [32 * 12, 32 * 12]  # encoder, decoder
    assert biases(sixteen) == [32 * 12, 32 * 16]
    assert count_parameters(sixteen).total - count_parameters(t5).total == 32 * 4


def test_an_edit_of_several_groups_reaches_those_whose_block_has_the_field_as_it_means_it() -> None:
    """Issue 31, bug 4: Jamba's pattern is Mamba and attention mixers over dense and MoE FFNs."""
    from paramtally.core.schema.group_addresses import groups_reached

    jamba = load_source("jamba-v0.1")
    inner = [(*ATTENTION[:-1], i) for i in range(8)]
    blocks = {group: group_block(jamba, group) for group in inner}
    moe = [group for group in inner if blocks[group].ffn.kind == "moe"]
    dense = [group for group in inner if blocks[group].ffn.kind == "dense"]
    mamba = [group for group in inner if blocks[group].mixer.kind == "mamba"]
    assert moe and dense and mamba and ATTENTION in dense
    assert groups_reached(jamba, [moe[-1], *inner], ("ffn", "num_experts")) == (moe[-1], *moe[:-1])
    assert groups_reached(jamba, [dense[0], *inner], ("ffn", "width")) == tuple(dense)
    # An attention's heads are not a Mamba mixer's, nor is its window: the attention group alone.
    assert groups_reached(jamba, [ATTENTION, *mamba], ("mixer", "num_heads")) == (ATTENTION,)
    # A kind switch reaches every group; a group listed twice is reached once.
    assert groups_reached(jamba, [ATTENTION, *inner, ATTENTION], ("mixer", "kind")) == (
        ATTENTION,
        *(group for group in inner if group != ATTENTION),
    )


def test_a_value_given_to_several_groups_is_one_undo_step_and_a_refusal_stays_typed() -> None:
    from paramtally.core.editing.document import Document

    doc = Document(load_source("jamba-v0.1"))
    inner = [(*ATTENTION[:-1], i) for i in range(8)]
    moe = [group for group in inner if group_block(doc.architecture, group).ffn.kind == "moe"]
    top_k = group_block(doc.architecture, moe[0]).ffn.top_k  # type: ignore[union-attr]
    assert doc.set_groups_value(moe, ("ffn", "num_experts"), 32)
    assert [group_block(doc.architecture, g).ffn.num_experts for g in moe] == [32] * len(moe)  # type: ignore[union-attr]
    assert doc.history.undo_text() == f"Set Experts on {len(moe)} groups" and doc.history.count() == 1
    assert not doc.set_groups_value(moe, ("ffn", "num_experts"), top_k - 1)  # fewer experts than top-k
    assert set(doc.drafts) == {(*g, "override", "ffn", "num_experts") for g in moe}
    assert doc.set_groups_value(moe, ("ffn", "top_k"), 1)  # now both fit, in every group
    assert [group_block(doc.architecture, g).ffn.num_experts for g in moe] == [top_k - 1] * len(moe)  # type: ignore[union-attr]
    doc.history.undo()
    doc.history.undo()
    doc.history.undo()
    assert doc.architecture == load_source("jamba-v0.1")


def test_a_tree_edit_reaches_the_groups_of_one_block_in_the_selection() -> None:
    """Issue 32: which groups an edit from the layer tree reaches is decided in core."""
    from paramtally.core.schema import LoRA
    from paramtally.core.schema.group_addresses import edit_targets, value_targets

    jamba = load_source("jamba-v0.1")
    pattern = ATTENTION[:-2]  # the group whose pattern holds Jamba's eight layers
    inner = tuple((*pattern, "pattern", i) for i in range(8))
    # A pattern's row stands for the groups inside it; a group selected twice is reached once.
    assert edit_targets(jamba, [pattern]) == inner
    assert edit_targets(jamba, [inner[3], pattern, inner[3]]) == (
        inner[3],
        *(g for g in inner if g != inner[3]),
    )
    # A window is an attention's: the selection's Mamba layers do not take it; an FFN width is a
    # dense FFN's, not a MoE's.
    assert value_targets(jamba, [pattern], ("mixer", "sliding_window")) == (ATTENTION,)
    dense = tuple(g for g in inner if group_block(jamba, g).ffn.kind == "dense")
    assert value_targets(jamba, [pattern], ("ffn", "width")) == dense
    # A LoRA of attention's projections reaches the attention layer alone; one of no matrix any
    # layer has reaches them all (and the dialog says why when the model refuses it).
    attention_only = LoRA(rank=8, targets=("q", "v"))
    assert layer_ops.part_targets(jamba, list(inner), "lora", attention_only) == [ATTENTION]
    mamba = [g for g in inner if g != ATTENTION and group_block(jamba, g).ffn.kind == "moe"]
    assert layer_ops.part_targets(jamba, mamba, "lora", attention_only) == mamba
    assert layer_ops.part_targets(jamba, list(inner), "adapter", None) == list(inner)
