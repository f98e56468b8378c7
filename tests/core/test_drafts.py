"""Drafts: refused values kept until a combination validates, judged by the schema alone."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from paramtally.core.drafts import MAX_COMBINED, settle
from paramtally.core.edit import with_value, with_values
from paramtally.core.errors import field_problems, one_line
from paramtally.core.sources import load_source

GPT3 = load_source("gpt3-175b")
HEADS_RULE = "the hidden size (8,192) is not a multiple of the {} heads: change either, or set the head width"


def test_a_refused_value_stays_pending_with_its_reason_at_both_fields() -> None:
    settled = settle(GPT3, {"hidden_size": 8192})
    assert settled.model == GPT3 and settled.applied == ()
    assert settled.pending == {"hidden_size": 8192}
    assert settled.problems == {
        "hidden_size": HEADS_RULE.format(96),
        "attention.num_heads": HEADS_RULE.format(96),
    }


def test_the_combination_that_validates_is_applied_at_once() -> None:
    settled = settle(GPT3, {"hidden_size": 8192, "attention.num_heads": 64})
    assert settled.model == with_values(GPT3, {"hidden_size": 8192, "attention.num_heads": 64})
    assert set(settled.applied) == {"hidden_size", "attention.num_heads"}
    assert settled.pending == {} and settled.problems == {}


def test_an_edit_that_fits_alone_goes_in_and_the_draft_stays() -> None:
    settled = settle(GPT3, {"attention.num_kv_heads": 5, "embeddings.vocab_size": 50304})
    assert settled.model == with_value(GPT3, "embeddings.vocab_size", 50304)
    assert settled.applied == ("embeddings.vocab_size",)
    assert settled.pending == {"attention.num_kv_heads": 5}
    assert settled.problems == {"attention.num_kv_heads": "KV heads (5) must divide the query heads (96)"}


def test_two_pending_values_are_judged_together() -> None:
    settled = settle(GPT3, {"hidden_size": 8192, "attention.num_heads": 100})
    assert settled.model == GPT3 and settled.pending == {"hidden_size": 8192, "attention.num_heads": 100}
    assert (
        settled.problems["hidden_size"] == settled.problems["attention.num_heads"] == HEADS_RULE.format(100)
    )


def test_the_newest_edit_wins_among_equals() -> None:
    # Each fits alone, not together (48 KV heads divide 96 heads, not 64): the newer edit goes in.
    settled = settle(GPT3, {"attention.num_kv_heads": 48, "attention.num_heads": 64})
    assert settled.applied == ("attention.num_heads",)
    assert settled.pending == {"attention.num_kv_heads": 48}
    assert settled.problems["attention.num_kv_heads"] == "KV heads (48) must divide the query heads (64)"


def test_a_value_equal_to_the_model_is_simply_dropped() -> None:
    settled = settle(GPT3, {"hidden_size": 12288})
    assert settled.model == GPT3 and settled.pending == {} and settled.applied == ("hidden_size",)


def test_many_drafts_stay_bounded() -> None:
    drafts = {"layers.0.count": 0, "hidden_size": 0, "embeddings.vocab_size": 0}
    drafts |= {f"attention.{name}": -1 for name in ("num_heads", "head_dim", "kv_lora_rank", "q_lora_rank")}
    assert len(drafts) > MAX_COMBINED
    settled = settle(GPT3, drafts)
    assert settled.model == GPT3 and set(settled.pending) == set(drafts)
    assert settled.problems["hidden_size"] == "must be more than 0"


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        ("layers", [], ("layers", "needs at least 1 entry")),
        ("hidden_size", 0, ("hidden_size", "must be more than 0")),
        ("hidden_size", "abc", ("hidden_size", "must be a whole number")),
        ("norms.kind", "x", ("norms.kind", "must be one of 'layernorm' or 'rmsnorm', not 'x'")),
        ("attention.rotary_fraction", 2.0, ("attention.rotary_fraction", "must be at most 1.0")),
        ("layers.0.lora", {"rank": 0}, ("layers.0.lora.rank", "must be more than 0")),
    ],
)
def test_refusals_are_said_in_plain_words(path: str, value: object, expected: tuple[str, str]) -> None:
    with pytest.raises(ValidationError) as info:
        with_value(GPT3, path, value)
    # A refused item of the layer tuple is not echoed as "layers: … at least 1 item … not 0".
    assert field_problems(info.value) == [expected]
    assert one_line(info.value) == f"{expected[0]}: {expected[1]}"
