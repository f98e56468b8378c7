"""Hints: advice that refuses nothing, at the field it is about, and on the CLI's stderr."""

from __future__ import annotations

import pytest

from paramtally.core.cli import main
from paramtally.core.editing.edits import with_values
from paramtally.core.io import presets
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema.advice import architecture_hints, context_hint, hints

GPT3 = presets.load_builtin("gpt3-175b")
VOCAB, CONTEXT = ("embeddings", "vocab_size"), ("scenario", "context")
POSITIONS = ("decoder", "max_positions")
MIXER, FFN = ("blocks", "default", "mixer"), ("blocks", "default", "ffn")


def test_gpt3_vocabulary_is_not_padded_and_its_context_is_2048() -> None:
    found = hints(GPT3, Scenario(context=4096))
    assert set(found) == {VOCAB, CONTEXT, POSITIONS}
    assert "50,257 rows" in found[VOCAB] and "pad it to 50,304" in found[VOCAB]
    assert found[CONTEXT] == (
        "The context (4,096 tokens) exceeds the model's 2,048 learned positions: "
        "it has no position rows beyond them"
    )
    assert CONTEXT not in hints(GPT3, Scenario(context=2048))


def test_an_encoder_read_past_its_positions_is_named() -> None:
    whisper = presets.load_builtin("whisper-large-v3")
    found = hints(whisper, Scenario(context=448, encoder_tokens=100_000))
    assert found[("scenario", "encoder_tokens")] == (
        "The encoder reads 100,000 tokens per request, past its 1,500 positions (the cross-attention "
        "cache is for them all)"
    )
    assert ("scenario", "encoder_tokens") not in hints(whisper, Scenario(context=448, encoder_tokens=1500))
    assert ("scenario", "encoder_tokens") not in hints(GPT3, Scenario(encoder_tokens=100_000))  # no encoder


def test_widths_off_the_gpu_tiles_are_named_with_the_next_good_size() -> None:
    odd = with_values(GPT3, {("hidden_size",): 12200, (*MIXER, "num_heads"): 100, (*FFN, "width"): 48100})
    found = architecture_hints(odd)
    assert found[("hidden_size",)].startswith("The hidden size 12,200 is not a multiple of 64")
    assert "12,224 would be" in found[("hidden_size",)]
    assert (*FFN, "width") in found
    assert found[(*MIXER, "num_heads")].startswith("The head width 122 is not a multiple of 8")


def test_well_sized_presets_have_no_size_hints() -> None:
    for preset_id in ("llama-3-8b", "llama-2-70b", "mixtral-8x7b", "deepseek-v3", "qwen3-30b-a3b"):
        assert architecture_hints(presets.load_builtin(preset_id)) == {}, preset_id


def test_a_rope_model_beyond_its_positions_and_a_model_without_a_limit() -> None:
    llama = presets.load_builtin("llama-3-70b")
    assert llama.max_positions == 8192
    assert "maximum positions (8,192)" in (context_hint(llama, 131072) or "")
    assert context_hint(llama, 8192) is None
    assert context_hint(presets.load_builtin("bloom-560m"), 10**6) is None  # ALiBi: no stated maximum


def test_cli_memory_and_count_warn_after_the_answer(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["memory", "llama-3-70b", "--context", "131072", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("{")
    assert err == (
        "paramtally: warning: scenario.context: The context (131,072 tokens) exceeds the model's maximum "
        "positions (8,192): it was not trained that long (RoPE needs scaling to stretch)\n"
    )
    assert main(["count", "gpt3-175b"]) == 0
    assert capsys.readouterr().err.startswith("paramtally: warning: embeddings.vocab_size: The vocabulary")
    assert main(["memory", "gpt3-175b", "--context", "4096"]) == 0  # beyond GPT-3's 2,048
    assert "paramtally: warning: scenario.context:" in capsys.readouterr().err
    # Without --context, a model runs at the context it opens with: no longer than its positions.
    assert main(["memory", "gpt3-175b"]) == 0
    assert "scenario.context" not in capsys.readouterr().err
    assert main(["count", "llama-3-8b"]) == 0
    assert capsys.readouterr().err == ""


def test_a_model_opens_at_a_context_within_its_positions(capsys: pytest.CaptureFixture[str]) -> None:
    """QA: Whisper (448 positions) and GPT-3 (2,048) opened at the default 4,096 tokens, the advice
    against it on screen before anything was typed. The window and the command line open a model at
    the default context or its positions, whichever is fewer; --context still sets any."""
    from paramtally.core.editing.document import Document
    from paramtally.core.memory.scenario import opening_scenario

    contexts = {
        preset: opening_scenario(presets.load_builtin(preset)).context
        for preset in ("whisper-small", "gpt3-175b", "llama-3-8b", "bloom-560m")
    }
    assert contexts == {"whisper-small": 448, "gpt3-175b": 2048, "llama-3-8b": 4096, "bloom-560m": 4096}
    assert Document(presets.load_builtin("whisper-small")).scenario.context == 448
    assert main(["memory", "whisper-small", "--format", "json"]) == 0
    assert '"context": 448' in capsys.readouterr().out
    assert main(["compare", "gpt3-175b", "llama-3-8b", "--format", "json"]) == 0  # the first column's
    assert '"context": 2048' in capsys.readouterr().out


def test_a_vision_blocks_head_width_is_taken_at_the_towers_width() -> None:
    """GLM-4.1V's tower: 12 heads of 1,536 (128 wide), not of the 4,096 hidden size (341)."""
    arch = presets.load_builtin("glm-4.1v-9b")
    assert ("blocks", "vision", "mixer", "num_heads") not in architecture_hints(arch)
    narrow = with_values(arch, {("vision", "width"): 1548})  # 129 a head
    assert ("blocks", "vision", "mixer", "num_heads") in architecture_hints(narrow)
