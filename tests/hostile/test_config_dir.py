"""Faults in the config dir: said once as a warning, built-in presets keep working, nothing hangs.

The root conftest points XDG_CONFIG_HOME at a fresh folder per test; the commands run in a child
process (``support.probe``) that inherits it, under a time limit, so a FIFO that blocked a read
would fail the test instead of hanging it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paramtally.core.errors import ParamTallyError
from paramtally.core.io import presets, user_presets
from tests.hostile.support import ROOT, probe

GPT2 = (ROOT / "presets" / "gpt2.json").read_text(encoding="utf-8")
GPT2_TOTAL = "124,439,808"


def _config() -> Path:
    return Path(os.environ["XDG_CONFIG_HOME"]) / "paramtally"


def _presets_folder() -> Path:
    folder = user_presets.presets_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _warnings(stderr: str) -> list[str]:
    """Warnings about a file or folder (they start with its path), not advice about the model."""
    return [line for line in stderr.splitlines() if line.startswith("paramtally: warning: /")]


# --- the presets folder itself cannot be read ----------------------------------------------------------


def _loop(folder: Path) -> None:
    folder.symlink_to(folder.name)  # every look inside fails: "Too many levels of symbolic links"


def _file(folder: Path) -> None:
    folder.write_text("not a folder")


def _no_permission(folder: Path) -> None:
    folder.mkdir()
    (folder / "mine.json").write_text(GPT2)
    folder.chmod(0)


FOLDER_FAULTS = {"symlink loop": _loop, "a file": _file, "no permission": _no_permission}


@pytest.mark.parametrize("fault", sorted(FOLDER_FAULTS))
def test_unreadable_presets_folder_is_one_warning_and_builtins_work(fault: str) -> None:
    if fault == "no permission" and os.geteuid() == 0:
        pytest.skip("root reads a folder whatever its permissions")
    folder = user_presets.presets_dir()
    folder.parent.mkdir(parents=True, exist_ok=True)
    FOLDER_FAULTS[fault](folder)
    try:
        for command, shows in (
            (["count", "gpt2"], GPT2_TOTAL),
            (["memory", "gpt2"], "h100"),
            (["presets", "list"], "gpt3-175b"),
            (["count", "Llama-3-8B"], "8,030,261,248"),  # a display name: every preset is looked at
        ):
            outcome = probe(*command)
            assert outcome.code == 0 and not outcome.escaped, outcome.stderr
            assert shows in outcome.stdout
            [warning] = _warnings(outcome.stderr)
            assert str(folder) in warning and "built-in presets still work" in warning
            outcome.assert_bounded()
    finally:
        if folder.is_dir() and not folder.is_symlink():
            folder.chmod(0o755)


# --- odd entries in the folder: listed as broken, loaded as broken, deleted alike -----------------------


def _make(kind: str, path: Path) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dangling link":
        path.symlink_to(path.parent / "gone.json")
    elif kind == "link loop":
        path.symlink_to(path.name)
    elif kind == "link to a device":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    elif kind == "unreadable":
        path.write_text(GPT2)
        path.chmod(0)


ODD = {
    "fifo": "a FIFO (named pipe), not a regular file",
    "dangling link": "a symbolic link to",
    "link loop": "a symbolic link that cannot be followed",
    "link to a device": "a character device, not a regular file",
    "folder": "a folder, not a regular file",
    "unreadable": "Permission denied",
}


@pytest.mark.parametrize("kind", sorted(ODD))
def test_odd_entries_are_broken_presets_everywhere(kind: str) -> None:
    if kind == "unreadable" and os.geteuid() == 0:
        pytest.skip("root reads a file whatever its permissions")
    folder = _presets_folder()
    _make(kind, folder / "odd.json")
    (folder / "good.json").write_text(GPT2)

    listing = probe("presets", "list", "--format", "json")
    assert listing.code == 0, listing.stderr
    rows = {row["id"]: row for row in json.loads(listing.stdout)}
    assert rows["odd"]["broken"] and ODD[kind] in rows["odd"]["problem"]
    assert not rows["good"]["broken"] and rows["good"]["name"] == "GPT-2"
    listing.assert_bounded()

    probe("count", "odd").assert_refused(words=ODD[kind])  # the user's entry, not a fallback
    assert GPT2_TOTAL in probe("count", "good").stdout

    deleted = probe("presets", "delete", "odd")
    if kind == "folder":
        deleted.assert_refused(words="is a folder, not a preset file")
        assert (folder / "odd.json").is_dir()
    else:
        assert deleted.code == 0, deleted.stderr
        assert not (folder / "odd.json").is_symlink() and not (folder / "odd.json").exists()
    assert (folder / "good.json").read_text() == GPT2


# --- the user's gpus.json: skipped with one warning, built-in GPUs used ---------------------------------


def _gpus(content: bytes | None) -> None:
    path = _config() / "gpus.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    if content is None:
        os.mkfifo(path)
    else:
        path.write_bytes(content)


ENTRY = {"id": "x", "name": "X", "memory_bytes": 8, "bf16_tflops": 1, "bandwidth_gbs": 1}
_ONE_1E400 = json.dumps({"gpus": [ENTRY]}).replace('"bf16_tflops": 1', '"bf16_tflops": 1e400').encode()
GPU_FAULTS: dict[str, tuple[bytes | None, str]] = {
    "fifo": (None, "a FIFO (named pipe), not a regular file"),
    "10,000 deep": (b"[" * 10_000 + b"]" * 10_000, "nested more than 64 levels deep"),
    "1e400": (_ONE_1E400, "bf16_tflops: the number 1e400 is out of range"),
    "5 MB": (b" " * (5 << 20) + b"[]", "bytes or more is larger than the 4,194,304 allowed"),
    "not UTF-8": (b'{"gpus": [\xff]}', "not UTF-8 text"),
    "key twice": (b'{"gpus": [], "gpus": []}', "gpus: given twice in one object"),
    "memory as text": (
        json.dumps({"gpus": [{**ENTRY, "memory_bytes": "80"}]}).encode(),
        "gpus.0.memory_bytes: must be a whole number",
    ),
    "two bad entries": (
        b'{"gpus": [1, 2]}',
        "gpus.0: must be a group of settings (a JSON object); entry skipped (and 1 more entries)",
    ),
    "memory as float": (
        json.dumps({"gpus": [{**ENTRY, "memory_bytes": 1e30}]}).encode(),
        "gpus.0.memory_bytes: must be a whole number",
    ),
}


@pytest.mark.parametrize("fault", sorted(GPU_FAULTS))
def test_broken_gpu_catalog_is_one_warning_and_memory_still_works(fault: str) -> None:
    content, words = GPU_FAULTS[fault]
    _gpus(content)
    outcome = probe("memory", "gpt2")
    assert outcome.code == 0 and not outcome.escaped, outcome.stderr
    [warning] = _warnings(outcome.stderr)
    assert "gpus.json" in warning and words in warning, warning
    assert "h100" in outcome.stdout
    outcome.assert_bounded()


# --- imports: size, empty id, exclusive creation --------------------------------------------------------


def test_import_of_a_file_over_the_limit_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_text(GPT2[:-2] + ', "description": "' + "x" * (5 << 20) + '"}')
    outcome = probe("presets", "import", str(big))
    outcome.assert_refused(words="larger than the 4,194,304 allowed")
    assert outcome.rss_growth_kb < 2 * 1024  # never read: a 5 MB file would show
    assert not user_presets.presets_dir().exists() or not list(user_presets.presets_dir().iterdir())


def test_a_preset_too_large_to_load_back_is_never_written(monkeypatch: pytest.MonkeyPatch) -> None:
    # A valid model can outgrow the file limit (1,000 groups of 1,000-group patterns of one block
    # are 1,000 runs but 12 MB of JSON); a limit just below GPT-2's file stands in for building one.
    arch = presets.load_builtin("gpt2")
    limit = len(presets.dump_preset(arch).encode()) - 1
    monkeypatch.setattr(presets, "MAX_PRESET_BYTES", limit)
    with pytest.raises(
        ParamTallyError, match=f"more than the {limit:,} a preset may have; it was not written"
    ):
        user_presets.save("huge", arch)
    assert not (user_presets.presets_dir() / "huge.json").exists()


def test_empty_id_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "mine.json"
    source.write_text(GPT2)
    probe("presets", "import", str(source), "--id", "").assert_refused(words="'' is not a usable preset id")
    assert user_presets.user_ids() == []


RACERS = 2
ROUNDS = 4


def test_concurrent_imports_of_one_id_one_wins(tmp_path: Path) -> None:
    """Two imports of the same new id at once: exactly one succeeds, the other says it exists."""
    source = tmp_path / "mine.json"
    source.write_text(GPT2)
    command = [sys.executable, str(ROOT / "main.py"), "presets", "import", str(source), "--id", "race"]
    for _ in range(ROUNDS):
        racers = [
            subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
            for _ in range(RACERS)
        ]
        results = [(racer.wait(timeout=60), *racer.communicate()) for racer in racers]
        codes = sorted(code for code, _, _ in results)
        assert codes == [0, 2], results
        loser = next(err for code, _, err in results if code == 2)
        assert "a user preset 'race' already exists" in loser and len(loser.strip().splitlines()) == 1
        assert user_presets.load("race") == presets.load_builtin("gpt2")
        assert sorted(os.listdir(user_presets.presets_dir())) == ["race.json"]  # no temp file left
        user_presets.delete("race")


# --- temporary files of killed saves ---------------------------------------------------------------------


def test_stale_temp_files_of_killed_saves_are_swept_once_an_hour_old() -> None:
    folder = _presets_folder()
    hour_ago = time.time() - user_presets.STALE_TEMP_SECONDS - 60
    names = {
        ".llama.json.ab12cd_9.tmp": "stale, ours",  # removed
        ".llama.json.zz99yy88.tmp": "fresh, ours (a save may be running)",
        ".notes.tmp": "not our pattern",
        ".llama.json.ABCDEFGH.tmp": "not our alphabet",
        "llama.json.ab12cd34.tmp": "no leading dot",
    }
    for name in names:
        (folder / name).write_text("{")
    for name in names:
        if name != ".llama.json.zz99yy88.tmp":
            os.utime(folder / name, (hour_ago, hour_ago))
    (folder / ".link.json.ab12cd34.tmp").symlink_to("/etc/hostname")  # ours by name, but a link
    os.utime(folder / ".link.json.ab12cd34.tmp", (hour_ago, hour_ago), follow_symlinks=False)
    (folder / "kept.json").write_text(GPT2)
    outcome = probe("presets", "list")
    assert outcome.code == 0, outcome.stderr
    left = set(os.listdir(folder))
    assert ".llama.json.ab12cd_9.tmp" not in left
    assert left == {*names, ".link.json.ab12cd34.tmp", "kept.json"} - {".llama.json.ab12cd_9.tmp"}
    assert Path("/etc/hostname").exists()


def test_permission_denied_is_handled_like_any_folder_fault(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """As root no folder is unreadable, so the kernel's answer for one is injected: EACCES."""
    from paramtally.core.cli import main

    folder = _presets_folder()
    (folder / "mine.json").write_text(GPT2)
    real_scandir, real_lstat = os.scandir, Path.lstat

    def scandir(path: object = ".") -> object:
        if Path(str(path)) == folder:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[arg-type]

    def lstat(self: Path) -> os.stat_result:
        if self.parent == folder:
            raise PermissionError(13, "Permission denied", str(self))
        return real_lstat(self)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(Path, "lstat", lstat)
    for argv in (["count", "gpt2"], ["presets", "list"], ["count", "mine"]):
        code = main(argv)
        out, err = capsys.readouterr()
        [warning] = _warnings(err)
        assert "cannot read the user presets (Permission denied)" in warning
        if argv[-1] == "mine":  # the user's preset cannot be seen: said, not guessed at
            assert code == 2 and "unknown preset 'mine'" in err
        else:
            assert code == 0 and ("gpt3-175b" in out or GPT2_TOTAL in out)
