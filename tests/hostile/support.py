"""Running a command the way a person would, and checking the promises every hostile input keeps.

``probe`` runs ``paramtally`` in a child process (``probe.py``) under a generous time limit and
an address-space cap, so a regression that loops or allocates without end fails this test
instead of the machine. ``Outcome.assert_refused`` is the promise of the issue: exit 2, one line
on stderr, no traceback, bounded time and memory, nothing opened outside the allowed places.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.hostile.opened import outside

ROOT = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).with_name("probe.py")
# Far above what a refusal needs (measured: < 1 s, < 10 MB): only a runaway crosses them. The
# time limit only stops a hung child; cost is judged by the Python calls a command makes, a count
# that does not grow when the machine is busy (measured: 2 k to 230 k, 1.0 M for a safetensors
# header listing a million dimensions, which is read once).
TIME_LIMIT_S = 60
CALL_LIMIT = 5_000_000
MEMORY_GROWTH_LIMIT_KB = 100 * 1024
ADDRESS_SPACE_CAP = 4 << 30


@dataclass(frozen=True)
class Outcome:
    code: int
    stdout: str
    stderr: str
    escaped: str
    seconds: float
    calls: int
    rss_growth_kb: int
    opened: list[str]

    def opened_outside(self, *folders: Path) -> list[str]:
        """Opened files that are neither inside ``folders`` nor the interpreter's own code."""
        return outside(self.opened, *folders)

    def assert_refused(self, *folders: Path, words: str = "") -> None:
        assert not self.escaped, self.escaped
        assert self.code == 2, (self.code, self.stderr)
        lines = self.stderr.strip().splitlines()
        assert len(lines) == 1, self.stderr
        assert "Traceback" not in self.stderr
        assert words in lines[0], lines[0]
        self.assert_bounded(*folders)

    def assert_cheap(self) -> None:
        assert self.calls < CALL_LIMIT, f"{self.calls:,} Python calls ({self.seconds:.2f} s)"

    def assert_bounded(self, *folders: Path) -> None:
        assert self.rss_growth_kb < MEMORY_GROWTH_LIMIT_KB, f"peak RSS grew {self.rss_growth_kb:,} kB"
        if folders:
            assert not self.opened_outside(*folders), self.opened_outside(*folders)


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_CAP, ADDRESS_SPACE_CAP))


def probe(*argv: str, cwd: Path = ROOT, env: dict[str, str] | None = None) -> Outcome:
    """Run ``paramtally ARGV`` in a child process and read back how it behaved."""
    with tempfile.TemporaryDirectory(prefix="probe-") as scratch:
        report_file = Path(scratch) / "report.json"
        done = subprocess.run(
            [sys.executable, str(PROBE), str(report_file), "--", *argv],
            capture_output=True,
            text=True,
            cwd=cwd,
            env=env if env is not None else os.environ.copy(),
            timeout=TIME_LIMIT_S,
            preexec_fn=_cap_memory,
            check=False,
        )
        if not report_file.exists():
            raise AssertionError(f"the probe died (status {done.returncode}): {done.stderr[-2000:]}")
        data = json.loads(report_file.read_text(encoding="utf-8"))
    return Outcome(stdout=done.stdout, stderr=done.stderr, **data)
