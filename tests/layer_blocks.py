"""Each layer's block, read from the architecture's runs alone (not from a report's rows, whose
``group`` is the stack's layer group, not a run)."""

from __future__ import annotations

from paramtally.core.schema import Architecture, Block

__all__ = ["layer_blocks", "layer_windows"]


def layer_blocks(arch: Architecture, stack: str = "decoder") -> list[Block]:
    """The block of every layer of ``stack``, in layer order."""
    by_layer = {
        first + offset: run.block
        for run in arch.runs
        if run.stack == stack
        for first in run.starts()
        for offset in range(run.count)
    }
    return [by_layer[index] for index in sorted(by_layer)]


def layer_windows(arch: Architecture, stack: str = "decoder") -> list[int | None]:
    """Each layer's attention window (None: global)."""
    return [block.mixer.sliding_window for block in layer_blocks(arch, stack)]
