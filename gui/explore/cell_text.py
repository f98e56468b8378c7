"""What a design-space cell holds, in words: the line under the heatmap as the pointer moves.

Its two values, the figure swept, total and active parameters and the memory per GPU of that
variant, and, with a setup, whether it fits there. The memory is the scenario's layout's; a fit is
judged over every layout the setup can take (``fit_setup``), so the fit names its own layout and
memory: 'does not fit 8 × H100' beside the scenario's 126 GiB read as if that were the reason,
while the best layout needed 99 GiB.
"""

from __future__ import annotations

from pydantic import ValidationError

from paramtally.core.count.parameters import count_parameters
from paramtally.core.errors import ParamTallyError
from paramtally.core.explore.sweep import Sweep
from paramtally.core.memory.estimate import estimate_memory
from paramtally.core.memory.fit import fit_setup
from paramtally.core.memory.gpus import find_gpu
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema import Architecture
from paramtally.gui.explore.figure_text import figure_text, setup_text

__all__ = ["cell_text"]


def cell_text(result: Sweep, i: int, j: int) -> str:
    """The cell (i, j) of ``result`` in one line; every figure is core's for that variant."""
    where = f"{result.x.name} = {result.x.values[i]:,}, {result.y.name} = {result.y.values[j]:,}"
    value = result.value(i, j)
    if value is None:
        return f"{where}: no such variant (the schema refuses this pair)"
    arch, scenario = result.variant(i, j)
    report = count_parameters(arch)
    # The figure swept in its title's words ('memory per GPU', not 'memory per gpu'; 'KV cache'
    # stays), then the totals it is not (a total-parameters sweep said its total twice).
    title = result.figure.title
    title = title[:1].lower() + title[1:] if title[1:2].islower() else title
    layout = " in the scenario's layout" if result.fits is not None and result.figure.parallel else ""
    parts = [f"{title} {figure_text(value, result.figure.unit)}{layout}"]
    if result.figure.name != "total":
        parts.append(f"total {figure_text(report.total, 'params')}")
    if report.active != report.total and result.figure.name != "active":
        parts.append(f"active {figure_text(report.active, 'params')}")
    if result.figure.name != "memory":
        try:
            memory = estimate_memory(arch, scenario).total_bytes
        except (ParamTallyError, ValidationError):
            pass
        else:
            scenario_layout = " in the scenario's layout" if result.fits is not None else ""
            parts.append(f"memory per GPU {figure_text(memory, 'bytes')}{scenario_layout}")
    if result.fits is not None:
        parts.append(_fit_text(arch, scenario, result.setup, bool(result.fits[j, i])))
    return f"{where}: " + "; ".join(parts)


def _fit_text(arch: Architecture, scenario: Scenario, setup: str, fits: bool) -> str:
    """'fits 8 × H100 … as TP=4 × DP=2, ZeRO-3 (… per GPU)', or the least a GPU needs when it
    does not; the verdict is the sweep's, the layout ``fit_setup``'s (which the sweep agrees with)."""
    verdict = f"{'fits' if fits else 'does not fit'} {setup_text(setup)}"
    gpu, _, count = setup.rpartition(":")
    try:
        fit = fit_setup(arch, scenario, find_gpu(gpu), int(count))
    except (ParamTallyError, ValidationError):
        return verdict
    per_gpu = figure_text(fit.per_gpu_bytes, "bytes")
    if fits:
        return f"{verdict} as {fit.layout} ({per_gpu} per GPU)"
    return f"{verdict}: at best {per_gpu} per GPU, as {fit.layout}"
