"""The vision tower's layers as per-layer rows (``ParamReport.tower_groups``, listed first by
``layer_groups`` and ``layers``): each tower layer against the one transformers 5.24 builds
(tests/golden/vision_layers.json, measured by tools/measure_vision_layers.py), every stack's layers
with the embeddings, the head, the projector and each stack's own terms making up the total, and
the per-layer table and CSV that show them."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from paramtally.core.cli import main as cli
from paramtally.core.count.breakdown import ParamReport
from paramtally.core.count.parameters import count_parameters
from paramtally.core.io.export import group_rows, layer_rows
from paramtally.core.io.importers.hf_config import import_hf_config
from paramtally.core.io.presets import builtin_ids, load_builtin
from tests.core.test_vision_language import VLM_PRESETS

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "tests" / "golden" / "vision_layers.json").read_text(encoding="utf-8"))
TOWER_ALONE = ROOT / "tests" / "data" / "hf_configs_v3" / "pixtral-12b-vision-encoder.json"


def _tower_alone() -> ParamReport:
    config = json.loads(TOWER_ALONE.read_text(encoding="utf-8"))
    return count_parameters(import_hf_config(config, TOWER_ALONE.name))


def _measured_layers(golden: str) -> list[int]:
    """Each tower layer's parameters, the module's layer lists one after the other."""
    return [params for _, layers in GOLDEN[golden]["layer_lists"] for params in layers]


def _tower_layers(report: ParamReport) -> list[int]:
    return [row.params for row in report.layers if row.stack == "vision"]


def _final_norms(report: ParamReport) -> int:
    """The language model's own terms outside its layers and its embedding: its final norm."""
    return sum(node.value for node in report.tree.children if node.name.startswith("final norm"))


def test_every_vision_language_preset_has_its_tower_measured() -> None:
    multimodal = {preset for preset in builtin_ids() if count_parameters(load_builtin(preset)).is_multimodal}
    assert multimodal == set(VLM_PRESETS)


@pytest.mark.parametrize("preset_id", sorted(VLM_PRESETS))
def test_each_tower_layer_is_the_layer_transformers_builds(preset_id: str) -> None:
    report = count_parameters(load_builtin(preset_id))
    assert _tower_layers(report) == _measured_layers(VLM_PRESETS[preset_id])
    # The tower's layers come first: an image meets the tower before the language model.
    stacks = [row.stack for row in report.layers]
    assert stacks == sorted(stacks, key=lambda stack: stack != "vision")
    assert report.layer_stacks[0] == ("vision", len(_tower_layers(report)))


@pytest.mark.parametrize("preset_id", sorted(VLM_PRESETS))
def test_the_layers_of_every_stack_and_what_is_outside_them_make_the_total(preset_id: str) -> None:
    report = count_parameters(load_builtin(preset_id))
    outside_tower = GOLDEN[VLM_PRESETS[preset_id]]["outside"]  # patch embedding, positions, norms
    layers = sum(row.params for row in report.layers)
    assert layers == sum(run.params * run.layers for run in report.layer_groups)
    assert report.total == (
        layers
        + report.embedding_params
        + report.by_part.get("lm_head", 0)
        + report.projector
        + outside_tower
        + _final_norms(report)
    )
    # The language model's runs stay apart: memory, FLOPs and a checkpoint's layers read them.
    assert all(run.stack != "vision" for run in report.groups)
    assert report.layer_groups == report.tower_groups + report.groups


def test_a_tower_alone_shows_its_layers() -> None:
    report = _tower_alone()
    golden = "pixtral-12b-vision-encoder"
    assert report.groups == () and report.layer_stacks == (("vision", 24),)
    assert _tower_layers(report) == _measured_layers(golden)
    assert report.total == sum(_tower_layers(report)) + GOLDEN[golden]["outside"]
    row = report.layers[0]
    assert (row.mixer, row.kind, row.active) == ("attention", "dense", row.params)
    # A layer's parts are its block's own, which the kinds chart splits; the report keeps the tower whole.
    assert set(row.by_part) == {"attention", "ffn", "norms"} and report.by_part == {"vision": report.total}


def test_the_layer_csv_and_table_list_the_tower_first(capsys: pytest.CaptureFixture[str]) -> None:
    report = count_parameters(load_builtin("pixtral-12b"))
    rows = layer_rows(report)
    assert [(row["stack"], row["layer"]) for row in rows[23:25]] == [("vision", 23), ("decoder", 0)]
    assert len(rows) == 24 + 40 and sum(row["params"] for row in rows) == sum(r.params for r in report.layers)
    assert [row["stack"] for row in group_rows(report)] == ["vision", "decoder"]
    assert cli(["count", "pixtral-12b", "--layers", "--format", "csv"]) == 0
    written = list(csv.DictReader(io.StringIO(capsys.readouterr().out.lstrip("\ufeff"))))
    assert [row["stack"] for row in written] == ["vision"] * 24 + ["decoder"] * 40
    assert cli(["count", "pixtral-12b", "--layers"]) == 0
    table = capsys.readouterr().out.splitlines()
    header = next(line for line in table if line.startswith("stack"))
    assert header.split() == ["stack", "layer", "mixer", "ffn", "params", "active"]
    assert any(line.split()[:2] == ["vision", "23"] for line in table)
    assert any(line.split()[:2] == ["decoder", "39"] for line in table)
