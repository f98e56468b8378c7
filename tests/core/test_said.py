"""Core's sentences keep their template (``core.text``): English where core is read as text (the
command line, tests, logs), translatable as a whole at the window's edge and in the report."""

from __future__ import annotations

import pickle
import string
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pydantic import ValidationError

from paramtally.core.errors import FieldError, field_problems, one_line
from paramtally.core.io.model_sources import load_source
from paramtally.core.memory.layout_advice import layout_advice
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema import Architecture
from paramtally.core.schema.advice import hints
from paramtally.core.text import Said, said_in, say
from paramtally.core.typed_numbers import NumberError, parse_whole

ROOT = Path(__file__).resolve().parents[2]
SHOUT = {
    "KV heads ({g}) must divide the query heads ({a})": "HEADS {g} / {a}",
    "{path}: {reason}": "{path} = {reason}",
}


def test_a_sentence_is_its_english_text_and_keeps_its_template() -> None:
    said = say("the hidden size ({h:,}) is not a multiple of the {a} heads", h=12288, a=97)
    assert said == "the hidden size (12,288) is not a multiple of the 97 heads" and isinstance(said, str)
    assert said.template == "the hidden size ({h:,}) is not a multiple of the {a} heads"
    assert said.fields == {"h": 12288, "a": 97}
    assert str(said) == said and f"{said}" == said  # what the CLI prints
    assert pickle.loads(pickle.dumps(said)).template == said.template


def test_a_translation_fills_the_same_fields_and_nested_sentences_are_translated_too() -> None:
    reason = say("KV heads ({g}) must divide the query heads ({a})", g=5, a=96)
    line = say("{path}: {reason}", path="blocks.default.mixer.num_kv_heads", reason=reason)
    assert said_in(line, SHOUT.get) == "blocks.default.mixer.num_kv_heads = HEADS 5 / 96"
    assert said_in(line, {}.get) == line  # no catalogue: the English
    assert said_in("a plain line", SHOUT.get) == "a plain line"
    broken = {"{path}: {reason}": "{place}: {reason}"}  # a translator's slip: English, never a crash
    assert said_in(line, broken.get) == line


def test_refusals_from_pydantic_and_from_our_rules_keep_their_templates() -> None:
    data = load_source("gpt3-175b").model_dump()
    data["blocks"]["default"]["mixer"]["num_kv_heads"] = 5
    with pytest.raises(ValidationError) as caught:
        Architecture.model_validate(data)
    (path, reason), *_ = field_problems(caught.value)
    assert path == ("blocks", "default", "mixer", "num_kv_heads")
    assert isinstance(reason, Said) and reason.template == "KV heads ({g}) must divide the query heads ({a})"
    line = one_line(caught.value)
    assert line == "blocks.default.mixer.num_kv_heads: KV heads (5) must divide the query heads (96)"
    assert isinstance(line, Said) and line.fields["reason"] is reason
    data["blocks"]["default"]["mixer"]["num_kv_heads"] = None
    data["hidden_size"] = 0
    with pytest.raises(ValidationError) as caught:
        Architecture.model_validate(data)
    reason = field_problems(caught.value)[0][1]
    assert reason == "must be more than 0" and isinstance(reason, Said)
    refused = FieldError(("layers", 3), say("needs at least 1 layer"))
    assert str(refused) == "layers.3: needs at least 1 layer" and isinstance(one_line(refused), Said)
    with pytest.raises(NumberError) as typed:
        parse_whole("1e-3")
    assert one_line(typed.value) == "'1e-3' is not a whole number (0.001)" and isinstance(
        one_line(typed.value), Said
    )


def test_advice_and_layout_notes_are_sentences() -> None:
    gpt3 = load_source("gpt3-175b")
    vocab = hints(gpt3)[("embeddings", "vocab_size")]
    assert isinstance(vocab, Said) and vocab.fields == {"vocab": 50257, "tile": 64, "padded": 50304}
    advice = layout_advice(gpt3, Scenario(gpus=8, tp=1))
    assert isinstance(advice, Said) and advice.startswith("8 GPUs as 8 copies of the model")


def _templates() -> list[str]:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import build_translations
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return build_translations.said_templates()


def test_every_template_is_in_the_catalogue_with_the_same_fields() -> None:
    """What tools/build_translations.py reads from core's say() calls is in the Core context, each
    translation naming the fields its template names (a missing one would fall back to English)."""
    root = ET.parse(ROOT / "resources" / "i18n" / "paramtally_zh_CN.ts").getroot()
    context = next(c for c in root.iter("context") if c.findtext("name") == "Core")
    catalogue = {m.findtext("source"): m.findtext("translation") for m in context.iter("message")}
    templates = _templates()
    assert len(templates) > 120 and set(templates) == set(catalogue)

    def names(text: str) -> set[str | None]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}

    mismatched = [source for source in templates if names(source) != names(catalogue[source] or "")]
    assert mismatched == []


def test_every_template_has_a_finished_chinese_translation() -> None:
    """Each of core's templates is translated, none left unfinished or empty: a sentence missing
    here would be the one English line in the Chinese window (issue 35)."""
    root = ET.parse(ROOT / "resources" / "i18n" / "paramtally_zh_CN.ts").getroot()
    context = next(c for c in root.iter("context") if c.findtext("name") == "Core")
    unfinished = [
        m.findtext("source")
        for m in context.iter("message")
        if m.find("translation").get("type") == "unfinished" or not m.findtext("translation")
    ]
    assert unfinished == []
