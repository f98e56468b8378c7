"""The scenario fields a model has no use for (``unused_fields``, from the fields' "needs" marks): the
window leaves them out, the command line says it ignores them, the report leaves them out of its
table. An encoder alone (BERT) keeps no KV cache and generates nothing; a vision tower alone reads
one image's patches, no text. Each mark is checked against the figures: a field a model has no
use for changes nothing of its memory, FLOPs, serving figures, GPU fit table or advice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.editing.scenario_carry import carry_scenario
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.presets import load_builtin
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.fit import fit_setups
from paramtally.core.memory.flops import estimate_flops
from paramtally.core.memory.scenario import NEEDS_TEXT, Scenario, needs_text, opening_scenario, unused_fields
from paramtally.core.memory.serving import estimate_serving
from paramtally.core.schema import Architecture
from paramtally.core.schema.advice import hints

ROOT = Path(__file__).resolve().parents[2]
BERT = ROOT / "tests" / "data" / "hf_configs" / "bert-base-uncased.json"
TOWER = ROOT / "tests" / "data" / "hf_configs_v3" / "pixtral-12b-vision-encoder.json"

# What a vision-language model, an encoder-decoder or a decoder has no use for, and the rest.
NO_ENCODER = {"encoder_tokens"}
NO_VISION = {"images", "image_size", "train_vision"}
NO_DECODER = {"kv_dtype", "generated", "use_cache"}
NO_LANGUAGE = {"context", "keep_embeddings_16bit", "vocab_padding", "activations", "bandwidth_efficiency"}


def _imported(path: Path) -> Architecture:
    return import_hf_config(json.loads(path.read_text(encoding="utf-8")), path.name)


@pytest.mark.parametrize(
    ("source", "unused"),
    [
        ("gpt3-175b", NO_ENCODER | NO_VISION),  # a decoder
        ("mamba-130m", NO_ENCODER | NO_VISION),  # its recurrent state's bits follow the KV dtype
        ("t5-base", NO_VISION),  # an encoder-decoder
        ("whisper-small", NO_VISION),
        ("qwen2.5-vl-7b", NO_ENCODER),  # a vision-language model
        ("llama-3.2-11b-vision", NO_ENCODER),  # its images in cross-attention
        ("roberta-base", NO_ENCODER | NO_VISION | NO_DECODER),  # an encoder alone
        ("modernbert-base", NO_ENCODER | NO_VISION | NO_DECODER),
        ("deberta-v3-base", NO_ENCODER | NO_VISION | NO_DECODER),
        ("electra-base-discriminator", NO_ENCODER | NO_VISION | NO_DECODER),
        ("distilbert-base-uncased", NO_ENCODER | NO_VISION | NO_DECODER),
        (BERT, NO_ENCODER | NO_VISION | NO_DECODER),
        # A tower alone: images, and no text; it trains whole, whatever train_vision says.
        (TOWER, NO_ENCODER | {"train_vision"} | NO_DECODER | NO_LANGUAGE),
    ],
    ids=lambda value: value.name if isinstance(value, Path) else None,
)
def test_each_kind_of_model_has_no_use_for_these_fields(source: str | Path, unused: set[str]) -> None:
    arch = _imported(source) if isinstance(source, Path) else load_builtin(source)
    assert unused_fields(arch) == unused


def test_every_field_that_needs_a_part_says_which_in_words() -> None:
    marked = NO_ENCODER | NO_VISION | NO_DECODER | NO_LANGUAGE
    assert {name for name in Scenario.model_fields if needs_text(name)} == marked
    assert needs_text("kv_dtype") == "a decoder" and needs_text("context") == "a language model"
    assert needs_text("train_vision") == "a vision tower beside a language model"
    assert {needs_text(name) for name in marked} == set(NEEDS_TEXT.values())
    assert needs_text("batch") is None


# A value other than the default for every field a model may have no use for.
OTHER_VALUES: dict[str, Any] = {
    "kv_dtype": "q4_0",
    "generated": 100,
    "use_cache": False,
    "context": 300,
    "keep_embeddings_16bit": True,
    "vocab_padding": True,
    "activations": "hf-eager",
    "bandwidth_efficiency": 0.3,
    "encoder_tokens": 77,
    "images": 3,
    "image_size": 512,
    "train_vision": True,
}


def _shown(arch: Architecture, s: Scenario) -> list[Any]:
    """Everything the window, the command line and the report show of ``s`` for ``arch``."""
    memory = estimate_memory(arch, s)
    flops = estimate_flops(arch, s)
    serving = estimate_serving(arch, s)
    return [
        [(term.name, term.formula, term.value) for term in memory.terms],
        memory.omissions,
        [(term.name, term.formula, term.value) for term in flops.terms],
        flops.seconds,
        None if serving is None else [(term.name, term.formula, term.exact) for term in serving.terms],
        fit_setups(arch, s, max_batch=True),
        sorted(hints(arch, s).items()),
    ]


# Bases under which the fields that matter show: a quantized serving below the positions (the fit
# table's longest context, the 16-bit embeddings), TP with SDPA's training (use_cache's copies).
BASES = [
    {"context": 128, "quant": "awq-4bit-g128"},
    {"mode": "training", "tp": 2, "gpus": 2, "activations": "hf-sdpa", "context": 128},
    {"mode": "training", "context": 128, "vocab_padding": False},
]


@pytest.mark.parametrize("source", ["roberta-base", BERT, TOWER], ids=["roberta-base", "bert", "tower"])
@pytest.mark.parametrize("base", BASES, ids=["serving", "training-tp", "training"])
def test_a_field_a_model_has_no_use_for_changes_nothing_it_shows(
    source: str | Path, base: dict[str, Any]
) -> None:
    arch = _imported(source) if isinstance(source, Path) else load_builtin(source)
    if arch.tower_only:
        base = {
            key: value for key, value in base.items() if key not in ("tp", "gpus")
        }  # a tower is not split
    s = Scenario.model_validate(base)
    before = _shown(arch, s)
    unused = unused_fields(arch)
    assert unused <= OTHER_VALUES.keys()
    for name in sorted(unused):
        changed = s.model_copy(update={name: OTHER_VALUES[name]})
        assert _shown(arch, changed) == before, name


def test_the_fields_marked_for_a_decoder_change_a_decoder() -> None:
    """The marks are no blanket: GPT-2 serving reads its KV cache's dtype and its generated tokens."""
    arch = load_builtin("gpt2")
    s = Scenario(context=128)
    before = _shown(arch, s)
    for name in ("kv_dtype", "generated", "context", "bandwidth_efficiency"):
        assert _shown(arch, s.model_copy(update={name: OTHER_VALUES[name]})) != before, name


