"""How long do ParamTally's commands and its window take to start, against bare Python and bare Qt?

    python bench/startup.py [--starts 7] [--json]

Every figure is a fresh process, started the same number of times, all kinds interleaved so each
sees the same machine state; the report gives medians and their ratios, measured in this one run:
- ``paramtally count deepseek-v3`` (the whole process, the installed console script) against
  ``python -c pass``;
- the window (``paramtally gpt3-175b``'s start path up to ``show()``, offscreen): its first paint,
  and the time all views (charts, table of terms, memory tab) have painted, against a bare PySide6
  ``QMainWindow``'s first paint; peak RSS of both;
- ``paramtally --screenshot`` (the whole process: the window and the views of the tab in the
  picture rendered and saved) against a bare ``QMainWindow``'s screenshot saved the same way;
- the floor of each ratio: what the same bare window costs once it has paid for what no window of
  ParamTally can skip. For the first paint: reading and counting the model (pydantic and the
  schema's classes) and Qt's ``Qt`` namespace (its ~100 enum types, which any alignment flag or
  item model needs) before the bare window; for the screenshot, numpy and pyqtgraph besides (the
  charts in the picture). The first paint's floor is split once more: the bare window after
  pydantic alone (imported, one model class made and validated), what any window showing a
  pydantic model pays before its own schema.
Both wall time and CPU time (user + system, of the process) are reported: under load the wall
times stretch, the CPU times much less.

ParamTally runs with its bytecode compiled, as installed (``install.sh`` compiles it; pip does
for a wheel): when this shell sets PYTHONDONTWRITEBYTECODE the bench keeps a bytecode cache
under /tmp instead, filled by one untimed run of each kind.
Targets (issue 29): count ≤ 10× bare Python, first paint ≤ 2.5× and ``--screenshot`` ≤ 4× bare Qt.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from paramtally.gui.app import PNG_QUALITY  # imports no Qt

TARGETS = {"count": 10.0, "first paint": 2.5, "screenshot": 4.0}
_PYCACHE = "/tmp/paramtally-bench-pycache"

# What a window of ParamTally pays before any widget of its own: the model read and counted through
# pydantic and the schema, and Qt's namespace of enums; with ``charts``, numpy and pyqtgraph too.
_FLOOR = r"""
from paramtally.core.count.parameters import count_parameters
from paramtally.core.io.model_sources import read_source
count_parameters(read_source("gpt3-175b").architecture)
from PySide6.QtCore import Qt
if {charts!r}:
    import pyqtgraph
"""

# What any window whose model is a pydantic schema pays first, whatever the schema: pydantic imported
# and one model class made and validated (its plugin lookup and validator included).
_PYDANTIC = r"""
from pydantic import BaseModel
class One(BaseModel):
    x: int = 0
One.model_validate({"x": 1})
"""

# A child process: build a window, print the wall-clock times of its first paint and of all views
# painted, and its peak RSS. ``kind``: "bare", "pydantic" (a bare window after _PYDANTIC), "floor"
# (a bare window after _FLOOR) or "app".
_WINDOW = r"""
import os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
BARE = {kind!r} != "app"
if {kind!r} in ("floor", "pydantic"):
{floor}
if BARE:
    from PySide6.QtWidgets import QApplication, QMainWindow
    app = QApplication([])
    window = QMainWindow()
else:
    # The start path of `paramtally gpt3-175b` up to show(), as gui.app.run_app runs it: core
    # before Qt, theme, window; the menus' entries, the charts, the table and the memory panel are
    # built after the first paint.
    # Without garbage collection until the window is made, as paramtally.main.run starts.
    import gc
    gc.disable()
    from paramtally.gui.app import build_parser, open_window
    window = open_window(build_parser().parse_args(["gpt3-175b"]))
    gc.enable()
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance()
from PySide6.QtCore import QEvent, QObject
first = []
def peak_mb():
    # VmHWM starts afresh at exec (ru_maxrss would carry the parent's peak over).
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
def done():
    print(first[0], time.time(), peak_mb(), flush=True)
    os._exit(0)
