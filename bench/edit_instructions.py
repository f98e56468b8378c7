"""How much work is an edit, counted in CPU instructions (deterministic, unlike wall time)?

    python bench/edit_instructions.py [--edits 20] [--case hybrid] [--tab memory] [--repaint]

On a shared machine whose speed swings 1.5–2× between minutes, ``bench/gui_latency.py``'s
milliseconds compare two trees only when run interleaved, many times. This script counts the
instructions one edit executes instead, under valgrind's callgrind (``apt-get install valgrind``;
~50× slower than native): the window of ``gui_latency.py`` is built for the case, then a new
hidden size is typed ``--edits`` times (Enter each time, no repaint in between), once with no
edit and once with them; the difference over the edits is one edit's instructions, start-up
taken out. With ``--repaint`` each edit is followed by the repaint it causes (one
``processEvents``), what a person waits for before seeing the new figures. The same tree gives the
same count within ~1%; a change that saves work shows as a smaller count, whatever the machine's
state. Milliseconds still decide the ≤ 8 ms target
(``gui_latency.py``): instructions do not weigh cache misses or Qt's own threads.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

CASES = ("gpt3-175b", "deepseek-v3 (5 groups)", "hybrid, 48 groups")
TABS = {"parameters": 0, "memory": 1}


def _edit(case: str, tab: int, edits: int, repaint: bool) -> None:
    """The child: a window on ``case`` with ``tab`` open, then ``edits`` typed hidden sizes (each
    repainted when ``repaint``)."""
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    sys.path.insert(0, str(Path(__file__).parent))
    import gui_latency
    from PySide6.QtWidgets import QApplication

    from paramtally.core.io.model_sources import load_source
    from paramtally.gui.app import settle_start_up_objects
    from paramtally.gui.document import Document
    from paramtally.gui.main_window import MainWindow

    models = {
        "gpt3-175b": lambda: load_source("gpt3-175b"),
        "deepseek-v3 (5 groups)": gui_latency._deepseek_five_groups,
        "hybrid, 48 groups": gui_latency.hybrid_stack,
    }
    app = QApplication.instance() or QApplication([])
    app.setStyle("Fusion")
    arch = models[case]()
    window = MainWindow(Document(arch, case))  # type: ignore[arg-type]
    window.resize(1440, 900)
    window.show()
    window.tabs.setCurrentIndex(tab)
    app.processEvents()
    settle_start_up_objects()
    editor = window.form.editor(("hidden_size",))
    base = arch.hidden_size  # type: ignore[attr-defined]
    for i in range(5 + edits):  # five edits to warm up, as gui_latency.py does
        editor.lineEdit().setText(str(base + 64 * (i // 2 + 1) * (1 if i % 2 else -1)))
        editor.editingFinished.emit()
        if repaint:
            app.processEvents()
    app.processEvents()


def _instructions(case: str, tab: int, edits: int, repaint: bool) -> int:
    child = [sys.executable, __file__, "--child", case, str(tab), str(edits), str(int(repaint))]
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *child],
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise RuntimeError(f"callgrind gave no count:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        _edit(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1")
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--case", choices=CASES, action="append", help="default: every case")
    parser.add_argument("--tab", choices=tuple(TABS), action="append", help="default: both tabs")
    parser.add_argument("--repaint", action="store_true", help="count each edit's repaint too")
    args = parser.parse_args()
    what = "edit and repaint" if args.repaint else "edit"
    print(f"instructions per {what} (callgrind; {args.edits} edits less none, start-up taken out):")
    for case in args.case or CASES:
        for tab in args.tab or tuple(TABS):
            counts = [_instructions(case, TABS[tab], edits, args.repaint) for edits in (args.edits, 0)]
            per_edit = (counts[0] - counts[1]) / args.edits
            print(f"  {case:24} {tab} tab open: {per_edit / 1e6:6.2f} M")
    return 0


if __name__ == "__main__":
    sys.exit(main())
