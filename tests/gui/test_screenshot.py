"""Smoke: the window renders with content, in-process and through ``python main.py --screenshot``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
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


@pytest.mark.parametrize("place", ["missing folder", "read-only folder"])
def test_a_screenshot_that_cannot_be_written_says_why_in_one_line(
    qapp: object, tmp_path: Path, capsys: pytest.CaptureFixture[str], place: str
) -> None:
    """A new user's session: '--screenshot /nonexistent/x.png' said 'cannot write' without the
    reason 'paramtally count -o' gives."""
    folder = tmp_path / "nonexistent" if place == "missing folder" else tmp_path / "locked"
    if place == "read-only folder":
        if os.geteuid() == 0:
            pytest.skip("root writes into a read-only folder")
        folder.mkdir()
        folder.chmod(0o555)
    path = folder / "x.png"
    try:
        code = run_app(["--screenshot", str(path), "--size", "400x300"])
    finally:
        if folder.exists():
            folder.chmod(0o755)
    err = capsys.readouterr().err
    reason = "No such file or directory" if place == "missing folder" else "Permission denied"
    assert code == 2 and err == f"paramtally: cannot write {path}: {reason}\n", err
    assert not path.exists() and (not folder.exists() or list(folder.iterdir()) == [])  # no half-written file
