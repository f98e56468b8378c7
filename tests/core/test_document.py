"""The document without Qt: edits as undo steps, events, drafts, merges, group values, the saved state."""

from __future__ import annotations

from typing import Any

from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing.document import Document
from paramtally.core.editing.edits import with_value
from paramtally.core.editing.history import History
from paramtally.core.io.model_sources import load_source
from paramtally.core.schema.group_addresses import group_block


def _listen(doc: Document) -> list[tuple[Any, ...]]:
    heard: list[tuple[Any, ...]] = []
    doc.changed.connect(lambda: heard.append(("changed",)))
    doc.invalid.connect(lambda path, reason: heard.append(("invalid", path, reason)))
    doc.validity.connect(lambda path, reason: heard.append(("validity", path)))
    return heard


def test_an_edit_is_one_undo_step_and_tells_its_listeners() -> None:
    doc = Document(load_source("gpt3-175b"))
    heard = _listen(doc)
    assert doc.set_field(("hidden_size",), 9216)
    assert (
        heard == [("changed",)]
        and doc.report.total
        == count_parameters(with_value(load_source("gpt3-175b"), ("hidden_size",), 9216)).total
    )
    assert doc.history.undo_text() == "Set Hidden size" and doc.dirty
    doc.history.undo()
    assert doc.architecture.hidden_size == 12288 and not doc.dirty
    doc.history.redo()
    assert doc.architecture.hidden_size == 9216


def test_a_refused_value_stays_a_draft_until_another_edit_makes_it_fit() -> None:
    doc = Document(load_source("gpt3-175b"))
    heard = _listen(doc)
    heads = ("blocks", "default", "mixer", "num_heads")
    assert not doc.set_field(("hidden_size",), 8192)  # 96 heads do not divide 8192
    assert doc.drafts == {("hidden_size",): 8192} and ("hidden_size",) in doc.problems
    assert any(event[0] == "invalid" and event[1] == ("hidden_size",) for event in heard)
    assert doc.set_field(heads, 64)
    assert doc.architecture.hidden_size == 8192 and not doc.drafts and not doc.problems
    doc.history.undo()  # the heads step took the draft in: undoing brings it back as a draft
    assert doc.drafts == {("hidden_size",): 8192} and doc.architecture.hidden_size == 12288


def test_a_drag_merges_into_one_step_and_a_drag_back_leaves_none() -> None:
    doc = Document(load_source("gpt3-175b"))
    for value in (12289, 12290, 12291):
        doc.set_field(("embeddings", "vocab_size"), 50257 + value - 12288, merge_key="vocab")
    assert doc.history.count() == 1 and doc.architecture.embeddings.vocab_size == 50260
    doc.set_field(("embeddings", "vocab_size"), 50257, merge_key="vocab")
    assert doc.history.count() == 0 and not doc.dirty


def test_no_merge_into_the_saved_step() -> None:
    history = History()
    doc = Document(load_source("gpt3-175b"), history=history)
    doc.set_field(("embeddings", "vocab_size"), 50258, merge_key="vocab")
    history.set_clean()
    doc.set_field(("embeddings", "vocab_size"), 50259, merge_key="vocab")
    assert history.count() == 2
    history.undo()
    assert not doc.dirty and doc.architecture.embeddings.vocab_size == 50258


def test_group_values_are_undoable_and_refusals_name_the_field() -> None:
    doc = Document(load_source("jamba-v0.1"))
    heard = _listen(doc)
    attention = ("decoder", "layers", 0, "pattern", 4)
    assert doc.set_group_value(attention, ("mixer", "num_kv_heads"), 4)
    assert group_block(doc.architecture, attention).mixer.num_kv_heads == 4  # type: ignore[union-attr]
    assert doc.history.undo_text().startswith("Set ")
    where = (*attention, "override", "mixer", "num_kv_heads")
    assert not doc.set_group_value(attention, ("mixer", "num_kv_heads"), 5)  # 32 heads / 5: a draft
    assert doc.drafts == {where: 5} and "divide" in doc.problems[where]
    assert heard[-1][0] == "invalid"
    assert doc.reset_group_value(attention, ("mixer", "num_kv_heads"))  # ↺ takes the typed 5 back
    assert not doc.drafts and where not in doc.problems
    # Jamba's base block is Mamba: the attention layer's mixer is its own, field by field.
    assert not doc.reset_group_value(attention, ("mixer", "num_kv_heads"))
    assert "reset its kind" in doc.problems[where]
    doc.history.undo()  # the reset of the typed 5
    assert doc.drafts == {where: 5}
    doc.history.undo()  # the typed 5
    assert not doc.drafts
    doc.history.undo()
    assert doc.architecture == load_source("jamba-v0.1")


def test_a_refused_group_value_waits_as_a_draft_until_it_fits() -> None:
    """QA: in a layer group's form, KV heads 64 (refused: 32 heads) then heads 64 left 8 KV heads,
    the 64 thrown away, though the base block's fields keep such a value and apply it later."""
    doc = Document(load_source("llama-3-8b"))
    group = ("decoder", "layers", 0)
    kv = (*group, "override", "mixer", "num_kv_heads")
    assert not doc.set_group_value(group, ("mixer", "num_kv_heads"), 64)
    assert doc.drafts == {kv: 64} and kv in doc.problems
    assert group_block(doc.architecture, group).mixer.num_kv_heads == 8  # type: ignore[union-attr]
    assert doc.set_group_value(group, ("mixer", "num_heads"), 64)
    assert group_block(doc.architecture, group).mixer.num_kv_heads == 64  # type: ignore[union-attr]
    assert not doc.drafts and not doc.problems
    doc.history.undo()
    assert doc.drafts == {kv: 64}  # back to typed, not applied
    assert doc.reset_group_value(group, ("mixer", "num_kv_heads"))  # ↺ takes the typed value back too
    assert not doc.drafts and not doc.problems


