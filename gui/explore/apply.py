"""Load a variant core made (a goal-seek answer, a design-space cell) into the document as ONE
undo step, whether it changes the architecture, the scenario or both."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paramtally.core.memory.scenario import Scenario
    from paramtally.core.schema import Architecture
    from paramtally.gui.document import Document

__all__ = ["apply_variant"]


def apply_variant(document: Document, arch: Architecture, scenario: Scenario, text: str) -> bool:
    """Set what differs; False (the document says why) when the scenario part is refused."""
    before = document.scenario.model_dump()
    values = {name: value for name, value in scenario.model_dump().items() if before[name] != value}
    changes_arch = arch != document.architecture
    stack = document.undo_stack
    if changes_arch and values:
        stack.beginMacro(text)  # both halves undo together
    try:
        if changes_arch:
            document.set_architecture(arch, text)
        return not values or document.set_scenario_values(values)
    finally:
        if changes_arch and values:
            stack.endMacro()
