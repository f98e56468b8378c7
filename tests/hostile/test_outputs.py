"""Where the command line writes: a pipe or a link is written through, never replaced; the model
being read is never overwritten by its own figures; names from files reach a terminal escaped."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from paramtally.core.cli import main
from paramtally.core.io.presets import load_builtin
from tests.hostile.hostile_files import safetensors

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_fifo_is_written_through_and_stays_a_fifo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    code, _, err = run(capsys, "count", "gpt2", "--format", "csv", "-o", str(fifo))
    reader.join(timeout=30)
    assert code == 0, err
    assert fifo.is_fifo()  # not replaced by a plain file
    _, csv, _ = run(capsys, "count", "gpt2", "--format", "csv")
    assert received == [csv.encode()]


def test_a_link_keeps_pointing_at_its_file_which_gets_the_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target, link = tmp_path / "kept.csv", tmp_path / "link.csv"
    target.write_text("old\n")
    link.symlink_to(target.name)
    assert run(capsys, "count", "gpt2", "--format", "csv", "-o", str(link))[0] == 0
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_text().startswith("path,name,")


@pytest.mark.parametrize("as_folder", [False, True])
def test_the_model_read_is_never_overwritten_by_its_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], as_folder: bool
) -> None:
    model = tmp_path / "config.json"
    assert run(capsys, "presets", "export", "gpt2", str(model))[0] == 0
    before = model.read_bytes()
    source = str(tmp_path) if as_folder else str(model)
    code, _, err = run(capsys, "count", source, "--format", "csv", "-o", str(model))
    assert code == 2 and model.read_bytes() == before
    assert err.strip().splitlines() == [
        f"paramtally count: --output {model} is the file {source} is read from; write to another file"
    ]
    code, _, err = run(capsys, "compare", "gpt2", source, "-o", str(model))
    assert code == 2 and model.read_bytes() == before and "is read from" in err
    assert run(capsys, "count", source, "--format", "csv", "-o", str(tmp_path / "other.csv"))[0] == 0


def _hostile_preset(folder: Path, name: str = "evil\x1b[31mRED\x07\nsecond line") -> Path:
    data = json.loads(load_builtin("gpt2").model_dump_json())
    data["name"] = name
    path = folder / "evil.json"
    path.write_text(json.dumps(data))
    return path


HOSTILE_TENSOR = "evil\x1b[31mRED\x07\u202e\x00\nsecond line"


def _hostile_checkpoint(folder: Path) -> Path:
    """A checkpoint is data, not a name to refuse: its tensors' names are shown, escaped."""
    path = folder / "evil.safetensors"
    path.write_bytes(
        safetensors({HOSTILE_TENSOR: {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}, bytes(8))
    )
    return path


def _on_a_terminal(*argv: str) -> tuple[int, bytes]:
    main_side, terminal = pty.openpty()
    child = subprocess.run(
        [sys.executable, "-m", "paramtally", *argv],
        stdout=terminal,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    os.close(terminal)
    shown = b""
    while True:
        try:
            chunk = os.read(main_side, 65536)
        except OSError:  # the child's end is closed: all is read
            break
        if not chunk:
            break
        shown += chunk
    os.close(main_side)
    return child.returncode, shown


def test_tensor_names_reach_a_terminal_escaped(tmp_path: Path) -> None:
    """On a terminal (a pty) the escape sequence, the bell, U+202E and NUL of a tensor's name
    show as text; the table stays one line per tensor."""
    code, shown = _on_a_terminal("verify", str(_hostile_checkpoint(tmp_path)), "--preset", "gpt2")
    assert code == 1  # a checkpoint of one tensor differs from GPT-2: the verdict, not a crash
    for raw in (b"\x1b", b"\x07", "\u202e".encode(), b"\x00"):
        assert raw not in shown
    assert b"evil\\x1b[31mRED\\x07\\u202e\\x00\\x0asecond line" in shown


@pytest.mark.parametrize("form", ["table", "json"])
def test_tensor_names_are_escaped_in_piped_and_written_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], form: str
) -> None:
    checkpoint = str(_hostile_checkpoint(tmp_path))
    code, out, err = run(capsys, "verify", checkpoint, "--preset", "gpt2", "--format", form)
    assert code == 1, err
    written = tmp_path / f"out.{form}"
    assert run(capsys, "verify", checkpoint, "--preset", "gpt2", "--format", form, "-o", str(written))[0] == 1
    for text in (out, written.read_text(encoding="utf-8")):
        assert not set(text) & {"\x1b", "\x07", "\u202e", "\x00"}
    if form == "json":  # JSON escapes: the very name reads back
        assert HOSTILE_TENSOR in [tensor["name"] for tensor in json.loads(out)["tensors"]]


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("evil\x1b[31mRED", "U+001B (a control character) at character 5"),
        ("two\nlines", "U+000A (a line break) at character 4"),
        ("gpt\u202e2", "U+202E (RIGHT-TO-LEFT OVERRIDE) at character 4"),
        ("nul\x00", "U+0000 (a NUL byte) at character 4"),
    ],
)
def test_a_name_with_control_or_bidirectional_characters_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, said: str
) -> None:
    preset = _hostile_preset(tmp_path, name)
    for argv in (["count", str(preset)], ["presets", "import", str(preset), "--id", "evil"]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and not out
        assert err.strip().splitlines() == [
            f"paramtally {argv[0]}: {preset}: name: holds {said}; a name is one line of printable text"
        ]


def test_a_file_name_in_a_message_is_one_line_without_control_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    named = tmp_path / "c\x1b[31mred\u202e\nx.json"
    code, _, err = run(capsys, "count", str(named))
    assert code == 2 and len(err.splitlines()) == 1
    assert "\x1b" not in err and "\u202e" not in err and "c\\x1b[31mred\\u202e\\x0ax.json" in err


def test_a_dash_is_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "count", "gpt2", "--format", "csv", "-o", "-")
    assert code == 0 and out.startswith("path,name,") and not (tmp_path / "-").exists()
