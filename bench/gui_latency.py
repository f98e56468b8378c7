"""How fast does the window follow an edit, how fast does it start, how much memory does it take?

    python bench/gui_latency.py [--repeat 60] [--starts 5]   (--starts 0: edit latency only)

Offscreen, on this machine:
- edit latency: a new hidden size typed into the form (Enter) → the document recomputes → every
  visible view (form, layer tree, headline, and the open tab's: bars, pie and table, or the memory
  panel) has updated its items; a hidden tab catches up when opened (timed too). The median over
  ``--repeat`` distinct values (no cache hits in core). Reported without and with the repaint that
  follows (one ``processEvents``). As in the app, the objects a window starts with are frozen out of
  the garbage collector's reach once it is built. Cases: gpt3-175b, deepseek-v3 with a layer tree of
  five groups (dense, MoE split in three, one with LoRA), and a 96-layer hybrid in 48 groups (five
  mixer kinds, windows, MoE every third group). Each run starts with the core's memoized figures
  emptied (as a new session), so the second run of a case does not find the first's. Then, for each
  case, where the time goes: the core's figures (validated and counted, the layer tree's rows, the
  memory tab's figures), and each view's own refresh with those figures at hand.
- cold start to first paint and peak RSS: a fresh process per start, the start path of
  ``paramtally gpt3-175b`` (``gui.app.open_window``, then show) against a bare PySide6
  QMainWindow measured in the same run, interleaved; when the shell sets
  PYTHONDONTWRITEBYTECODE, also ParamTally with its bytecode cached, as an installed copy starts.
Targets: ≤ 8 ms median edit latency, ≤ 2× the bare start-up, ≤ 250 MB peak RSS.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import time
from functools import partial
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

TARGET_MS, TARGET_START_RATIO, TARGET_RSS_MB = 8.0, 2.0, 250.0

# A child process: build a window, report the wall-clock time of its first paint and peak RSS.
_CHILD = r"""
import os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
if {bare!r}:
    from PySide6.QtWidgets import QApplication, QMainWindow
    app = QApplication([])
    window = QMainWindow()
else:
    # The start path of `paramtally gpt3-175b` up to show(): gui.app.run_app runs the same
    # open_window (core before Qt, theme, window; charts, table and memory panel are built
    # right after the first paint).
    from paramtally.gui.app import build_parser, open_window
    window = open_window(build_parser().parse_args(["gpt3-175b"]))
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance()
from PySide6.QtCore import QEvent, QObject
first = []
def peak_mb():
    # VmHWM starts afresh at exec (ru_maxrss would carry the parent's peak over).
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
def done():
    print(first[0], time.time(), peak_mb(), flush=True)
    os._exit(0)
class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and not first:
            first.append(time.time())
            if {bare!r}:
                done()
        return False
if {bare!r}:
    window.installEventFilter(FirstPaint(window))
else:
    # The headline (with the real figures) is painted along with the form and the tree.
    window.headline.installEventFilter(FirstPaint(window))
    load_views = window.load_views
    def load_then_report():
        load_views()
        app.processEvents()  # their first paint
        done()
    window.load_views = load_then_report
