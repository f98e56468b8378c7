"""The refusals met opening a file are sentences core said (``core.text.Said``), so the window can
say them in Chinese (issue 35), while their English — what the command line prints and tests
read — is word for word what it was: each expected line below is the old f-string's output."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from paramtally.core.errors import ParamTallyError, one_line
from paramtally.core.io import presets, user_presets
from paramtally.core.io.importers.checkpoint import open_checkpoint
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.model_sources import read_source
from paramtally.core.text import Said, said_in

ORIGIN = "c/config.json"
GPT3 = "gpt3-175b"


def _refusal(action: Callable[[], object]) -> Said:
    with pytest.raises(ParamTallyError) as caught:
        action()
    said = one_line(caught.value)
    assert isinstance(said, Said), f"said as plain text: {said!r}"
    return said


def _config(data: object) -> Callable[[], object]:
    return lambda: import_hf_config(data, ORIGIN)  # type: ignore[arg-type]


def _gguf(tmp_path: Path, data: bytes) -> Callable[[], object]:
    (tmp_path / "m.gguf").write_bytes(data)
    return lambda: open_checkpoint(tmp_path / "m.gguf")


def _safetensors(tmp_path: Path, data: bytes) -> Callable[[], object]:
    (tmp_path / "model.safetensors").write_bytes(data)
    return lambda: open_checkpoint(tmp_path / "model.safetensors")


CONFIGS = [
    ([], f"{ORIGIN}: a config.json must be a JSON object"),
    (
        {"model_type": "llama", "hidden_size": "wide"},
        f"{ORIGIN}: hidden_size must be a positive integer (got 'wide')",
    ),
    ({"model_type": "llama", "hidden_size": 2**70}, f"{ORIGIN}: hidden_size: must be at most 16,777,216"),
    (
        {"model_type": "llama", "layer_types": ["full_attention", "bogus"], "num_hidden_layers": 2},
        f"{ORIGIN}: layer_types[1] is 'bogus', not a layer type transformers knows "
        "(e.g. full_attention, sliding_attention, linear_attention, chunked_attention)",
    ),
    (
        {"model_type": "llama", "layer_types": ["full_attention"], "num_hidden_layers": 2},
        f"{ORIGIN}: layer_types lists 1 layers, num_hidden_layers says 2",
    ),
    (
        {"model_type": "llama", "layer_types": "x"},
        f"{ORIGIN}: layer_types must be a list of layer-type names (got 'x')",
    ),
    (
        {"model_type": "llama", "tie_word_embeddings": 1},
        f"{ORIGIN}: tie_word_embeddings must be true or false (got 1)",
    ),
]


@pytest.mark.parametrize(("data", "english"), CONFIGS)
def test_a_config_json_refusal_reads_as_before(data: object, english: str) -> None:
    assert _refusal(_config(data)) == english


def test_an_unknown_model_type_reads_as_before() -> None:
    said = _refusal(_config({"model_type": "frobnicator", "hidden_size": 4096}))
    found = re.fullmatch(
        rf"{ORIGIN}: model_type 'frobnicator' is not supported \(nearest: ([\w, ]+)\); open a similar "
        r"preset \(([\w.-]+)\) and edit it, or give the checkpoint folder to count its weights",
        said,
    )
    assert found is not None, said
    reason = said.fields["reason"]  # 'c/config.json: {reason}', the reason a sentence of its own
    assert (
        isinstance(reason, Said) and reason.fields["near"] == found[1] and reason.fields["preset"] == found[2]
    )


def test_a_gguf_refusal_reads_as_before(tmp_path: Path) -> None:
    assert _refusal(_gguf(tmp_path, b"GGUF\x03\x00\x00\x00\x05")) == (
        "m.gguf: corrupt GGUF header: a field needs 8 bytes at byte 8, past the end (truncated?)"
    )
    assert _refusal(_gguf(tmp_path, b"GGUF\x09\x00\x00\x00" + bytes(16))) == (
        "m.gguf: GGUF version 9 is not supported (2 or 3)"
    )
    assert (
        _refusal(_gguf(tmp_path, b"FUGG" + bytes(20)))
        == "m.gguf: not a GGUF file (magic b'FUGG', expected b'GGUF')"
    )


def test_a_safetensors_refusal_reads_as_before(tmp_path: Path) -> None:
    length = (16).to_bytes(8, "little")
    assert _refusal(_safetensors(tmp_path, length + b'{"a":')) == (
        "model.safetensors: not a valid safetensors file: header claims 16 bytes but the file has 5 "
        "after the length"
    )
    assert _refusal(_safetensors(tmp_path, b"\x01")) == (
        "model.safetensors: not a valid safetensors file: 1 bytes is too short for a safetensors header"
    )
    header = json.dumps({"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}).encode()
    assert _refusal(_safetensors(tmp_path, len(header).to_bytes(8, "little") + header + bytes(8))) == (
        "model.safetensors: not a valid safetensors file: tensor 'w' ends at byte 16 of a 8-byte data "
        "section (truncated?)"
    )


def test_a_checkpoint_or_folder_refusal_reads_as_before(tmp_path: Path) -> None:
    assert (
        _refusal(lambda: open_checkpoint(tmp_path / "gone")) == f"{tmp_path / 'gone'}: no such file or folder"
    )
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    assert _refusal(lambda: open_checkpoint(tmp_path / "notes.txt")) == (
        "notes.txt: expected a model folder, a .safetensors or a .gguf file"
    )
    assert _refusal(lambda: open_checkpoint(tmp_path)) == (
        f"{tmp_path}: no *.safetensors (or exactly one .gguf) in this folder"
    )
    assert _refusal(lambda: read_source(str(tmp_path))) == f"{tmp_path}: folder holds no config.json"
    hf_like = tmp_path / "x.json"
    hf_like.write_text(json.dumps({"num_hidden_layers": 2}), encoding="utf-8")
    assert _refusal(lambda: read_source(str(hf_like))) == (
        f"{hf_like}: reads as a Hugging Face config.json without its model_type; add it "
        '(e.g. "model_type": "llama") so the importer knows the model family'
    )


def test_a_user_preset_refusal_reads_as_before(tmp_path: Path) -> None:
    gpt3 = presets.load_builtin(GPT3)
    user_presets.save("mine-a", gpt3)
    taken = user_presets.save("mine-b", gpt3)
    assert _refusal(lambda: user_presets.rename("mine-a", "mine-b")) == (
        f"a user preset 'mine-b' already exists ({taken})"
    )
    assert _refusal(lambda: user_presets.rename(GPT3, "x")) == (
        f"'{GPT3}' is not a user preset; only user presets can be renamed"
    )
    assert _refusal(lambda: user_presets.delete(GPT3)) == f"'{GPT3}' is built in and cannot be deleted"
    assert _refusal(lambda: user_presets.delete("nobody")) == "'nobody' is not a user preset"
    assert (
        _refusal(lambda: user_presets.import_file(tmp_path / "none.json"))
        == f"{tmp_path / 'none.json'}: no such file"
    )
    assert (
        _refusal(lambda: user_presets.export_model(gpt3, tmp_path))
        == f"{tmp_path} is a folder; give a file name"
    )
    assert _refusal(lambda: user_presets.resolve_id("zzzz-nothing")) == (
        "unknown preset 'zzzz-nothing' (try `paramtally presets list`)"
    )


def test_a_refusal_is_said_in_another_language_whole_with_its_fields_kept(tmp_path: Path) -> None:
    """A catalogue of one language (here a made-up one, upper case) says the frame and the nested
    reason; the file name and the numbers stay."""
    said = _refusal(_safetensors(tmp_path, (16).to_bytes(8, "little") + b'{"a":'))
    catalogue = {
        "{name}: not a valid safetensors file: {reason}": "{name} — BAD SAFETENSORS — {reason}",
        "header claims {length:,} bytes but the file has {left:,} after the length": (
            "HEADER {length:,} > {left:,}"
        ),
    }
    assert said_in(said, catalogue.get) == "model.safetensors — BAD SAFETENSORS — HEADER 16 > 5"
    assert said_in(said, lambda template: None) == str(said)
