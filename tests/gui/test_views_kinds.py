"""The views of hybrid and encoder-decoder models: per-layer bars coloured by mixer and FFN kind,
the parts chart with SSM, cross-attention and MTP, the memory tab's recurrent state and
cross-attention KV cache."""

from __future__ import annotations

from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from paramtally.core.count.breakdown import PART_LABELS
from paramtally.gui.views.breakdown_charts import BreakdownCharts
from paramtally.gui.views.memory_panel import MemoryPanel
from paramtally.gui.views.palette import KIND_COLORS
from tests.gui.views_support import make_document


def _colors(bars: object) -> list[str]:
    return [QColor(brush).name().upper() for brush in bars.opts["brushes"]]  # type: ignore[attr-defined]


def test_per_layer_bars_are_coloured_by_mixer_and_ffn_kind(qtbot: QtBot) -> None:
    doc = make_document("jamba-v0.1")
    charts = BreakdownCharts(doc)
    qtbot.addWidget(charts)
    charts.set_mode("kind")
    bar = charts.bar
    mixers, ffns = _colors(bar.kind_bars["mixer"]), _colors(bar.kind_bars["ffn"])
    assert len(mixers) == 32
    attention, mamba = KIND_COLORS["attention"].upper(), KIND_COLORS["mamba"].upper()
    assert [i for i, color in enumerate(mixers) if color == attention] == [4, 12, 20, 28]
    assert set(mixers) == {attention, mamba}
    moe, dense = KIND_COLORS["moe"].upper(), KIND_COLORS["dense"].upper()
    assert ffns == [dense, moe] * 16
    heights = bar.kind_bars["ffn"].opts["height"]
    rows = doc.report.layers
    assert heights[1] == sum(rows[1].by_part.get(p, 0) for p in ("moe_experts", "router"))
    assert bar.legend_texts() == [
        "Mamba",
        "Attention",
        "Dense FFN",
        "Mixture of experts",
        "Norms, LoRA, adapters",
    ]
    assert bar.getPlotItem().titleLabel.text.startswith("Parameters per layer, mixer and FFN by kind")
    charts.set_mode("part")
    assert not bar.legend.isVisible()


def test_an_encoder_decoder_shows_both_stacks_side_by_side(qtbot: QtBot) -> None:
    doc = make_document("t5-base")
    charts = BreakdownCharts(doc)
    qtbot.addWidget(charts)
    charts.set_mode("kind")
    bar = charts.bar
    cross = bar.kind_bars["cross_attention"].opts["height"]
    assert list(bar.kind_bars["mixer"].opts["x"]) == list(range(24))  # 12 encoder, then 12 decoder layers
    assert [bool(h) for h in cross] == [False] * 12 + [True] * 12
    assert PART_LABELS["cross_attention"] in bar.legend_texts()


def test_the_parts_chart_has_ssm_cross_attention_and_mtp(qtbot: QtBot) -> None:
    for preset, part in (("jamba-v0.1", "ssm"), ("t5-base", "cross_attention"), ("deepseek-v3", "mtp")):
        doc = make_document(preset)
        charts = BreakdownCharts(doc)
        qtbot.addWidget(charts)
        assert part in charts.bar.parts_shown, preset
    assert charts.bar.value_labels["mtp"].text().endswith("apart")
    ticks = charts.bar.getPlotItem().getAxis("left")._tickLevels[0]
    assert (len(charts.bar.parts_shown) - 1, "MTP modules (apart)") in ticks


def test_the_memory_tab_names_the_recurrent_state_and_the_cross_attention_cache(qtbot: QtBot) -> None:
    for preset, name in (("jamba-v0.1", "recurrent state"), ("t5-base", "cross-attention KV cache")):
        doc = make_document(preset)
        panel = MemoryPanel(doc)
        qtbot.addWidget(panel)
        panel.show()
        panel.refresh()
        terms = {term.name: term.value for term in doc.memory.terms if term.part == "kv_cache"}  # type: ignore[union-attr]
        assert terms[name] > 0
        note = panel.cache_note.text()
        assert name in note and note.startswith("Per GPU for the sequences served: ")
    gpt = make_document("gpt3-175b")
    panel = MemoryPanel(gpt)
    qtbot.addWidget(panel)
    assert panel.cache_note.text() == ""  # one plain KV cache: the chart says it
