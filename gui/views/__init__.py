"""Read-only views of a Document: headline, breakdown charts and table, memory-budget panel.

Each view takes the Document in its constructor, listens to ``changed`` and updates its items
in place. None of them computes a figure; they format what ``core`` returned.
"""

from __future__ import annotations

__all__ = ["BAR_MINIMUM", "PIE_MINIMUM", "BreakdownCharts", "BreakdownTable", "Headline", "MemoryPanel"]

# The least (width, height) of the bar chart and of the pie beside it. Here, not in their modules
# (which load pyqtgraph), so the window keeps the charts' room before they are built.
BAR_MINIMUM = (240, 200)
PIE_MINIMUM = (200, 200)


def __getattr__(name: str) -> object:
    # Lazy so that importing one view does not pull pyqtgraph for the others.
    if name == "Headline":
        from paramtally.gui.views.headline import Headline

        return Headline
    if name == "BreakdownCharts":
        from paramtally.gui.views.breakdown_charts import BreakdownCharts

        return BreakdownCharts
    if name == "BreakdownTable":
        from paramtally.gui.views.breakdown_table import BreakdownTable

        return BreakdownTable
    if name == "MemoryPanel":
        from paramtally.gui.views.memory_panel import MemoryPanel

        return MemoryPanel
    raise AttributeError(name)
