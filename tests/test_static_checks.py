"""The tool-enforced rules: core/ imports no Qt and is layered (import-linter), ruff, mypy on core/.

mypy cannot follow the editable install's import hook that maps ``paramtally`` onto the
repository root, so it is shown the package through a symlink named ``paramtally``.
"""

from __future__ import annotations

import os
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
def test_tool_passes(command: list[str], tmp_path: Path) -> None:
    (tmp_path / "paramtally").symlink_to(ROOT, target_is_directory=True)
    env = {**os.environ, "MYPYPATH": str(tmp_path)}
    tool = [_tool(command[0]), *command[1:]]
    result = subprocess.run(tool, cwd=ROOT, capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_core_keeps_at_most_three_loose_modules() -> None:
    """Everything else in core/ lives in a sub-package that names its concept (ARCHITECTURE.md)."""
    loose = sorted(path.name for path in (ROOT / "core").glob("*.py") if path.name != "__init__.py")
    assert loose == ["errors.py", "text.py", "typed_numbers.py"]