class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and not first:
            first.append(time.time())
            if BARE:
                done()
        return False
if BARE:
    window.installEventFilter(FirstPaint(window))
else:
    window.headline.installEventFilter(FirstPaint(window))  # painted with the form and the tree
    def all_painted():
        app.processEvents()  # the views' first paint
        done()
    window.views_ready.connect(all_painted)
window.resize(1440, 900)
window.show()
app.exec()
"""

# A bare QMainWindow's screenshot, saved as `paramtally --screenshot` saves its own (its PNG
# quality); with ``floor``, after _FLOOR with the charts' modules, and ended as ParamTally's is.
_BARE_SCREENSHOT = r"""
import os, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
if {floor!r}:
{charts_floor}
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication([])
window = QMainWindow()
window.resize(1440, 900)
window.show()
for _ in range(3):
    app.processEvents()
window.grab().toImage().save(sys.argv[1], "PNG", int(sys.argv[2]))
if {floor!r}:  # ended as `paramtally --screenshot` ends, without tearing down pyqtgraph and Qt
    os._exit(0)
"""


def _env(cached: bool) -> dict[str, str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": "/tmp/paramtally-bench-config"}
    if cached and env.get("PYTHONDONTWRITEBYTECODE"):
        env.pop("PYTHONDONTWRITEBYTECODE")
        env["PYTHONPYCACHEPREFIX"] = _PYCACHE
    return env


def _process(argv: list[str], cached: bool = True) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stdout) of one fresh process."""
    began = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_env(cached))
    out = child.stdout.read().decode() if child.stdout else ""
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - began
    if status:
        raise SystemExit(f"bench: {' '.join(argv)} failed ({status})")
    return wall, usage.ru_utime + usage.ru_stime, out


def _timed(argv: list[str]) -> dict[str, float]:
    wall, cpu, _ = _process(argv)
    return {"wall": wall, "cpu": cpu}


def _indented(code: str) -> str:
    return "\n".join(f"    {line}" for line in code.strip().splitlines())


def _window(kind: str) -> dict[str, float]:
    began = time.time()
    floor = _PYDANTIC if kind == "pydantic" else _FLOOR.format(charts=False)
    code = _WINDOW.format(kind=kind, floor=_indented(floor))
    _, cpu, out = _process([sys.executable, "-c", code])
    first, ready, rss = (float(word) for word in out.split())
    return {"first paint": first - began, "all views": ready - began, "rss": rss, "cpu": cpu}


def _bare_screenshot(shot: Path, floor: bool) -> dict[str, float]:
    code = _BARE_SCREENSHOT.format(floor=floor, charts_floor=_indented(_FLOOR.format(charts=True)))
    return _timed([sys.executable, "-c", code, str(shot), str(PNG_QUALITY)])


def _console_script() -> str:
    """The installed ``paramtally`` beside this interpreter (the venv's), else the one on PATH."""
    beside = Path(sys.executable).with_name("paramtally")
    found = str(beside) if beside.exists() else shutil.which("paramtally")
    if not found:
        raise SystemExit("bench: no `paramtally` console script; install the package first")
    return found


def measure(starts: int) -> dict[str, dict[str, float]]:
    script = _console_script()
    shot = Path(tempfile.mkdtemp()) / "shot.png"
    kinds: dict[str, Callable[[], dict[str, float]]] = {
        "bare python": lambda: _timed([sys.executable, "-c", "pass"]),
        "count": lambda: _timed([script, "count", "deepseek-v3"]),
        "bare window": lambda: _window("bare"),
        "pydantic window": lambda: _window("pydantic"),
        "floor window": lambda: _window("floor"),
        "window": lambda: _window("app"),
        "bare screenshot": lambda: _bare_screenshot(shot, floor=False),
        "floor screenshot": lambda: _bare_screenshot(shot, floor=True),
        "screenshot": lambda: _timed([script, "--screenshot", str(shot), "--size", "1440x900"]),
    }
    for run in kinds.values():  # untimed: fills the bytecode cache, warms the disk cache
        run()
    samples: dict[str, list[dict[str, float]]] = {name: [] for name in kinds}
    for _ in range(starts):
        for name, run in kinds.items():
            samples[name].append(run())
    return {
        name: {key: statistics.median(row[key] for row in rows) for key in rows[0]}
        for name, rows in samples.items()
    }


