"""A real X display for the tests that drive the window with real input events.

One Xvfb server and one small window manager (matchbox) per test session; each test starts the
app as a subprocess on Qt's xcb platform and moves the mouse and types with xdotool, as a
person at that screen would. What the window then shows is read from the JSON file the app
writes when ``PARAMTALLY_STATE_FILE`` is set (gui/state_probe.py). A window that does not react
to the events leaves that file unchanged and the test fails at its next ``wait_for``.

Without Xvfb, xdotool or matchbox-window-manager (``bash install.sh --test`` installs them) the
tests are skipped, saying which program is missing. The session summary says how many of them
passed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

PROGRAMS = ("Xvfb", "matchbox-window-manager", "xdotool")
SCREEN = "1280x900x24"


def _read_line(fd: int, what: str) -> str:
    """The first line written to ``fd``; ``what`` if the writer closes it first."""
    with os.fdopen(fd, "rb") as pipe:
        line = pipe.readline().decode().strip()
    if not line:
        raise RuntimeError(what)
    return line


@pytest.fixture(scope="session")
def x_display() -> Iterator[str]:
    """``:N`` of a private Xvfb screen with matchbox managing its windows."""
    missing = [program for program in PROGRAMS if shutil.which(program) is None]
    if missing:
        pytest.skip(f"real-display tests need {', '.join(missing)} (bash install.sh --test installs them)")
    # -displayfd: Xvfb picks a free display itself and writes its number once it accepts
    # clients — no race between two test workers, no polling for its socket.
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-screen", "0", SCREEN, "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(write_end,),
    )
    os.close(write_end)
    started = [server]
    try:
        display = ":" + _read_line(read_end, f"Xvfb did not start (status {server.poll()})")
        manager = subprocess.Popen(
            ["matchbox-window-manager", "-use_titlebar", "no"],
            env={**os.environ, "DISPLAY": display},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        started.append(manager)
        yield display
    finally:
        for process in reversed(started):
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()


@dataclass
class RunningApp:
    """The app on the private display; ``state()`` is what it shows, xdotool is the person."""

    process: subprocess.Popen[str]
    display: str
    state_file: Path

    def state(self) -> dict[str, Any]:
        try:
            return dict(json.loads(self.state_file.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            return {}

    def wait_for(
        self, condition: Callable[[dict[str, Any]], bool], what: str, timeout: float = 180
    ) -> dict[str, Any]:
        """The first state that meets ``condition``; fails saying ``what`` was awaited. The timeout
        only ends a hang: with every core busy a step took over 10 s, so it is far above that."""
        end = time.monotonic() + timeout
        state: dict[str, Any] = {}
        while time.monotonic() < end:
            if self.process.poll() is not None:
                pytest.fail(f"the app exited ({self.process.returncode}) while waiting for {what}")
            state = self.state()
            if state and condition(state):
                return state
            time.sleep(0.05)
        pytest.fail(f"the window did not show {what} within {timeout} s; it shows: {_brief(state)}")

    def xdotool(self, *args: str) -> str:
        done = subprocess.run(
            ["xdotool", *args],
            env={**os.environ, "DISPLAY": self.display},
            capture_output=True,
            text=True,
            timeout=20,
            check=True,
        )
        return done.stdout.strip()

    def click(self, rect: list[int], button: int = 1) -> None:
        """Move the pointer to the middle of ``rect`` (screen pixels) and click there."""
        x, y, width, height = rect
        # No --sync: it waits ~15 s for a motion event when the pointer is already there.
        self.xdotool("mousemove", str(x + width // 2), str(y + height // 2), "click", str(button))

    def type_into(self, name: str, text: str) -> None:
        """Click a field, select what it holds, type ``text`` and press Enter."""
        self.click(
            self.wait_for(lambda s: name in s["widgets"], f"the field {name}")["widgets"][name]["rect"]
        )
        self.wait_for(lambda s: s["focus"] == name, f"keyboard focus in {name}")
        self.xdotool("key", "--clearmodifiers", "ctrl+a")
        self.xdotool("type", "--delay", "15", text)
        self.xdotool("key", "Return")


def _brief(state: dict[str, Any]) -> str:
    keep = {
        key: state.get(key)
        for key in ("title", "tab", "focus", "popup", "modal", "scenario", "layers", "total")
    }
    return json.dumps(keep, ensure_ascii=False)[:1500]


@pytest.fixture
def app(x_display: str, tmp_path: Path) -> Iterator[RunningApp]:
    """ParamTally on GPT-3 175B, its window shown, its views built, under the window manager."""
    state_file = tmp_path / "state.json"
    env = {
        **os.environ,
        "DISPLAY": x_display,
        "QT_QPA_PLATFORM": "xcb",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "PARAMTALLY_STATE_FILE": str(state_file),
    }
    log = tmp_path / "app.log"
    with log.open("w", encoding="utf-8") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "paramtally", "gpt3-175b"],
            env=env,
            stdout=output,
            stderr=output,
            text=True,
        )
    running = RunningApp(process, x_display, state_file)
    try:
        running.wait_for(lambda s: s.get("views_loaded") and s["widgets"].get("totalParams"), "its views", 30)
        window = running.xdotool("search", "--sync", "--onlyvisible", "--name", "ParamTally").split()[0]
        running.xdotool("windowactivate", "--sync", window)
        yield running
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        errors = log.read_text(encoding="utf-8", errors="replace")
        if "Traceback" in errors:
            pytest.fail(f"the app raised:\n{errors}")
