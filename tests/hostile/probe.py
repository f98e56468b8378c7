"""Run one ``paramtally`` command in this process and report how it behaved, as JSON.

    python tests/hostile/probe.py REPORT.json -- COMMAND ARGS…

The report holds the exit status, whether an exception escaped (a traceback), the seconds the
command took and the Python function calls it made (the tests judge cost by the calls: unlike
seconds, they do not grow when the machine is busy), the growth of the peak resident memory over
the command (``VmHWM`` from ``/proc/self/status`` after the program's modules are imported,
against the RSS before) and every file the command opened (the interpreter's ``open`` audit
events: ``open()``, ``os.open``).
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from pathlib import Path

OPENED: list[str] = []
RECORDING = [False]
CALLS = [0]


def _count_call(frame: object, event: str, arg: object) -> None:
    if event == "call":
        CALLS[0] += 1


def _audit(event: str, args: tuple[object, ...]) -> None:
    if RECORDING[0] and event == "open" and isinstance(args[0], str | bytes | os.PathLike):
        OPENED.append(os.fsdecode(args[0]))


def _status_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def _warm_up() -> None:
    """Import what any command may import, so its memory is not counted as the command's."""
    import gguf.constants  # noqa: F401

    from paramtally.core.cli import build_parser

    build_parser()


def main() -> int:
    report_path, separator, *argv = sys.argv[1:]
    assert separator == "--"
    _warm_up()
    from paramtally.main import main as paramtally_main

    rss_before = _status_kb("VmRSS")
    sys.addaudithook(_audit)
    RECORDING[0] = True
    started = time.perf_counter()
    escaped = ""
    sys.setprofile(_count_call)
    try:
        code = paramtally_main(argv)
    except SystemExit as exc:  # argparse refusing the arguments
        code = exc.code if isinstance(exc.code, int) else 2
    except BaseException:
        escaped = traceback.format_exc()
        code = -1
    sys.setprofile(None)
    elapsed = time.perf_counter() - started
    RECORDING[0] = False
    report = {
        "code": code,
        "escaped": escaped,
        "seconds": elapsed,
        "calls": CALLS[0],
        "rss_growth_kb": _status_kb("VmHWM") - rss_before,
        "opened": OPENED[:10_000],
    }
    Path(report_path).write_text(json.dumps(report), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
