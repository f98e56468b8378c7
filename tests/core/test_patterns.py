"""The pattern helper's language: what a line reads as, the groups it makes, and the counts they give."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing import layer_ops, patterns
from paramtally.core.editing.edits import with_values
from paramtally.core.editing.patterns import LayerSpec, PatternError
from paramtally.core.io.model_sources import load_source
from paramtally.core.schema.group_addresses import group_block

# Measured on the real models (tools/measure_golden.py --v2): the published configs' counts.
GOLDEN = json.loads((Path(__file__).parents[1] / "golden" / "families_v2.json").read_text(encoding="utf-8"))
JAMBA = "[mamba ×4, attention, mamba ×3] × 4; MoE every 2nd layer"


def _apply(preset: str, text: str):  # type: ignore[no-untyped-def]
    arch = load_source(preset)
    stack = arch.decoder
    groups = patterns.expand(
        patterns.parse(text), arch.blocks[stack.block], arch.hidden_size, stack.num_layers
    )
    return layer_ops.with_layers(arch, groups)


def test_a_sequence_reads_as_one_period_and_its_repeats() -> None:
    pattern = patterns.parse("[mamba2 ×7, attention ×1] × 4")
    assert pattern.repeats == 4 and len(pattern.period) == 8
    assert pattern.period[:7] == (LayerSpec(mixer="mamba2"),) * 7
    assert pattern.period[7] == LayerSpec(mixer="attention")
    assert (
        patterns.parse("[[mamba x 2, attention] * 2, mla] x 3").period
        == patterns.parse("[mamba, mamba, attention, mamba, mamba, attention, mla] × 3").period
    )


def test_jamba_from_llama_defaults_counts_like_the_jamba_config() -> None:
    arch = _apply("llama-3-8b", JAMBA)
    (group,) = arch.decoder.layers
    assert group.count == 4 and group.period == 8
    kinds = [(run.block.mixer.kind, run.block.ffn.kind) for run in arch.runs]
    assert kinds == [
        ("mamba", "dense"), ("mamba", "moe"), ("mamba", "dense"), ("mamba", "moe"),
        ("attention", "dense"), ("mamba", "moe"), ("mamba", "dense"), ("mamba", "moe"),
    ]  # fmt: skip
    # What Jamba has besides: its vocabulary, Δ/B/C norms in the Mamba mixers, 16 experts.
    arch = with_values(arch, {("embeddings", "vocab_size"): 65536})
    for index in range(8):
        where = ("decoder", "layers", 0, "pattern", index)
        block = group_block(arch, where)
        if block.mixer.kind == "mamba":
            arch = layer_ops.with_group_value(arch, where, ("mixer", "inner_norms"), True)
        if block.ffn.kind == "moe":
            arch = layer_ops.with_group_value(arch, where, ("ffn", "num_experts"), 16)
    assert count_parameters(arch).total == GOLDEN["jamba-v0.1"]["total"]
    assert count_parameters(arch).active == GOLDEN["jamba-v0.1"]["active"]


def _apply_keeping_parts(preset: str, text: str):  # type: ignore[no-untyped-def]
    """As the pattern helper applies a line: each kind from the stack's own layers where it has one."""
    arch = load_source(preset)
    stack = arch.decoder
    parts = patterns.stack_parts(run.block for run in arch.runs if run.stack == "decoder")
    pattern = patterns.parse(text)
    groups = patterns.expand(pattern, arch.blocks[stack.block], arch.hidden_size, stack.num_layers, parts)
    return layer_ops.with_layers(arch, groups)


def test_a_pattern_takes_each_kind_from_the_stack_that_has_it() -> None:
    """QA: re-applying Jamba's own pattern gave 29.12B (8 default experts, plain Mamba) instead of
    51.57B; 'MoE every 2nd layer' on DeepSeek-V3 swapped its 256 experts for 8."""
    assert count_parameters(_apply_keeping_parts("jamba-v0.1", JAMBA)).total == GOLDEN["jamba-v0.1"]["total"]
    deepseek = load_source("deepseek-v3")
    (moe,) = {run.block.ffn for run in deepseek.runs if run.block.ffn.kind == "moe"}
    every_other = _apply_keeping_parts("deepseek-v3", "MoE every 2nd layer")
    assert {run.block.ffn for run in every_other.runs if run.block.ffn.kind == "moe"} == {moe}
    assert (
        sum(run.layers for run in every_other.runs if run.block.ffn.kind == "moe") == 30
    )  # layers 1, 3, … 59


def test_local_to_global_ratio_fills_the_stack_and_cuts_the_last_repetition() -> None:
    arch = _apply("gemma-3-1b", "5 local : 1 global, window 512")
    assert arch.decoder.num_layers == 26
    windows = [
        getattr(run.block.mixer, "sliding_window", None) for run in arch.runs for _ in range(run.repeats)
    ]
    assert windows.count(None) == 4 and set(windows) == {512, None}
    assert count_parameters(arch).total == count_parameters(load_source("gemma-3-1b")).total  # no weights