window.resize(1440, 900)
window.show()
app.exec()
"""


_PYCACHE = "/tmp/paramtally-bench-pycache"


def _start(bare: bool, cached_bytecode: bool = False) -> tuple[float, float, float]:
    """(seconds from spawn to first paint, to all views painted, peak RSS in MB) of a fresh process.

    ``cached_bytecode``: as an installed app starts (pip compiles on install), even when this
    shell sets PYTHONDONTWRITEBYTECODE; the cache lives under /tmp, not in the checkout.
    """
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": "/tmp/paramtally-bench-config"}
    if cached_bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = _PYCACHE
    began = time.time()
    out = subprocess.run(
        [sys.executable, "-c", _CHILD.format(bare=bare)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=120,
    ).stdout.split()
    return float(out[0]) - began, float(out[1]) - began, float(out[2])


def start_up(starts: int) -> dict[str, float]:
    # With PYTHONDONTWRITEBYTECODE (as in this dev shell) every start compiles ParamTally's own
    # modules from source, which no installed copy does (the bare window's modules are all
    # compiled): so also time a start with a bytecode cache, filled by one untimed start.
    compiles = bool(os.environ.get("PYTHONDONTWRITEBYTECODE"))
    if compiles:
        _start(False, cached_bytecode=True)
    bare, ours, cached = [], [], []
    for _ in range(starts):  # interleaved, so all see the same machine state
        bare.append(_start(True))
        ours.append(_start(False))
        if compiles:
            cached.append(_start(False, cached_bytecode=True))
    bare_s = statistics.median(t for t, _, _ in bare)
    ours_s = statistics.median(t for t, _, _ in ours)
    ready_s = statistics.median(t for _, t, _ in ours)
    figures = {
        "bare_start_s": bare_s,
        "paramtally_first_paint_s": ours_s,
        "paramtally_all_views_s": ready_s,
        "start_ratio": ours_s / bare_s,
        "all_views_ratio": ready_s / bare_s,
        "bare_peak_rss_mb": max(r for _, _, r in bare),
        "paramtally_peak_rss_mb": max(r for _, _, r in ours),
    }
    if cached:
        cached_s = statistics.median(t for t, _, _ in cached)
        figures |= {"cached_bytecode_first_paint_s": cached_s, "cached_bytecode_ratio": cached_s / bare_s}
    return figures


def _deepseek_five_groups() -> object:
    from paramtally.core import layer_ops
    from paramtally.core.schema import LoRA
    from paramtally.core.sources import load_source

    arch = load_source("deepseek-v3")
    layers = arch.decoder.layers
    layers = layer_ops.split_group(layers, 1, 20)
    layers = layer_ops.split_group(layers, 2, 20)
    layers = layer_ops.set_lora(layers, 3, LoRA(rank=16, targets=("q", "v")))
    layers = layer_ops.split_group(layers, 0, 1)
    return layer_ops.with_layers(arch, layers)


def hybrid_stack(groups: int = 48) -> object:
    """A hybrid in ``groups`` top-level groups of two layers (96 layers in 48 by default): Mamba-2,
    attention (some with a window), gated DeltaNet and MLA mixers in turn, every third group with an
    MoE. The tests build a smaller one to check the stage layouts on many runs."""
    from paramtally.core import layer_ops
    from paramtally.core.sources import load_source

    arch = load_source("llama-3-8b")
    arch = layer_ops.with_layers(arch, (arch.decoder.layers[0].model_copy(update={"count": 2 * groups}),))
    layers = arch.decoder.layers
    for group in range(groups - 1):
        layers = layer_ops.split_group(layers, group, 2)
    arch = layer_ops.with_layers(arch, layers)
    for group in range(groups):
        where = ("decoder", "layers", group)
        mixer = ("mamba2", "attention", "gated_deltanet", "attention", "mla")[group % 5]
        if mixer != "attention":
            arch = layer_ops.with_group_value(arch, where, ("mixer", "kind"), mixer)
        elif group % 2:
            arch = layer_ops.with_group_value(arch, where, ("mixer", "sliding_window"), 4096)
        if group % 3 == 0:
            arch = layer_ops.with_group_value(arch, where, ("ffn", "kind"), "moe")
    return arch


def _per_view(window: Any, start: int, step: int, repeat: int) -> dict[str, float]:
    """Where the time goes: the core's figures (the new architecture validated and counted, the
    layer tree's rows, the memory tab's figures), then each view's own refresh, timed one by one
    (the views find the core's figures computed, so their times are the window's own work)."""
    from paramtally.core.count import count_parameters
    from paramtally.core.edit import with_value
    from paramtally.core.stack_tree import stack_rows

    doc = window.document
    parts = {
        "form": window.form.refresh,
        "layer tree": window.tree.tree_model.refresh,
        "headline": window.headline.refresh,
        "charts": window.charts.refresh,
        "table": window.table.refresh,
        "memory panel": window.memory.refresh,
    }

    def memory_figures() -> None:
        doc.core._cache = {}
        doc.memory, doc.setups, doc.serving, doc.flops  # noqa: B018  # computed and cached here

    core = ("core recount", "core tree rows", "core memory figures")
    times: dict[str, list[float]] = {name: [] for name in (*core, *parts)}
    for i in range(repeat):
        # Above every value the edits typed (start ± step·(repeat + 5)/2): no cache in core hits.
        value = start + step * (repeat // 2 + 4 + i)
        began = time.perf_counter()
        arch = with_value(doc.architecture, ("hidden_size",), value)
        count_parameters(arch)
        times["core recount"].append(time.perf_counter() - began)
        doc.core._architecture, doc.core._cache = arch, {}  # as an undo step does, without the views
        for name, compute in zip(core[1:], (partial(stack_rows, arch), memory_figures), strict=True):
            began = time.perf_counter()
            compute()
            times[name].append(time.perf_counter() - began)
        for name, refresh in parts.items():
            began = time.perf_counter()
            refresh()
            times[name].append(time.perf_counter() - began)
    return {f"{name} ms": 1000 * statistics.median(values) for name, values in times.items()}


def _clear_core_caches() -> None:
    """Empty every memoized function of the core (the counts, memory and GPU plans of the models
    seen), as in a new session; the warm-up edits fill what a session keeps (blocks, formulas)."""
    for module in [m for name, m in sys.modules.items() if name.startswith("paramtally.core")]:
        for function in vars(module).values():
            if callable(getattr(function, "cache_clear", None)):
                function.cache_clear()


def edit_latency(repeat: int) -> dict[str, dict[str, float]]:
    from PySide6.QtWidgets import QApplication

    from paramtally.core.sources import load_source
    from paramtally.gui.app import settle_start_up_objects
    from paramtally.gui.document import Document
    from paramtally.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    app.setStyle("Fusion")
    results: dict[str, dict[str, float]] = {}
    cases = {
        "gpt3-175b": (load_source("gpt3-175b"), 96),
        "deepseek-v3 (5 groups)": (_deepseek_five_groups(), 64),
        "hybrid, 48 groups": (hybrid_stack(), 64),
    }
    tabs = {"": 0, ", memory tab open": 1}  # a hidden tab catches up when it is shown
    for (name, (arch, step)), (suffix, tab) in itertools.product(cases.items(), tabs.items()):
        # Both runs of a case type the same values: the second must not find the first's figures.
        _clear_core_caches()
        window = MainWindow(Document(arch, name))  # type: ignore[arg-type]
        window.resize(1440, 900)
        window.show()
        window.tabs.setCurrentIndex(tab)
        app.processEvents()
        settle_start_up_objects()  # as the app does once its views are built
        editor = window.form.editor(("hidden_size",))
        base = arch.hidden_size  # type: ignore[attr-defined]
        update, paint, switch, cpu = [], [], [], []
        for i in range(repeat + 5):
            value = base + step * (i // 2 + 1) * (1 if i % 2 else -1)  # distinct: no cache in core hits
            began, began_cpu = time.perf_counter(), time.thread_time()
            editor.lineEdit().setText(str(value))
            editor.editingFinished.emit()  # what Enter does
            updated, updated_cpu = time.perf_counter(), time.thread_time()
            app.processEvents()  # the repaint of everything that changed
            painted = time.perf_counter()
            assert window.document.architecture.hidden_size == value, window.form.error_text(("hidden_size",))
            if i >= 5:  # warm-up
                update.append(updated - began)
                cpu.append(updated_cpu - began_cpu)
                paint.append(painted - began)
            if not tab and i >= 5:  # opening the memory tab after an edit: its catch-up
                began = time.perf_counter()
                window.tabs.setCurrentIndex(1)
                switch.append(time.perf_counter() - began)
                window.tabs.setCurrentIndex(0)
                app.processEvents()
        row = {
            "median_update_ms": 1000 * statistics.median(update),
            "median_with_repaint_ms": 1000 * statistics.median(paint),
            "p90_update_ms": 1000 * statistics.quantiles(update, n=10)[-1],
            # The work itself, without the waits for a core: on a shared machine wall time is not it.
            "median_update_cpu_ms": 1000 * statistics.median(cpu),
        }
        if switch:
            row["median_open_memory_tab_ms"] = 1000 * statistics.median(switch)
            row |= _per_view(window, base, step, repeat)
        results[name + suffix] = row
        window.hide()
        window.deleteLater()
        app.processEvents()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=60)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    figures: dict[str, Any] = {"edit_latency": edit_latency(args.repeat)}
    figures["load_average"] = (load_before, os.getloadavg()[0])  # wall times grow with other work
    if args.starts:
        figures["start_up"] = start_up(args.starts)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    load = figures["load_average"]
    print(
        f"edit → all visible views updated, offscreen, median of {args.repeat} (target ≤ {TARGET_MS} ms; "
        f"1-minute load average {load[0]:.2f} before, {load[1]:.2f} after):"
    )
    for name, row in figures["edit_latency"].items():
        print(
            f"  {name:24} {row['median_update_ms']:6.2f} ms  (CPU {row['median_update_cpu_ms']:.2f} ms; "
            f"p90 {row['p90_update_ms']:.2f} ms; "
            f"with repaint {row['median_with_repaint_ms']:.2f} ms)"
        )
        if "median_open_memory_tab_ms" in row:
            print(f"    {'':24} then opening the memory tab: {row['median_open_memory_tab_ms']:.2f} ms")
        shares = ", ".join(f"{key[:-3]} {value:.2f}" for key, value in row.items() if key.endswith(" ms"))
        if shares:
            print(f"    {'':24} the core's figures, then each view's own refresh (ms): {shares}")
    if "start_up" not in figures:
        return 0
    s = figures["start_up"]
    print(f"cold start, median of {args.starts} fresh processes each, interleaved:")
    print(
        f"  bare QMainWindow: first paint {s['bare_start_s']:.3f} s, peak RSS {s['bare_peak_rss_mb']:.0f} MB"
    )
    print(
        f"  ParamTally: first paint {s['paramtally_first_paint_s']:.3f} s = {s['start_ratio']:.2f}× bare "
        f"(target ≤ {TARGET_START_RATIO}×); all views painted {s['paramtally_all_views_s']:.3f} s = "
        f"{s['all_views_ratio']:.2f}× bare; peak RSS {s['paramtally_peak_rss_mb']:.0f} MB "
        f"(target ≤ {TARGET_RSS_MB:.0f} MB)"
    )
    if "cached_bytecode_ratio" in s:
        print(
            f"  ParamTally with its bytecode cached (as installed; this shell sets PYTHONDONTWRITEBYTECODE): "
            f"first paint {s['cached_bytecode_first_paint_s']:.3f} s = {s['cached_bytecode_ratio']:.2f}× bare"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
