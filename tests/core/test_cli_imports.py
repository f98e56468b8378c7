"""A command imports only what it runs: no Qt, no pyqtgraph, no numpy, no other command's module.

Each case starts a fresh interpreter (this test process has long imported everything), runs the
command as the console script does and lists the modules it then holds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from paramtally.core.cli import COMMANDS
from tests.hostile.hostile_files import valid_safetensors

_PROBE = """
import contextlib, io, json, sys
from paramtally.main import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""
# What any command needs: the schema's validation (pydantic and its helpers) and where user
# presets live (platformdirs).
COMMON = {
    "annotated_types",
    "platformdirs",
    "pydantic",
    "pydantic_core",
    "typing_extensions",
    "typing_inspection",
}
NEVER = {"numpy", "PySide6", "shiboken6", "pyqtgraph", "superqt", "contourpy"}
CASES = {
    "count": ["count", "deepseek-v3"],
    "memory": ["memory", "deepseek-v3", "--mode", "training", "--gpus", "8"],
    "verify": ["verify", "{checkpoint}", "--preset", "gpt2"],
    "presets": ["presets", "list"],
}


def _modules(argv: list[str]) -> tuple[int, set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv],
        cwd=Path(__file__).parents[2],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    report = json.loads(done.stdout)
    return report["code"], set(report["modules"])


def _third_party(modules: set[str]) -> set[str]:
    top = {name.split(".")[0] for name in modules}
    stdlib = set(sys.stdlib_module_names) | set(sys.builtin_module_names)
    # Leading underscores: the interpreter's and the installer's own hooks (an editable install's
    # finder, setuptools' distutils shim, sysconfig data).
    return {name for name in top - stdlib if not name.startswith("_")}


@pytest.mark.parametrize("command", sorted(CASES))
def test_a_command_imports_no_window_no_numpy_and_no_other_command(command: str, tmp_path: Path) -> None:
    checkpoint = tmp_path / "model.safetensors"
    checkpoint.write_bytes(valid_safetensors())
    code, modules = _modules([word.format(checkpoint=checkpoint) for word in CASES[command]])
    assert code in (0, 1), code  # verify: 1 = the checkpoint differs, a verdict
    assert not _third_party(modules) & NEVER
    assert not [name for name in modules if name.startswith("paramtally.gui")]
    others = {f"paramtally.core.cli.{name.replace('-', '_')}" for name in COMMANDS} - {
        f"paramtally.core.cli.{command}"
    }
    assert not modules & others, sorted(modules & others)


def test_a_count_imports_only_the_schema_and_the_counting() -> None:
    code, modules = _modules(CASES["count"])
    assert code == 0
    assert _third_party(modules) == COMMON | {"paramtally"}
    # Neither the memory model, the scenario, the explore tools, any importer nor, for a count
    # printed as a table, the export formats and their writers.
    absents = ("memory", "explore", "io.importers", "families", "io.formats", "io.export", "io.subjects")
    for absent in absents:
        assert not [name for name in modules if name.startswith(f"paramtally.core.{absent}")], absent
    assert "paramtally.core.memory" in _modules(CASES["memory"])[1]  # the names above are live ones
    assert "paramtally.core.io.formats" in _modules([*CASES["count"], "--format", "csv"])[1]