def test_a_group_value_of_its_own_is_reset_to_the_inherited_one() -> None:
    doc = Document(load_source("llama-3-8b"))
    group = ("decoder", "layers", 0)
    assert doc.set_group_value(group, ("mixer", "sliding_window"), 4096)
    assert doc.reset_group_value(group, ("mixer", "sliding_window"))
    assert doc.history.undo_text() == "Reset Decoder › Layer groups › group 1 › Mixer › Window"
    assert doc.architecture == load_source("llama-3-8b") and doc.history.count() == 2


def test_load_starts_a_new_history_and_says_so() -> None:
    doc = Document(load_source("gpt3-175b"))
    opened: list[str] = []
    doc.source_changed.connect(lambda: opened.append(doc.source_label))
    doc.set_field(("hidden_size",), 9216)
    doc.load(load_source("t5-base"), "t5-base", "t5-base")
    assert opened == ["t5-base"] and doc.history.count() == 0 and not doc.dirty
    assert doc.report.total == count_parameters(load_source("t5-base")).total


def test_the_scenario_is_edited_and_undone_like_the_architecture() -> None:
    doc = Document(load_source("llama-3-8b"))
    hinted: list[bool] = []
    doc.hints_changed.connect(lambda: hinted.append(True))
    assert doc.set_scenario_values({"gpus": 8, "tp": 8})
    assert hinted == [True] and doc.scenario.tp == 8 and doc.memory is not None
    assert not doc.set_scenario_field("tp", 3)  # 32 heads / 3
    assert ("scenario", "tp") in doc.problems
    doc.history.undo()
    assert doc.scenario.tp == 1


def test_a_typed_value_in_a_part_of_the_groups_own_kind_is_taken_back() -> None:
    """QA: Jamba's attention group (its mixer its own kind) kept a refused KV heads 64 after ↺,
    and heads 64 then applied it."""
    doc = Document(load_source("jamba-v0.1"))
    attention = ("decoder", "layers", 0, "pattern", 4)
    kv = (*attention, "override", "mixer", "num_kv_heads")
    assert not doc.set_group_value(attention, ("mixer", "num_kv_heads"), 64)
    assert doc.reset_group_value(attention, ("mixer", "num_kv_heads"))
    assert not doc.drafts and kv not in doc.problems
    assert doc.set_group_value(attention, ("mixer", "num_heads"), 64)
    assert group_block(doc.architecture, attention).mixer.num_kv_heads == 8  # type: ignore[union-attr]


def test_a_scenario_kept_for_another_model_drops_what_does_not_fit_it() -> None:
    """QA: Mixtral trained with expert parallel 8, then a dense model opened (a file without its own
    scenario keeps what the person set): the memory tab had no figures until EP was found and
    reset. The fields that do not fit go back to what the model opens with, said in the note."""
    from paramtally.core.io.presets import load_builtin
    from paramtally.core.memory.scenario import Scenario

    document = Document(load_builtin("mixtral-8x7b"), "mixtral-8x7b")
    assert document.set_scenario_values({"mode": "training", "zero": 3, "gpus": 8, "ep": 8})
    document.load(load_builtin("bamba-9b"), "bamba-9b")
    assert document.scenario == Scenario(mode="training", zero=3, gpus=8)  # the rest as it was
    assert document.memory is not None and document.problems == {}
    assert document.opening_note == (
        "scenario: kept Mode training, ZeRO stage 3, GPUs 8; Context 4,096 from the model; "
        "Expert parallel 8 → 1 (Bamba-9B cannot take it)"
    )


def test_opening_a_model_keeps_what_was_typed_and_takes_the_models_context() -> None:
    """Issue 31, bug 3: GPT-3 (2,048 positions) then Llama-3-8B: context 4,096, as the CLI's
    ``memory llama-3-8b`` and a fresh window say; the batch typed goes along, a refused one does not."""
    from paramtally.core.memory.scenario import Scenario

    document = Document(load_source("gpt3-175b"), "gpt3-175b")
    assert document.scenario.context == 2048
    assert document.set_scenario_field("batch", 4)
    assert not document.set_scenario_field("batch", 0)  # refused: not the scenario
    document.load(load_source("llama-3-8b"), "llama-3-8b")
    assert document.scenario == Scenario(batch=4, context=4096) and document.problems == {}
    assert document.opening_note == "scenario: kept Batch 4; Context 4,096 from the model"
    document.load(load_source("gpt3-175b"), "gpt3-175b")  # back: the model's 2,048 again, the batch kept
    assert document.scenario == Scenario(batch=4, context=2048)


def test_a_saved_scenario_comes_back_and_a_never_used_one_is_not_the_next_models() -> None:
    from paramtally.core.memory.scenario import Scenario

    document = Document(load_source("gpt3-175b"), "mine", "mine", scenario={"batch": 16})
    document.load(load_source("llama-3-8b"), "llama-3-8b")  # GPT-3's saved batch never asked for
    assert document.scenario == Scenario() and document.opening_note == ""
    document.load(load_source("gpt2"), "mine", "mine", scenario={"batch": 16})
    assert document.scenario == Scenario(batch=16) and document.opening_note == "scenario as saved with it"
