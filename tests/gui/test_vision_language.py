"""A vision-language model in the window: the headline's two totals, the vision tower in the layer
tree, the tower and projector in the charts and the breakdown table, the tower and the projector
edited in the form and the tree, the images in the memory tab, File → New's VLM template, and a
vision tower alone (Pixtral's encoder)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QAction, QImage, QPainter
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from paramtally.core.count.parameters import count_parameters
from paramtally.core.io.model_sources import load_source
from paramtally.core.memory.estimate import estimate_memory
from paramtally.gui.document import Document
from paramtally.gui.main_window import MainWindow
from paramtally.gui.views.breakdown_charts import BreakdownBar
from tests.gui.conftest import TypeInto
from tests.gui.views_support import click_tab, preset_window

ROOT = Path(__file__).resolve().parents[2]
E, F = 1280, 3420  # Qwen2.5-VL's vision width and MLP width
QWEN_VISION_LAYER = (
    4 * E * E + 4 * E + 3 * E * F + 2 * F + E + 2 * E
)  # biased attention, gated MLP, 2 RMSNorms


def _headline(window: MainWindow) -> str:
    label = window.findChild(QWidget, "totalParams")
    return str(label.text())  # type: ignore[attr-defined]


def _bars(window: MainWindow) -> dict[str, int]:
    bar = window.charts.bar
    return {
        part: int(width) for part, width in zip(bar.parts_shown, bar.part_bars.opts["width"], strict=True)
    }


def _click_row(qtbot: QtBot, window: MainWindow, index: QModelIndex) -> None:
    tree = window.tree
    assert index.isValid()
    tree.scrollTo(index)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(index).center())


def _table_names(window: MainWindow) -> list[str]:
    model = window.table.model()
    root = model.index(0, 0)
    return [model.index(row, 0, root).data() for row in range(model.rowCount(root))]


def test_qwen_vl_shows_its_tower_and_projector_everywhere(qtbot: QtBot) -> None:
    window = preset_window(qtbot, "qwen2.5-vl-7b", (1024, 700))
    report = window.document.report
    text = _headline(window)
    assert "8,292,166,656" in text and "Text only: <b>7,615,616,512</b> (7.62B)" in text
    assert "vision tower 631.98M, projector 44.57M" in text
    tree = window.tree.tree_model
    stack = tree.find(("vision",))
    assert stack.data() == "Vision tower: 32 layers"
    group = tree.find(("vision", "layers", 0))
    assert group.data() == "layers 0–31 (dense)"
    assert tree.row_of(group).params == 32 * QWEN_VISION_LAYER
    assert tree.find(("decoder",)).data() == "Decoder: 28 layers"
    bars = _bars(window)
    assert (
        (bars["vision"], bars["projector"]) == (report.vision, report.projector) == (631_975_680, 44_574_464)
    )
    assert list(window.charts.bar.parts_shown[:2]) == ["vision", "projector"]
    assert _table_names(window)[:3] == ["vision tower", "projector", "embeddings"]


def test_editing_the_tower_in_the_form_changes_the_total_and_its_bar(
    qtbot: QtBot, type_into: TypeInto
) -> None:
    window = preset_window(qtbot, "qwen2.5-vl-7b", (1024, 700))
    document, form = window.document, window.form
    before = document.report
    type_into(form.editor(("vision", "num_layers")), "24")
    after = document.report
    assert after.vision == before.vision - 8 * QWEN_VISION_LAYER
    assert after.language_model == before.language_model  # the text model is untouched
    assert f"{after.total:,}" in _headline(window) and _bars(window)["vision"] == after.vision
    assert window.tree.tree_model.find(("vision",)).data() == "Vision tower: 24 layers"
    type_into(form.editor(("vision", "width")), "1536")  # the tower's blocks follow its width
    assert document.report.vision == count_parameters(document.architecture).vision > after.vision
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert document.report.total == before.total


def test_a_vision_group_picked_in_the_tree_is_edited_at_the_tower_width(
    qtbot: QtBot, type_into: TypeInto
) -> None:
    window = preset_window(qtbot, "qwen2.5-vl-7b", (1024, 700))
    document, form = window.document, window.form
    before = document.report
    _click_row(qtbot, window, window.tree.tree_model.find(("vision", "layers", 0)))
    assert form.group == ("vision", "layers", 0)
    assert next(iter(form.sections)).startswith("Layer group: layers 0–31 (dense)")
    type_into(form.editor(("vision", "layers", 0, "override", "ffn", "width")), "5120")
    after = document.report
    # 32 layers, each 3·e·Δf + 2·Δf more for the gated MLP with biases.
    assert after.vision - before.vision == 32 * (3 * E + 2) * (5120 - F)
    assert after.language_model == before.language_model


def test_the_projector_steps_are_edited_in_the_form(qtbot: QtBot, type_into: TypeInto) -> None:
    window = preset_window(qtbot, "llava-1.5-7b", (1024, 700))
    document, form = window.document, window.form
    h = 4096
    assert "Projector · Step 2" in form.sections
    kind = form.editor(("projector", "steps", 1, "kind"))
    assert kind.currentText() == "Linear"
    kind.setFocus()
    qtbot.keyClick(kind, Qt.Key.Key_Down)  # Linear → Dense FFN (an MLP at the hidden size)
    (_, mlp) = document.architecture.projector.steps  # type: ignore[union-attr]
    assert mlp.kind == "dense" and mlp.width == 4 * h
    assert document.report.projector == (1024 * h + h) + (3 * h * 4 * h + 2 * 4 * h + h)
    type_into(form.editor(("projector", "steps", 1, "width")), "8192")
    assert document.report.projector == (1024 * h + h) + (3 * h * 8192 + 2 * 8192 + h)
    assert f"{document.report.total:,}" in _headline(window)


def test_the_memory_tab_takes_images_and_says_their_tokens(qtbot: QtBot, type_into: TypeInto) -> None:
    window = preset_window(qtbot, "gemma-3-4b", (1024, 700))
    click_tab(qtbot, window, "Memory and GPU fit")
    document = window.document
    images = window.findChild(QWidget, "scenario.images")
    note = window.findChild(QWidget, "imagesNote")
    qtbot.waitUntil(lambda: images.isVisible() and note.isVisible())
    assert "1 image of 896² pixels: 256 tokens in the context" in note.text()  # type: ignore[attr-defined]
    kv_before = document.memory.kv_cache_bytes  # type: ignore[union-attr]
    type_into(images, "8")
    assert document.scenario.images == 8
    memory = estimate_memory(document.architecture, document.scenario)
    assert document.memory.total_bytes == memory.total_bytes  # type: ignore[union-attr]
    assert memory.kv_cache_bytes > kv_before
    qtbot.waitUntil(lambda: "8 images of 896² pixels: 2,048 tokens" in note.text())  # type: ignore[attr-defined]
    # Gemma-3's processor resizes any image to 896²: a 1,024² image gives the same 256 tokens.
    type_into(window.findChild(QWidget, "scenario.image_size"), "1024")
    assert document.scenario.image_size == 1024
    said = "8 images of 1,024² pixels, resized to 896×896: 2,048 tokens"
    qtbot.waitUntil(lambda: said in note.text())  # type: ignore[attr-defined]


def test_images_are_not_offered_for_a_text_model(qtbot: QtBot) -> None:
    window = preset_window(qtbot, "llama-3-8b", (1024, 700))
    click_tab(qtbot, window, "Memory and GPU fit")
    qtbot.waitUntil(lambda: window.findChild(QWidget, "scenario.context").isVisible())
    assert not window.findChild(QWidget, "scenario.images").isVisible()
    assert not window.findChild(QWidget, "imagesNote").isVisible()


def test_file_new_offers_a_vision_language_template(qtbot: QtBot, window: MainWindow) -> None:
    action = window.findChild(QAction, "actionNew:vision-language")
    assert action is not None and action.text() == "Vision-language (LLaVA-style)"
    action.trigger()
    document = window.document
    assert document.architecture.name == "New vision-language model"
    report = document.report
    # LLaVA-1.5-7B's CLIP tower and projector before Llama-2-7B (its 32,000-token vocabulary).
    assert (report.vision, report.projector, report.language_model) == (
        303_507_456,
        20_979_712,
        6_738_415_616,
    )
    assert window.tree.tree_model.find(("vision",)).data() == "Vision tower: 24 layers"
    assert "Text only: <b>6,738,415,616</b>" in _headline(window)


PIXTRAL_ALONE = ROOT / "tests" / "data" / "hf_configs_v3" / "pixtral-12b-vision-encoder.json"


def test_a_vision_tower_alone_opens_as_its_tower(qtbot: QtBot, type_into: TypeInto) -> None:
    """``PixtralVisionModel`` (model_type pixtral): the tower is the whole model, in the headline,
    the tree, the bars and the memory tab (no KV cache, the images' working set)."""
    window = MainWindow(Document(load_source(str(PIXTRAL_ALONE)), PIXTRAL_ALONE.name))
    qtbot.addWidget(window)
    window.resize(1024, 700)
    window.show()
    qtbot.waitExposed(window)
    document = window.document
    text = _headline(window)
    assert "403,489,792" in text and "Text only: <b>0</b>" in text
    tree = window.tree.tree_model
    assert [tree.data(tree.index(i, 0)) for i in range(tree.rowCount())] == ["Vision tower: 24 layers"]
    assert _bars(window) == {"vision": 403_489_792}
    assert _table_names(window) == ["vision tower"]
    type_into(window.form.editor(("vision", "num_layers")), "12")
    assert document.report.total == 403_489_792 - 12 * (4 * 1024**2 + 3 * 1024 * 4096 + 2 * 1024)
    assert tree.data(tree.index(0, 0)) == "Vision tower: 12 layers"
    assert f"{document.report.total:,}" in _headline(window)
    click_tab(qtbot, window, "Memory and GPU fit")
    note = window.findChild(QWidget, "imagesNote")
    qtbot.waitUntil(lambda: note.isVisible())
    assert "encoded by the tower alone (no language model, no KV cache)" in note.text()  # type: ignore[attr-defined]
    memory = document.memory
    assert memory is not None and memory.kv_cache_bytes == 0 and memory.activations_bytes > 0


def test_a_vision_tower_alone_shows_no_vocabulary_and_a_language_model_does(
    qtbot: QtBot, window: MainWindow
) -> None:
    """A tower alone has no embeddings, head or added vocabulary (the schema's ``visible_with``): the
    form leaves their sections and rows out, and File → New brings them back with the language model."""
    tower = MainWindow(Document(load_source(str(PIXTRAL_ALONE)), PIXTRAL_ALONE.name))
    qtbot.addWidget(tower)
    tower.resize(1024, 700)
    tower.show()
    qtbot.waitExposed(tower)
    form = tower.form
    shown = {title for title, section in form.sections.items() if section.isVisible()}
    assert "Embeddings" not in shown and "Head" not in shown and "Vision tower" in shown
    paths = form.paths()
    assert not [path for path in paths if path[0] in ("embeddings", "head") or path == ("added_vocab",)]
    assert ("vision", "width") in paths and ("hidden_size",) in paths
    action = window.findChild(QAction, "actionNew:vision-language")
    assert action is not None
    action.trigger()  # the same form on a whole vision-language model: its vocabulary is back
    form = window.form
    qtbot.waitUntil(lambda: "Embeddings" in form.sections and form.sections["Embeddings"].isVisible())
    assert form.editor(("embeddings", "vocab_size")).text() == "32,000"  # type: ignore[attr-defined]
    assert ("added_vocab",) in form.paths() and "Head" in form.sections


def _layer_heights(bar: BreakdownBar) -> list[float]:
    """Each per-layer column's height: its parts stacked (the top of the highest part drawn)."""
    tops = [bars.opts["y0"] + bars.opts["height"] for bars in bar.layer_bars.values()]
    return [float(max(column)) for column in zip(*tops, strict=True)]


def _bottom_ticks(bar: BreakdownBar) -> list[tuple[float, str]]:
    return list(bar.getPlotItem().getAxis("bottom")._tickLevels[0])


def _drawn_tick_labels(bar: BreakdownBar) -> list[str]:
    """The bottom axis's tick labels as pyqtgraph draws them (it leaves out one crossing the edge)."""
    axis = bar.getPlotItem().getAxis("bottom")
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        _, _, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [text for _, _, text in sorted(texts, key=lambda spec: spec[0].x())]


def test_the_per_layer_bars_show_the_tower_before_the_decoder(qtbot: QtBot, type_into: TypeInto) -> None:
    """Pixtral-12B per layer: its 24 tower layers, then its 40 decoder layers, a dashed line between
    them, each stack numbered from 0 and named under the axis; by kind, the tower's halves too; past
    2,048 layers, a bar per run of each stack."""
    window = preset_window(qtbot, "pixtral-12b", (1024, 700))
    report, bar, box = window.document.report, window.charts.bar, window.charts.mode_box
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)  # the combo's list opens; "P" picks "Per layer…"
    qtbot.keyClick(box.view(), "P")
    qtbot.keyClick(box.view(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: bar.mode == "layer")
    tower = [row.params for row in report.layers if row.stack == "vision"]
    assert len(tower) == 24 and tower[0] == 4 * 1024**2 + 3 * 1024 * 4096 + 2 * 1024  # q k v o, MLP, norms
    heights = _layer_heights(bar)
    assert len(heights) == 64 == len(report.layers)
    assert heights == [float(row.params) for row in report.layers]
    assert heights[:24] == [float(params) for params in tower] and heights[24] == 272_640_000
    lines = [line for line in bar.stack_lines if line.isVisible()]
    assert [line.value() for line in lines] == [23.5]
    plot = bar.getPlotItem()
    assert plot.getAxis("bottom").labelText == "Layer — Vision tower 0–23 | Decoder 0–39"
    ticks = _bottom_ticks(bar)
    assert (24.0, "0") in ticks and (0.0, "0") in ticks  # each stack from its layer 0
    assert all(int(label) == position - (24 if position >= 24 else 0) for position, label in ticks)
    drawn = _drawn_tick_labels(bar)
    assert drawn.count("0") == 2 and drawn[0] == "0", drawn  # the tower's 0 too, at the plot's edge
    qtbot.keyClick(box, Qt.Key.Key_Down)  # "Per layer (mixer and FFN by kind)"
    qtbot.waitUntil(lambda: bar.mode == "kind")
    mixers = bar.kind_bars["mixer"].opts["height"].tolist()
    assert len(mixers) == 64
    assert mixers[:24] == [4 * 1024**2] * 24 and mixers[24] == report.layers[24].by_part["attention"]
    assert bar.legend_texts() == ["Attention", "Dense FFN", "Norms, LoRA, adapters"]
    assert [line.value() for line in bar.stack_lines if line.isVisible()] == [23.5]
    type_into(window.form.editor(("decoder", "num_layers")), "3000")
    qtbot.waitUntil(lambda: len(bar.kind_bars["mixer"].opts["height"]) == 2)  # the tower's run, the decoder's
    assert bar.kind_bars["mixer"].opts["height"].tolist() == [
        4 * 1024**2,
        report.layers[24].by_part["attention"],
    ]
    assert _bottom_ticks(bar) == [(0.0, "0"), (1.0, "0")]
    assert plot.getAxis("bottom").labelText == "Layer — Vision tower 0–23 | Decoder 0–2,999"
    assert [line.value() for line in bar.stack_lines if line.isVisible()] == [0.5]
    qtbot.keyClick(box, Qt.Key.Key_Home)  # by part: no line between stacks
    qtbot.waitUntil(lambda: bar.mode == "part")
    assert not any(line.isVisible() for line in bar.stack_lines)


def test_a_vision_tower_alone_shows_its_layers_per_layer(qtbot: QtBot) -> None:
    window = MainWindow(Document(load_source(str(PIXTRAL_ALONE)), PIXTRAL_ALONE.name))
    qtbot.addWidget(window)
    window.resize(1024, 700)
    window.show()
    qtbot.waitExposed(window)
    bar, box = window.charts.bar, window.charts.mode_box
    box.setFocus()
    qtbot.keyClick(box, "P")
    qtbot.waitUntil(lambda: bar.mode == "layer")
    heights = _layer_heights(bar)
    assert heights == [16_779_264.0] * 24  # an empty chart before: the tower was no stack of rows
    assert not any(line.isVisible() for line in bar.stack_lines)
    assert bar.getPlotItem().getAxis("bottom").labelText == "Layer — Vision tower 0–23"
