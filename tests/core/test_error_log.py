"""The window's error log: each uncaught exception appended with its traceback; it stays small."""

from __future__ import annotations

from pathlib import Path

import pytest

from paramtally.core.io import error_log
from paramtally.core.io.error_log import MAX_BYTES, error_log_path, log_exception


def _log(message: str, version: str = "1") -> Path | None:
    try:
        raise ValueError(message)
    except ValueError as error:
        return log_exception(ValueError, error, error.__traceback__, version)


def test_each_exception_is_appended_with_its_traceback_and_the_version() -> None:
    first, second = _log("first", "1.2.3"), _log("second", "1.2.3")
    assert first == second == error_log_path()
    text = error_log_path().read_text(encoding="utf-8")
    assert text.count("ParamTally 1.2.3") == 2 and "ValueError: first" in text and "in _log" in text
    assert text.index("ValueError: first") < text.index("ValueError: second")


def test_past_its_limit_the_log_keeps_its_newer_half_from_an_entry_start() -> None:
    number = 0
    while not error_log_path().exists() or error_log_path().stat().st_size <= MAX_BYTES:
        number += 1
        _log(f"bug {number:05d} " + "x" * 400)
    _log("the newest")
    text = error_log_path().read_text(encoding="utf-8")
    assert MAX_BYTES // 4 < len(text.encode()) <= MAX_BYTES // 2 + 2000
    assert text.startswith("--- ") and text.rstrip().endswith("ValueError: the newest")
    assert f"bug {number:05d}" in text and "bug 00001 " not in text


def test_a_log_that_cannot_be_written_is_no_second_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the log's folder should be")
    monkeypatch.setattr(error_log, "error_log_path", lambda: blocker / "errors.log")
    assert _log("lost") is None
