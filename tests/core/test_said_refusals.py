"""The refusals met opening a file are sentences core said (``core.text.Said``), so the window can
say them in Chinese (issue 35), while their English — what the command line prints and tests
read — is word for word what it was: each expected line below is the old f-string's output."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from paramtally.core.errors import ParamTallyError, ParamTallyWarning, one_line
from paramtally.core.files.input_files import parse_json
from paramtally.core.io import presets, user_presets
from paramtally.core.io.importers.checkpoint import open_checkpoint
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.migrations import migrate
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


# What a family's reader refuses (core/families: cfg.fail), each the old f-string's output.
FAMILY_REFUSALS = [
    (
        {"model_type": "gpt2", "add_cross_attention": True},
        "add_cross_attention is true: cross-attention blocks are not supported",
    ),
    (
        {
            "model_type": "qwen3_next",
            "num_hidden_layers": 2,
            "layer_types": ["full_attention", "sliding_attention"],
        },
        "layer_types[1] is 'sliding_attention'; a qwen3_next layer is full_attention or linear_attention "
        "(or the older attention, mamba)",
    ),
    (
        {"model_type": "jetmoe", "num_experts_per_tok": 9, "num_local_experts": 8},
        "num_experts_per_tok (9) must not exceed num_local_experts (8)",
    ),
    ({"model_type": "dbrx", "d_model": 100, "n_heads": 3}, "n_heads (3) must divide d_model (100)"),
    (
        {"model_type": "dbrx", "ffn_config": {"ffn_act_fn": 3}},
        'ffn_config.ffn_act_fn must be an object such as {"name": "silu"} (got 3)',
    ),
    (
        {"model_type": "zamba", "num_hidden_layers": 3, "layers_block_type": ["mamba"]},
        "layers_block_type lists 1 layers, num_hidden_layers says 3",
    ),
    (
        {"model_type": "zamba", "num_hidden_layers": 1},
        "layers_block_type is needed: the class's own layout has 3 layers, num_hidden_layers says 1",
    ),
    (
        {"model_type": "internvl", "downsample_ratio": 0.3},
        "downsample_ratio must be 1/s for a whole s (got 0.3)",
    ),
    (
        {"model_type": "nemotron_h", "num_hidden_layers": 2, "hybrid_override_pattern": "MX"},
        "hybrid_override_pattern has 'X' at 1; a layer is M (Mamba-2), E (MoE), * (attention) or - (MLP)",
    ),
    (
        {"model_type": "nemotron_h", "num_hidden_layers": 2, "layers_block_type": ["mamba", "bogus"]},
        "layers_block_type[1] is 'bogus'; a nemotron_h layer is linear_attention, moe, full_attention, mlp",
    ),
    ({"model_type": "bert", "is_decoder": True}, "is_decoder is true: bert as a decoder is not supported"),
    (
        {"model_type": "bert", "architectures": ["BertForX"]},
        "architectures names ['BertForX']; supported: BertForMaskedLM, BertModel",
    ),
    (
        {"model_type": "llava", "vision_config": {"model_type": "bogus"}},
        "vision_config.model_type is 'bogus'; a llava reads clip_vision_model, pixtral, siglip_vision_model",
    ),
    (
        {"model_type": "llama4", "text_config": {"num_hidden_layers": 2, "no_rope_layers": [1]}},
        "text_config.no_rope_layers must hold one 0/1 per layer (2)",
    ),
    (
        {"model_type": "hunyuan_v1_moe", "num_hidden_layers": 2, "moe_topk": [1]},
        "head_dim is missing: HunYuanMoEV1Attention reads it and cannot be built without it",
    ),
    ({"model_type": "mamba2", "head_dim": 3}, "head_dim × num_heads must equal expand × hidden_size (8192)"),
    (
        {"model_type": "longcat_flash", "qk_head_dim": 1},
        "qk_head_dim (1) differs from qk_nope_head_dim + qk_rope_head_dim (192)",
    ),
]


def _chinese() -> dict[str, str]:
    """The zh_CN catalogue's finished Core translations."""
    import xml.etree.ElementTree as ET

    root = ET.parse(Path(__file__).resolve().parents[2] / "resources/i18n/paramtally_zh_CN.ts").getroot()
    context = next(c for c in root.iter("context") if c.findtext("name") == "Core")
    return {
        m.findtext("source") or "": m.findtext("translation") or ""
        for m in context.iter("message")
        if m.find("translation") is not None and m.find("translation").get("type") != "unfinished"  # type: ignore[union-attr]
    }