def test_an_ffn_rule_that_starts_late_leaves_the_first_layers_alone() -> None:
    arch = _apply("llama-3-8b", "moe every 3rd layer from layer 4")
    moe_layers = sorted(start for run in arch.runs if run.block.ffn.kind == "moe" for start in run.starts())
    assert moe_layers == list(range(4, 32, 3))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("[mamba ×4, atention] × 2", "unknown layer kind 'atention'"),
        ("mamba every 2nd layer", "only an FFN"),
        ("local × 3, global", "local layers need a window"),
        ("[mamba, attention] × 0", "a count is a whole number from 1 to 4,096"),
        ("mamba ×, attention", "cannot read"),
        ("mamba; attention", "one sequence"),
        ("5 local : 1 global, window -5", r"the window -5 is refused: a window is a whole number of tokens"),
        ("window 0", "the window 0 is refused"),
        ("attention ×2, local; window 1.5", "the window 1.5 is refused"),
    ],
)
def test_bad_patterns_say_what_is_wrong(text: str, message: str) -> None:
    arch = load_source("llama-3-8b")
    with pytest.raises(PatternError, match=message):
        patterns.expand(patterns.parse(text), arch.blocks["default"], arch.hidden_size, 32)


@pytest.mark.parametrize(
    "text",
    [
        "attention x 1000000000",
        "[attention x 300000000]",
        "[[mamba2 x 40000] x 40000] x 2",
        "100000000 local : 1 global, window 1024",
        "attention x " + "9" * 5000,  # beyond the 4,300 digits Python reads: a ValueError, not this
    ],
)
def test_a_huge_count_is_refused_before_the_layers_are_written_out(text: str) -> None:
    """QA: `attention x 1000000000` typed into the pattern helper froze the window for 80 s and took
    16 GB while the layers were listed, before the 4,096-layer limit was checked."""
    tracemalloc.start()
    try:
        with pytest.raises(PatternError, match="at most"):
            patterns.parse(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20  # bytes: nothing was written out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[mamba2 ×0, attention]",
            "a count is a whole number from 1 to 4,096 \\(a pattern makes at most 4,096",
        ),
        ("attention ×5000", "a count is a whole number from 1 to 4,096"),
        ("attention ×4000, mamba2 ×97", "the pattern makes 4,097 layers; a pattern makes at most 4,096"),
        ("[attention ×1] ×1000000000", "a count is a whole number from 1 to 4,096"),
        ("[attention ×1] ×4097", "a count is a whole number from 1 to 4,096"),
        ("[mamba2 ×7, attention] × 513", "the pattern makes 4,104 layers; a pattern makes at most 4,096"),
        ("2048 local : 2049 global", "the pattern makes 4,097 layers; a pattern makes at most 4,096"),
    ],
)
def test_one_limit_on_the_layers_a_pattern_makes(text: str, message: str) -> None:
    """Issue 31, bug 6: a count said 'between 1 and 1073741824', a repetition 'at most 4096', and
    `[attention ×1] × 1000000000` was taken."""
    with pytest.raises(PatternError, match=message):
        patterns.parse(text)


def test_a_pattern_of_4096_layers_is_made_and_filling_a_longer_stack_is_refused() -> None:
    arch = load_source("llama-3-8b")
    base = arch.blocks["default"]
    groups = patterns.expand(patterns.parse("[mamba2 ×7, attention] × 512"), base, arch.hidden_size, 32)
    assert sum(group.layers for group in groups) == patterns.MAX_PATTERN_LAYERS
    with pytest.raises(
        PatternError, match="would fill the stack's 5,000 layers; a pattern makes at most 4,096"
    ):
        patterns.expand(patterns.parse("MoE every 2nd layer"), base, arch.hidden_size, 5000)


def test_preview_lists_the_groups_the_pattern_makes() -> None:
    arch = load_source("llama-3-8b")
    groups = patterns.expand(patterns.parse("[mamba2 ×7, attention] × 4"), arch.blocks["default"], 4096, 32)
    assert patterns.preview(groups, arch.blocks["default"]) == [
        (0, "layers 0–31: 4 repetitions of 8 layers"),
        (1, "7 × Mamba-2, dense"),
        (1, "1 × attention, dense"),
    ]


@pytest.mark.parametrize(
    ("text", "same_as"),
    [
        ("gated deltanet ×3, attention", "gated_deltanet ×3, attention"),  # the menu's name
        ("Gated DeltaNet ×3, Attention", "gated_deltanet ×3, attention"),
        ("GDN ×3, attn", "gated_deltanet ×3, attention"),
        ("[Mamba-2 ×7, attention] × 4", "[mamba2 ×7, attention] × 4"),
        ("MoE every layer", "moe every 1st layer"),
        ("MoE on every layer", "moe every 1st layer"),
        ("Mixture of experts every other layer", "moe every 2nd layer"),
        ("Dense FFN every 3rd layer from layer 1", "dense every 3rd layer from layer 1"),
    ],
)
def test_kinds_by_their_titles_and_natural_phrasing(text: str, same_as: str) -> None:
    """QA: 'gated deltanet' (the menu's Gated DeltaNet) and 'MoE every layer' were refused."""
    assert patterns.parse(text) == patterns.parse(same_as)


def test_a_patterns_count_is_titled_its_repetitions() -> None:
    from paramtally.core.schema.field_titles import field_title

    arch = _apply("llama-3-8b", "[mamba ×3, attention] × 8")
    plain = load_source("llama-3-8b")
    assert (
        field_title(("decoder", "layers", 0, "count"), arch)
        == "Decoder › Layer groups › group 1 › Repetitions"
    )
    assert (
        field_title(("decoder", "layers", 0, "count"), plain) == "Decoder › Layer groups › group 1 › Layers"
    )
