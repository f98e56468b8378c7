"""What a GPU count means for the memory per GPU, in words: the layout in force and the one that
would spread the model (the window's memory tab and ``paramtally memory`` say it alike).

Serving on several GPUs as data-parallel copies of the model leaves the memory per GPU where one
GPU has it; training with ZeRO-0 keeps every training state whole on each GPU. Either way the
advice names the layout the GPU setups table gives the count (``core.memory.fit.chosen_layout``).
"""

from __future__ import annotations

from paramtally.core.errors import ParamTallyError
from paramtally.core.memory.fit import chosen_layout, layout_text
from paramtally.core.memory.scenario import Scenario
from paramtally.core.schema import Architecture
from paramtally.core.text import say

__all__ = ["layout_advice", "layout_note"]

WINDOW_SIZES = say("Tensor/Pipeline parallel")  # how the window's reader sets TP and PP


def layout_advice(arch: Architecture, scenario: Scenario, sizes: str = "--tp/--pp") -> str:
    """Advice when ``scenario``'s GPUs hold data-parallel copies that each keep the whole model (or,
    training with ZeRO-0, its whole training states): the layout the GPU table gives the count;
    "" otherwise. ``sizes``: how the reader sets TP and PP (the command line's flags by default)."""
    if scenario.gpus == 1 or scenario.dp == 1 or (scenario.mode == "training" and scenario.zero > 0):
        return ""
    in_force = layout_text(scenario.tp, scenario.pp, scenario.dp, scenario.zero)
    try:
        table = chosen_layout(arch, scenario, scenario.gpus)
    except (ParamTallyError, ValueError):
        return ""
    suggested = layout_text(table.tp, table.pp, table.dp, table.zero)
    if scenario.mode == "training":
        return say(
            "{dp} data-parallel GPUs each hold the whole model and its training states "
            "(ZeRO-0); ZeRO 1–3 shard them. The GPU table's layout for {gpus} GPUs: {suggested}.",
            dp=scenario.dp,
            gpus=scenario.gpus,
            suggested=suggested,
        )
    if scenario.ep > 1:
        return say(
            "{gpus} GPUs as {dp} copies of the model ({in_force}), the routed experts "
            "split over EP {ep}: each GPU holds the rest whole and 1/{ep} of the experts.",
            gpus=scenario.gpus,
            dp=scenario.dp,
            in_force=in_force,
            ep=scenario.ep,
        )
    return say(
        "{gpus} GPUs as {dp} copies of the model ({in_force}): each GPU holds a whole "
        "copy, so the memory per GPU does not shrink. One copy over all of them: {suggested} (set {sizes}).",
        gpus=scenario.gpus,
        dp=scenario.dp,
        in_force=in_force,
        suggested=suggested,
        sizes=sizes,
    )


def layout_note(arch: Architecture, scenario: Scenario, said: str = "") -> str:
    """The memory tab's note on the GPU count: ``said`` (what the count typed last did to the layout,
    ``Document.layout_note``), then the advice, or, serving one copy over several GPUs, how a new
    count is laid out; "" on one GPU."""
    if scenario.gpus == 1:
        return ""
    advice = layout_advice(arch, scenario, WINDOW_SIZES)
    if advice or scenario.mode != "inference" or scenario.dp != 1:
        if said and advice:
            return say("{said}. {advice}", said=said, advice=advice)
        return said or advice
    try:
        chosen_layout(arch, scenario, scenario.gpus)  # a scenario the table cannot lay out: no more
    except (ParamTallyError, ValueError):
        return said
    in_force = layout_text(scenario.tp, scenario.pp, scenario.dp, scenario.zero)
    if said:
        return say(
            "{said}. The {gpus} GPUs hold one copy of the model ({in_force}); a tensor, pipeline or "
            "expert parallel size you set is kept when the GPU count changes.",
            said=said,
            gpus=scenario.gpus,
            in_force=in_force,
        )
    return say(
        "{gpus} GPUs hold one copy of the model ({in_force}); a new GPU count is laid out as "
        "in the GPU setups table, keeping a tensor, pipeline or expert parallel size you set.",
        gpus=scenario.gpus,
        in_force=in_force,
    )