def test_an_encoder_s_fit_table_reaches_its_positions_whatever_the_hidden_generated_tokens() -> None:
    """The longest context of the fit table took generated tokens off RoBERTa's positions, which it
    never generates (a field the window hides for it)."""
    arch = load_builtin("roberta-base")
    rows = fit_setups(arch, Scenario(context=128, generated=100))
    assert {row.max_context for row in rows if row.fits} == {arch.max_positions}


def test_a_hidden_field_is_carried_unsaid_and_comes_back_with_a_decoder() -> None:
    """GPT-3's fp8 KV cache and 512 generated tokens go through RoBERTa (which shows neither and its
    line names neither) to Llama, which takes them and says so."""
    gpt3, roberta, llama = (load_builtin(name) for name in ("gpt3-175b", "roberta-base", "llama-3-8b"))
    typed = {"kv_dtype": "fp8", "generated": 512, "batch": 4}
    current = opening_scenario(gpt3).model_copy(update=typed)
    through = carry_scenario(current, opening_scenario(gpt3), roberta)
    assert (through.scenario.kv_dtype, through.scenario.generated) == ("fp8", 512)
    assert through.note == "scenario: kept Batch 4; Context 512 from the model"
    back = carry_scenario(through.scenario, opening_scenario(roberta), llama)
    assert back.scenario == opening_scenario(llama).model_copy(update=typed)
    assert back.note == (
        "scenario: kept KV cache dtype fp8, Generated tokens 512, Batch 4; Context 4,096 from the model"
    )


def test_a_tower_alone_opens_without_a_word_of_its_context() -> None:
    tower = _imported(TOWER)
    carried = carry_scenario(
        opening_scenario(load_builtin("gpt2")), opening_scenario(load_builtin("gpt2")), tower
    )
    assert carried.note == ""  # GPT-2's context 1,024 goes to the tower unsaid: it reads none
