"""The tool-enforced rules: core/ imports no Qt (import-linter), ruff, and mypy on core/."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    path = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed; install the test extras")
    return path


@pytest.mark.parametrize(
    "command",
    [
        ["lint-imports"],
        ["ruff", "check", "."],
        ["mypy"],
    ],
    ids=["import-linter", "ruff", "mypy"],
)
def test_tool_passes(command: list[str]) -> None:
    result = subprocess.run([_tool(command[0]), *command[1:]], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
