"""Smoke: the window renders with content, in-process and through ``python main.py --screenshot``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

from paramtally.gui.app import is_blank, run_app, window_picture
from paramtally.gui.main_window import MainWindow
from tests.gui.settle import settle

ROOT = Path(__file__).resolve().parents[2]


def test_screenshot_in_process_is_not_blank(qapp: object, tmp_path: Path) -> None:
    path = tmp_path / "deepseek.png"
    assert run_app(["--screenshot", str(path), "--preset", "deepseek-v3", "--size", "1200x800"]) == 0
    image = QImage(str(path))
    assert (image.width(), image.height()) == (1200, 800)
    assert not is_blank(image)


def test_blank_detection() -> None:
    image = QImage(200, 100, QImage.Format.Format_RGB32)
    image.fill(0xFFFFFF)
    assert is_blank(image)


def test_main_py_screenshot(tmp_path: Path) -> None:
    path = tmp_path / "default.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--screenshot", str(path), "--size", "1440x900"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    # Issue 31, bug 13: the offscreen plugin's "does not support propagateSizeHints()", twice.
    assert done.stderr == ""
    image = QImage(str(path))
    assert (image.width(), image.height()) == (1440, 900) and not is_blank(image)
    assert not (tmp_path / "cfg" / "paramtally" / "window.ini").exists()  # a screenshot saves no geometry


def test_window_carries_the_application_icon(qapp: object, tmp_path: Path) -> None:
    from PySide6.QtWidgets import QApplication

    assert run_app(["--screenshot", str(tmp_path / "icon.png"), "--size", "800x600"]) == 0
    icon = QApplication.windowIcon()
    assert not icon.isNull()
    pixmap = icon.pixmap(64, 64)
    assert not pixmap.isNull() and not is_blank(pixmap.toImage())
    assert QApplication.desktopFileName() == "paramtally"


def test_the_picture_read_offscreen_is_the_window_painted_again(window: MainWindow) -> None:
    """``--screenshot`` reads the offscreen backing store: the very pixels of a fresh paint."""
    window.resize(1200, 800)
    window.load_views()
    settle()
    picture = window_picture(window)
    assert picture.size() == window.grab().toImage().size() and not is_blank(picture)
    assert picture == window.grab().toImage()
