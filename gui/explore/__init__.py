"""The window's views of relative questions: compare architectures, goal-seek one field, and the
design space of two. Each shows what ``core.explore`` computed for the one Document; none of
them computes a figure. ``add_explore`` hooks them into the main window (tabs);
``hooks.add_explore_menu`` fills its Explore menu.
"""

from __future__ import annotations

__all__ = ["add_explore"]


def __getattr__(name: str) -> object:
    # Lazy: the views load pyqtgraph and core's explore modules only when first shown.
    if name == "add_explore":
        from paramtally.gui.explore.hooks import add_explore

        return add_explore
    raise AttributeError(name)
