"""Issue 31, bugs 3 and 4, with real X events (xdotool under Xvfb), as the QA report's steps went.

Bug 3: GPT-3 (context 2,048), batch 4 and 8 GPUs typed, a refused batch 0, then File → Open
Built-in Preset → llama-3-8b → Don't Save: the context stayed 2,048 and the red batch came along.
Bug 4: two MoE groups Ctrl+clicked, Experts 16 typed in the form: only one group changed.
"""

from __future__ import annotations

from typing import Any

import pytest

from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing import layer_ops, patterns
from paramtally.core.io.model_sources import load_source
from paramtally.core.memory.scenario import Scenario
from tests.real_display.conftest import RunningApp

pytestmark = pytest.mark.real_display

PATTERN = "[mamba2 x3, attention x1] x8; MoE every 2nd layer"  # as typed on a keyboard


def _memory_tab(app: RunningApp) -> None:
    memory = next(tab for tab in app.state()["tabs"] if tab["text"].startswith("Memory"))
    app.click(memory["rect"])
    app.wait_for(lambda s: s["tab"] == 1 and s["widgets"]["scenario.batch"]["visible"], "the memory tab")


def _menu_entry(state: dict[str, Any], text: str) -> dict[str, Any] | None:
    popup = state["popup"] or {}
    return next((a for a in popup.get("actions", []) if a["text"].replace("&", "") == text), None)


def test_opening_a_built_in_preset_keeps_what_was_typed_and_takes_its_context(app: RunningApp) -> None:
    _memory_tab(app)
    app.type_into("scenario.gpus", "8")
    app.wait_for(lambda s: s["scenario"]["gpus"] == 8, "8 GPUs in force")
    app.type_into("scenario.batch", "4")
    app.wait_for(lambda s: s["scenario"]["batch"] == 4, "batch 4 in force")
    app.type_into("scenario.batch", "0")
    state = app.wait_for(lambda s: s["widgets"]["scenarioProblem"]["visible"], "batch 0 refused")
    assert state["widgets"]["scenario.batch"]["red"] and state["scenario"]["context"] == 2048

    app.xdotool("key", "alt+f")  # File
    app.wait_for(lambda s: _menu_entry(s, "Open Built-in Preset") is not None, "the File menu")
    app.xdotool("key", "b")  # Open &Built-in Preset
    state = app.wait_for(lambda s: _menu_entry(s, "llama-3-8b") is not None, "the built-in presets")
    app.click(_menu_entry(state, "llama-3-8b")["rect"])  # type: ignore[index]
    state = app.wait_for(lambda s: (s["modal"] or {}).get("title") == "Save changes?", "Save changes?")
    app.click(next(b for b in state["modal"]["buttons"] if b["text"] == "Don't Save")["rect"])
    state = app.wait_for(lambda s: s["title"].startswith("llama-3-8b") and s["modal"] is None, "Llama open")

    expected = Scenario(context=4096, gpus=8, tp=8, batch=4)
    assert state["scenario"] == expected.model_dump(mode="json")
    assert state["total"] == count_parameters(load_source("llama-3-8b")).total
    widgets = state["widgets"]
    assert widgets["scenario.context"]["text"] == "4,096" and widgets["scenario.batch"]["text"] == "4"
    assert not widgets["scenario.batch"]["red"] and not widgets["scenarioProblem"]["visible"]
    assert "Batch 4" in state["status"] and "Context 4,096 from the model" in state["status"]


def _scroll_to(app: RunningApp, area: str, field: str) -> None:
    """Turn the wheel over the scroll area ``area`` until ``field`` shows whole inside it."""
    for _ in range(40):
        widgets = app.state()["widgets"]
        box, rect = widgets[area]["rect"], widgets[field]["rect"]
        if box[1] <= rect[1] and rect[1] + rect[3] <= box[1] + box[3]:
            return
        app.xdotool("mousemove", str(box[0] + box[2] // 2), str(box[1] + box[3] // 2))
        app.xdotool("click", "5" if rect[1] > box[1] else "4")  # the wheel, one notch down (up)
        app.wait_for(lambda s, y=rect[1]: s["widgets"][field]["rect"][1] != y, f"{area} scrolled")
    pytest.fail(f"{field} never showed inside {area}")


def _inner_rows(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows of the pattern's groups (depth 2: under the stack and the pattern's row)."""
    return [row for row in state.get("layer_rows", []) if row["depth"] == 2]


def test_experts_typed_with_two_moe_groups_selected_reach_both(app: RunningApp) -> None:
    stack = app.wait_for(lambda s: bool(s.get("layer_rows")), "the layer tree")["layer_rows"][0]
    app.click(stack["rect"])
    app.xdotool("key", "ctrl+r")
    app.wait_for(lambda s: s["modal"] is not None and s["focus"] == "patternText", "the pattern helper")
    app.xdotool("type", "--delay", "10", PATTERN)
    app.wait_for(lambda s: len((s["modal"] or {}).get("items", [])) == 5, "the groups the pattern makes")
    app.xdotool("key", "Return")
    state = app.wait_for(lambda s: s["modal"] is None and len(_inner_rows(s)) == 4, "the pattern applied")

    gpt3 = load_source("gpt3-175b")
    hybrid = layer_ops.with_layers(
        gpt3, patterns.expand(patterns.parse(PATTERN), gpt3.blocks["default"], 12288, 96)
    )
    assert state["total"] == count_parameters(hybrid).total
    mamba_moe, attention_moe = (("decoder", "layers", 0, "pattern", i) for i in (1, 3))
    both = layer_ops.with_group_value(hybrid, mamba_moe, ("ffn", "num_experts"), 16)
    both = layer_ops.with_group_value(both, attention_moe, ("ffn", "num_experts"), 16)
    one = layer_ops.with_group_value(hybrid, attention_moe, ("ffn", "num_experts"), 16)
    assert count_parameters(both).total != count_parameters(one).total

    rows = _inner_rows(state)
    app.click(rows[1]["rect"])
    app.xdotool("keydown", "ctrl")
    app.click(rows[3]["rect"])
    app.xdotool("keyup", "ctrl")
    field = "decoder.layers.0.pattern.3.override.ffn.num_experts"
    state = app.wait_for(
        lambda s: s["widgets"].get("selectionNote", {}).get("visible") and field in s["widgets"],
        "the form saying two groups are selected",
    )
    assert state["widgets"]["selectionNote"]["text"].startswith("2 layer groups selected")
    _scroll_to(app, "architectureForm", field)
    app.type_into(field, "16")
    state = app.wait_for(lambda s: s["undo"] == "Set Experts on 2 groups", "the edit on both groups")
    assert state["total"] == count_parameters(both).total
