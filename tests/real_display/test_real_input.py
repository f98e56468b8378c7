"""The window driven by real X events (xdotool under Xvfb with a window manager), as a person would.

Each test clicks and types with xdotool and then waits for the window to show the result; a
window that ignores the events fails the wait. Run alone: ``pytest -m real_display``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QImage

from paramtally.core.count.parameters import count_parameters
from paramtally.core.editing import layer_ops, patterns
from paramtally.core.editing.edits import with_value
from paramtally.core.io.model_sources import load_source
from tests.gui.picture_checks import MOST_LOST, drawn_in, lost_drawing
from tests.real_display.conftest import RunningApp

pytestmark = pytest.mark.real_display


def _groups(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows of the decoder's layer groups (depth 1: under the stack's row)."""
    return [row for row in state.get("layer_rows", []) if row["depth"] == 1]


def test_pattern_helper_typed_previewed_and_applied(app: RunningApp) -> None:
    """Ctrl+R on the decoder's row opens the pattern helper; the typed pattern's groups show
    before OK; Enter applies them as one undo step."""
    jamba_like = "[mamba x4, attention, mamba x3] x 4; MoE every 2nd layer"  # as typed on a keyboard
    stack = app.wait_for(lambda s: bool(s.get("layer_rows")), "the layer tree")["layer_rows"][0]
    assert stack["text"] == "Decoder: 96 layers"
    app.click(stack["rect"])
    app.xdotool("key", "ctrl+r")
    app.wait_for(lambda s: s["modal"] is not None and s["focus"] == "patternText", "the pattern helper")
    app.xdotool("type", "--delay", "10", jamba_like)
    state = app.wait_for(
        lambda s: len((s["modal"] or {}).get("items", [])) == 9, "the groups the pattern makes"
    )
    items = state["modal"]["items"]
    assert items[0] == {"text": "layers 0–31: 4 repetitions of 8 layers", "depth": 0}
    assert items[5] == {"text": "1 × attention, dense", "depth": 1}
    assert "32 layers" in state["widgets"]["patternSummary"]["text"]
    app.xdotool("key", "Return")
    state = app.wait_for(lambda s: s["modal"] is None and s["layers"] == [32], "the pattern applied")
    assert state["undo"] == "Make the decoder from a pattern"
    arch = layer_ops.with_layers(
        load_source("gpt3-175b"),
        patterns.expand(patterns.parse(jamba_like), load_source("gpt3-175b").blocks["default"], 12288, 96),
    )
    assert state["total"] == count_parameters(arch).total
    texts = [row["text"] for row in _groups(state)]
    assert texts == ["layers 0–31: 4 repetitions of 8 layers"]


def test_typing_a_hidden_size_changes_the_headline(app: RunningApp) -> None:
    expected = count_parameters(with_value(load_source("gpt3-175b"), ("hidden_size",), 9216)).total
    assert "175,221,817,344" in app.state()["widgets"]["totalParams"]["text"]
    app.type_into("hidden_size", "9216")
    state = app.wait_for(
        lambda s: f"{expected:,}" in s["widgets"]["totalParams"]["text"], f"{expected:,} in the headline"
    )
    assert state["widgets"]["hidden_size"]["text"] == "9,216"
    assert state["title"].startswith("gpt3-175b") and state["undo"] == "Set Hidden size"


def test_right_click_a_layer_group_and_split_it(app: RunningApp) -> None:
    rows = app.wait_for(lambda s: len(_groups(s)) == 1, "one layer group")["layer_rows"]
    assert rows[0]["text"] == "Decoder: 96 layers" and _groups(app.state())[0]["text"].startswith(
        "layers 0–95"
    )
    app.click(_groups(app.state())[0]["rect"], button=3)
    menu = app.wait_for(lambda s: s["popup"] is not None, "the layer group's context menu")["popup"]
    split = next(action for action in menu["actions"] if action["text"].startswith("Split at layer"))
    assert split["enabled"]
    app.click(split["rect"])
    dialog = app.wait_for(lambda s: s["modal"] is not None, "the split dialog")["modal"]
    assert dialog["class"] in {"QInputDialog", "QDialog"} or "Split" in dialog["title"]
    app.xdotool("key", "Return")  # accept the layer it proposes
    state = app.wait_for(lambda s: len(_groups(s)) == 2 and s["modal"] is None, "two layer groups")
    assert sum(state["layers"]) == 96 and len(state["layers"]) == 2
    assert state["total"] == 175_221_817_344  # splitting changes no count


