"""The design-space heatmap saved as PNG or SVG: drawn as on screen, titled with what it shows.

A picture has no status line or scenario fields beside it, so its title says the figure, the
model, the setup whose misfits are faded and the scenario. The title is fitted as the other
charts' are (``ThemedPlot.set_titles``): the scenario line is broken over more lines, then the
setup left out, until it is no wider than the picture.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

from paramtally.core.errors import ParamTallyError
from paramtally.core.explore.sweep import Sweep
from paramtally.core.explore.variables import find_variable
from paramtally.core.io.export import scenario_text
from paramtally.gui.explore.figure_text import setup_text
from paramtally.gui.explore.heatmap import Heatmap
from paramtally.gui.views.export import laid_out, save_view
from paramtally.gui.views.themed_plot import titles_with_note

__all__ = ["save_heatmap"]


def save_heatmap(
    result: Sweep, levels: Sequence[tuple[str, float]], current: tuple[int, int] | None, path: Path
) -> Path:
    """``result`` drawn as the tab draws it (iso-lines at ``levels``, ``current`` ringed) to
    ``path``, PNG or SVG by its suffix."""
    arch, scenario = result.arch, result.scenario
    if arch is None or scenario is None:
        raise ParamTallyError("there is no design space to draw")
    axes = (find_variable(result.x.name, arch).title, find_variable(result.y.name, arch).title)
    what = f"{result.figure.title} — {arch.name}"
    about = what + (f"; faded: does not fit {setup_text(result.setup)}" if result.fits is not None else "")
    note = f"Under the scenario: {scenario_text(scenario)}"
    with laid_out(Heatmap()) as copy:
        copy.show_sweep(result, levels, current, axes)
        copy.set_titles(*titles_with_note([html.escape(about), html.escape(what)], note))
        return save_view(copy, path, f"Design space — {about}")
