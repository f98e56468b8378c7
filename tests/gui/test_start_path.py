"""The start path loads only what the first paint shows (a fresh process each, as a person starts it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# Run in a child: this test process has long imported everything.
_PROBE = """
import sys
from paramtally.gui.app import build_parser, open_window
from paramtally.core.count.parameters import count_parameters
from paramtally.core.io.model_sources import load_source
window = open_window(build_parser().parse_args(["gpt3-175b"]))
late = [m for m in sys.modules if m.split(".")[0] in ("pyqtgraph", "numpy")]
late += [m for m in sys.modules if m == "paramtally.core.memory.estimate"]
assert not late, late
total = count_parameters(load_source("gpt3-175b")).total
assert f"{total:,}" in window.headline.text(), window.headline.text()
assert window.form.editor(("hidden_size",)).value() == 12288
window.load_views()  # the charts and the memory panel: now they load
assert "pyqtgraph" in sys.modules and window.document.scenario is not None
print("ok")
"""


def _run(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_first_paint_needs_no_charts_nor_memory_model(tmp_path: Path) -> None:
    done = _run(_PROBE, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_bad_source_is_reported_before_qt_loads(tmp_path: Path) -> None:
    code = (
        "import sys; from paramtally.gui.app import run_app; "
        "code = run_app(['no-such-model']); "
        "assert 'PySide6' not in sys.modules, 'Qt loaded'; print(code)"
    )
    done = _run(code, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "2"
    assert "unknown preset 'no-such-model'" in done.stderr


def test_start_up_objects_leave_the_collectors_reach_once_the_views_are_built(tmp_path: Path) -> None:
    # A full collection while editing should walk what edits make, not every widget and module of
    # start-up (gc.freeze); the views are built right after the first paint (here, for the picture).
    code = (
        "import gc, sys; from paramtally.gui.app import run_app; "
        f"code = run_app(['--screenshot', {str(tmp_path / 'shot.png')!r}, 'gpt3-175b']); "
        "print(code, gc.get_freeze_count() > 10_000, gc.get_threshold()[0])"
    )
    done = _run(code, tmp_path)
    assert done.returncode == 0, done.stderr
    # And young collections run every 10,000 new objects, not in every edit of a large model.
    assert done.stdout.split() == ["0", "True", "10000"]


# Every module the window imported after PySide6 was judged by the quicker scan; PySide6's own
# scan (inspect.getsource, kept as ``upstream``) must say the same of each.
_SCAN_PROBE = """
import sys, inspect
from paramtally.gui.app import build_parser, open_window
window = open_window(build_parser().parse_args(["gpt3-175b"]))
window.load_views()
feature = sys.modules["shibokensupport.feature"]
quick = feature._mod_uses_pyside
assert getattr(quick, "_paramtally_reads_files", False), "the quicker scan is not installed"
def upstream(module):
    try:
        return "PySide6" in inspect.getsource(module)
    except (TypeError, OSError, SyntaxError):
        return False
judged = [name for name, said in feature.pyside_feature_dict.items() if name in sys.modules]
differ = [name for name in judged if quick(sys.modules[name]) != upstream(sys.modules[name])]
assert not differ, differ
# The window's modules that use Qt may switch features (0); those that do not are left alone (-1).
assert feature.pyside_feature_dict["paramtally.gui.main_window"] == 0
assert feature.pyside_feature_dict["paramtally.gui.shown_text"] == -1
print(len(judged))
"""


def test_the_quicker_import_scan_judges_every_module_as_pyside_does(tmp_path: Path) -> None:
    done = _run(_SCAN_PROBE, tmp_path)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.strip()) > 300  # the window's modules, numpy's and pyqtgraph's


_QUIT_AT_ONCE = """
from PySide6.QtCore import QTimer
from paramtally.gui.app import build_parser, open_window
from paramtally.core.io.recent import recent_sources
window = open_window(build_parser().parse_args(["llama-2-7b"]))
from PySide6.QtWidgets import QApplication
app = QApplication.instance()
QTimer.singleShot(0, app.quit)  # closed before its first paint: the views are never built
app.exec()
assert not window.views_loaded
print(recent_sources()[:1])
"""


def test_a_window_closed_at_once_still_remembers_its_model(tmp_path: Path) -> None:
    done = _run(_QUIT_AT_ONCE, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['llama-2-7b']"
