"""Published and randomized Hugging Face configs count exactly as the real transformers models.

Golden totals come from tools/measure_golden.py (models built on the meta device); this test
needs no torch.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.families import find
from paramtally.core.io.importers.hf_config import SUPPORTED_MODEL_TYPES, hf_dtype, import_hf_config
from paramtally.core.io.model_sources import load_source

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "tests" / "data" / "hf_configs"
GOLDEN = ROOT / "tests" / "golden"


def _config(stem: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CONFIGS / f"{stem}.json").read_text(encoding="utf-8"))
    return data


def _published_cases() -> list[tuple[str, str, int, int]]:
    golden = json.loads((GOLDEN / "presets.json").read_text(encoding="utf-8"))
    cases = []
    for path in sorted(CONFIGS.glob("*.json")):
        entry = golden[path.stem]
        for model_class, measured in (entry.get("by_class") or {entry["model_class"]: entry}).items():
            cases.append((path.stem, model_class, measured["total"], measured["active"]))
    return cases


def _random_cases() -> list[dict[str, Any]]:
    """The randomized configs of the types the importer reads (those of issue 33's types it reads
    already among them: random_configs_v3.json measures every one)."""
    entries: list[dict[str, Any]] = []
    names = ("random_configs.json", "random_configs_v2.json", "random_configs_v3.json", "tower_only.json")
    for name in names:
        data = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
        entries += [
            entry
            for entry in (data["configs"] if isinstance(data, dict) else data)
            if "config" in entry and find(entry["config"]["model_type"]) is not None
        ]
    return entries


@pytest.mark.parametrize(("stem", "model_class", "total", "active"), _published_cases())
def test_published_config_counts_as_measured(stem: str, model_class: str, total: int, active: int) -> None:
    data = {**_config(stem), "architectures": [model_class]}
    report = count_parameters(import_hf_config(data, f"{stem}.json"))
    assert (report.total, report.active) == (total, active)


RANDOM = _random_cases()


@pytest.mark.filterwarnings("ignore::paramtally.core.errors.ParamTallyWarning")  # an alias is said
@pytest.mark.parametrize("entry", RANDOM, ids=[entry["name"] for entry in RANDOM])
def test_random_config_counts_as_measured(entry: dict[str, Any]) -> None:
    data = {**entry["config"], "architectures": [entry["model_class"]]}
    report = count_parameters(import_hf_config(data, entry["name"]))
    assert (report.total, report.active) == (entry["total"], entry["active"])


def test_random_configs_cover_every_supported_model_type() -> None:
    read_as = {find(entry["config"]["model_type"]).name for entry in RANDOM}  # type: ignore[union-attr]
    assert read_as == set(SUPPORTED_MODEL_TYPES)


@pytest.mark.parametrize(
    ("stem", "total", "active"),
    [  # REFERENCE.md, "Worked checks"
        ("gpt2", 124_439_808, 124_439_808),
        ("gpt3-175b", 175_221_817_344, 175_221_817_344),
        ("llama-2-7b", 6_738_415_616, 6_738_415_616),
        ("mistral-7b-v0.1", 7_241_732_096, 7_241_732_096),
        ("mixtral-8x7b", 46_702_792_704, 12_879_925_248),
    ],
)
def test_reference_worked_numbers(stem: str, total: int, active: int) -> None:
    report = count_parameters(import_hf_config(_config(stem), f"{stem}.json"))
    assert (report.total, report.active) == (total, active)


# --- key spellings and traps --------------------------------------------------------------------


def test_old_and_new_key_spellings_give_the_same_architecture() -> None:
    old = _config("gpt-neox-20b")
    new = {
        key: value
        for key, value in old.items()
        if key not in ("rotary_pct", "rotary_emb_base", "torch_dtype")
    }
    new["rope_parameters"] = {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.25}
    new["dtype"] = "float16"
    assert import_hf_config(old, "neox.json") == import_hf_config(new, "neox.json")
    assert hf_dtype(old) == hf_dtype(new) == "float16"
    gpt2 = _config("gpt2")
    renamed = {k: v for k, v in gpt2.items() if k not in ("n_embd", "n_head", "n_layer", "n_positions")}
    renamed.update(
        hidden_size=768, num_attention_heads=12, num_hidden_layers=12, max_position_embeddings=1024
    )
    assert import_hf_config(gpt2, "a.json") == import_hf_config(renamed, "a.json")


def test_falcon_multi_query_means_one_kv_head_whatever_num_kv_heads_says() -> None:
    arch = import_hf_config({**_config("falcon-7b"), "num_kv_heads": 71}, "falcon.json")
    assert arch.blocks["default"].mixer.num_kv_heads == 1


def test_deepseek_head_dim_key_does_not_shape_mla() -> None:
    plain = _config("deepseek-v2-lite")
    written_by_newer_tools = {**plain, "head_dim": plain["qk_rope_head_dim"], "num_key_value_heads": 1}
    assert count_parameters(import_hf_config(written_by_newer_tools, "x.json")).total == (
        count_parameters(import_hf_config(plain, "x.json")).total
    )


TIED_BY_DEFAULT = {"gpt2", "opt", "bloom", "falcon", "gemma", "gemma2", "bert"}


@pytest.mark.parametrize("stem", sorted(path.stem for path in CONFIGS.glob("*.json")))
def test_missing_tie_key_takes_the_class_default(stem: str) -> None:
    data = {key: value for key, value in _config(stem).items() if key != "tie_word_embeddings"}
    arch = import_hf_config(data, f"{stem}.json")
    assert arch.head.tied == (data["model_type"] in TIED_BY_DEFAULT)


def test_missing_keys_take_the_class_defaults() -> None:
    # LlamaConfig(): V 32000, h 4096, f 11008, 32 layers, 32 heads, untied: Llama-2-7B's shape.
    report = count_parameters(import_hf_config({"model_type": "llama"}, "bare.json"))
    assert report.total == 6_738_415_616  # REFERENCE.md, Llama-2-7B


def test_mixed_dense_and_moe_layers_become_groups_in_order() -> None:
    qwen = {**_config("qwen1.5-moe-a2.7b"), "decoder_sparse_step": 2, "mlp_only_layers": [3]}
    arch = import_hf_config(qwen, "q.json")
    kinds = [row.kind for row in count_parameters(arch).layers]
    assert kinds == ["dense", "moe", "dense", "dense", *["dense", "moe"] * 10]  # layer 3 forced dense
    assert len(arch.runs) < 8  # the period is written once, not per layer
    deepseek = import_hf_config(_config("deepseek-v3"), "d.json")
    assert [(run.count, run.block.ffn.kind) for run in deepseek.runs] == [(3, "dense"), (58, "moe")]


# --- refusals --------------------------------------------------------------------------------------


def test_an_unsupported_model_type_is_refused_in_one_short_line_with_what_to_do() -> None:
    data = {"model_type": "reformer", "hidden_size": 256, "attn_layers": ["local", "lsh"], "vocab_size": 320}
    with pytest.raises(ParamTallyError) as caught:
        import_hf_config(data, "config.json")
    message = str(caught.value)
    assert message.startswith("config.json: model_type 'reformer' is not supported (nearest: ")
    assert len(message) <= 300 and "\n" not in message
    nearest = message.split("(nearest: ")[1].split(")")[0].split(", ")
    assert len(nearest) == 3 and set(nearest) <= set(SUPPORTED_MODEL_TYPES)
    assert "open a similar preset" in message and "checkpoint folder" in message


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"hidden_size": -4096}, "hidden_size"),
        ({"num_key_value_heads": 3}, "num_key_value_heads"),
        ({"intermediate_size": "big"}, "intermediate_size"),
        ({"tie_word_embeddings": "yes"}, "tie_word_embeddings"),
        ({"num_hidden_layers": 0}, "num_hidden_layers"),
    ],
)
def test_impossible_values_name_the_key(change: dict[str, Any], field: str) -> None:
    with pytest.raises(ParamTallyError, match=rf"^llama-2-7b\.json: {field} "):
        import_hf_config({**_config("llama-2-7b"), **change}, "llama-2-7b.json")


def test_heads_not_dividing_the_width_names_the_key() -> None:
    with pytest.raises(ParamTallyError, match="n_head \\(7\\) must divide n_embd \\(768\\)"):
        import_hf_config({**_config("gpt2"), "n_head": 7}, "gpt2.json")


def test_bert_class_must_be_one_we_count() -> None:
    data = {**_config("bert-base-uncased"), "architectures": ["BertForNextSentencePrediction"]}
    with pytest.raises(ParamTallyError, match="architectures"):
        import_hf_config(data, "bert.json")


# --- through the command line ----------------------------------------------------------------


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args], capture_output=True, text=True, cwd=ROOT, check=False
    )


def test_count_accepts_a_config_file_and_a_model_folder(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(json.dumps(_config("mixtral-8x7b")), encoding="utf-8")
    by_file = json.loads(_cli("count", str(tmp_path / "config.json"), "--format", "json").stdout)
    by_folder = json.loads(_cli("count", str(tmp_path), "--format", "json").stdout)
    assert by_file["total"] == by_folder["total"] == 46_702_792_704
    assert by_file["active"] == 12_879_925_248
    assert sum(part["params"] for part in by_file["parts"]) == by_file["total"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"model_type": "llama", "hidden_size": 40', "not valid JSON"),
        (
            '{"model_type": "llama", "num_attention_heads": -2}',
            "num_attention_heads must be a positive integer",
        ),
    ],
)
def test_bad_config_exits_non_zero_with_one_line(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "config.json"
    path.write_text(text, encoding="utf-8")
    result = _cli("count", str(path))
    assert result.returncode != 0
    assert expected in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.json"]


def test_load_source_reads_a_config_json() -> None:
    arch = load_source(str(CONFIGS / "qwen3-8b.json"))
    assert arch.family == "qwen3"
    assert arch.blocks["default"].mixer.qk_norm
