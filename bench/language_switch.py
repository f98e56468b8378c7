"""How long does View → Language take to speak the other language?

    python bench/language_switch.py [--repeat 6] [PRESET ...]

Offscreen, a window of 1440×900 with every view built and the Compare and Design space tabs shown
once (their views are built anew too): the time from the menu action to the event queue run dry
(``MainWindow.retranslate`` builds the window's content again, the old widgets deleted, the new
ones laid out). The median over ``--repeat`` switches, alternating Chinese and English. No figure
is counted again: the document's are read.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="paramtally-bench-")  # not the real settings


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("presets", nargs="*", default=["gpt3-175b", "jamba-v0.1"])
    parser.add_argument("--repeat", type=int, default=6)
    args = parser.parse_args()

    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    from paramtally.core.io.model_sources import load_source
    from paramtally.gui.document import Document
    from paramtally.gui.i18n import install_language
    from paramtally.gui.main_window import MainWindow
    from paramtally.tests.gui.settle import settle

    for preset in args.presets:
        window = MainWindow(Document(load_source(preset), preset, preset_id=preset))
        window.resize(1440, 900)
        window.show()
        for tab in (2, 3, 0):  # Compare and Design space built, the charts in front
            window.tabs.setCurrentIndex(tab)
            settle()
        times = []
        for turn in range(args.repeat):
            action = window.language_actions["zh_CN" if turn % 2 == 0 else "en"]
            start = time.perf_counter()
            action.trigger()
            settle()
            times.append((time.perf_counter() - start) * 1000)
        print(f"{preset}: median {statistics.median(times):.0f} ms, max {max(times):.0f} ms")
        window.close()
        install_language("en")
    del app


if __name__ == "__main__":
    main()
