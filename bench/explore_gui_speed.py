"""How fast does the design-space tab follow an edit? And the compare tab?

    python bench/explore_gui_speed.py [--repeat 9]

Offscreen, the whole window built, the tab shown, a 64 × 64 sweep on screen. Each edit is a
wider vocabulary typed into the document (``Document.set_field``, one undo step, every core
cache keyed by the architecture missing), and the time runs until the heatmap holds the new
sweep and has been repainted (one ``processEvents``). Reported per case, as medians:

- edit → redrawn: the whole path a person waits for (the document, every view listening to it,
  core's sweep and the heatmap's redraw, the repaint);
- of it, core sweep: ``core.explore.sweep.sweep`` in that very edit (the view's own clock;
  bench/explore_speed.py measures it alone);
- view: what the design-space view adds to the sweep (parsing its fields, the image, colour bar,
  iso-lines, boundary, axes, status line);
- repaint: the window's repaint that follows (one ``processEvents``);
- document and other views: the rest (the document's recount, the headline, charts, form).

Target: ≤ 50 ms edit → redrawn for 64 × 64 (issue 15). Timings on a shared machine are noisy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

TARGET_MS = 50.0
# (preset, x field, x values, y field, y values, figure, iso levels, fits setup or "")
H100 = "h100-sxm-80gb:1"
CASES = (
    ("llama-3-8b", "hidden_size", "1024:9088:128", "num_layers", "1:64", "total", "7B,10B", ""),
    (
        "llama-3-8b",
        "hidden_size",
        "1024:9088:128",
        "num_layers",
        "1:64",
        "total",
        "7B,10B",
        "h100-sxm-80gb:1",
    ),
    ("llama-3-8b", "context", "2048:131072:2048", "batch", "1:64", "memory", "80GB", ""),
    ("llama-3-8b", "context", "2048:131072:2048", "batch", "1:64", "memory", "80GB", H100),
    ("mixtral-8x7b", "num_experts", "1:64", "top_k", "1:64", "active", "13B", ""),
)


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1e3


def design_space(repeat: int) -> None:
    from PySide6.QtWidgets import QApplication

    from paramtally.core.io.model_sources import load_source
    from paramtally.gui.document import Document
    from paramtally.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    app.setStyle("Fusion")
    print(f"design space, 64 × 64, edit → heatmap redrawn (median of {repeat}; target {TARGET_MS:g} ms):")
    for preset, xf, xv, yf, yv, figure, iso, setup in CASES:
        document = Document(load_source(preset), preset)
        window = MainWindow(document)
        window.resize(1440, 900)
        window.show()
        window.explore.show_design_space()
        app.processEvents()
        view = window.explore.design_view
        view.x_box.setCurrentIndex(view.x_box.findData(xf))
        view.x_range.setText(xv)
        view.y_box.setCurrentIndex(view.y_box.findData(yf))
        view.y_range.setText(yv)
        view.figure_box.setCurrentIndex(view.figure_box.findData(figure))
        view.iso_edit.setText(iso)
        if setup:
            gpu, count = setup.split(":")
            view.gpu_box.setCurrentIndex(view.gpu_box.findData(gpu))
            view.count_spin.setValue(int(count))
            view.fits_check.setChecked(True)
        view.recompute()
        while setup and (view.sweep is None or view.sweep.fits is None):
            app.processEvents()
        total, own, core, paint, fits = [], [], [], [], []
        vocab = document.architecture.embeddings.vocab_size
        for step in range(1, repeat + 1):
            value = vocab + 64 * step
            began = time.perf_counter()
            document.set_field(("embeddings", "vocab_size"), value)
            edited = time.perf_counter()
            app.processEvents()  # the repaint
            done = time.perf_counter()
            total.append(done - began)
            paint.append(done - edited)
            own.append(view.last_ms / 1e3)
            core.append(view.last_sweep_ms / 1e3)
            assert view.sweep is not None and view.sweep.arch is document.architecture
            if setup:  # the fits come from a worker thread, after the figure
                while view.sweep.fits is None:
                    app.processEvents()
                fits.append(view.last_fits_ms / 1e3)
        t, o, c, p = (median_ms(samples) for samples in (total, own, core, paint))
        verdict = "within" if t <= TARGET_MS else "OVER"
        name = f"{preset} {xf} × {yf} {figure}" + (f", fits {setup}" if setup else "")
        print(
            f"  {name:58} edit → redrawn {t:6.1f} ms ({verdict}): core sweep {c:5.1f}, view {o - c:4.1f}, "
            f"repaint {p:4.1f}, document and other views {t - o - p:4.1f}"
            + (f"; then the fits drawn {median_ms(fits):,.0f} ms after the edit" if fits else "")
        )
        window.close()
        window.deleteLater()
        app.processEvents()


def compare(repeat: int) -> None:
    from PySide6.QtWidgets import QApplication

    from paramtally.core.io.model_sources import load_source
    from paramtally.gui.document import Document
    from paramtally.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    document = Document(load_source("llama-3-8b"), "llama-3-8b")
    window = MainWindow(document)
    window.resize(1440, 900)
    window.show()
    window.explore.pins.add_source("llama-3-70b")
    window.explore.pins.add_source("mixtral-8x7b")
    window.explore.show_compare()
    app.processEvents()
    view = window.explore.compare_view
    samples: list[float] = []
    refresh: list[float] = []
    timed: Callable[[], None] = view.refresh
    vocab = document.architecture.embeddings.vocab_size
    for step in range(1, repeat + 1):
        began = time.perf_counter()
        document.set_field(("embeddings", "vocab_size"), vocab + 64 * step)
        app.processEvents()
        samples.append(time.perf_counter() - began)
        began = time.perf_counter()
        timed()
        refresh.append(time.perf_counter() - began)
    print(
        f"compare, 3 columns (open llama-3-8b, llama-3-70b, mixtral-8x7b): edit → redrawn "
        f"{median_ms(samples):6.1f} ms; the view's refresh alone (core's compare in it) "
        f"{median_ms(refresh):6.1f} ms"
    )
    window.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    design_space(args.repeat)
    compare(args.repeat)