def test_memory_tab_keeps_a_refused_tp_red_until_a_valid_one(app: RunningApp) -> None:
    """Bug 4 of issue 11 with real clicks and keys: GPUs 8 (TP follows), TP 3 refused, TP 8 clears."""
    tabs = app.state()["tabs"]
    memory = next(tab for tab in tabs if tab["text"].startswith("Memory"))
    app.click(memory["rect"])
    app.wait_for(lambda s: s["tab"] == 1 and s["widgets"]["scenario.gpus"]["visible"], "the memory tab")
    app.type_into("scenario.gpus", "8")
    state = app.wait_for(lambda s: s["scenario"]["gpus"] == 8, "8 GPUs in force")
    assert state["scenario"]["tp"] == 8 and state["widgets"]["scenario.tp"]["text"] == "8"  # core's layout
    assert "8 GPUs hold one copy of the model" in state["widgets"]["layoutNote"]["text"]

    app.type_into("scenario.tp", "3")
    state = app.wait_for(
        lambda s: s["widgets"]["scenarioProblem"]["visible"], "the refusal under the controls"
    )
    tp = state["widgets"]["scenario.tp"]
    assert tp["text"] == "3" and tp["red"] and state["scenario"]["tp"] == 8
    assert "Not applied: Tensor parallel 3" in state["widgets"]["scenarioProblem"]["text"]

    app.type_into("scenario.tp", "8")
    state = app.wait_for(lambda s: not s["widgets"]["scenarioProblem"]["visible"], "the refusal cleared")
    assert not state["widgets"]["scenario.tp"]["red"] and not state["widgets"]["scenario.gpus"]["red"]
    assert state["widgets"]["scenario.tp"]["text"] == "8"


