"""Schema versions: a version-0 (pre-release, flat) file loads; a newer one is refused untouched."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paramtally.core import presets, user_presets
from paramtally.core.errors import ParamTallyError
from paramtally.core.migrations import MIGRATIONS, migrate
from paramtally.core.params import count_parameters
from paramtally.core.schema import SCHEMA_VERSION

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
    assert arch.model_copy(update={"description": builtin.description}) == builtin
    assert count_parameters(arch).total == 175_221_817_344


def test_migration_does_not_mutate_its_input() -> None:
    data = {**GPT3_V0, "schema_version": 0}
    copy = json.loads(json.dumps(data))
    migrated = migrate(data, "old.json")
    assert data == copy
    assert migrated["schema_version"] == SCHEMA_VERSION
    assert migrated["layers"] == [{"count": 96}]
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
        ({**GPT3_V0, "n_layers": "many"}, r"old\.json: layers: "),
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
