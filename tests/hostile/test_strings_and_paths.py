"""Every string printed or written is safe, every path argument gives one line, and a crash never
exits with a verdict's status (issue 30).

Before: a lone surrogate in a name, a family, a tensor's name or its dtype raised
``UnicodeEncodeError`` from count, memory, compare, solve, sweep, presets import and verify, and
verify then exited 1, its "checkpoint differs"; a 5,000-character path raised ``OSError: File
name too long`` in ``sources.is_path``, from count and from the window's start.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

import pytest

from paramtally.core.cli import BUG_STATUS, main
from paramtally.core.io.presets import dump_preset, load_builtin
from tests.hostile.hostile_files import safetensors

GPT2: dict[str, Any] = json.loads(dump_preset(load_builtin("gpt2")))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_line(code: int, err: str) -> str:
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, (code, err)
    return lines[0]


def _preset_text(**changes: Any) -> str:
    # json.dumps writes a lone surrogate as the escape "\ud800", as a hostile file would hold it.
    return json.dumps({**GPT2, **changes})


EXPLORE = [
    ["count"],
    ["memory"],
    ["compare", "gpt2"],
    ["solve", "--vary", "num_layers", "--target", "total=1B"],
    ["sweep", "--x", "num_layers=1:4", "--y", "hidden_size=256,512"],
]


@pytest.mark.parametrize("field", ["name", "family", "description"])
@pytest.mark.parametrize("command", EXPLORE, ids=lambda argv: argv[0])
def test_a_lone_surrogate_in_a_preset_is_refused_where_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, command: list[str]
) -> None:
    path = tmp_path / "model.json"
    path.write_text(_preset_text(**{field: "x\ud800y"}), encoding="utf-8")
    argv = [command[0], str(path), *command[1:], "-o", str(tmp_path / "out.txt")]
    line = _one_line(*run(capsys, *argv)[::2])
    assert line == (
        f"paramtally {command[0]}: {path}: {field}: holds U+D800 (a lone surrogate, half of a UTF-16 pair), "
        "which is not text"
    )
    assert not (tmp_path / "out.txt").exists()


def test_presets_import_refuses_a_surrogate_in_a_block_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "model.json"
    path.write_text(
        _preset_text(blocks={"x\udc00": GPT2["blocks"]["default"], **GPT2["blocks"]}), encoding="utf-8"
    )
    line = _one_line(*run(capsys, "presets", "import", str(path), "--id", "surr")[::2])
    assert line.endswith(
        "the key x\\udc00 holds U+DC00 (a lone surrogate, half of a UTF-16 pair), which is not text"
    )


@pytest.mark.parametrize("where", ["name", "dtype"])
def test_a_surrogate_in_a_checkpoint_is_a_refused_file_never_a_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    entry = {"dtype": "F\ud800" if where == "dtype" else "F32", "shape": [2], "data_offsets": [0, 8]}
    path = tmp_path / "m.safetensors"
    path.write_bytes(
        safetensors({"model.x\ud800" if where == "name" else "model.norm.weight": entry}, bytes(8))
    )
    line = _one_line(*run(capsys, "verify", str(path), "--preset", "gpt2")[::2])
    assert "m.safetensors: not a valid safetensors file: header: " in line and "lone surrogate" in line


def test_a_crash_is_one_line_and_never_a_verdicts_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug (here a comparison that raises) exits 70, not 1 ("differs") nor 2 (refused)."""
    from paramtally.core.cli import verify

    def broken(*_: object) -> None:
        raise RuntimeError("a bug\nover two lines")

    monkeypatch.setattr(verify, "compare", broken)
    path = tmp_path / "m.safetensors"
    path.write_bytes(
        safetensors({"model.norm.weight": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}, bytes(8))
    )
    code, out, err = run(capsys, "verify", str(path), "--preset", "gpt2")
    assert code == BUG_STATUS and not out
    lines = err.splitlines()
    assert len(lines) == 1, err
    said = "paramtally: internal error (RuntimeError: a bug\\x0aover two lines), a bug; the traceback is in "
    assert lines[0].startswith(said)
    assert "RuntimeError: a bug" in Path(lines[0].removeprefix(said)).read_text()  # the error log has it
    assert "Traceback" not in err


# --- path arguments: any length, any bytes -------------------------------------------------------