def test_the_wheel_scrolls_the_memory_tab_past_the_gpu_box_without_changing_it(app: RunningApp) -> None:
    """QA: wheeling down the memory tab, the GPU box that passed under the pointer took the focus
    and the rest of the turn (H100 → M3 Ultra, one undo step a notch)."""
    memory = next(tab for tab in app.state()["tabs"] if tab["text"].startswith("Memory"))
    app.click(memory["rect"])
    box = app.wait_for(lambda s: s["tab"] == 1 and s["widgets"]["scenario.gpu"]["visible"], "the memory tab")[
        "widgets"
    ]["scenario.gpu"]["rect"]
    x, y, width, height = box
    app.xdotool("mousemove", str(x + width // 2), str(y + height // 2))
    app.xdotool("click", "--repeat", "3", "--delay", "80", "5")  # button 5: the wheel, one notch down
    state = app.wait_for(
        lambda s: s["widgets"]["scenario.gpu"]["rect"][1] < y, "the tab scrolled under the pointer"
    )
    assert state["scenario"]["gpu"] == "h100-sxm-80gb" and state["undo"] == ""
    assert state["focus"] != "scenario.gpu"


def test_pane_keys_the_help_menu_and_the_gpu_filter(app: RunningApp) -> None:
    """Issue 31 with real keys: F6 from the Name field reaches the layer tree (52 Tab presses
    before), Ctrl+4 the memory tab, where the GPU filter typed into keeps the A100 rows; Alt+H,
    K opens the keyboard shortcuts, which list Ctrl+4 among them."""
    app.click(app.wait_for(lambda s: "name" in s["widgets"], "the Name field")["widgets"]["name"]["rect"])
    app.wait_for(lambda s: s["focus"] == "name", "keyboard focus in Name")
    app.xdotool("key", "F6")
    app.wait_for(lambda s: s["focus"] == "layerTree", "the layer tree focused by F6")
    app.xdotool("key", "ctrl+4")
    state = app.wait_for(
        lambda s: s["tab"] == 1 and s["focus"] == "scenario.mode", "the memory tab by Ctrl+4"
    )
    # The filter sits above the GPU setups, below the scenario's fields: the wheel, over the line
    # that sums up the fit (over a field it would change the field), scrolls down to it.
    x, y, width, height = state["widgets"]["fitSummary"]["rect"]
    app.xdotool("mousemove", str(x + width // 2), str(y + height // 2), "click", "--repeat", "15", "5")

    def in_view(state: dict[str, Any]) -> bool:
        _, top, _, tall = state["widgets"]["gpuFilter"]["rect"]
        _, view_top, _, view_tall = state["widgets"]["memoryScroll"]["rect"]
        return view_top <= top and top + tall <= view_top + view_tall

    app.wait_for(in_view, "the GPU filter scrolled into view")
    app.type_into("gpuFilter", "a100")
    state = app.wait_for(lambda s: s["widgets"]["gpuFilterCount"]["text"] == "14 of 98", "14 A100 rows of 98")
    assert state["widgets"]["gpuFilter"]["text"] == "a100"

    app.xdotool("key", "alt+h")
    state = app.wait_for(lambda s: s["popup"] is not None, "the Help menu")
    assert [action["text"] for action in state["popup"]["actions"]] == [
        "&User Guide",
        "&Keyboard Shortcuts",
        "&About ParamTally",
    ]
    app.xdotool("key", "k")
    app.wait_for(lambda s: (s["modal"] or {}).get("class") == "ShortcutsDialog", "the shortcuts list")
    app.xdotool("type", "--delay", "15", "memory")
    state = app.wait_for(lambda s: s["widgets"]["shortcutsFilter"]["text"] == "memory", "the search typed")
    assert state["widgets"]["shortcutsCount"]["text"].startswith("1 of ")  # Go to Memory Tab, Ctrl+4
    app.xdotool("key", "Escape")
    app.wait_for(lambda s: s["modal"] is None, "the list closed by Escape")


def _export_through_the_menu(app: RunningApp, entry: str, path: Path) -> None:
    """Alt+F, a click on Export, a click on ``entry``; Qt's own save dialog gets the path typed
    and Enter, as a person saving does."""
    app.xdotool("key", "alt+f")
    menu = app.wait_for(lambda s: s["popup"] is not None, "the File menu")["popup"]
    export = next(action for action in menu["actions"] if action["text"].replace("&", "") == "Export")
    app.click(export["rect"])

    def entry_in(state: dict[str, Any]) -> dict[str, Any] | None:
        popup = state["popup"] or {"actions": []}
        return next((a for a in popup["actions"] if a["text"].replace("&", "") == entry), None)

    app.click(
        entry_in(app.wait_for(lambda s: entry_in(s) is not None, f"{entry} in the Export menu"))["rect"]
    )
    app.wait_for(
        lambda s: (s["modal"] or {}).get("class") == "QFileDialog" and s["focus"] == "fileNameEdit",
        "the save dialog",
    )
    app.xdotool("key", "--clearmodifiers", "ctrl+a")
    app.xdotool("type", "--delay", "10", str(path))
    app.xdotool("key", "Return")
    app.wait_for(lambda s: s["modal"] is None and path.is_file(), f"{path.name} written", 20)


def test_chart_svgs_exported_through_the_menu_draw_whole_in_librsvg(app: RunningApp, tmp_path: Path) -> None:
    """Issue 31, bug 1: librsvg drew the pie's title alone (99.5 % of the PNG's drawing lost), the
    bar chart without axes or grid, the memory chart without its dashed capacity line."""
    for chart in ("Pie", "Bar", "Memory"):
        png, svg = tmp_path / f"{chart}.png", tmp_path / f"{chart}.svg"
        _export_through_the_menu(app, f"{chart} chart as PNG/SVG…", png)
        _export_through_the_menu(app, f"{chart} chart as PNG/SVG…", svg)
        image = QImage(str(png))
        assert lost_drawing(image, drawn_in("librsvg", svg, image)) <= MOST_LOST, chart


def test_1e30_typed_into_the_vocabulary_leaves_the_headline_and_turns_the_field_red(app: RunningApp) -> None:
    """Issue 31, bug 2: the field dropped the 'e' and applied 130 (headline 173,989,896,192)."""
    app.type_into("embeddings.vocab_size", "1e30")
    state = app.wait_for(lambda s: s["widgets"]["embeddings.vocab_size"]["red"], "the vocabulary field red")
    field = state["widgets"]["embeddings.vocab_size"]
    assert field["text"] == f"{10**30:,}"
    assert state["widgets"]["embeddings.vocab_size.error"]["text"] == "Must be at most 16,777,216"
    assert state["total"] == 175_221_817_344 and "175,221,817,344" in state["widgets"]["totalParams"]["text"]
    app.type_into("embeddings.vocab_size", "1e-3")  # no whole number: kept as typed, said why
    earlier = "Must be at most 16,777,216"  # the text is shown as typed before Enter judges it
    state = app.wait_for(
        lambda s: (
            s["widgets"]["embeddings.vocab_size"]["text"] == "1e-3"
            and s["widgets"]["embeddings.vocab_size.error"]["text"] != earlier
        ),
        "the text kept as typed and judged",
    )
    assert state["widgets"]["embeddings.vocab_size"]["red"] and state["total"] == 175_221_817_344
    assert state["widgets"]["embeddings.vocab_size.error"]["text"] == "'1e-3' is not a whole number (0.001)"
    app.type_into("embeddings.vocab_size", "50,304")
    state = app.wait_for(lambda s: s["total"] != 175_221_817_344, "the vocabulary applied")
    expected = count_parameters(with_value(load_source("gpt3-175b"), ("embeddings", "vocab_size"), 50_304))
    assert state["total"] == expected.total and not state["widgets"]["embeddings.vocab_size"]["red"]
