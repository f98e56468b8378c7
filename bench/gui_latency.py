"""How fast does the window follow an edit?

    python bench/gui_latency.py [--repeat 60]

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
Start-up (first paint, all views, peak RSS, --screenshot) is bench/startup.py's.
Target: ≤ 8 ms median edit latency.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import time
from functools import partial
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

TARGET_MS = 8.0


def _deepseek_five_groups() -> object:
    from paramtally.core.editing import layer_ops
    from paramtally.core.io.model_sources import load_source
    from paramtally.core.schema import LoRA

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
    from paramtally.core.editing import layer_ops
    from paramtally.core.io.model_sources import load_source

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
    from paramtally.core.count.layer_tree_rows import stack_rows
    from paramtally.core.count.parameters import count_parameters
    from paramtally.core.editing.edits import with_value

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

    from paramtally.core.io.model_sources import load_source
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
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    figures: dict[str, Any] = {"edit_latency": edit_latency(args.repeat)}
    figures["load_average"] = (load_before, os.getloadavg()[0])  # wall times grow with other work
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
