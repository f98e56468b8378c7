"""The one guarded opener and JSON loader every file goes through (``core.io.input_files``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from paramtally.core.errors import ParamTallyError
from paramtally.core.io.input_files import MAX_DEPTH, MAX_INT_DIGITS, load_json_file, parse_json


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"hidden_size": 1, "hidden_size": 2}', "hidden_size: given twice in one object"),
        ('{"a": {"b": 1, "b": 1}}', "b: given twice"),
        ('{"vocab_size": ' + "9" * 305 + "}", "vocab_size: an integer of 305 digits"),
        ('{"vocab_size": ' + "9" * 5000 + "}", "vocab_size: an integer of 5,000 digits"),
        ('{"hidden_size": 1e400}', "hidden_size: the number 1e400 is out of range"),
        ('{"hidden_size": -1e400}', "the number -1e400 is out of range"),
        ('{"x": NaN}', "x: NaN is not a number JSON allows"),
        ('{"x": Infinity}', "Infinity is not a number JSON allows"),
        ("[" * 10_000 + "]" * 10_000, f"nested more than {MAX_DEPTH} levels deep"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), f"nested more than {MAX_DEPTH} levels deep"),
        ('{"a": ' * 200 + "1" + "}" * 200, "nested more than"),
        ('{"model_type": "llama", "hidden_size": 40', "not valid JSON"),
        ('{"name": "x\n"}', "not valid JSON (Invalid control character at line 1, column 12)"),
        ('{\n  "name": "unfinished', "not valid JSON (Unterminated string starting at line 2, column 11)"),
    ],
)
def test_refusals_are_one_line_naming_file_and_key(text: str, message: str) -> None:
    with pytest.raises(ParamTallyError) as caught:
        parse_json(text, "config.json")
    assert str(caught.value).startswith("config.json: ")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_limits_admit_every_real_document() -> None:
    deepest = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_json(deepest, "x") is not None
    assert parse_json('{"n": ' + "9" * MAX_INT_DIGITS + "}", "x") == {"n": int("9" * MAX_INT_DIGITS)}
    assert parse_json(b'\xef\xbb\xbf{"bom": 1.5}', "x") == {"bom": 1.5}  # Windows editors write a BOM


def test_brackets_inside_strings_do_not_nest() -> None:
    """Depth is judged from the brackets outside strings, before json decodes (its decoder recurses
    once a level); a name of brackets, quotes escaped among them, nests nothing."""
    name = "[{" * 100 + '\\"' + "}]" * 100
    assert parse_json('{"name": "' + name + '"}', "x") == {"name": name.replace('\\"', '"')}
    with pytest.raises(ParamTallyError, match="nested more than"):
        parse_json('{"a": "]]", "b": ' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "}", "x")


def test_not_utf8_is_named() -> None:
    with pytest.raises(ParamTallyError, match=r"^x\.json: not UTF-8 text \(byte 1\)"):
        parse_json(b'{\xff"a": 1}', "x.json")


def test_size_is_checked_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as stream:  # sparse: 5 GB claimed, nothing written
        stream.truncate(5 << 30)
    with pytest.raises(ParamTallyError, match=r"big\.json: 5,368,709,120 bytes .* larger than the 1,000"):
        load_json_file(big, 1000)


@pytest.mark.parametrize("kind", ["fifo", "folder", "device", "dangling"])
def test_only_regular_files_are_opened(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "x.json"
    if kind == "fifo":
        os.mkfifo(path)  # opening it for reading would block forever
    elif kind == "folder":
        path.mkdir()
    elif kind == "device":
        path.symlink_to("/dev/zero")  # reading it would never end
    else:
        path.symlink_to(tmp_path / "gone.json")
    expected = {
        "fifo": "a FIFO (named pipe), not a regular file",
        "folder": "a folder, not a regular file",
        "device": "a character device, not a regular file",
        "dangling": "cannot read (No such file or directory)",
    }[kind]
    with pytest.raises(ParamTallyError) as caught:
        load_json_file(path, 1000)
    assert str(caught.value).startswith(f"x.json: {expected}")
