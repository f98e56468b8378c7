"""``verify`` on hostile headers and folders: refused in one line, bounded, nothing read outside.

Each case runs the real command in a child process (``support.probe``) that records every file
it opens (audit hook on ``open``), its time and its peak memory growth.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.hostile import hostile_files as hf
from tests.hostile.support import ROOT, probe

LLAMA_CONFIG = (ROOT / "tests" / "data" / "hf_configs" / "llama-3.2-1b.json").read_text(encoding="utf-8")


def _folder(tmp_path: Path) -> tuple[Path, Path]:
    """A model folder with a config.json, and a sibling folder outside it holding a valid shard."""
    folder, outside = tmp_path / "model", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    (folder / "config.json").write_text(LLAMA_CONFIG, encoding="utf-8")
    (outside / "x.safetensors").write_bytes(hf.valid_safetensors())
    return folder, outside


def _index(folder: Path, *shards: str) -> None:
    weight_map = {f"t{i}": shard for i, shard in enumerate(shards)}
    (folder / "model.safetensors.index.json").write_text(json.dumps({"weight_map": weight_map}))


# --- folders ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("shard", ["../outside/x.safetensors", "/etc/passwd", "/proc/self/environ"])
def test_index_naming_a_file_outside_is_refused_unopened(tmp_path: Path, shard: str) -> None:
    folder, _ = _folder(tmp_path)
    _index(folder, shard)
    outcome = probe("verify", str(folder))
    outcome.assert_refused(folder, words=f"names {shard!r}")
    assert "outside the folder" in outcome.stderr or "not a file name inside" in outcome.stderr
    assert [Path(p).name for p in outcome.opened if "model" in p] == ["model.safetensors.index.json"]


@pytest.mark.parametrize("target", ["outside", "/etc/passwd", "/dev/zero", "/dev/urandom"])
def test_shard_linking_outside_is_refused_unopened(tmp_path: Path, target: str) -> None:
    folder, outside = _folder(tmp_path)
    (folder / "model.safetensors").symlink_to(outside / "x.safetensors" if target == "outside" else target)
    outcome = probe("verify", str(folder))
    outcome.assert_refused(folder, words="leads outside the folder")


def test_fifo_shard_is_refused_without_blocking(tmp_path: Path) -> None:
    folder, _ = _folder(tmp_path)
    os.mkfifo(folder / "model.safetensors")
    probe("verify", str(folder)).assert_refused(folder, words="a FIFO (named pipe), not a regular file")
    named = probe("verify", str(folder / "model.safetensors"))
    named.assert_refused(folder, words="a FIFO (named pipe), not a regular file")


def test_config_linking_outside_is_refused_by_verify_and_count(tmp_path: Path) -> None:
    folder, outside = _folder(tmp_path)
    (folder / "model.safetensors").write_bytes(hf.valid_safetensors())
    (outside / "config.json").write_text(LLAMA_CONFIG, encoding="utf-8")
    (folder / "config.json").unlink()
    (folder / "config.json").symlink_to(outside / "config.json")
    probe("verify", str(folder)).assert_refused(folder, words="leads outside the folder")
    probe("count", str(folder)).assert_refused(folder, words="leads outside the folder")


def test_symlink_loop_is_refused(tmp_path: Path) -> None:
    folder, _ = _folder(tmp_path)
    (folder / "model.safetensors").symlink_to(folder / "model.safetensors")
    probe("verify", str(folder)).assert_refused(folder, words="model.safetensors")


def test_index_naming_a_10000_character_file_is_one_short_line(tmp_path: Path) -> None:
    """Found by the long fuzz run: the name too long for the file system once escaped as OSError."""
    folder, _ = _folder(tmp_path)
    _index(folder, "x" * 10_000)
    outcome = probe("verify", str(folder))
    outcome.assert_refused(folder, words="File name too long")
    assert len(outcome.stderr) < 400


def test_index_nested_deep_is_one_line(tmp_path: Path) -> None:
    folder, _ = _folder(tmp_path)
    (folder / "model.safetensors.index.json").write_text("[" * 10_000 + "]" * 10_000)
    probe("verify", str(folder)).assert_refused(folder, words="nested more than 64 levels deep")


def test_hugging_face_cache_snapshot_reads_its_blobs(tmp_path: Path) -> None:
    """The hub cache links snapshots/<rev>/* to ../../blobs/*: part of the folder, so verified."""
    repo = tmp_path / "models--tiny"
    (repo / "blobs").mkdir(parents=True)
    snapshot = repo / "snapshots" / "abc123"
    snapshot.mkdir(parents=True)
    config = {
        "model_type": "llama", "hidden_size": 2, "intermediate_size": 2, "num_hidden_layers": 1,
        "num_attention_heads": 1, "vocab_size": 2, "tie_word_embeddings": True,
    }  # fmt: skip
    tensors = {
        "model.embed_tokens.weight": [2, 2], "model.norm.weight": [2],
        "model.layers.0.input_layernorm.weight": [2], "model.layers.0.post_attention_layernorm.weight": [2],
        **{f"model.layers.0.self_attn.{m}_proj.weight": [2, 2] for m in "qkvo"},
        **{f"model.layers.0.mlp.{m}_proj.weight": [2, 2] for m in ("gate", "up", "down")},
    }  # fmt: skip
    header, offset = {}, 0
    for name, shape in tensors.items():
        size = 4 * (shape[0] * (shape[1] if len(shape) > 1 else 1))
        header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    for name, content in (
        ("config.json", json.dumps(config).encode()),
        ("model.safetensors", hf.safetensors(header, bytes(offset))),
    ):
        (repo / "blobs" / f"sha-{name}").write_bytes(content)
        (snapshot / name).symlink_to(Path("../../blobs") / f"sha-{name}")
    outcome = probe("verify", str(snapshot), "--summary")
    assert outcome.code == 0, outcome.stderr
    assert "MATCHES" in outcome.stdout
    outcome.assert_bounded(repo)


def _installed_command() -> list[str]:
    """The ``paramtally`` console script installed beside this interpreter (whatever the venv is
    called), else the one on PATH, else the package run by this interpreter."""
    beside = Path(sys.executable).with_name("paramtally")
    found = str(beside) if beside.exists() else shutil.which("paramtally")
    return [found] if found else [sys.executable, "-m", "paramtally"]


@pytest.mark.skipif(not shutil.which("strace"), reason="strace is not installed")
def test_strace_sees_no_open_outside_the_folder(tmp_path: Path) -> None:
    """The issue's check, with the kernel's own record: ``strace -e openat`` of the real command."""
    folder, outside = _folder(tmp_path)
    _index(folder, "../outside/x.safetensors", "/etc/passwd", "/proc/self/environ")
    log = tmp_path / "strace.log"
    command = ["strace", "-f", "-e", "trace=open,openat", "-o", str(log)]
    command += [*_installed_command(), "verify", str(folder)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert "leads outside the folder" in done.stderr
    opened = log.read_text()
    assert str(folder / "model.safetensors.index.json") in opened
    for forbidden in (str(outside), "/etc/passwd", "/proc/self/environ"):
        assert forbidden not in opened


# --- headers ----------------------------------------------------------------------------------------

GGUF_CASES: dict[str, tuple[Callable[[], bytes], str]] = {
    "2^62-element array (53 bytes)": (hf.huge_array_gguf, "claims 4,611,686,018,427,387,904 array items"),
    "arrays nested 5,000 deep": (lambda: hf.nested_array_gguf(5000), "arrays nested more than 4 deep"),
    "2^60 key/values": (lambda: hf.gguf([], counts=(0, 1 << 60)), "claims 1,152,921,504,606,846,976"),
    "2^60 tensors": (lambda: hf.gguf([], counts=(1 << 60, 0)), "claims 1,152,921,504,606,846,976 tensors"),
    "string of 2^63 bytes": (
        lambda: b"GGUF" + struct.pack("<IQQQ", 3, 0, 1, 1 << 63) + bytes(16),
        "a string needs 9,223,372,036,854,775,808 bytes",
    ),
    "key given twice": (lambda: hf.gguf([hf.u32("a", 1), hf.u32("a", 2)]), "metadata key 'a' given twice"),
    "unknown value type": (lambda: hf.gguf([hf.kv("a", 99, b"")]), "unknown value type 99"),
    "tensor of 9 dims": (lambda: hf.gguf([], [hf.tensor_info("w", (1,) * 9, 0)]), "has 9 dimensions"),
    "tensor of unknown type": (lambda: hf.gguf([], [hf.tensor_info("w", (4,), 0, 999)]), "unknown type 999"),
    "tensor of 2^62 x 2^62 elements": (
        lambda: hf.gguf([], [hf.tensor_info("w", (1 << 62, 1 << 62), 0)]),
        "runs past the end of the file",
    ),
    "tensor offset 2^64-1": (
        lambda: hf.gguf([], [hf.tensor_info("w", (1,), (1 << 64) - 1)]),
        "runs past the end of the file",
    ),
    "version 1": (lambda: b"GGUF" + struct.pack("<I", 1) + bytes(16), "GGUF version 1 is not supported"),
    "4 bytes": (lambda: b"GGUF", "needs 4 bytes at byte 4"),
    "block_count 10^18": (
        lambda: hf.llama_gguf(10**18),
        "m.gguf metadata: llama.block_count: must be at most 1,073,741,824",
    ),
}


@pytest.mark.parametrize("case", sorted(GGUF_CASES))
def test_hostile_gguf_is_refused_in_bounded_time_and_memory(tmp_path: Path, case: str) -> None:
    make, words = GGUF_CASES[case]
    path = tmp_path / "m.gguf"
    path.write_bytes(make())
    outcome = probe("verify", str(path))
    outcome.assert_refused(tmp_path, words=words)
    outcome.assert_cheap()


def _dims(count: int) -> bytes:
    return hf.safetensors({"w": {"dtype": "F32", "shape": [2] * count, "data_offsets": [0, 8]}}, bytes(8))


SAFETENSORS_CASES: dict[str, tuple[Callable[[], bytes], str]] = {
    "__metadata__ a list": (lambda: hf.safetensors({"__metadata__": [1]}), "__metadata__ must be an object"),
    "__metadata__ of numbers": (
        lambda: hf.safetensors({"__metadata__": {"a": 1}}),
        "__metadata__ must be an object of strings",
    ),
    "header nested 10,000 deep": (
        lambda: hf.safetensors(None, raw_header=b"[" * 10_000 + b"]" * 10_000),
        "nested more than 64 levels deep",
    ),
    "tensor named twice": (
        lambda: hf.safetensors(None, raw_header=b'{"w": {}, "w": {}}'),
        "w: given twice in one object",
    ),
    "a million dimensions": (lambda: _dims(1_000_000), "has a malformed entry"),
    "unknown dtype claiming 2^100 elements": (
        lambda: hf.safetensors(
            {"w": {"dtype": "X9", "shape": [1 << 50, 1 << 50], "data_offsets": [0, 8]}}, bytes(8)
        ),
        "needs 158,456,325,028,528,675,187,087,900,672 bytes",
    ),
    "offsets past 2^64": (
        lambda: hf.safetensors({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 1 << 70]}}),
        "has a malformed entry",
    ),
    "length claiming 2^64-1 bytes": (
        lambda: struct.pack("<Q", (1 << 64) - 1) + b"{}",
        "header claims 18,446,744,073,709,551,615 bytes",
    ),
}


@pytest.mark.parametrize("case", sorted(SAFETENSORS_CASES))
def test_hostile_safetensors_is_refused_in_bounded_time_and_memory(tmp_path: Path, case: str) -> None:
    make, words = SAFETENSORS_CASES[case]
    path = tmp_path / "m.safetensors"
    path.write_bytes(make())
    outcome = probe("verify", str(path), "--preset", "gpt2")
    outcome.assert_refused(tmp_path, words=words)
    outcome.assert_cheap()


def test_verify_against_a_billion_layers_is_bounded(tmp_path: Path) -> None:
    """The comparison walks groups and stored layers, never 10⁹ predicted layers one by one."""
    path = tmp_path / "m.gguf"
    path.write_bytes(hf.llama_gguf(1))
    config = {"model_type": "llama", "hidden_size": 8, "intermediate_size": 8, "num_attention_heads": 1}
    config |= {"num_hidden_layers": 10**9, "vocab_size": 4, "tie_word_embeddings": True}
    (tmp_path / "big.json").write_text(json.dumps(config))
    outcome = probe("verify", str(path), "--config", str(tmp_path / "big.json"), "--format", "json")
    assert outcome.code == 1, outcome.stderr  # differs: no layer is stored
    report = json.loads(outcome.stdout)
    assert [row["part"] for row in report["layers_differing"]] == ["layers 0–999999999"]
    outcome.assert_cheap()
    outcome.assert_bounded(tmp_path)


# --- issue 30: an index's cost follows its shards, not its names --------------------------------------


def test_a_nul_in_a_shards_name_is_one_line_never_a_verdict(tmp_path: Path) -> None:
    folder, _ = _folder(tmp_path)
    _index(folder, "x\x00.safetensors")
    outcome = probe("verify", str(folder))
    outcome.assert_refused(
        folder, words="names 'x\\x00.safetensors', which holds a NUL byte, not a file name"
    )


def test_an_index_of_too_many_tensors_is_refused_before_it_is_decoded(tmp_path: Path) -> None:
    from paramtally.core.schema.limits import MAX_TENSORS

    folder, _ = _folder(tmp_path)
    _index(folder, *(["a.safetensors"] * (MAX_TENSORS + 101)))  # 400k names took 16-27 s, 1.5 M 112 s
    outcome = probe("verify", str(folder))
    outcome.assert_refused(
        folder, words=f"model.safetensors.index.json: holds more than {MAX_TENSORS + 100:,} keys"
    )


def test_an_index_naming_too_many_shards_is_refused_before_one_is_resolved(tmp_path: Path) -> None:
    from paramtally.core.schema.limits import MAX_SHARDS

    folder, _ = _folder(tmp_path)
    _index(folder, *(f"shard-{i}.safetensors" for i in range(MAX_SHARDS + 1)))
    outcome = probe("verify", str(folder))
    outcome.assert_refused(
        folder,
        words=f"names {MAX_SHARDS + 1:,} shard files, more than the {MAX_SHARDS:,}",
    )


@pytest.mark.parametrize("tensors", [10, 10_000])
def test_verify_resolves_each_shard_once_however_many_tensors_name_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tensors: int
) -> None:
    """Verify's cost is linear in the index with small constants: one resolve per shard, none
    per tensor name (the issue: one resolve() per name, 400k names in 16-27 s)."""
    from paramtally.core.cli import main
    from paramtally.core.io.importers.model_folder import ModelFolder

    folder, _ = _folder(tmp_path)
    for shard in ("a.safetensors", "b.safetensors"):
        (folder / shard).write_bytes(hf.valid_safetensors())
    _index(folder, *(["a.safetensors", "b.safetensors"] * (tensors // 2)))
    resolved: list[str] = []
    real = ModelFolder.member

    def counted(self: ModelFolder, name: str, named_by: str = "") -> Path:
        resolved.append(name)
        return real(self, name, named_by)

    monkeypatch.setattr(ModelFolder, "member", counted)
    assert main(["verify", str(folder), "--summary"]) == 2  # both shards hold one tensor named alike
    assert (
        {"a.safetensors", "b.safetensors"}
        <= set(resolved)
        <= {"a.safetensors", "b.safetensors", "config.json", "model.safetensors.index.json"}
    )
    assert len(resolved) <= 8  # each shard when listed and when opened: never once per tensor


def test_a_header_listing_more_tensors_than_a_checkpoint_may_hold_is_refused(tmp_path: Path) -> None:
    from paramtally.core.errors import ParamTallyError
    from paramtally.core.io.importers.safetensors_header import read_safetensors_header

    entry = {"dtype": "F32", "shape": [0], "data_offsets": [0, 0]}
    path = tmp_path / "m.safetensors"
    path.write_bytes(hf.safetensors({f"t{i}": entry for i in range(11)}))
    with (
        path.open("rb") as stream,
        pytest.raises(ParamTallyError, match="lists 11 tensors, more than the 10 "),
    ):
        read_safetensors_header(stream, "m.safetensors", max_tensors=10)
