"""``count FOLDER`` of weights of an unknown type on hostile folders and headers: the stored count
keeps verify's promises (issue 30). Refused in one line, bounded, nothing read outside the folder;
the names and the model_type a file gives are shown escaped and cut, each on its own line.

Each case runs the real command in a child process (``support.probe``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.hostile import hostile_files as hf
from tests.hostile.support import probe
from tests.hostile.test_checkpoints import GGUF_CASES, SAFETENSORS_CASES

UNKNOWN_CONFIG = {"model_type": "zz_private_arch", "hidden_size": 8, "num_hidden_layers": 1}


def _folder(tmp_path: Path, config: dict[str, object] | None = UNKNOWN_CONFIG) -> tuple[Path, Path]:
    """A model folder whose config.json names an unknown type, and a sibling folder outside it
    holding a valid shard."""
    folder, outside = tmp_path / "model", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    if config is not None:
        (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    (outside / "x.safetensors").write_bytes(hf.valid_safetensors())
    return folder, outside


@pytest.mark.parametrize("case", sorted(SAFETENSORS_CASES))
def test_hostile_safetensors_beside_an_unknown_config_is_refused(tmp_path: Path, case: str) -> None:
    make, words = SAFETENSORS_CASES[case]
    folder, _ = _folder(tmp_path)
    (folder / "model.safetensors").write_bytes(make())
    outcome = probe("count", str(folder))
    outcome.assert_refused(folder, words=words)
    outcome.assert_cheap()


# A llama GGUF that claims 10^18 layers is refused by verify's prediction from its metadata; its
# stored count needs no prediction, and its one tensor is counted.
_REFUSED_GGUFS = sorted(case for case in GGUF_CASES if case != "block_count 10^18")


@pytest.mark.parametrize("case", _REFUSED_GGUFS)
def test_hostile_gguf_in_a_folder_without_config_is_refused(tmp_path: Path, case: str) -> None:
    make, words = GGUF_CASES[case]
    folder, _ = _folder(tmp_path, config=None)
    (folder / "m.gguf").write_bytes(make())
    outcome = probe("count", str(folder))
    outcome.assert_refused(folder, words=words)
    outcome.assert_cheap()


def test_a_gguf_claiming_a_billion_billion_layers_is_counted_by_what_it_stores(tmp_path: Path) -> None:
    folder, _ = _folder(tmp_path, config=None)
    (folder / "m.gguf").write_bytes(hf.llama_gguf(10**18))
    outcome = probe("count", str(folder), "--format", "json")
    assert outcome.code == 0, outcome.stderr
    assert json.loads(outcome.stdout)["by_part"] == {"embeddings": 32}
    outcome.assert_cheap()
    outcome.assert_bounded(folder)


@pytest.mark.parametrize("shard", ["../outside/x.safetensors", "/etc/passwd", "/proc/self/environ"])
def test_an_index_naming_a_file_outside_is_refused_unopened(tmp_path: Path, shard: str) -> None:
    folder, _ = _folder(tmp_path)
    (folder / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {"t": shard}}))
    outcome = probe("count", str(folder))
    outcome.assert_refused(folder, words=f"names {shard!r}")
    assert "outside the folder" in outcome.stderr or "not a file name inside" in outcome.stderr


@pytest.mark.parametrize("target", ["outside", "/dev/zero"])
def test_a_shard_linking_outside_is_refused_unopened(tmp_path: Path, target: str) -> None:
    folder, outside = _folder(tmp_path)
    (folder / "model.safetensors").symlink_to(outside / "x.safetensors" if target == "outside" else target)
    probe("count", str(folder)).assert_refused(folder, words="leads outside the folder")


def test_a_counted_folder_opens_nothing_outside_it(tmp_path: Path) -> None:
    folder, _ = _folder(tmp_path)
    (folder / "model.safetensors").write_bytes(hf.valid_safetensors())
    outcome = probe("count", str(folder), "--format", "json")
    assert outcome.code == 0, outcome.stderr
    assert json.loads(outcome.stdout)["total"] == 2
    outcome.assert_cheap()
    outcome.assert_bounded(folder)
    assert {Path(p).name for p in outcome.opened if str(folder) in p} == {"config.json", "model.safetensors"}


def test_a_config_that_cannot_be_read_is_not_looked_past(tmp_path: Path) -> None:
    """A FIFO named config.json beside weights: the refusal of the file stands, and nothing blocks."""
    folder, _ = _folder(tmp_path, config=None)
    (folder / "model.safetensors").write_bytes(hf.valid_safetensors())
    os.mkfifo(folder / "config.json")
    probe("count", str(folder)).assert_refused(folder, words="a FIFO (named pipe), not a regular file")


def test_names_and_the_model_type_a_file_gives_are_shown_escaped_and_cut(tmp_path: Path) -> None:
    model_type = "\x1b]0;owned\x07" + "z" * 5_000
    folder, _ = _folder(tmp_path, config={"model_type": model_type})
    buffer = "\x1b[2J\nrotary_emb.inv_freq" + "x" * 10_000
    weight = "model.norm.weight\r\n\u202eevil"
    header = {
        buffer: {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
        weight: {"dtype": "F32", "shape": [2], "data_offsets": [8, 16]},
    }
    (folder / "model.safetensors").write_bytes(hf.safetensors(header, bytes(16)))
    outcome = probe("count", str(folder))
    assert outcome.code == 0, outcome.stderr
    out = outcome.stdout
    assert "\x1b" not in out and "\r" not in out and "\u202e" not in out
    lines = out.splitlines()
    assert lines[1].startswith("Not editable: its model_type '\\x1b]0;owned\\x07zz")
    assert len(lines[1]) < 300
    buffers = next(line for line in lines if "Buffers, not counted" in line)
    assert "\\x1b[2J\\x0arotary_emb.inv_freq" in buffers and len(buffers) < 300
    outcome.assert_cheap()
    outcome.assert_bounded(folder)


@pytest.mark.parametrize("command", ["count", "verify"])
def test_the_weights_read_are_never_overwritten_by_the_figures(tmp_path: Path, command: str) -> None:
    folder, _ = _folder(tmp_path)
    shard = folder / "model.safetensors"
    shard.write_bytes(hf.valid_safetensors())
    before = shard.read_bytes()
    outcome = probe(command, str(folder), "--format", "json", "-o", str(shard))
    outcome.assert_refused(folder, words=f"--output {shard} is the file {folder} is read from")
    assert shard.read_bytes() == before
