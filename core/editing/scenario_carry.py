"""The scenario a model takes over when it is opened in the place of another (File → Open, a preset).

The rule (issue 31): what the person set goes with them, what follows from the model comes from
the new one, and the line that says so is made here too.

- A field whose value differs from what the last model opened with was set by the person (typed,
  or saved with that model's preset): the mode, the GPUs, the batch, the dtypes. It carries over.
- A field still at the value the last model opened with takes the new model's: the context, which
  opens at 4,096 or the model's maximum positions, whichever is fewer — GPT-3's 2,048 becomes
  Llama's 4,096, as ``paramtally memory llama-3-8b`` and a fresh window say.
- A field carried that the new model cannot take (expert parallel 8 for a dense model) goes back
  to what the model opens with, and the line says so.
- A field the new model has no use for (``unused_fields``: the KV cache's dtype for BERT, the
  context for a vision tower alone) is carried unsaid: the window does not show it, and a model
  that uses it again gets it back (GPT-3's fp8 KV cache, through BERT, to Llama).

Refused values never carry: they were never the scenario (the window drops its drafts on opening).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from paramtally.core.memory.scenario import (
    FROM_THE_MODEL,
    Scenario,
    fitted_scenario,
    opening_scenario,
    unused_fields,
)
from paramtally.core.schema import Architecture

__all__ = ["CarriedScenario", "carry_scenario"]


@dataclass(frozen=True, slots=True)
class CarriedScenario:
    scenario: Scenario
    note: str  # one line: what was kept, what the model gave, what went back


def carry_scenario(current: Scenario, opened_with: Scenario, arch: Architecture) -> CarriedScenario:
    """``current`` (the scenario of a model that opened with ``opened_with``) for ``arch``."""
    opening = opening_scenario(arch)
    names = list(Scenario.model_fields)
    typed = [name for name in names if getattr(current, name) != getattr(opened_with, name)]
    followed = {name: getattr(opening, name) for name in names if name not in typed}
    try:
        merged = Scenario.model_validate(current.model_dump() | followed)
    except ValidationError:  # the defaults beside what was typed break a rule: start afresh
        merged = opening
    fitted, back = fitted_scenario(arch, merged)
    unused = unused_fields(arch)
    kept = [
        _said(name, value)
        for name in typed
        if name not in unused and (value := getattr(current, name)) == getattr(fitted, name)
    ]
    given = [
        _said(name, value)
        for name, value in followed.items()
        if name not in unused and (name in FROM_THE_MODEL or value != getattr(current, name))
    ]
    parts = []
    if kept:
        parts.append("kept " + ", ".join(kept))
    if given:
        parts.append(f"{', '.join(given)} from the model")
    if back:
        parts.append(f"{', '.join(back)} ({arch.name} cannot take it)")
    return CarriedScenario(fitted, "scenario: " + "; ".join(parts) if parts else "")


def _said(name: str, value: Any) -> str:
    """'Batch 4', 'Context 4,096', 'KV cache dtype fp8', 'Quantization none': short, for one line."""
    title = (Scenario.model_fields[name].title or name).split(" (")[0]  # 'Context (tokens)': its unit
    if isinstance(value, bool):
        text = "on" if value else "off"
    elif isinstance(value, int):
        text = f"{value:,}"
    elif value is None:
        text = "none"
    elif isinstance(value, tuple):
        text = "+".join(str(item) for item in value)
    else:
        text = str(value)
    return f"{title} {text}"