def _untranslated(said: Said, catalogue: dict[str, str]) -> list[str]:
    """The templates in ``said`` (itself and every sentence nested in its fields) the catalogue lacks."""
    missing = [] if catalogue.get(said.template) else [said.template]
    for value in said.fields.values():
        if isinstance(value, Said):
            missing += _untranslated(value, catalogue)
    return missing


@pytest.mark.parametrize(("data", "english"), FAMILY_REFUSALS)
def test_a_family_refusal_reads_as_before_and_is_translated(data: object, english: str) -> None:
    said = _refusal(_config(data))
    assert said == f"{ORIGIN}: {english}"
    assert _untranslated(said, _chinese()) == []
    assert said_in(said, _chinese().get) != str(said)  # said in Chinese, the frame and the reason


def test_a_json_value_refused_while_parsing_reads_as_before_and_is_translated() -> None:
    catalogue = _chinese()
    for text, english in [
        ('{"a": 1, "a": 2}', "a: given twice in one object (which one is meant?)"),
        ('{"b": 1' + "1" * 5000 + "}", "b: an integer of 5,001 digits (at most 30)"),
        ('{"c": 1e999}', "c: the number 1e999 is out of range"),
        ('{"d": NaN}', "d: NaN is not a number JSON allows"),
    ]:
        said = _refusal(lambda text=text: parse_json(text, "x.json"))
        assert said == f"x.json: {english}"
        assert _untranslated(said, catalogue) == []
    assert said_in(said, catalogue.get) == "x.json：d：NaN 不是 JSON 允许的数字"


def test_preset_and_migration_refusals_read_as_before_and_are_translated() -> None:
    catalogue = _chinese()
    for action, english in [
        (lambda: presets.load_builtin("nope"), "unknown preset 'nope' (try `paramtally presets list`)"),
        (
            lambda: presets.check_preset_id("a/b"),
            "'a/b' is not a usable preset id (letters, digits, '.', '_', '+', '-'; at most 100; no '/' or "
            "'.json')",
        ),
        (
            lambda: migrate({"schema_version": 99}, "p.json"),
            "p.json: written by a newer ParamTally (schema 99; this one reads up to 2); the file was left as "
            "it is",
        ),
        (
            lambda: migrate({"schema_version": 0, "n_layers": 2, "layers": 3}, "p.json"),
            "p.json: n_layers: give either n_layers or layers, not both",
        ),
    ]:
        said = _refusal(action)
        assert said == english
        assert _untranslated(said, catalogue) == []


def test_the_untied_wrapper_warning_reads_as_before_and_is_translated() -> None:
    with pytest.warns(ParamTallyWarning) as caught:
        import_hf_config({"model_type": "mistral3"}, ORIGIN)
    said = caught[0].message.args[0]  # type: ignore[union-attr]
    assert isinstance(said, Said) and said == (
        f"{ORIGIN}: no top-level tie_word_embeddings: read untied, as its text model is and the "
        "published checkpoints keep lm_head (transformers 5.24 builds mistral3 files without the key tied)"
    )
    assert said_in(said, _chinese().get).startswith(f"{ORIGIN}：顶层没有 tie_word_embeddings：按不绑定读取")


# Where core hands a person a sentence: the message argument of each of these calls.
_MESSAGE_CALLS = {"fail": -1, "ParamTallyError": 0, "warn": 0}
# core/cli speaks to a terminal only, in English (its --help, its flags): nothing there reaches
# the window, so its messages stay f-strings.
_ENGLISH_ONLY = ("cli",)


def test_no_message_core_gives_is_an_f_string() -> None:
    """A refusal or warning written as an f-string (or a bare literal) cannot be translated: it
    must be a say() template or a sentence built from one (a variable holding a Said)."""
    core = Path(__file__).resolve().parents[2] / "core"
    found = []
    for path in sorted(core.rglob("*.py")):
        if path.relative_to(core).parts[0] in _ENGLISH_ONLY:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name not in _MESSAGE_CALLS or (name == "fail" and len(node.args) < 2):
                continue
            message = node.args[_MESSAGE_CALLS[name]]
            texts = [n for n in ast.walk(message) if isinstance(n, ast.JoinedStr)]
            if isinstance(message, ast.Constant | ast.JoinedStr | ast.BinOp) or (
                texts and not isinstance(message, ast.Call)
            ):
                found.append(f"{path.relative_to(core)}:{node.lineno}: {ast.unparse(message)[:80]}")
    assert found == []