LONG = "/tmp/" + "a" * 5000 + ".json"
UNDECODABLE = os.fsdecode(b"/tmp/\xff\xfe-model.json")


@pytest.mark.parametrize(
    "argv",
    [
        ["count", LONG],
        ["count", "a" * 5000],
        ["memory", LONG],
        ["count", UNDECODABLE],
        ["count", "~no-such-user-anywhere/model.json"],
        ["verify", LONG],
        ["verify", "/tmp/" + "b" * 300 + "/x.safetensors"],
        ["presets", "import", LONG],
        ["presets", "export", "gpt2", LONG],
        ["count", "gpt2", "-o", LONG],
        ["compare", "gpt2", LONG],
    ],
    ids=lambda argv: " ".join(part[:20] for part in argv),
)
def test_a_path_of_any_length_or_bytes_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    line = _one_line(*run(capsys, *argv)[::2])
    assert len(line) < 400  # a 5,000-character path is shown by its first 60 and last 80
    assert "\udcff" not in line and "\ud800" not in line


def test_an_undecodable_byte_is_shown_as_that_byte(capsys: pytest.CaptureFixture[str]) -> None:
    line = _one_line(*run(capsys, "count", UNDECODABLE)[::2])
    assert line == "paramtally count: /tmp/\\xff\\xfe-model.json: no such file"


def test_the_windows_start_refuses_such_a_path_in_one_line_before_qt(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from paramtally.gui.app import build_parser, open_window

    for source in (LONG, "a" * 5000, UNDECODABLE):
        args = build_parser().parse_args([source, "--screenshot", "unused.png"])
        assert open_window(args) == 2
        line = _one_line(2, capsys.readouterr().err)
        assert line.startswith("paramtally: ") and len(line) < 400


@pytest.mark.parametrize("size", ["100000x100000", "8193x600", "600x8193", "199x600"])
def test_the_windows_size_is_bounded(capsys: pytest.CaptureFixture[str], size: str) -> None:
    from paramtally.gui.app import build_parser

    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args(["--size", size])
    assert exited.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_the_largest_window_size_is_taken() -> None:
    from paramtally.gui.app import MAX_SIDE, build_parser

    args: argparse.Namespace = build_parser().parse_args(["--size", f"{MAX_SIDE}x{MAX_SIDE}"])
    assert args.size == (MAX_SIDE, MAX_SIDE)


def test_a_folder_or_a_configs_own_name_becomes_a_name_a_model_may_carry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A model folder named with a line break and U+202E, a config whose _name_or_path holds an
    escape: their text names the model, escaped, and every printed line stays one line."""
    folder = tmp_path / "evil\nname\u202ex"
    folder.mkdir()
    config = json.loads((Path(__file__).parents[1] / "data" / "hf_configs" / "gpt2.json").read_text())
    (folder / "config.json").write_text(
        json.dumps(config | {"_name_or_path": "org/\u202e\x1bevil" + "x" * 300})
    )
    (folder / "model.safetensors").write_bytes(
        safetensors({"wte.weight": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}, bytes(8))
    )
    code, out, err = run(capsys, "verify", str(folder), "--summary")
    assert code == 1, err  # a checkpoint of one tensor differs: the verdict
    assert out.splitlines()[0].startswith(f"{tmp_path}/evil\\x0aname\\u202ex (safetensors")
    assert out.splitlines()[1].startswith("prediction: \\u202e\\x1bevilxxx") and "…" in out.splitlines()[1]
    code, out, err = run(capsys, "count", str(folder))
    assert code == 0 and out.startswith("\\u202e\\x1bevil"), err


def test_a_path_of_undecodable_bytes_opens_and_is_not_remembered(tmp_path: Path) -> None:
    """The window's start remembers what it opened in recent.json: a path JSON cannot hold as text
    (a byte no encoding reads) is left out, where its write raised UnicodeEncodeError."""
    from paramtally.core.io.recent import recent_sources, remember_source

    path = Path(os.fsdecode(os.fsencode(str(tmp_path)) + b"/\xff-gpt2.json"))
    path.write_text(dump_preset(load_builtin("gpt2")), encoding="utf-8")
    remember_source(str(path))
    assert all(item.encode("utf-8") for item in recent_sources()) and str(path) not in recent_sources()
    remember_source("gpt2")  # the history still works
    assert recent_sources()[0] == "gpt2"
