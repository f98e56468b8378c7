"""Drafts: refused values kept until a combination validates, judged by the schema alone."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from paramtally.core.editing.edits import with_value, with_values
from paramtally.core.editing.typed_drafts import MAX_COMBINED, settle
from paramtally.core.errors import field_problems, one_line
from paramtally.core.io.model_sources import load_source

GPT3 = load_source("gpt3-175b")
HIDDEN = ("hidden_size",)
MIXER = ("blocks", "default", "mixer")
HEADS, KV_HEADS = (*MIXER, "num_heads"), (*MIXER, "num_kv_heads")
VOCAB = ("embeddings", "vocab_size")
HEADS_RULE = "the hidden size (8,192) is not a multiple of the {} heads: change either, or set the head width"


def test_a_refused_value_stays_pending_with_its_reason_at_both_fields() -> None:
    settled = settle(GPT3, {HIDDEN: 8192})
    assert settled.model == GPT3 and settled.applied == ()
    assert settled.pending == {HIDDEN: 8192}
    assert settled.problems == {
        HIDDEN: HEADS_RULE.format(96),
        HEADS: HEADS_RULE.format(96),
    }


def test_the_combination_that_validates_is_applied_at_once() -> None:
    settled = settle(GPT3, {HIDDEN: 8192, HEADS: 64})
    assert settled.model == with_values(GPT3, {HIDDEN: 8192, HEADS: 64})
    assert set(settled.applied) == {HIDDEN, HEADS}
    assert settled.pending == {} and settled.problems == {}


def test_an_edit_that_fits_alone_goes_in_and_the_draft_stays() -> None:
    settled = settle(GPT3, {KV_HEADS: 5, VOCAB: 50304})
    assert settled.model == with_value(GPT3, VOCAB, 50304)
    assert settled.applied == (VOCAB,)
    assert settled.pending == {KV_HEADS: 5}
    assert settled.problems == {KV_HEADS: "KV heads (5) must divide the query heads (96)"}


def test_two_pending_values_are_judged_together() -> None:
    settled = settle(GPT3, {HIDDEN: 8192, HEADS: 100})
    assert settled.model == GPT3 and settled.pending == {HIDDEN: 8192, HEADS: 100}
    assert settled.problems[HIDDEN] == settled.problems[HEADS] == HEADS_RULE.format(100)


def test_the_newest_edit_wins_among_equals() -> None:
    # Each fits alone, not together (48 KV heads divide 96 heads, not 64): the newer edit goes in.
    settled = settle(GPT3, {KV_HEADS: 48, HEADS: 64})
    assert settled.applied == (HEADS,)
    assert settled.pending == {KV_HEADS: 48}
    assert settled.problems[KV_HEADS] == "KV heads (48) must divide the query heads (64)"


def test_a_value_equal_to_the_model_is_simply_dropped() -> None:
    settled = settle(GPT3, {HIDDEN: 12288})
    assert settled.model == GPT3 and settled.pending == {} and settled.applied == (HIDDEN,)


def test_many_drafts_stay_bounded() -> None:
    drafts: dict[tuple[str | int, ...], object] = {("decoder", "layers", 0, "count"): 0, HIDDEN: 0, VOCAB: 0}
    drafts |= {(*MIXER, name): -1 for name in ("num_heads", "head_dim", "num_kv_heads", "sliding_window")}
    assert len(drafts) > MAX_COMBINED
    settled = settle(GPT3, drafts)
    assert settled.model == GPT3 and set(settled.pending) == set(drafts)
    assert settled.problems[HIDDEN] == "must be more than 0"


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        (("decoder", "layers"), [], (("decoder", "layers"), "needs at least 1 entry")),
        (HIDDEN, 0, (HIDDEN, "must be more than 0")),
        (HIDDEN, "abc", (HIDDEN, "must be a whole number")),
        (
            ("blocks", "default", "norms", "kind"),
            "x",
            (("blocks", "default", "norms", "kind"), "must be one of 'layernorm' or 'rmsnorm', not 'x'"),
        ),
        ((*MIXER, "rotary_fraction"), 2.0, ((*MIXER, "rotary_fraction"), "must be at most 1.0")),
        (
            ("blocks", "default", "lora"),
            {"rank": 0},
            (("blocks", "default", "lora", "rank"), "must be more than 0"),
        ),
    ],
)
def test_refusals_are_said_in_plain_words(
    path: tuple[str, ...], value: object, expected: tuple[tuple[str, ...], str]
) -> None:
    with pytest.raises(ValidationError) as info:
        with_value(GPT3, path, value)
    # A refused item of the layer tuple is not echoed as "layers: … at least 1 item … not 0".
    assert field_problems(info.value) == [expected]
    assert one_line(info.value) == f"{'.'.join(expected[0])}: {expected[1]}"
