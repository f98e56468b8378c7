"""The document's domain state without Qt (issue 32): reads announce nothing; a scenario value typed
is a draft until it fits; the TP, PP and EP set by hand come back with undo; a variant and a pattern
are one edit each."""

from __future__ import annotations

from typing import Any

import pytest

from paramtally.core.editing.document import EVENTS, SCENARIO, Document
from paramtally.core.editing.edits import with_value
from paramtally.core.io.model_sources import load_source
from paramtally.core.io.presets import builtin_ids, load_builtin
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.scenario import Scenario, opening_scenario
from paramtally.core.schema.advice import hints

GPT2_HEADS = ("blocks", "default", "mixer", "num_heads")


def _listen(doc: Document) -> list[tuple[Any, ...]]:
    heard: list[tuple[Any, ...]] = []
    for name in EVENTS:
        getattr(doc, name).connect(lambda *args, name=name: heard.append((name, *args)))
    return heard


def _read_everything(doc: Document) -> None:
    for name in dir(doc):
        if not name.startswith("_") and not callable(getattr(doc, name)):
            getattr(doc, name)
    doc.title_of((*SCENARIO, "tp"))
    doc.scenario_data()


def test_reads_announce_nothing_and_give_the_same_answer_whenever_read() -> None:
    """`memory` and `scenario` emitted events when first read; a read now changes nothing."""
    doc = Document(load_source("gpt2"), "gpt2", scenario={"context": 4096, "gpus": 4, "tp": 4})
    heard = _listen(doc)
    advice = doc.hints  # the saved context is judged before the scenario is asked for
    assert "learned positions" in advice[(*SCENARIO, "context")]
    _read_everything(doc)
    assert heard == [] and doc.hints == advice and doc.memory is not None
    assert doc.set_field(GPT2_HEADS, 6)  # TP 4 no longer divides the heads
    said = [event for event in heard if event[0] == "invalid" and event[1] == (*SCENARIO, "tp")]
    assert said and "heads" in said[0][2]  # said when the model changed, not when the figures are read
    heard.clear()
    _read_everything(doc)
    assert heard == [] and doc.memory is None and (*SCENARIO, "tp") in doc.problems
    assert doc.figures_refusal == ""  # the scenario's field says why
    doc.history.undo()
    assert ("validity", (*SCENARIO, "tp"), "") in heard and (*SCENARIO, "tp") not in doc.problems


def test_a_scenario_not_made_yet_has_the_advice_of_the_one_a_model_opens_with() -> None:
    """What lets ``hints`` and ``problems`` leave a scenario unmade: the opening one has neither."""
    for preset in builtin_ids():
        arch = load_builtin(preset)
        assert hints(arch, None) == hints(arch, opening_scenario(arch)), preset
    doc = Document(load_source("whisper-small"))
    assert doc.hints == hints(doc.architecture) and doc.problems == {}
    assert doc.scenario == opening_scenario(doc.architecture)
    assert doc.hints == hints(doc.architecture) and doc.problems == {}


def test_the_scenario_is_the_one_the_model_opened_with_whenever_it_is_first_read() -> None:
    late = Document(load_source("gpt3-175b"))
    assert late.set_field(("decoder", "max_positions"), 1024)
    assert late.scenario.context == 2048  # GPT-3's opening context, not the edited model's
    assert "exceeds the model's 1,024 learned positions" in late.hints[(*SCENARIO, "context")]


def test_a_refused_scenario_value_waits_as_a_draft_and_applies_with_the_value_that_makes_it_fit() -> None:
    doc = Document(load_source("gpt3-175b"))
    heard = _listen(doc)
    assert doc.type_scenario_value("gpus", 8)
    assert not doc.type_scenario_value("tp", 3)  # 8 GPUs cannot be split into 3
    assert doc.scenario_drafts == {"tp": 3} and doc.scenario.tp == 8
    assert "cannot be split" in doc.problems[(*SCENARIO, "tp")]
    assert doc.set_field(("embeddings", "vocab_size"), 50304)  # another edit: the draft stays
    assert doc.scenario_drafts == {"tp": 3} and (*SCENARIO, "tp") in doc.problems
    heard.clear()
    assert doc.type_scenario_value("gpus", 6)  # now both fit, as one step
    assert (doc.scenario.gpus, doc.scenario.tp, doc.scenario.pp) == (6, 3, 1)
    assert doc.scenario_drafts == {} and (*SCENARIO, "tp") not in doc.problems
    assert ("validity", (*SCENARIO, "tp"), "") in heard
    assert doc.history.undo_text() == "Set Tensor parallel, GPUs"
    doc.history.undo()
    assert (doc.scenario.gpus, doc.scenario.tp) == (8, 8)


