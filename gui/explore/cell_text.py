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
from paramtally.gui.i18n import core_text, schema_text, translate

__all__ = ["cell_text"]


def cell_text(result: Sweep, i: int, j: int) -> str:
    """The cell (i, j) of ``result`` in one line; every figure is core's for that variant."""
    where = f"{result.x.name} = {result.x.values[i]:,}, {result.y.name} = {result.y.values[j]:,}"
    value = result.value(i, j)
    if value is None:
        return translate("DesignSpace", "{where}: no such variant (the schema refuses this pair)").format(
            where=where
        )
    arch, scenario = result.variant(i, j)
    report = count_parameters(arch)
    # The figure swept in its title's words ('memory per GPU', not 'memory per gpu'; 'KV cache'
    # stays), then the totals it is not (a total-parameters sweep said its total twice).
    title = result.figure.title
    if schema_text(title) != title:  # the window's language names it as its title does
        title = schema_text(title)
    elif title[1:2].islower():
        title = title[:1].lower() + title[1:]
    in_layout = translate("DesignSpace", " in the scenario's layout") if result.fits is not None else ""
    layout = in_layout if result.figure.parallel else ""
    parts = [f"{title} {figure_text(value, result.figure.unit)}{layout}"]
    if result.figure.name != "total":
        parts.append(
            translate("DesignSpace", "total {value}").format(value=figure_text(report.total, "params"))
        )
    if report.active != report.total and result.figure.name != "active":
        parts.append(
            translate("DesignSpace", "active {value}").format(value=figure_text(report.active, "params"))
        )
    if result.figure.name != "memory":
        try:
            memory = estimate_memory(arch, scenario).total_bytes
        except (ParamTallyError, ValidationError):
            pass
        else:
            per_gpu = translate("DesignSpace", "memory per GPU {value}").format(
                value=figure_text(memory, "bytes")
            )
            parts.append(per_gpu + in_layout)
    if result.fits is not None:
        parts.append(_fit_text(arch, scenario, result.setup, bool(result.fits[j, i])))
    joined = translate("DesignSpace", "; ").join(parts)
    return translate("DesignSpace", "{where}: {figures}").format(where=where, figures=joined)


def _fit_text(arch: Architecture, scenario: Scenario, setup: str, fits: bool) -> str:
    """'fits 8 × H100 … as TP=4 × DP=2, ZeRO-3 (… per GPU)', or the least a GPU needs when it
    does not; the verdict is the sweep's, the layout ``fit_setup``'s (which the sweep agrees with)."""
    said = (
        translate("DesignSpace", "fits {setup}") if fits else translate("DesignSpace", "does not fit {setup}")
    )
    verdict = said.format(setup=setup_text(setup))
    gpu, _, count = setup.rpartition(":")
    try:
        fit = fit_setup(arch, scenario, find_gpu(gpu), int(count))
    except (ParamTallyError, ValidationError):
        return verdict
    per_gpu = figure_text(fit.per_gpu_bytes, "bytes")
    if fits:
        return translate("DesignSpace", "{verdict} as {layout} ({per_gpu} per GPU)").format(
            verdict=verdict, layout=core_text(fit.layout), per_gpu=per_gpu
        )
    return translate("DesignSpace", "{verdict}: at best {per_gpu} per GPU, as {layout}").format(
        verdict=verdict, per_gpu=per_gpu, layout=core_text(fit.layout)
    )
