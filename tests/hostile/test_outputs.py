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
from paramtally.core.presets import load_builtin

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


def _hostile_preset(folder: Path) -> Path:
    data = json.loads(load_builtin("gpt2").model_dump_json())
    data["name"] = "evil\x1b[31mRED\x07\nsecond line"
    path = folder / "evil.json"
    path.write_text(json.dumps(data))
    return path


def test_names_reach_a_terminal_escaped(tmp_path: Path) -> None:
    """On a terminal (a pty) the escape sequence and the bell of a preset's name show as text."""
    preset = _hostile_preset(tmp_path)
    main_side, terminal = pty.openpty()
    child = subprocess.run(
        [sys.executable, "-m", "paramtally", "count", str(preset)],
        stdout=terminal,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        timeout=60,
        check=True,
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
    assert child.returncode == 0
    assert b"\x1b" not in shown and b"\x07" not in shown
    assert b"evil\\x1b[31mRED\\x07" in shown


def test_names_in_tables_and_messages_are_one_line_without_control_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    preset = _hostile_preset(tmp_path)
    assert run(capsys, "presets", "import", str(preset), "--id", "evil")[0] == 0
    code, out, _ = run(capsys, "presets", "list")
    rows = [line for line in out.splitlines() if line.startswith("evil ")]
    assert code == 0 and len(rows) == 1 and "evil\\x1b[31mRED\\x07\\x0asecond line" in rows[0]
    named = tmp_path / "c\x1b[31mred.json"
    code, _, err = run(capsys, "count", str(named))
    assert code == 2 and "\x1b" not in err and "c\\x1b[31mred.json" in err


def test_a_dash_is_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "count", "gpt2", "--format", "csv", "-o", "-")
    assert code == 0 and out.startswith("path,name,") and not (tmp_path / "-").exists()