def test_sizes_set_by_hand_come_back_with_the_undo_of_a_count_that_gave_them_up() -> None:
    doc = Document(load_source("llama-3-8b"))
    assert doc.type_scenario_value("gpus", 8) and doc.scenario.tp == 8 and doc.layout_marks == {}
    assert doc.layout_note == "8 GPUs: laid out as TP 8, as the GPU table does"
    steps = doc.history.count()
    assert doc.type_scenario_value("tp", 8)  # typed at the size in force: the person's, no new step
    assert doc.layout_marks == {"tp": 8} and doc.history.count() == steps
    assert doc.type_scenario_value("gpus", 4)
    assert (doc.scenario.tp, doc.layout_marks) == (4, {})
    assert doc.layout_note == "TP 8 does not fit 4 GPUs: laid out as TP 4, as the GPU table does"
    doc.history.undo()
    assert (doc.scenario.gpus, doc.scenario.tp, doc.layout_marks) == (8, 8, {"tp": 8})
    assert doc.type_scenario_value("gpus", 16)  # the TP typed is kept: two copies of TP 8
    assert (doc.scenario.tp, doc.scenario.pp, doc.scenario.dp) == (8, 1, 2)
    assert doc.set_scenario_field("tp", 4)  # set elsewhere (Goal Seek): no longer the size typed
    assert doc.layout_marks == {}


def test_another_model_drops_the_drafts_the_marks_and_the_words() -> None:
    doc = Document(load_source("gpt3-175b"))
    doc.type_scenario_value("gpus", 8)
    doc.type_scenario_value("tp", 8)
    assert not doc.type_scenario_value("tp", 3)
    heard = _listen(doc)
    doc.load(load_source("llama-3-8b"), "llama-3-8b")
    assert doc.scenario_drafts == {} and doc.layout_marks == {} and doc.layout_note == ""
    assert ("validity", (*SCENARIO, "tp"), "") in heard and doc.problems == {}
    assert heard[0] == ("about_to_open",) and heard[-1] == ("source_changed",)


def test_a_variant_of_model_and_scenario_is_one_undo_step() -> None:
    doc = Document(load_source("gpt2"))
    arch, scenario = with_value(doc.architecture, ("hidden_size",), 1152), Scenario(context=1024, batch=4)
    assert doc.apply_variant(arch, scenario, "Goal seek: Hidden size = 1,152")
    assert doc.architecture == arch and doc.scenario == scenario and doc.history.count() == 1
    assert doc.history.undo_text() == "Goal seek: Hidden size = 1,152"
    doc.history.undo()
    assert doc.architecture == load_source("gpt2") and doc.scenario == Scenario(context=1024)
    doc.history.redo()
    assert doc.architecture == arch and doc.scenario == scenario


def test_a_variant_whose_scenario_its_model_cannot_run_changes_the_model_alone_and_says_why() -> None:
    doc = Document(load_source("gpt2"))
    arch = with_value(doc.architecture, GPT2_HEADS, 6)
    with pytest.raises(ValueError, match="heads"):
        estimate_memory(arch, Scenario(context=1024, gpus=4, tp=4))
    assert not doc.apply_variant(arch, Scenario(context=1024, gpus=4, tp=4), "Design space: cell")
    assert doc.architecture == arch and doc.scenario == Scenario(context=1024)
    assert "heads" in doc.problems[(*SCENARIO, "tp")] and doc.history.count() == 1


def test_a_stack_made_from_a_pattern_is_one_undo_step_and_a_bad_line_is_said_at_the_stack() -> None:
    doc = Document(load_source("llama-3-8b"))
    assert doc.apply_pattern("decoder", "[mamba2 ×3, attention] × 8")
    kinds = [run.block.mixer.kind for run in doc.architecture.runs]
    assert set(kinds) == {"mamba2", "attention"} and doc.architecture.num_layers == 32
    assert doc.history.undo_text() == "Make the decoder from a pattern" and doc.history.count() == 1
    assert not doc.apply_pattern("decoder", "[mamba2 ×3, warp] × 8")
    assert "warp" in doc.problems[("decoder", "layers")] and doc.history.count() == 1
