"""How ParamTally installs and starts: one import package, clean build, the entry point's conventions."""

from __future__ import annotations

import configparser
import os
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _paramtally(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "paramtally", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, check=False)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("wheel")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-v", "-w", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert build.returncode == 0, build.stderr
    (path,) = out.glob("paramtally-*.whl")
    return path, build.stdout + build.stderr


def test_wheel_holds_one_top_level_package(wheel: tuple[Path, str]) -> None:
    path, _ = wheel
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        record = next(name for name in names if name.endswith(".dist-info/RECORD"))
        recorded = [line.split(",")[0] for line in archive.read(record).decode().splitlines()]
        top_level_file = next(name for name in names if name.endswith(".dist-info/top_level.txt"))
        top_level = archive.read(top_level_file).decode().split()
    assert top_level == ["paramtally"]
    assert {name.split("/")[0] for name in recorded if ".dist-info/" not in name} == {"paramtally"}
    assert "paramtally/presets/gpt3-175b.json" in recorded
    assert "paramtally/resources/gpus.json" in recorded
    assert "paramtally/resources/paramtally.svg" in recorded
    assert "paramtally/resources/i18n/paramtally_zh_CN.qm" in recorded  # the Chinese interface
    assert "paramtally/README.md" in recorded  # Help → User Guide opens it offline
    assert not [name for name in recorded if name.split("/")[1:2] in (["tests"], ["tools"], ["bench"])]


def test_build_prints_no_warning(wheel: tuple[Path, str]) -> None:
    _, log = wheel
    noise = [line for line in log.splitlines() if "Warning" in line or "deprecat" in line.lower()]
    assert not noise, "\n".join(noise)


def test_version_comes_from_package_metadata() -> None:
    from importlib.metadata import version

    done = _paramtally("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"paramtally {version('paramtally')}"


def test_help_lists_window_options_and_every_command() -> None:
    from paramtally.core.cli import COMMANDS

    done = _paramtally("--help")
    assert done.returncode == 0
    for option in ("source", "--preset", "--screenshot", "--size", "--version"):
        assert option in done.stdout
    for name, summary in COMMANDS.items():
        assert f"  {name}" in done.stdout and summary in done.stdout


def test_no_display_is_one_clear_line_and_status_2(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["XDG_CONFIG_HOME"] = str(tmp_path)
    done = _paramtally(env=env)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "no display" in lines[0] and "--screenshot" in lines[0]
    # Every headless command is named (it listed count, memory, verify and presets alone).
    assert "`paramtally count|memory|report|compare|solve|sweep|verify|presets`" in lines[0]
    assert "PySide6" not in done.stderr and "Traceback" not in done.stderr


def test_python_main_py_from_the_checkout_runs() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "count", "gpt3-175b", "--format", "json"],
        capture_output=True,
        text=True,
        cwd="/",
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert '"total": 175221817344' in done.stdout


def test_desktop_entry_install_and_uninstall(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    done = _paramtally("desktop-entry", "install", env=env)
    assert done.returncode == 0, done.stderr
    entry = tmp_path / "applications" / "paramtally.desktop"
    icon = tmp_path / "icons" / "hicolor" / "scalable" / "apps" / "paramtally.svg"
    assert icon.read_bytes() == (ROOT / "resources" / "paramtally.svg").read_bytes()
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(entry, encoding="utf-8")
    section = parser["Desktop Entry"]
    assert section["Type"] == "Application" and section["Icon"] == "paramtally"
    # The Exec line starts this very ParamTally: run it with --version instead of %f.
    command = shlex.split(section["Exec"].replace(" %f", " --version"))
    started = subprocess.run(command, capture_output=True, text=True, check=False)
    assert started.stdout.startswith("paramtally ")
    done = _paramtally("desktop-entry", "uninstall", env=env)
    assert done.returncode == 0
    assert not entry.exists() and not icon.exists()
    assert "no desktop entry" in _paramtally("desktop-entry", "uninstall", env=env).stdout


def test_every_source_package_is_listed_for_the_wheel() -> None:
    """The package list is explicit (the root folder is the package); a new sub-package missing
    from it would install without its modules."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    skipped = {"tests", "tools", "bench", ".venv", "build"}
    found = {
        ".".join(("paramtally", *init.parent.relative_to(ROOT).parts))
        for init in ROOT.rglob("__init__.py")
        if not skipped & set(init.relative_to(ROOT).parts)
    }
    assert found <= listed, sorted(found - listed)


@pytest.mark.parametrize(
    "module",
    [
        "paramtally.gui.form",
        "paramtally.gui.layer_tree",
        "paramtally.gui.views.pie_chart",
        "paramtally.gui.explore.compare_view",
        "paramtally.gui.explore.design_space",
        "paramtally.gui.explore.goal_seek",
    ],
)
def test_a_window_module_imports_on_its_own(module: str) -> None:
    """Qt's import hook breaks pydantic's lazy imports when Qt is loaded first (see gui/__init__)."""
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}"], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
