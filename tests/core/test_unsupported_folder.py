"""A checkpoint folder whose config.json names a model_type ParamTally does not import: every
command that reads it as an architecture refuses with advice that fits a folder given (its
weights are counted by ``paramtally count`` of that folder), naming the folder's config.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paramtally.core.cli import main
from tests.hostile.hostile_files import valid_safetensors


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)  # the folder given as a person types it, short enough to show whole
    checkpoint = Path("xyz-model")
    checkpoint.mkdir()
    (checkpoint / "config.json").write_text(json.dumps({"model_type": "xyz", "hidden_size": 64}), "utf-8")
    (checkpoint / "model.safetensors").write_bytes(valid_safetensors())
    return checkpoint


@pytest.mark.parametrize("command", ["memory", "report", "verify"])
def test_a_folder_given_is_told_count_counts_its_weights(
    folder: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, str(folder)]) == 2
    said = capsys.readouterr().err
    assert f"{folder / 'config.json'}: model_type 'xyz' is not supported" in said
    assert f"`paramtally count {folder}` counts the folder's stored weights" in said
    assert "give the checkpoint folder" not in said


def test_a_config_json_given_is_told_to_give_its_folder(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["memory", str(folder / "config.json")]) == 2
    assert "or give the checkpoint folder to count its weights" in capsys.readouterr().err


def test_count_says_one_file_and_one_tensor(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", str(folder)]) == 0
    assert "safetensors, 1 file, 1 tensor\n" in capsys.readouterr().out
