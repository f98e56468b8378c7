"""Schema versions: a version-0 (pre-release, flat) file loads; a newer one is refused untouched."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.io import presets, user_presets
from paramtally.core.io.migrations import MIGRATIONS, migrate
from paramtally.core.schema import SCHEMA_VERSION, Dropout
from tests.layer_blocks import layer_windows

ROOT = Path(__file__).resolve().parents[2]

# GPT-3 175B in the pre-release layout: flat keys, layers as a count, no schema_version.
GPT3_V0: dict[str, Any] = {
    "name": "GPT-3 175B",
    "description": "pre-release file",
    "family": "gpt2",
    "hidden_size": 12288,
    "vocab_size": 50257,
    "n_layers": 96,
    "n_heads": 96,
    "ffn_width": 49152,
    "tie_embeddings": False,
    "embeddings": {"position": "learned", "max_positions": 2048},
    "attention": {"q_bias": True, "k_bias": True, "v_bias": True, "o_bias": True},
    "ffn": {"gated": False, "bias": True, "activation": "gelu_new"},
    "norms": {"kind": "layernorm", "bias": True, "per_block": 2, "final": True},
}


def test_every_old_version_has_a_step() -> None:
    assert set(MIGRATIONS) == set(range(SCHEMA_VERSION))


@pytest.mark.parametrize(
    "variant",
    [
        GPT3_V0,
        {**GPT3_V0, "schema_version": 0},
        {**{k: v for k, v in GPT3_V0.items() if k != "n_layers"}, "layers": 96},
    ],
    ids=["unversioned-flat", "explicit-v0", "layers-as-int"],
)
def test_version_0_file_loads_as_the_same_model(variant: dict[str, Any]) -> None:
    arch = presets.parse_preset(json.dumps(variant), "old.json")
    builtin = presets.load_builtin("gpt3-175b")
    # Old files predate the dropout setting: they load without dropout (the built-in has GPT-2's).
    assert arch.dropout == Dropout()
    assert arch.model_copy(update={"description": builtin.description, "dropout": builtin.dropout}) == builtin
    assert count_parameters(arch).total == 175_221_817_344


def test_migration_does_not_mutate_its_input() -> None:
    data = {**GPT3_V0, "schema_version": 0}
    copy = json.loads(json.dumps(data))
    migrated = migrate(data, "old.json")
    assert data == copy
    assert migrated["schema_version"] == SCHEMA_VERSION
    assert migrated["decoder"]["layers"] == [{"count": 96}]
    assert migrated["head"] == {"tied": False}


def test_old_user_file_loads_and_stays_old_on_disk() -> None:
    folder = user_presets.presets_dir()
    folder.mkdir(parents=True)
    path = folder / "legacy.json"
    path.write_text(json.dumps(GPT3_V0), encoding="utf-8")
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    assert count_parameters(user_presets.load("legacy")).total == 175_221_817_344
    assert not [entry for entry in user_presets.list_presets() if entry.broken]
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    user_presets.save("legacy", user_presets.load("legacy"))  # an explicit save writes version 1
    assert json.loads(path.read_text(encoding="utf-8"))["schema_version"] == SCHEMA_VERSION


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({**GPT3_V0, "layers": [{"count": 1}]}, "n_layers: give either n_layers or layers"),
        ({**GPT3_V0, "embeddings": {"vocab_size": 3}}, "vocab_size: also given as embeddings.vocab_size"),
        ({**GPT3_V0, "schema_version": "zero"}, "schema_version must be a whole number"),
        ({**GPT3_V0, "schema_version": -1}, "schema_version must be a whole number"),
        ({**GPT3_V0, "n_layers": "many"}, r"old\.json: decoder\.layers: "),
        ({**GPT3_V0, "attention": ["not", "an", "object"]}, r"old\.json: blocks\.default\.mixer"),
    ],
)
def test_bad_old_files_get_a_clear_message(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ParamTallyError, match=message) as caught:
        presets.parse_preset(json.dumps(data), "old.json")
    assert str(caught.value).startswith("old.json: ")


def test_newer_version_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "future.json"
    path.write_text(json.dumps({"schema_version": SCHEMA_VERSION + 1, "hidden_size": 8}), encoding="utf-8")
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    with pytest.raises(ParamTallyError, match=r"future\.json: written by a newer ParamTally") as caught:
        presets.load_preset_file(path)
    assert "left as it is" in str(caught.value)
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


V1_FILES = sorted((ROOT / "tests" / "data" / "schema_v1").glob("*.json"))
GOLDEN = json.loads((ROOT / "tests" / "golden" / "presets.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", V1_FILES, ids=[path.stem for path in V1_FILES])
def test_every_schema_1_preset_counts_the_same_in_schema_2(path: Path) -> None:
    """The built-in presets as schema 1 wrote them (kept in tests/data/schema_v1) against the goldens."""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["schema_version"] == 1
    report = count_parameters(presets.parse_preset(path.read_text(encoding="utf-8"), path.name))
    assert (report.total, report.active) == (GOLDEN[path.stem]["total"], GOLDEN[path.stem]["active"])
    builtin = count_parameters(presets.load_builtin(path.stem))
    assert (report.by_part, report.groups) == (builtin.by_part, builtin.groups)


def test_a_schema_1_user_preset_is_rewritten_only_when_saved() -> None:
    folder = user_presets.presets_dir()
    folder.mkdir(parents=True)
    path = folder / "my-gemma.json"
    v1 = json.loads((ROOT / "tests" / "data" / "schema_v1" / "gemma-2-9b.json").read_text(encoding="utf-8"))
    v1["layers"] = [
        {"count": 40, "lora": {"rank": 8, "targets": ["q", "v"]}},
        {"count": 2, "adapter": {"width": 64}},
    ]
    path.write_text(json.dumps(v1), encoding="utf-8")
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    arch = user_presets.load("my-gemma")
    report = count_parameters(arch)
    assert report.by_part["lora"] == 40 * 8 * ((3584 + 16 * 256) + (3584 + 8 * 256))
    assert report.by_part["adapters"] == 2 * 2 * (2 * 3584 * 64 + 64 + 3584)
    assert layer_windows(arch) == [4096, None] * 21
    user_presets.list_presets()
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before  # read, listed: untouched
    user_presets.save("my-gemma", arch)
    assert json.loads(path.read_text(encoding="utf-8"))["schema_version"] == 2
    assert count_parameters(user_presets.load("my-gemma")).total == report.total