def ratios(m: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    return {
        "count": {
            "wall": m["count"]["wall"] / m["bare python"]["wall"],
            "cpu": m["count"]["cpu"] / m["bare python"]["cpu"],
        },
        "first paint": {"wall": m["window"]["first paint"] / m["bare window"]["first paint"]},
        "first paint floor": {"wall": m["floor window"]["first paint"] / m["bare window"]["first paint"]},
        "first paint pydantic": {
            "wall": m["pydantic window"]["first paint"] / m["bare window"]["first paint"]
        },
        "all views": {"wall": m["window"]["all views"] / m["bare window"]["first paint"]},
        "screenshot": {
            "wall": m["screenshot"]["wall"] / m["bare screenshot"]["wall"],
            "cpu": m["screenshot"]["cpu"] / m["bare screenshot"]["cpu"],
        },
        "screenshot floor": {
            "wall": m["floor screenshot"]["wall"] / m["bare screenshot"]["wall"],
            "cpu": m["floor screenshot"]["cpu"] / m["bare screenshot"]["cpu"],
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=7, help="fresh processes of each kind (default 7)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    figures = measure(args.starts)
    result = {"medians": figures, "ratios": ratios(figures), "load_average": (load, os.getloadavg()[0])}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    m, r = figures, result["ratios"]
    print(
        f"start-up, median of {args.starts} fresh processes of each kind, interleaved "
        f"(1-minute load average {load:.2f} before, {os.getloadavg()[0]:.2f} after):"
    )
    print(
        f"  count deepseek-v3   {m['count']['wall']:.3f} s (CPU {m['count']['cpu']:.3f} s) against "
        f"python -c pass {m['bare python']['wall']:.3f} s (CPU {m['bare python']['cpu']:.3f} s): "
        f"{r['count']['wall']:.1f}× (CPU {r['count']['cpu']:.1f}×; target ≤ {TARGETS['count']:.0f}×)"
    )
    print(
        f"  window first paint  {m['window']['first paint']:.3f} s against a bare QMainWindow's "
        f"{m['bare window']['first paint']:.3f} s: {r['first paint']['wall']:.2f}× "
        f"(target ≤ {TARGETS['first paint']}×)"
    )
    floor = m["floor window"]["first paint"]
    print(
        f"    its floor         {floor:.3f} s: {r['first paint floor']['wall']:.2f}×, the bare window "
        "after reading and counting the model and Qt's enum namespace"
    )
    pydantic = m["pydantic window"]["first paint"]
    print(
        f"    of which pydantic {pydantic:.3f} s: {r['first paint pydantic']['wall']:.2f}×, the bare window "
        "after pydantic alone (imported, one model class made and validated)"
    )
    print(
        f"  all views painted   {m['window']['all views']:.3f} s: {r['all views']['wall']:.2f}× the bare "
        f"window's first paint; peak RSS {m['window']['rss']:.0f} MB (bare {m['bare window']['rss']:.0f} MB)"
    )
    print(
        f"  --screenshot        {m['screenshot']['wall']:.3f} s (CPU {m['screenshot']['cpu']:.3f} s) against "
        f"a bare window's {m['bare screenshot']['wall']:.3f} s (CPU {m['bare screenshot']['cpu']:.3f} s): "
        f"{r['screenshot']['wall']:.2f}× (CPU {r['screenshot']['cpu']:.2f}×; "
        f"target ≤ {TARGETS['screenshot']:.0f}×)"
    )
    floor, ratio = m["floor screenshot"], r["screenshot floor"]
    print(
        f"    its floor         {floor['wall']:.3f} s (CPU {floor['cpu']:.3f} s): {ratio['wall']:.2f}× "
        f"(CPU {ratio['cpu']:.2f}×), the bare screenshot after those and numpy and pyqtgraph"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
