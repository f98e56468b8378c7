"""Start the window: ``paramtally [SOURCE] [--screenshot FILE] [--preset ID] [--size WxH]``.

With ``--screenshot`` the window is rendered (offscreen unless a platform is chosen), saved as
a PNG and the program exits: 0 when the picture has content, 1 when it came out blank.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QWidget

    from paramtally.core.io.presets import Preset
    from paramtally.gui.main_window import MainWindow

__all__ = [
    "DEFAULT_PRESET",
    "build_parser",
    "is_blank",
    "no_display",
    "open_window",
    "run_app",
    "settle_start_up_objects",
    "window_picture",
]

DEFAULT_PRESET = "gpt3-175b"
YOUNG_COLLECTION_OBJECTS = 10_000  # see settle_start_up_objects


MAX_SIDE = 8192  # pixels a side: an 8K display; a screenshot of 8192² is 256 MB already
# Qt maps a PNG's quality 80 to zlib's level 1 (its default is 6): at 1440×900 a third faster to
# write (23 ms instead of 32 here) and no bigger (185 kB instead of 198), the window being flat colour.
PNG_QUALITY = 80


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1440x900, not {text[:40]!r}") from None
    if width < 200 or height < 200:
        raise argparse.ArgumentTypeError("size must be at least 200x200")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise argparse.ArgumentTypeError(f"size must be at most {MAX_SIDE}x{MAX_SIDE}")
    return width, height


def build_parser() -> argparse.ArgumentParser:
    """The whole ``paramtally`` command line: the window's options, the version and every command."""
    from paramtally.core.cli import COMMANDS, OneLineParser
    from paramtally.core.files.package_data import version

    commands = "\n".join(f"  {name:<15} {summary}" for name, summary in COMMANDS.items())
    parser = OneLineParser(
        prog="paramtally",
        description="Exact parameter counts, memory and FLOPs of transformer language models. "
        "Without a command, opens the window.",
        epilog=f"commands (headless; `paramtally COMMAND --help` for each):\n{commands}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("source", nargs="?", help="preset id, preset JSON, HF config.json or folder to open")
    parser.add_argument(
        "--preset", help=f"preset id to open (default: the model open last time, else {DEFAULT_PRESET})"
    )
    parser.add_argument("--screenshot", metavar="FILE", help="render the window offscreen to a PNG and exit")
    parser.add_argument("--size", type=_size, metavar="WxH", help="window size, e.g. 1440x900")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    return parser


def no_display() -> bool:
    """True on Linux/BSD when Qt has nowhere to draw: no X11/Wayland display and no platform chosen."""
    if sys.platform in ("win32", "darwin") or os.environ.get("QT_QPA_PLATFORM"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def is_blank(image: object) -> bool:
    """True when a QImage has (almost) one colour: nothing was drawn."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage

    assert isinstance(image, QImage)
    if image.isNull():
        return True
    small = image.scaled(96, 60, Qt.AspectRatioMode.IgnoreAspectRatio).convertToFormat(
        QImage.Format.Format_RGB32
    )
    colours = {small.pixel(x, y) for x in range(small.width()) for y in range(small.height())}
    return len(colours) < 8


def run_app(argv: Sequence[str] | None = None, *, own_process: bool = False) -> int:
    """Open the window (or render its screenshot); the exit status.

    ``own_process``: this process runs nothing but this (the ``paramtally`` program, not a test
    calling it): a screenshot then ends the process as soon as its file is written, rather than
    tear down the window, Qt and every module first, which nothing needs.
    """
    args = build_parser().parse_args(list(argv) if argv is not None else sys.argv[1:])
    if not args.screenshot and no_display():
        from paramtally.core.cli import COMMANDS  # the one list of commands, all of them headless

        print(
            "paramtally: no display (DISPLAY/WAYLAND_DISPLAY unset), so no window; "
            "`paramtally --screenshot out.png` renders it offscreen, and every command works without "
            f"one (`paramtally {'|'.join(name for name in COMMANDS if name != 'desktop-entry')}`; "
            "see `paramtally --help`)",
            file=sys.stderr,
        )
        return 2
    window = open_window(args)
    if not (args.screenshot and own_process):  # a screenshot's process ends when its file is written
        gc.enable()  # off while ``paramtally.main.run`` started, if it did
    if isinstance(window, int):
        return window
    from PySide6.QtWidgets import QApplication

    from paramtally.gui.notices import route_uncaught_to

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    # Once what is on screen is built, and again once every view is (the rest is built just after).
    window.views_shown.connect(settle_start_up_objects)
    window.views_ready.connect(settle_start_up_objects)
    if not args.screenshot:  # not in open_window, which tests use: pytest-qt's own hook reports them
        route_uncaught_to(window)
        window.show()
        _probe(window)
        return app.exec()
    with _without_offscreen_notes():
        window.show()
        _probe(window)
        code = _screenshot(app, window, args.screenshot)
    if own_process:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


def _probe(window: MainWindow) -> None:
    probe_file = os.environ.get("PARAMTALLY_STATE_FILE")
    if probe_file:  # the real-display tests read what the window shows from here
        from paramtally.gui.state_probe import StateProbe

        StateProbe(window, Path(probe_file))


@contextmanager
def _without_offscreen_notes() -> Iterator[None]:
    """Qt's other messages, but not the offscreen plugin's "This plugin does not support
    propagateSizeHints()", which it says for each window shown and which means only that no window
    manager is there to be told a size: a screenshot printed it twice and nothing else."""
    from PySide6.QtCore import QMessageLogContext, QtMsgType, qFormatLogMessage, qInstallMessageHandler

    def handler(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
        if "does not support propagateSizeHints" in message:
            return
        if previous is not None:
            previous(kind, context, message)
        else:
            print(qFormatLogMessage(kind, context, message), file=sys.stderr)

    previous = qInstallMessageHandler(handler)
    try:
        yield
    finally:
        qInstallMessageHandler(previous)  # a test's own handler (pytest-qt) gets its messages again


def settle_start_up_objects() -> None:
    """Take what start-up made (modules, widgets, the catalog, the first figures) out of the garbage
    collector's reach (``gc.freeze``): they live as long as the window, and each full collection
    while editing walked them all, a 60–100 ms pause every few seconds of typing (the 48-group hybrid,
    ``bench/gui_latency.py``); afterwards such a collection takes a few ms. No collection first:
    start-up leaves no garbage to speak of (one freed 0 objects), and it would cost ~50 ms here.

    Then a young collection every 10,000 new objects instead of Python's 700: an edit of the
    48-group hybrid leaves ~1,800 behind (the core keeps each model's figures), so three young
    collections and, every fourth edit, a middle one (~1 ms) ran inside most edits; now one young
    collection (~2 ms) every five edits or so, and the middle one every ~70."""
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_OBJECTS, *gc.get_threshold()[1:])


def open_window(args: argparse.Namespace) -> MainWindow | int:
    """The start path up to ``show()``: the window for ``args``, or the exit code of a bad source.

    ``bench/startup.py`` times this very path. The model is read and counted before Qt
    loads: a bad source is reported without starting Qt, and pure-Python modules imported
    before PySide6 skip the source scan PySide runs on every module imported after it.
    """
    with _without_collections():
        return _open_window(args)


@contextmanager
def _without_collections() -> Iterator[None]:
    """No garbage collection while the start path imports and builds: its hundreds of modules and
    widgets made ~50 collections that found nothing to free, as ``settle_start_up_objects`` says;
    collections come back as they were once the window is made (``run_app`` turns them on)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _open_window(args: argparse.Namespace) -> MainWindow | int:
    from paramtally.core.count.parameters import count_parameters
    from paramtally.core.errors import ParamTallyError, ParamTallyWarning
    from paramtally.core.io.model_sources import read_source, source_identity
    from paramtally.core.io.recent import remember_source
    from paramtally.core.text import message_line

    # A screenshot shows the default model unless told otherwise: the same picture on every machine.
    source = args.source or args.preset or (DEFAULT_PRESET if args.screenshot else None)
    # A notice given reading the model (a config.json read untied) is said in the window's status
    # bar too, with those given while the window is made.
    with warnings.catch_warnings(record=True) as read:
        warnings.simplefilter("always", ParamTallyWarning)
        try:
            if source:
                preset, notice = read_source(source), ""
            else:  # the model open last time, or the default one if that is gone
                source, preset, notice = _last_or_default()
            label, preset_id = source_identity(source)
        except ParamTallyError as exc:
            for warning in read:  # no window to say them in: printed, as without one
                warnings.showwarning(warning.message, warning.category, warning.filename, warning.lineno)
            print(f"paramtally: {message_line(str(exc))}", file=sys.stderr)
            return 2
    arch = preset.architecture
    count_parameters(arch)  # the headline's figures (cached in core), before Qt as said above
    if args.screenshot and "QT_QPA_PLATFORM" not in os.environ:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    try:
        from PySide6.QtGui import QIcon
        from PySide6.QtWidgets import QApplication
    except ImportError as exc:  # the window needs PySide6; the commands never do
        print(f"paramtally: cannot open the window ({exc}); see `paramtally --help`", file=sys.stderr)
        return 2
    from paramtally.gui.import_scan import read_module_files_directly

    read_module_files_directly()  # before the window's modules, numpy and pyqtgraph are imported

    from paramtally.core.files.package_data import data_dir
    from paramtally.core.io.desktop_entry import APP_ID
    from paramtally.gui.document import Document
    from paramtally.gui.main_window import MainWindow, settings
    from paramtally.gui.notices import route_warnings_to
    from paramtally.gui.theme import apply_theme

    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "paramtally"])
    assert isinstance(app, QApplication)
    app.setApplicationName("ParamTally")
    app.setDesktopFileName(APP_ID)  # matches `paramtally desktop-entry install` (task bar grouping)
    app.setWindowIcon(QIcon(str(data_dir("resources") / f"{APP_ID}.svg")))
    app.setStyle("Fusion")
    from paramtally.gui.i18n import chosen_language, install_language

    install_language(chosen_language())  # before any widget: each sets its texts as it is built
    # Nothing to restyle yet; in tests, walking the widgets of earlier tests' windows as they were
    # torn down crashed a worker.
    apply_theme(app, str(settings().value("view/theme", "system")), restyle=False)
    document = Document(arch, label, preset_id=preset_id, scenario=preset.scenario)
    # The charts follow the first paint; a screenshot builds those of the tab in the picture only.
    # A notice given while the window is made (a saved scenario skipped, judged for the form's
    # advice) is said in its status bar once it has one.
    with warnings.catch_warnings(record=True) as given:
        warnings.simplefilter("always", ParamTallyWarning)
        window = MainWindow(document, views="on_request" if args.screenshot else "after_first_paint")
    route_warnings_to(window)
    for warning in [*read, *given]:
        warnings.showwarning(warning.message, warning.category, warning.filename, warning.lineno)
    if notice:
        window.show_notice(notice)
    if not args.screenshot:
        # Once the views are built, after the first paint: the recent list's write (an fsync) is
        # nothing that paint shows.
        # Or when the application quits, if that comes first (a window closed at once).
        remembered = [preset_id or source]

        def remember_once() -> None:
            if remembered:
                remember_source(remembered.pop())

        window.views_ready.connect(remember_once)
        app.aboutToQuit.connect(remember_once)
    if args.size:
        window.resize(*args.size)
    return window


def _last_or_default() -> tuple[str, Preset, str]:
    """(source, preset, notice) of the model opened last; the default preset if there is none or
    it no longer loads (said in the notice)."""
    from paramtally.core.errors import ParamTallyError
    from paramtally.core.io.model_sources import read_source
    from paramtally.core.io.recent import recent_sources

    last = next(iter(recent_sources()), None)
    if last is not None:
        try:
            return last, read_source(last), ""
        except ParamTallyError as exc:
            return DEFAULT_PRESET, read_source(DEFAULT_PRESET), f"the last model did not open again: {exc}"
    return DEFAULT_PRESET, read_source(DEFAULT_PRESET), ""


def window_picture(window: QWidget) -> QImage:
    """What ``window`` shows. Offscreen, its last paint is in the backing store the platform keeps:
    reading it takes 3 ms at 1440×900, painting every widget again (``grab()``) 14 ms, for the same
    pixels. On a real screen a grab of the window's area could hold other windows over it, so
    there it is painted again."""
    from PySide6.QtGui import QGuiApplication

    screen = window.screen()
    if QGuiApplication.platformName() == "offscreen" and window.isVisible() and screen is not None:
        return screen.grabWindow(window.winId()).toImage()
    return window.grab().toImage()


def _png_bytes(image: QImage) -> bytes:
    """``image`` encoded as PNG in memory, to be written whole (core's atomic write) or not at all."""
    from PySide6.QtCore import QBuffer, QIODevice

    from paramtally.core.errors import ParamTallyError

    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG", PNG_QUALITY):
        raise ParamTallyError("the window's picture could not be encoded as PNG")
    return bytes(buffer.data().data())


def _screenshot(app: object, window: object, path: str) -> int:
    from PySide6.QtWidgets import QApplication, QMainWindow

    from paramtally.core.errors import ParamTallyError
    from paramtally.core.io.atomic import write_bytes_atomic
    from paramtally.core.text import message_line

    assert isinstance(app, QApplication) and isinstance(window, QMainWindow)
    load_shown_views = getattr(window, "load_shown_views", None)
    if callable(load_shown_views):  # the tab in the picture: the memory tab's panel is never built
        load_shown_views()
    for _ in range(3):  # layouts settle over a few event-loop turns
        app.processEvents()
    image = window_picture(window)
    window.hide()  # not close(): a screenshot must not overwrite the remembered geometry
    try:
        write_bytes_atomic(Path(path), _png_bytes(image))
    except ParamTallyError as exc:  # says why, as 'paramtally count -o' does: no such folder, …
        print(f"paramtally: {message_line(str(exc))}", file=sys.stderr)
        return 2
    if is_blank(image):
        print(f"paramtally: the screenshot {path} came out blank", file=sys.stderr)
        return 1
    return 0
