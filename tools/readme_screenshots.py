"""The README's screenshots, made by the app itself: each tab in English and in Chinese.

    python tools/readme_screenshots.py                 docs/screenshot-<tab>-<lang>.png at 1024×700
    python tools/readme_screenshots.py --out /tmp/s --size 1440x900

Each picture is taken in a process of its own, under ``LANG`` of its language (the window picks
its language at start, as a person's would) and a fresh settings folder (no remembered language,
geometry or theme), offscreen, with the default model (GPT-3 175B). Run it under ``xvfb-run`` or
not at all: offscreen needs no display. Fonts: Debian's fonts-wqy-microhei for the Chinese
(``bash install.sh --test`` installs it).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALES = {"en": "en_US.UTF-8", "zh_CN": "zh_CN.UTF-8"}
TABS = ("parameters", "memory")


def take(path: Path, tab: str, size: tuple[int, int]) -> int:
    """In this process: the window on ``tab`` at ``size``, saved to ``path`` (the exit status)."""
    from paramtally.gui.app import _screenshot, build_parser, open_window

    window = open_window(build_parser().parse_args(["--screenshot", str(path)]))
    if isinstance(window, int):
        return window
    window.resize(*size)
    if tab == "memory":
        window.tabs.setCurrentWidget(window.memory_scroll)
    window.show()
    from PySide6.QtWidgets import QApplication

    return _screenshot(QApplication.instance(), window, str(path))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--size", default="1024x700")
    parser.add_argument("--one", nargs=2, metavar=("TAB", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    size = tuple(int(part) for part in args.size.lower().split("x"))
    assert len(size) == 2
    if args.one:
        return take(Path(args.one[1]), args.one[0], (size[0], size[1]))
    args.out.mkdir(parents=True, exist_ok=True)
    for language, locale in LOCALES.items():
        for tab in TABS:
            target = args.out / f"screenshot-{tab}-{language}.png"
            with tempfile.TemporaryDirectory() as config:
                env = {**os.environ, "LANG": locale, "LC_ALL": locale, "XDG_CONFIG_HOME": config}
                env["QT_QPA_PLATFORM"] = "offscreen"
                command = [sys.executable, __file__, "--size", args.size, "--one", tab, str(target)]
                subprocess.run(command, env=env, check=True)
            print(f"{target} ({target.stat().st_size // 1024} kB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
